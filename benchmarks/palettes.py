"""Distinct palettes and trimming: what they cost and what they give.

Makes every sample picture (``samples/*.jpg|png``) into a puzzle of 40 cells
on the longer side at 3, 4 and 6 colours twice: *before*, as ``rofl make``
did before issue 23 (``min_delta_e=0, trim=False``), and *after*, with the
defaults (every two colours ΔE2000 20 apart, blank margins trimmed).  For
each it prints the least ΔE2000 between two palette colours, the colours
used, the cells refinement changed, the mean ΔE2000 of the final grid
against the picture, the SSIM of its lightness (``MakeStats.ssim``) and the
warm time of the whole ``make`` (best of ``--repeat`` runs), then the total
time of each side.  Times are the process's CPU time, not wall time: on a
machine shared with other work, wall time measures the neighbours too.
The *before* side runs the code of today; its time matches that of the
commit before distinct palettes (``e2d788c``) to within the noise.

Usage::

    python benchmarks/palettes.py [--repeat 2] [--commands] [--write-docs]

``--commands`` also times each make as the whole ``rofl make`` command a
person runs (its CPU time, best of ``--repeat``).

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
        t0 = time.process_time()
        res = rofl.make(path, width=SIDE, colors=colors, **options)
        spent = time.process_time() - t0
        best = spent if best is None else min(best, spent)
    s = res.stats
    return {
        "min_de": closest_pair(res.palette.to_array())[2],
        "colors": s.colors,
        "changed": s.n_changed,
        "size": f"{s.width}x{s.height}",
        "mean_de": s.mean_delta_e,
        "ssim": s.ssim,
        "seconds": best,
        "palette": _palette_seconds(path, colors, options, repeat),
    }


def _palette_seconds(path: Path, colors: int, options: dict, repeat: int) -> float:
    """CPU time of the palette step alone (``picture.quantise`` on the cells ``make`` averages), best of ``repeat``."""
    from rofl import picture

    pixels = picture.load_pixels(path)
    cells = picture.cell_colors(pixels, picture.fit(picture.picture_size(pixels), SIDE, None), (255, 255, 255))
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        picture.quantise(cells, colors=colors, min_delta_e=options.get("min_delta_e", picture.MIN_DELTA_E))
        best = min(best, time.process_time() - t0)
    return best


def _largest(rest: list[tuple[float, str, int, int, int]]) -> str:
    """The puzzles whose time outside the palette step grew most, in words."""
    top = sorted(rest, reverse=True)[:2]
    return ", ".join(
        f"{name} at {k} colours {growth:+.2f} s ({before} → {after} cells changed)"
        for growth, name, k, before, after in top
    )


def _command_seconds(path: Path, colors: int, options: dict, repeat: int) -> float:
    """CPU time (user + system) of the whole ``rofl make`` command a person
    runs -- start-up, imports, loading the kernels, the make, writing the
    file -- best of ``repeat`` runs."""
    import os
    import resource
    import subprocess
    import tempfile

    args = [sys.executable, "-m", "rofl", "make", str(path), "-w", str(SIDE), "-c", str(colors), "-q"]
    if options:
        args += ["--min-delta-e", str(options["min_delta_e"]), "--no-trim"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([*args, "-o", str(Path(tmp) / "p.rofl")], check=True, env=env, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per configuration; the fastest counts")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    parser.add_argument(
        "--commands", action="store_true", help="also time every make as the whole rofl make command (CPU)"
    )
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
    palette = [0.0, 0.0]
    commands = [0.0, 0.0]
    rest = []  # (growth of the time outside the palette step, picture, colours, changed before, after)
    for path in pictures:
        for k in COLOURS:
            b = _run(path, k, BEFORE, args.repeat)
            a = _run(path, k, {}, args.repeat)
            totals[0] += b["seconds"]
            totals[1] += a["seconds"]
            if args.commands:
                commands[0] += _command_seconds(path, k, BEFORE, args.repeat)
                commands[1] += _command_seconds(path, k, {}, args.repeat)
            palette[0] += b["palette"]
            palette[1] += a["palette"]
            growth = (a["seconds"] - a["palette"]) - (b["seconds"] - b["palette"])
            rest.append((growth, path.name, k, b["changed"], a["changed"]))
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
    summary += (
        f" The palette step alone (k-means, and after, the constrained search) took {palette[0]:.2f} s before "
        f"and {palette[1]:.2f} s after; the rest ({sum(r[0] for r in rest):+.2f} s) is refinement, which works "
        f"on other grids: {_largest(rest)}."
    )
    if args.commands:
        summary += (
            f" As whole `rofl make` commands (start-up, imports, loading the kernels, writing the file; CPU, best of "
            f"{args.repeat}): {commands[0]:.2f} s before, {commands[1]:.2f} s after for the {len(rest)} puzzles, "
            f"{100.0 * (commands[1] / commands[0] - 1.0):+.1f}%, "
            f"{1000 * (commands[1] - commands[0]) / len(rest):+.0f} ms per command."
        )
    print(summary)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("palettes", "\n".join([stamp(), "", *rows, "", summary]))


if __name__ == "__main__":
    main()
