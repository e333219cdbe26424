"""How much the LineSolver cache saves the generator (prints figures; not a test).

Usage::

    python benchmarks/incremental.py [CORPUS_DIR] [--steps N] [--write-docs]

The generator changes one or two cells of a picture, derives the new clues
and re-solves, thousands of times.  This replays that on line-solvable
pictures (the corpus puzzles line logic finishes, and seeded random
pictures), in two patterns:

* ``walk``: every change stays, so the picture drifts;
* ``probe``: every change is tried on the same base picture and dropped
  (the refinement loop tries many candidate changes of one picture).

Each sequence of puzzles is solved by a :class:`rofl.LineSolver` that
keeps its cache across the sequence, by the same kind of solver replaying
the recorded solve of the picture each variant came from
(:meth:`rofl.refine.judge.Judge.replay`, what refinement does), and by one without
a cache; all give the same results (``tests/solver/test_line_solver_cache.py``).
Printed: cache hit rate, lines examined per re-solve, CPU time per
re-solve, the speed-ups, and the time ``Puzzle.from_grid`` takes to derive
each variant's clues (not part of the solve times).  ``--write-docs`` also
writes the table into section ``incremental`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import rofl  # noqa: E402
from rofl.formats import read_puzzle  # noqa: E402
from rofl.refine.judge import Judge  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"

# CPU time of this process: a solve is timed once (a second cached solve would
# find everything in the cache), so wall time would pick up every time slice
# other jobs on the machine take.
_clock = time.process_time


def corpus_pictures(corpus: Path) -> list[tuple[str, np.ndarray, rofl.Palette]]:
    out = []
    for path in sorted(corpus.glob("*/*.json")):
        puzzle, _ = read_puzzle(path)
        result = rofl.solve(puzzle)
        if result.status == "solved":
            out.append((str(path.relative_to(corpus)), result.grid, puzzle.palette))
    return out


def random_pictures(rng: np.random.Generator) -> list[tuple[str, np.ndarray, rofl.Palette]]:
    """Seeded random pictures that line logic solves: B/W and 4-colour, 20 to 60 cells a side."""
    colour = rofl.Palette(["#ffffff", "#000000", "#d02020", "#2060d0"])
    out = []
    # densities at which random pictures are often line-solvable
    for side, palette, density, count in (
        (20, None, 0.65, 10),
        (30, None, 0.65, 10),
        (60, None, 0.72, 5),
        (30, colour, 0.85, 10),
    ):
        palette = palette or rofl.Palette.black_white()
        found = 0
        while found < count:
            k = len(palette)
            ink = rng.random((side, side)) < density
            grid = np.where(ink, rng.integers(1, k, size=(side, side)), 0).astype(np.uint8)
            if rofl.solve(rofl.Puzzle.from_grid(grid, palette)).status == "solved":
                out.append((f"random {side}x{side} {k} colours", grid, palette))
                found += 1
    return out


def variants(grid: np.ndarray, n_colors: int, steps: int, mode: str, rng: np.random.Generator) -> list[np.ndarray]:
    """``steps`` pictures, each one or two cells away from the previous (walk) or from ``grid`` (probe)."""
    h, w = grid.shape
    out = []
    current = grid.copy()
    for _ in range(steps):
        g = current.copy() if mode == "walk" else grid.copy()
        for _ in range(rng.integers(1, 3)):
            r, c = rng.integers(h), rng.integers(w)
            g[r, c] = (g[r, c] + rng.integers(1, n_colors)) % n_colors  # a different colour
        out.append(g)
        current = g
    return out


def run(pictures, steps: int, mode: str, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    t_cached = t_plain = t_replay = t_clues = 0.0
    hits = misses = solves = 0
    n = 0
    per_cached, per_plain, per_replay = [], [], []
    for _, grid, palette in pictures:
        grids = variants(grid, len(palette), steps, mode, rng)
        t = time.perf_counter()
        puzzles = [rofl.Puzzle.from_grid(g, palette) for g in grids]
        t_clues += time.perf_counter() - t
        cached = rofl.LineSolver()  # one per picture, as the generator would keep one
        cached.solve(rofl.Puzzle.from_grid(grid, palette))  # the base picture was solved first
        plain = rofl.LineSolver(cache_mb=0)
        replayer = Judge(rofl.LineSolver())
        k = len(palette)
        base_puzzle = rofl.Puzzle.from_grid(grid, palette)
        _, record = replayer.replay(base_puzzle.packed, grid.shape, k, None, None)
        previous, previous_record = grid, record
        for g, p in zip(grids, puzzles, strict=True):
            diff = g != previous
            changed = np.concatenate([diff.any(axis=1), diff.any(axis=0)])
            t = _clock()
            c, new_record = replayer.replay(p.packed, g.shape, k, previous_record, changed)
            dt_replay = _clock() - t
            if mode == "walk":
                previous, previous_record = g, new_record
            t = _clock()
            a = cached.solve(p)
            dt_cached = _clock() - t
            t = _clock()
            b = plain.solve(p)
            dt_plain = _clock() - t
            assert a.status == b.status and np.array_equal(a.masks, b.masks)
            assert c.status == b.status and np.array_equal(c.masks, b.masks)
            t_replay += dt_replay
            per_replay.append(dt_replay)
            t_cached += dt_cached
            t_plain += dt_plain
            per_cached.append(dt_cached)
            per_plain.append(dt_plain)
            hits += a.cache_hits
            misses += a.cache_misses
            solves += b.line_solves
            n += 1
    return {
        "re-solves": n,
        "hit rate": hits / max(hits + misses, 1),
        "line solves per re-solve": solves / n,
        "cached mean ms": 1e3 * t_cached / n,
        "plain mean ms": 1e3 * t_plain / n,
        "cached median ms": 1e3 * statistics.median(per_cached),
        "plain median ms": 1e3 * statistics.median(per_plain),
        "replay mean ms": 1e3 * t_replay / n,
        "replay median ms": 1e3 * statistics.median(per_replay),
        "speed-up": t_plain / t_cached,
        "replay speed-up": t_plain / t_replay,
        "clues mean ms": 1e3 * t_clues / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--steps", type=int, default=40, help="re-solves per picture (default 40)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    groups = {"random pictures": random_pictures(rng)}
    if args.corpus.exists():
        groups = {"corpus (line-solvable)": corpus_pictures(args.corpus), **groups}
    # warm up the compiled code outside the timings
    run(groups["random pictures"][:1], 2, "walk", 0)

    print(f"{args.steps} re-solves per picture, 1-2 cells changed each time; cache kept per picture")
    print(
        f"{'pictures':34} {'mode':5} {'n':>6} {'hit rate':>8} {'lines':>6} {'cached':>17} {'replayed':>17} "
        f"{'no cache':>17} {'speed-up':>15} {'from_grid':>9}"
    )
    print(
        " " * 64
        + f"{'mean / median ms':>17} {'mean / median ms':>17} {'mean / median ms':>17} {'cached / replay':>15} "
        + f"{'mean ms':>9}"
    )
    table = [
        f"{args.steps} re-solves per picture, 1-2 cells changed each time; CPU time per re-solve, mean / median.",
        "",
        "| pictures | mode | cache hit rate | lines | re-solve, cached | replayed | no cache "
        "| speed-up, cached / replayed | `from_grid` |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, pictures in groups.items():
        for mode in ("walk", "probe"):
            r = run(pictures, args.steps, mode, seed=2)
            label = f"{name} ({len(pictures)})"
            print(
                f"{label:34} {mode:5} {r['re-solves']:6d} {r['hit rate']:8.1%} {r['line solves per re-solve']:6.0f} "
                f"{r['cached mean ms']:7.3f} / {r['cached median ms']:6.3f} "
                f"{r['replay mean ms']:7.3f} / {r['replay median ms']:6.3f} "
                f"{r['plain mean ms']:7.3f} / {r['plain median ms']:6.3f} "
                f"{r['speed-up']:6.2f}x / {r['replay speed-up']:5.2f}x "
                f"{r['clues mean ms']:9.3f}"
            )
            table.append(
                f"| {label} | {mode} | {r['hit rate']:.0%} | {r['line solves per re-solve']:.0f} "
                f"| {r['cached mean ms']:.3f} / {r['cached median ms']:.3f} ms "
                f"| {r['replay mean ms']:.3f} / {r['replay median ms']:.3f} ms "
                f"| {r['plain mean ms']:.3f} / {r['plain median ms']:.3f} ms "
                f"| {r['speed-up']:.1f}× / {r['replay speed-up']:.1f}× | {r['clues mean ms']:.3f} ms |"
            )
    if args.write_docs:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from _docs import stamp, write_section

        write_section("incremental", "\n".join([stamp(), "", *table]))


if __name__ == "__main__":
    main()
