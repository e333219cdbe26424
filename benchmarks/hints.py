"""rofl make's likeness hint (issue 46): on which photos does it fire, and why?

For every photo of ``benchmarks/_photos.py`` at each size (``--sizes``,
cells on the longer side) in each colour count (``--colors``), makes the
puzzle with ``rofl.make`` as ``rofl make`` does (``style="auto"``) and
prints the figures the hint judges it by (``rofl.hints``): SSIM + edge F1
(the score), the colour likeness (3 colours and more; ``-`` for a grey
photo), the face likeness (fewer than 4 colours; ``-`` without a face),
which rule fires (``score``, ``colour``, ``face`` or nothing) and the CPU
time the hint took (its tries included).  Then how many puzzles each rule
fires on, by colour count, and the CPU time of the hint where none fired
(what every ``rofl make`` pays for it).

Hexagons (``--sides``, 3 and 4 colours only) print the colour likeness:
faces are judged on rectangles only.

Usage::

    python benchmarks/hints.py [--photos a,b] [--sizes 30,40,50] [--colors 2,4] [--sides 12,16,20]
                               [--write-docs]

``--write-docs`` writes the counts, the puzzles the colour and face rules
fire on, the least colour likeness of each photo as hexagons and the
hint's time into section ``likeness-hints`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _photos import PHOTOS  # noqa: E402

import rofl  # noqa: E402
from rofl.hints import _colour_measure, _face_measure, likeness_hint  # noqa: E402
from rofl.maker import MakeOptions, style_score  # noqa: E402


def fired(text: str | None) -> str:
    if text is None:
        return "-"
    return "face" if "face may be lost" in text else "colour" if "colours follow" in text else "score"


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", help="comma-separated names (default: all)")
    parser.add_argument("--sizes", default="30,40,50")
    parser.add_argument("--colors", default="2,4")
    parser.add_argument("--sides", default="", help="hexagon sides, e.g. 12,16,20 (default: none)")
    parser.add_argument("--write-docs", action="store_true", help="write the summary into docs/benchmarks.md")
    args = parser.parse_args()
    photos = [p for p in PHOTOS if args.photos is None or p.name in args.photos.split(",")]
    sizes, colours = [int(v) for v in args.sizes.split(",")], [int(v) for v in args.colors.split(",")]
    counts: Counter = Counter()
    caught: list[str] = []  # table rows of the puzzles the colour and face rules fire on
    hexes: dict[str, list[float]] = {}
    quiet: dict[int, list[float]] = {c: [] for c in colours}
    head = f"{'photo':12s} {'cells':>5s} {'c':>2s} {'style':6s} {'score':>5s} {'colour':>6s} {'face':>5s}"
    print(f"{head} {'hint':6s} cpu s")
    for photo in photos:
        pixels = photo.load()
        for size in sizes:
            for n in colours:
                options = MakeOptions(width=size, colors=n)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = rofl.make(pixels, options)
                    start = time.process_time()
                    text = likeness_hint(result, options, more_colours=True)
                    seconds = time.process_time() - start
                stats = result.stats
                rule = fired(text)
                counts[n, rule] += 1
                if rule == "-":
                    quiet[n].append(seconds)
                score = style_score(stats.ssim, stats.edge_f1)
                col = _colour_measure(result) if n >= 3 else None
                face = _face_measure(result) if n < 4 else None
                if rule in ("colour", "face"):
                    caught.append(
                        f"| {photo.name} | {size} | {n} | {stats.style} | {score:.2f} | {figure(col)} | "
                        f"{figure(face)} | {rule} |"
                    )
                print(
                    f"{photo.name:12s} {size:5d} {n:2d} {stats.style:6s} {score:5.2f} {figure(col):>6s} "
                    f"{figure(face):>5s} {rule:6s} {seconds:.2f}",
                    flush=True,
                )
    for side in [int(v) for v in args.sides.split(",") if v]:
        for photo in photos:
            for n in (3, 4):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = rofl.make(photo.load(), shape="hex", size=side, colors=n, effort=0)
                col = _colour_measure(result)
                if col is not None:
                    hexes.setdefault(photo.name, []).append(col)
                print(f"{photo.name:12s} hex {side:2d} {n:2d} colour likeness {figure(col)}")
    print()
    summary = []
    for n in colours:
        total = sum(v for (c, _), v in counts.items() if c == n)
        rules = ", ".join(f"{rule} {counts[n, rule]}" for rule in ("score", "colour", "face", "-"))
        line = f"{n} colours: {total} puzzles; hint by {rules} (- = none)"
        if quiet[n]:
            line += (
                f"; the hint's CPU where none fired: median {statistics.median(quiet[n]):.3f} s, "
                f"max {max(quiet[n]):.3f} s"
            )
        summary.append(line)
        print(line)
    if args.write_docs:
        from _docs import stamp, write_section

        head = ["| photo | cells | colours | style | SSIM + edge F1 | colour likeness | face likeness | hint |"]
        head.append("|---|---:|---:|---|---:|---:|---:|---|")
        least = [f"{name} {min(v):.2f}" for name, v in sorted(hexes.items(), key=lambda kv: min(kv[1]))]
        lines = [stamp(), "", *[f"* {line}" for line in summary], "", *head, *caught]
        if least:
            lines += ["", f"Least colour likeness as hexagons of side {args.sides}: {', '.join(least)}."]
        write_section("likeness-hints", "\n".join(lines))


if __name__ == "__main__":
    main()
