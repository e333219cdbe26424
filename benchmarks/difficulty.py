"""The difficulty grader (issue 42): the corpus by source, agreement with
people's ratings, the grader's speed, and ``rofl make --difficulty``.

Prints three tables:

* **corpus**: the grade of the 478 puzzles of ``../shared/corpus`` by
  source (how many of each grade, the median score and steps), and the
  Spearman rank correlation of the score with the difficulty people gave
  where a source records one: KDE Picmi's levels carry a ``difficulty``
  of 1-7 (in each puzzle's notes), Nonny's packs are ordered "just starting
  out", "quick and easy", "not so tough" (its ``symbols`` pack is a theme,
  not a level, and is left out);
* **speed**: :func:`rofl.grade`'s time (CPU time, best of 5, warm) on every puzzle
  of 45x45 cells and more that line logic solves, and on the 50x50 puzzles
  made below;
* **steering**: over ``PHOTOS`` at 30 and 50 cells (``mode="crop"``,
  black and white), ``rofl.make(difficulty="easy")`` against
  ``difficulty="hard"``: the share of photos where easy grades lower than
  hard (by grade, and by score), the cells easy changed (at most 2%), and
  whether every puzzle is unique and solved by line logic.

Usage::

    python benchmarks/difficulty.py [--corpus ../shared/corpus] [--sizes 30,50] [--write-docs]

``--write-docs`` writes the tables into sections ``difficulty-corpus`` and
``difficulty-make`` of ``docs/benchmarks.md`` (with ``--skip-corpus`` or
``--skip-make``, only the other one).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

#: scikit-image's bundled photos (``cat`` is ``chelsea`` again: left out)
SKIMAGE = (
    "astronaut", "camera", "chelsea", "coffee", "rocket", "hubble_deep_field", "coins", "moon", "page",
    "text", "clock", "horse", "immunohistochemistry", "logo", "grass", "gravel", "brick", "retina",
)  # fmt: skip
#: crops of them (name, top, bottom, left, right as shares of the picture)
CROPS = (
    ("astronaut", 0.0, 0.5, 0.3, 0.8),
    ("coffee", 0.1, 0.9, 0.1, 0.7),
    ("camera", 0.0, 0.6, 0.2, 0.8),
    ("rocket", 0.0, 1.0, 0.3, 0.7),
)


def photos() -> list[tuple[str, object]]:
    """(name, RGB or grey array) of every photo: ``SKIMAGE``, then ``CROPS``."""
    import skimage.data

    found = [(name, getattr(skimage.data, name)()) for name in SKIMAGE]
    for name, top, bottom, left, right in CROPS:
        image = getattr(skimage.data, name)()
        h, w = image.shape[:2]
        found.append((f"{name} crop", image[int(top * h) : int(bottom * h), int(left * w) : int(right * w)]))
    return found


def _best_ms(puzzle, repeat: int = 5) -> float:
    import rofl

    times = []
    for _ in range(repeat):
        start = time.process_time()
        rofl.grade(puzzle)
        times.append(time.process_time() - start)
    return 1000 * min(times)


def _people(source: str, record: dict) -> int | None:
    """The difficulty people gave a corpus puzzle, where its source records one."""
    if source == "kde-picmi":
        found = re.search(r"picmi difficulty (\d+)", record.get("notes") or "")
        return int(found.group(1)) if found else None
    if source == "nonny":
        found = re.match(r"(0[0-2])_", record["id"])
        return int(found.group(1)) if found else None
    return None


def _unlike(grid, plain) -> str:
    """The share of cells of a made puzzle that differ from auto's (``rofl.make`` without ``--difficulty``),
    "-" when trimming left them of different sizes (another drawing)."""
    if grid.shape != plain.shape:
        return "-"
    return f"{100 * (grid != plain).mean():.1f}%"


def corpus(folder: Path) -> tuple[list[str], list[float]]:
    """The corpus tables (markdown lines) and the grader's times on its large puzzles."""
    from scipy.stats import spearmanr

    import rofl
    from rofl.formats import open_puzzle
    from rofl.solver.grade import Technique

    grades: dict[str, Counter] = defaultdict(Counter)
    scores: dict[str, list[float]] = defaultdict(list)
    steps: dict[str, list[int]] = defaultdict(list)
    people: dict[str, list[tuple[int, float]]] = defaultdict(list)
    large_ms = []
    probed_ms = []
    for path in sorted(folder.glob("*/*.json")):
        source = path.parent.name
        record = json.loads(path.read_text(encoding="utf-8"))
        puzzle = open_puzzle(path).puzzle
        difficulty = rofl.grade(puzzle)
        grades[source][difficulty.grade] += 1
        if difficulty.grade < 5:
            scores[source].append(difficulty.score)
            steps[source].append(difficulty.steps)
        rated = _people(source, record)
        if rated is not None:
            people[source].append((rated, difficulty.score if difficulty.grade < 5 else float("inf")))
        if puzzle.width * puzzle.height >= 45 * 45 and difficulty.hardest < Technique.PROBING:
            large_ms.append(_best_ms(puzzle))
        elif 45 * 45 <= puzzle.width * puzzle.height <= 50 * 50 and difficulty.hardest == Technique.PROBING:
            probed_ms.append(_best_ms(puzzle))
    lines = [
        "| source | puzzles | 1 easy | 2 medium | 3 hard | 4 expert | 5 needs guessing | median score | median steps |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total: Counter = Counter()
    for source in sorted(grades):
        counts = grades[source]
        total.update(counts)
        score = f"{statistics.median(scores[source]):.1f}" if scores[source] else "-"
        step = f"{statistics.median(steps[source]):.0f}" if steps[source] else "-"
        lines.append(
            f"| {source} | {sum(counts.values())} | "
            + " | ".join(str(counts[g]) for g in range(1, 6))
            + f" | {score} | {step} |"
        )
    all_scores = [s for v in scores.values() for s in v]
    all_steps = [s for v in steps.values() for s in v]
    lines.append(
        f"| **all** | {sum(total.values())} | "
        + " | ".join(str(total[g]) for g in range(1, 6))
        + f" | {statistics.median(all_scores):.1f} | {statistics.median(all_steps):.0f} |"
    )
    lines += ["", "| source | what people recorded | puzzles | Spearman ρ (score) | p |", "|---|---|---:|---:|---:|"]
    what = {"kde-picmi": "Picmi level difficulty 1-7", "nonny": "Nonny pack 0-2 (starting out, quick, not so tough)"}
    for source, pairs in sorted(people.items()):
        rho = spearmanr([p for p, _ in pairs], [s for _, s in pairs])
        lines.append(f"| {source} | {what[source]} | {len(pairs)} | {rho.statistic:.2f} | {rho.pvalue:.1g} |")
    return lines, large_ms, probed_ms


def steering(sizes: list[int], only: set[str] | None = None) -> tuple[list[str], list[float]]:
    """The steering table (markdown lines) and the grader's times on the 50x50 puzzles made."""
    import rofl
    from rofl.refine.difficulty import STYLE_MARGIN, Budget, likeness

    rows = []
    made_ms = []
    for name, image in photos():
        if only and name not in only:
            continue
        for n in sizes:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                plain = rofl.make(image, width=n, height=n, mode="crop")
            auto = likeness(plain)
            out = {}
            for target in ("easy", "hard"):
                start = time.process_time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = rofl.make(image, width=n, height=n, mode="crop", difficulty=target)
                seconds = time.process_time() - start
                solved = rofl.solve(result.puzzle)
                good = solved.status == "solved" and (solved.grid == result.grid).all()
                difficulty = result.stats.difficulty
                out[target] = (
                    difficulty,
                    result.stats.changed_pct,
                    good,
                    seconds,
                    result.stats.steered,
                    result.stats.style,
                    result.stats.difficulty_note or "",
                    result.stats.threshold,
                    likeness(result),
                    _unlike(result.grid, plain.grid),
                    result.stats.cleanup,
                    result.stats.smoothed,
                )
                if n == 50 and result.puzzle.width * result.puzzle.height >= 45 * 45:
                    made_ms.append(_best_ms(result.puzzle))
            easy, hard = out["easy"], out["hard"]
            rows.append((name, n, easy, hard, auto))
            print(
                f"{name:22s} {n:3d}  easy {easy[0].grade} ({easy[0].score:6.1f}, {easy[1]:.2f}%, {easy[5]}, "
                f"{easy[3]:.1f} s)  hard {hard[0].grade} ({hard[0].score:6.1f}, {hard[1]:.2f}%, {hard[5]}, "
                f"{hard[3]:.1f} s)"
            )
    lines = [
        "| photo | cells | easy: grade (score) | easy: changed | easy: drawing | hard: grade (score) | hard: changed "
        "| hard: drawing | likeness: auto / easy / hard | cells unlike auto's: easy / hard | faithful |",
        "|---|---:|---|---:|---|---|---:|---|---|---|---|",
    ]

    def faithful(easy: tuple, hard: tuple, auto: float) -> bool:
        return easy[8] >= auto - STYLE_MARGIN - 1e-9 and hard[8] >= auto - STYLE_MARGIN - 1e-9

    def drawn(made: tuple) -> str:
        cut = f" {made[7]:.0f}" if made[5] == "photo" and made[7] is not None else ""
        return made[5] + cut + (" cleaned" if made[10] else "") + (" smoothed" if made[11] else "")

    for name, n, easy, hard, auto in rows:
        lines.append(
            f"| {name} | {n} | {easy[0].grade} {easy[0].name} ({easy[0].score:.1f}) | {easy[1]:.2f}% | {drawn(easy)} "
            f"| {hard[0].grade} {hard[0].name} ({hard[0].score:.1f}) | {hard[1]:.2f}% | {drawn(hard)} "
            f"| {auto:.2f} / {easy[8]:.2f} / {hard[8]:.2f} | {easy[9]} / {hard[9]} "
            f"| {'yes' if faithful(easy, hard, auto) else '**no**'} |"
        )
    count = len(rows)
    by_grade = sum(e[0].grade < h[0].grade for _, _, e, h, _ in rows)
    by_score = sum(e[0].score < h[0].score for _, _, e, h, _ in rows)
    by_either = sum((e[0].grade, e[0].score) < (h[0].grade, h[0].score) for _, _, e, h, _ in rows)
    kept = [faithful(e, h, a) for _, _, e, h, a in rows]
    by_grade_faithful = sum(e[0].grade < h[0].grade and ok for (_, _, e, h, _), ok in zip(rows, kept, strict=True))
    unfaithful = [f"`{name}` at {n}" for (name, n, *_), ok in zip(rows, kept, strict=True) if not ok]
    faithful_count = sum(kept)
    unique = sum(e[2] and h[2] for _, _, e, h, _ in rows)
    within = sum(e[1] <= 2.0 + 1e-9 for _, _, e, _, _ in rows)
    over_steered = sum(e[1] > 2.0 + 1e-9 and e[4] > 0 for _, _, e, _, _ in rows)
    below_margin = sum("limit kept only by drawing" in e[6] for _, _, e, _, _ in rows)
    seconds = [x[3] for _, _, e, h, _ in rows for x in (e, h)]
    slowest = {
        n: max(
            (x[3], name, target)
            for name, size, e, h, _ in rows
            if size == n
            for target, x in (("easy", e), ("hard", h))
        )
        for n in sorted({n for _, n, *_ in rows})
    }
    budget = sum(Budget().note() in x[6] for _, _, e, h, _ in rows for x in (e, h))
    lines += [
        "",
        f"* easy grades lower than hard: {by_grade} of {count} ({100 * by_grade / count:.0f}%) by grade, "
        f"{by_score} of {count} ({100 * by_score / count:.0f}%) by score, {by_either} of {count} "
        f"({100 * by_either / count:.0f}%) by grade or, at equal grade, score",
        f"* easy grades lower than hard with both drawings' likeness (SSIM + edge F1) at most {STYLE_MARGIN} below "
        f"auto's (`rofl.make` without `--difficulty`): {by_grade_faithful} of {count} "
        f"({100 * by_grade_faithful / count:.0f}%); {faithful_count} of {count} pairs faithful, those with a drawing "
        "further: " + (", ".join(unfaithful) or "none"),
        f"* easy changed at most 2% of the cells in all for {within} of {count}"
        + (
            f" (the others: refinement alone changes more in every drawing tried, and steering added "
            f"{'nothing' if not over_steered else over_steered})"
            if within < count
            else ""
        )
        + f"; {below_margin} kept within 2% only by a drawing further than the likeness margin from auto's "
        "(their note says so)",
        f"* unique and solved by line logic: {unique} of {count} pairs",
        f"* make with --difficulty (CPU time): median {statistics.median(seconds):.1f} s, "
        + ", ".join(f"max at {n} cells {t:.1f} s (`{name}` {target})" for n, (t, name, target) in slowest.items())
        + f"; the effort budget stopped the search in {budget} of {2 * count} makes (their note says so)",
    ]
    return lines, made_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sizes", default="30,50")
    parser.add_argument("--skip-make", action="store_true", help="Only the corpus and the grader's speed.")
    parser.add_argument("--skip-corpus", action="store_true", help="Only the steering table.")
    parser.add_argument("--photos", help="Only these photos (comma-separated names), for a quick look.")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    import numpy as np

    import rofl

    rofl.grade(rofl.Puzzle.from_grid(np.eye(3, dtype=np.uint8), rofl.Palette.black_white()))  # compile first
    if not args.skip_make:  # and make's kernels (without the extension built at install, they compile)
        rng = np.random.default_rng(0)
        rofl.make((rng.random((40, 40)) * 255).astype(np.uint8), width=12, height=12, difficulty="easy")
    corpus_lines, large_ms, probed_ms = ([], [], []) if args.skip_corpus else corpus(args.corpus)
    print("\n".join(corpus_lines))
    only = set(args.photos.split(",")) if args.photos else None
    make_lines, made_ms = ([], []) if args.skip_make else steering([int(s) for s in args.sizes.split(",")], only)
    speed = []
    for what, times in (
        ("corpus puzzles of 45x45 and more that line logic solves", large_ms),
        ("corpus puzzles of 45x45 to 50x50 that need probing", probed_ms),
        ("50x50 made", made_ms),
    ):
        if times:
            speed.append(
                f"* grader, {what}: {len(times)} puzzles, median {statistics.median(times):.2f} ms, "
                f"max {max(times):.2f} ms (CPU time, best of 5, warm)"
            )
    print("\n".join(speed))
    print("\n".join(make_lines))
    if args.write_docs and (args.photos or args.sizes != "30,50"):
        parser.error("--write-docs writes whole tables: not with --photos or --sizes")
    if args.write_docs:
        from _docs import stamp, write_section

        if corpus_lines:
            write_section("difficulty-corpus", "\n".join([stamp(), "", *corpus_lines, "", *speed]))
        if make_lines:
            write_section("difficulty-make", "\n".join([stamp(), "", *make_lines]))


if __name__ == "__main__":
    main()
