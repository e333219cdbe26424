"""Quality and speed of ``rofl.make(..., shape="hex")`` on photos (prints figures; not a test).

Every sample picture (``samples/*.jpg|png``) and scikit-image's bundled
photos become hexagonal puzzles of side 10, 20 and 30, black and white and
4 colours.  Per configuration: success (the puzzle line-solves to exactly
the final cells, and the SAT engine finds it unique with ``--sat``), cells
refinement changed (% of all cells: median and worst), mean ΔE2000 of the
final cells against the area-averaged picture, and warm wall time of the
whole ``make`` (loading, sampling, quantising, refining: best of
``--repeat``), median and worst.

Usage::

    python benchmarks/hex_make.py [--sides 10,20,30] [--colors 2,4] [--repeat 2] [--sat] [--write-docs]

``--write-docs`` writes the table into section ``hex-make`` of
``docs/benchmarks.md``.

Goals (issue 28): 100% success, median changed <= 0.5%, side 20 in under a
second warm.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_photos import _load, picture_names  # noqa: E402 - after the path set-up

# the samples are scikit-image's astronaut, camera, chelsea, coffee and rocket; these are the others that are photos
SKIMAGE_PHOTOS = ("coins", "moon", "page", "immunohistochemistry", "hubble_deep_field", "grass", "text")


def run(name: str, side: int, k: int, repeat: int, sat: bool) -> dict:
    from _timing import best_of

    import rofl

    picture = _load(name)
    result = rofl.make(picture, shape="hex", size=side, colors=k)
    wall = best_of(lambda: rofl.make(picture, shape="hex", size=side, colors=k), repeat) if repeat > 1 else None
    check = rofl.solve(result.puzzle)
    ok = check.status == "solved" and bool((check.grid.ravel() == result.grid).all())
    if sat:
        complete = rofl.solve_complete(result.puzzle, engine="sat", time_budget=60)
        ok = ok and str(complete.status) == "unique" and bool((complete.solutions[0].ravel() == result.grid).all())
    s = result.stats
    return {
        "ok": ok,
        "pct": s.changed_pct,
        "n": s.n_changed,
        "de": s.mean_delta_e,
        "wall": wall if wall is not None else s.seconds,
        "colours": s.colors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default="10,20,30")
    parser.add_argument("--colors", default="2,4")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--sat", action="store_true", help="also check uniqueness with the SAT engine")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()

    import numpy as np

    import rofl

    rofl.make(np.random.default_rng(0).random((40, 40, 3)), shape="hex", size=5, colors=3)  # warm-up
    names = picture_names(SKIMAGE_PHOTOS)
    header = (
        "| side | colours | pictures | success | changed median / worst | mean ΔE2000 (median) | time median / worst |"
    )
    lines = [header, "|---|---|---|---|---|---|---|"]
    all_pct = []
    for side in (int(v) for v in args.sides.split(",")):
        for k in (int(v) for v in args.colors.split(",")):
            rows = []
            for name in names:
                t = time.perf_counter()
                row = run(name, side, k, args.repeat, args.sat)
                rows.append(row)
                if args.verbose:
                    print(f"  {name} side {side} k {k}: {row} ({time.perf_counter() - t:.1f} s)")
            pct = [r["pct"] for r in rows]
            all_pct += pct
            wall = [r["wall"] for r in rows]
            line = (
                f"| {side} | {'black and white' if k == 2 else k} | {len(rows)} "
                f"| {sum(r['ok'] for r in rows)}/{len(rows)} "
                f"| {statistics.median(pct):.2f}% / {max(pct):.2f}% "
                f"| {statistics.median(r['de'] for r in rows):.2f} "
                f"| {statistics.median(wall):.2f} / {max(wall):.2f} s |"
            )
            lines.append(line)
            print(line)
    summary = f"Median changed over every run: {statistics.median(all_pct):.2f}%."
    print(summary)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("hex-make", "\n".join([stamp(), "", *lines, "", summary]))


if __name__ == "__main__":
    main()
