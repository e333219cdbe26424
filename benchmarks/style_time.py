"""How much longer ``rofl make`` takes with styles: ``auto`` (the default) against ``photo``.

``photo`` is rofl's pipeline before styles; ``auto`` draws the picture in
``photo`` and ``lines`` (black and white) or ``poster`` (colour), quantises
and measures both, and refines the better (issue 46's budget: at most 1.5x
the time at 40 cells).  Two figures per picture and colour count, at 40
cells on the longer side:

* warm: ``rofl.make`` in this process, best of ``--repeat`` runs;
* command: ``rofl make PICTURE -o P.rofl -w 40 -c C -q`` as a new process
  (what a user waits for: starting Python, loading the solver, making),
  best of ``--repeat`` runs.

Both in processor time (``time.process_time`` for warm runs, the child's
user + system time for commands), which other jobs on a loaded machine
inflate far less than wall time, the two styles interleaved.

Usage::

    python benchmarks/style_time.py [--repeat 3] [--no-command] [--write-docs]

``--write-docs`` writes section ``style-time`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rofl  # noqa: E402

PICTURES = ("astronaut.jpg", "camera.jpg", "chelsea.jpg", "coffee.jpg", "rocket.jpg")


def command_seconds(picture: Path, style: str, colors: int, out: Path) -> float:
    """Processor seconds (user + system) of one ``rofl make`` command."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "rofl", "make", str(picture), "-o", str(out), "-w", "40", "-c", str(colors)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*args, "--style", style, "-q"], check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def warm_seconds(picture: Path, style: str, colors: int) -> float:
    """Processor seconds of one ``rofl.make`` in this process."""
    start = time.process_time()
    rofl.make(picture, width=40, colors=colors, style=style)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-command", action="store_true", help="only the warm, in-process figures")
    parser.add_argument("--write-docs", action="store_true", help="write section style-time of docs/benchmarks.md")
    args = parser.parse_args()
    warm, command, lines = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "p.rofl"
        for colors in (2, 4):
            for name in PICTURES:
                picture = ROOT / "samples" / name
                rofl.make(picture, width=40, colors=colors)  # compile and warm the caches
                runs = {"photo": [], "auto": []}
                for _ in range(args.repeat):
                    for style in runs:
                        runs[style].append(warm_seconds(picture, style, colors))
                w = {style: min(times) for style, times in runs.items()}
                chosen = rofl.make(picture, width=40, colors=colors).stats.style
                warm.append(w["auto"] / w["photo"])
                line = (f"{name:14s} {colors} colours  warm CPU: photo {w['photo']:.3f} s, auto {w['auto']:.3f} s "
                        f"({chosen}) x{w['auto'] / w['photo']:.2f}")  # fmt: skip
                if not args.no_command:
                    c = {"photo": [], "auto": []}
                    for _ in range(args.repeat):
                        for style in c:
                            c[style].append(command_seconds(picture, style, colors, out))
                    cp, ca = min(c["photo"]), min(c["auto"])
                    command.append(ca / cp)
                    line += f"; command CPU: photo {cp:.2f} s, auto {ca:.2f} s x{ca / cp:.2f}"
                print(line, flush=True)
                lines.append(f"* {line}")
    summary = [f"warm: auto / photo median x{statistics.median(warm):.2f}, worst x{max(warm):.2f}"]
    if command:
        summary.append(f"command: auto / photo median x{statistics.median(command):.2f}, worst x{max(command):.2f}")
    print("\n".join(summary))
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("style-time", "\n".join([stamp(), "", *lines, "", *(f"**{s}**" for s in summary)]))


if __name__ == "__main__":
    main()
