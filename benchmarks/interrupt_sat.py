"""How fast Ctrl-C stops a first-solution solve while Kissat runs, and what
a wall-clock budget alone lets Kissat do (prints figures; not a test).

Usage::

    python benchmarks/interrupt_sat.py [--against CHECKOUT] [--at 2,5,8] [--write-docs]

* Ctrl-C: ``rofl solve --first-only knotty.json --budget 60`` (the webpbn
  survey's Knotty, which the search hands to Kissat within a second or two
  and Kissat does not finish in a minute), SIGINT sent ``--at`` seconds
  after the start; the seconds from the signal until the process has
  exited, and its status.
* A wall-clock budget alone: ``rofl solve --first-only`` of tcga2022 #505
  (a puzzle the search hands over, and Kissat needs one run of about 7 s
  for) at the command's default budget (10 s of wall clock): its last line
  and wall time.

Each in this checkout and, with ``--against``, in another one (e.g. ``git
worktree add /tmp/rofl-old <rev>``), as ``python -m rofl`` with
``PYTHONPATH`` set to it.  ``--write-docs`` writes the figures into
section ``interrupt-sat`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (REPO.parent / "shared", REPO.parents[1] / "shared") if p.is_dir()), REPO.parent / "shared")
KNOTTY = SHARED / "corpus" / "webpbn-survey" / "knotty.json"
TCGA2022 = SHARED / "tournaments" / "tcga2022.txt"


def rofl(checkout: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    return subprocess.Popen(
        [sys.executable, "-m", "rofl", *args],
        cwd=checkout,  # ``-m`` puts the working folder first on the path
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ctrl_c(checkout: Path, at: float) -> tuple[float, int]:
    """Seconds from SIGINT, ``at`` seconds into Knotty's solve, to the process's end; its status."""
    proc = rofl(checkout, "solve", "--first-only", str(KNOTTY), "--budget", "60")
    time.sleep(at)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=300)
    return time.monotonic() - sent, proc.returncode


def wall_budget(checkout: Path, puzzle_file: Path) -> tuple[str, float]:
    """The last line of ``rofl solve --first-only`` at the default budget, and its wall seconds."""
    began = time.monotonic()
    proc = rofl(checkout, "solve", "--first-only", str(puzzle_file))
    out, err = proc.communicate(timeout=300)
    lines = (out + err).strip().splitlines()
    return (lines[-1] if lines else ""), time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, measured the same way")
    parser.add_argument("--at", default="2,5,8", help="seconds after the start to send Ctrl-C (comma-separated)")
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    sides = [("this checkout", REPO)] + ([(str(args.against), args.against.resolve())] if args.against else [])
    report: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        report.append(f"* {line}")

    with tempfile.TemporaryDirectory() as tmp:
        blocks = TCGA2022.read_text().split("$")
        block = next(b for b in blocks if b.startswith("505\n"))
        puzzle_file = Path(tmp) / "tcga2022-505.taai"
        puzzle_file.write_text("$" + block)
        for name, checkout in sides:
            for at in (float(x) for x in args.at.split(",")):
                seconds, status = ctrl_c(checkout, at)
                say(f"{name}: Ctrl-C {at:.0f} s into Knotty's first solution: exit {status} after {seconds:.2f} s")
            last, seconds = wall_budget(checkout, puzzle_file)
            say(f'{name}: tcga2022 #505 at the default budget, {seconds:.1f} s of wall clock: "{last}"')
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("interrupt-sat", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
