"""Distinct palettes and trimming: what they cost and what they give.

Makes every sample picture (``samples/*.jpg|png``) into a puzzle of 40 cells
on the longer side at 3, 4 and 6 colours twice: *before*, as ``rofl make``
did before issue 23 (``min_delta_e=0, trim=False``), and *after*, with the
defaults (every two colours ΔE2000 20 apart, blank margins trimmed).  For
each it prints the least ΔE2000 between two palette colours, the colours
used, the cells refinement changed, the mean ΔE2000 of the final grid
against the picture, the SSIM of its lightness (``MakeStats.ssim``) and the
warm wall time of the whole ``make`` (best of ``--repeat`` runs), then the
total time of each side.

Usage::

    python benchmarks/palettes.py [--repeat 2] [--write-docs]

``--write-docs`` also writes the table into section ``palettes`` of
``docs/benchmarks.md``.

Target (issue 23): the total time grows by no more than 20%.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

COLOURS = (3, 4, 6)
SIDE = 40
BEFORE = {"min_delta_e": 0, "trim": False}


def _run(path: Path, colors: int, options: dict, repeat: int) -> dict:
    import rofl
    from rofl.picture import closest_pair

    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = rofl.make(path, width=SIDE, colors=colors, **options)
        wall = time.perf_counter() - t0
        best = wall if best is None else min(best, wall)
    s = res.stats
    return {
        "min_de": closest_pair(res.palette.to_array())[2],
        "colors": s.colors,
        "changed": s.n_changed,
        "size": f"{s.width}x{s.height}",
        "mean_de": s.mean_delta_e,
        "ssim": s.ssim,
        "seconds": best,
        "refine": s.refine_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per configuration; the fastest counts")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()

    import numpy as np

    import rofl

    rng = np.random.default_rng(0)
    for k in (2, 4):  # compile (or load) the kernels: timings are warm
        rofl.make(rng.random((24, 24, 3)), colors=k)

    pictures = sorted(p for p in (ROOT / "samples").iterdir() if p.suffix in (".jpg", ".png"))
    rows = [
        "| picture | colours | least ΔE2000 before → after | colours used | size | cells changed "
        "| mean ΔE2000 | SSIM | time (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    totals = [0.0, 0.0]
    refining = [0.0, 0.0]
    for path in pictures:
        for k in COLOURS:
            b = _run(path, k, BEFORE, args.repeat)
            a = _run(path, k, {}, args.repeat)
            totals[0] += b["seconds"]
            totals[1] += a["seconds"]
            refining[0] += b["refine"]
            refining[1] += a["refine"]
            row = (
                f"| {path.name} | {k} | {b['min_de']:.1f} → {a['min_de']:.1f} | {b['colors']} → {a['colors']} "
                f"| {b['size']} → {a['size']} | {b['changed']} → {a['changed']} "
                f"| {b['mean_de']:.2f} → {a['mean_de']:.2f} | {b['ssim']:.2f} → {a['ssim']:.2f} "
                f"| {b['seconds']:.2f} → {a['seconds']:.2f} |"
            )
            rows.append(row)
            print(row)
    growth = 100.0 * (totals[1] / totals[0] - 1.0)
    verdict = "within" if growth <= 20 else "over"
    summary = (
        f"Total time {totals[0]:.2f} s before, {totals[1]:.2f} s after: {growth:+.0f}% "
        f"({verdict} the 20% the issue allows)."
    )
    rest = [t - r for t, r in zip(totals, refining, strict=True)]
    summary += (
        f" Of that, refinement took {refining[0]:.2f} s before and {refining[1]:.2f} s after (it works on other "
        f"grids); the rest (loading, scaling, the palette, trimming, the figures) {rest[0]:.2f} s and {rest[1]:.2f} s "
        f"({100.0 * (rest[1] / rest[0] - 1.0):+.0f}%)."
    )
    print(summary)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("palettes", "\n".join([stamp(), "", *rows, "", summary]))


if __name__ == "__main__":
    main()
