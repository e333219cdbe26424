"""``rofl make --effort 0`` at 200x200, two checkouts side by side (issue 45's
"uniform noise at 200x200 with ``--effort 0`` within 10 s"; prints figures,
not a test).

Each case runs in a fresh process of each checkout in turn (interleaved,
``--rounds`` times), and its processor time is the whole process's (user +
system, from ``os.wait4``): start-up, drawing, refinement, hints, writing.
Cases:

* ``noise``: ``rofl make noise.png -w 200 -c 2 --effort 0 -o x.rofl``, the
  default ``--style auto``, on uniform noise a user would make: a PNG of
  ``np.random.default_rng(0).integers(0, 256, (200, 200, 3))`` (the goal's
  picture); ``noise1``, ``noise2``...: the same with another seed;
  ``noise-grey``, ``noise1-grey``...: 8-bit grey noise; ``noise-grey-170``...:
  grey noise of 170x170 pixels made with ``-w 170`` (another size);
* ``noise-float``: ``benchmarks/make_large.py``'s ``noise-2`` picture,
  ``np.random.default_rng(0).random((200, 200, 3))`` handed to
  :func:`rofl.make` as floats (``width=200, colors=2, effort=0``);
* ``camera``, ``astronaut``: the samples, ``-w 200 --effort 0`` in black
  and white (whether the photos get worse).

Printed per run: CPU seconds, the style auto kept, cells changed, SSIM and
edge F1 (the make's report; the command prints two decimals), the start
of the likeness hint, and whether line logic solves the puzzle written (to
exactly its grid, where the library returns it).

Usage::

    python benchmarks/effort0_large.py --base /path/to/main [--rounds 2] [--cases noise,camera] [--write-docs]

``--write-docs`` writes the table (``base`` is the checkout given, ``this``
the one the script is in) into section ``effort0-large`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the checkout's own rofl: one make, then (not timed) the check; figures as JSON on the last line.
_ONE = r"""
import json, os, sys, warnings
import numpy as np
case, picture, out = sys.argv[1:4]
if case == "noise-float":
    import rofl
    warnings.simplefilter("ignore")
    res = rofl.make(np.random.default_rng(0).random((200, 200, 3)), width=200, colors=2, effort=0)
    stats = {"style": res.stats.style, "changed": int(res.stats.n_changed), "ssim": round(res.stats.ssim, 3),
             "f1": round(res.stats.edge_f1, 3)}
    puzzle, grid = res.puzzle, res.grid
else:
    from rofl.cli import main
    width = case.rsplit("-", 1)[1] if "-grey-" in case else "200"
    args = ["make", picture, "-w", width, "--effort", "0", "-o", out]
    args += ["-c", "2"] if case.startswith("noise") else []
    try:
        main(args, standalone_mode=False)
    except SystemExit:
        pass
    stats = None
times = os.times()
cpu = times.user + times.system
from rofl.solver import solve
if stats is None:
    from rofl.formats import read_puzzle
    puzzle, grid = read_puzzle(out)
check = solve(puzzle)
ok = check.status == "solved" and (grid is None or bool((np.asarray(check.grid) == np.asarray(grid)).all()))
print(json.dumps({"cpu": round(cpu, 2), "ok": ok, "stats": stats}))
"""

_FIGURES = {
    "style": re.compile(r"^style: (\w+)", re.M),
    "changed": re.compile(r"^changed: (\d+) cells", re.M),
    "ssim": re.compile(r"^likeness: SSIM ([\d.]+)", re.M),
    "f1": re.compile(r"edge F1 ([\d.]+);", re.M),
}


def _picture(case: str, folder: Path) -> str:
    if case.startswith("noise") and case != "noise-float":
        import numpy as np
        from PIL import Image

        path = folder / f"{case}.png"
        if not path.exists():
            name, _, size = case.partition("-grey")
            side = int(size[1:] or 200)
            seed = int(name[5:] or 0)
            shape = (side, side) if "-grey" in case else (side, side, 3)
            Image.fromarray(np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)).save(path)
        return str(path)
    return str(ROOT / "samples" / f"{case}.jpg") if case in ("camera", "astronaut") else ""


def run(checkout: Path, case: str, folder: Path) -> dict:
    """One case in a fresh process of ``checkout``: its CPU seconds and figures."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "COLUMNS": "400"}
    cmd = [sys.executable, "-c", _ONE, case, _picture(case, folder), str(folder / "x.rofl")]
    done = subprocess.run(cmd, env=env, cwd=folder, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    stats = figures.pop("stats")
    if stats is None:  # the command's report (two decimals)
        text = done.stdout + done.stderr
        stats = {k: (m.group(1) if (m := rx.search(text)) else None) for k, rx in _FIGURES.items()}
        hints = [line for line in text.splitlines() if line.startswith("hint: the puzzle")]
        stats["hint"] = hints[0][:160] if hints else None
    return {**figures, **stats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the checkout to compare with (e.g. main)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cases", default="noise,noise-float,camera,astronaut")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    runs: dict[tuple[str, str], list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for r in range(args.rounds):
            for case in args.cases.split(","):
                for name, checkout in (("base", args.base), ("this", ROOT)):
                    figures = run(checkout, case, folder)
                    runs.setdefault((case, name), []).append(figures)
                    print(json.dumps({"round": r, "case": case, "checkout": name, **figures}))
    table = [
        "| case | checkout | CPU s (each round) | style | changed | SSIM | edge F1 | line-solvable |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (case, name), done in runs.items():
        last = done[-1]
        cpu = ", ".join(f"{d['cpu']:.2f}" for d in done)
        ok = "yes" if all(d["ok"] for d in done) else "**no**"
        table.append(
            f"| {case} | {name} | {cpu} | {last['style']} | {last['changed']} | {last['ssim']} | {last['f1']} | {ok} |"
        )
    print("\n".join(table))
    if args.write_docs:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _docs import stamp, write_section

        write_section("effort0-large", "\n".join([stamp(), "", *table]))


if __name__ == "__main__":
    main()
