"""Large pictures through ``rofl.make`` (issue 45): where the processor time goes.

The cases of issue 45's "Large pictures" item, each run once in a fresh
process (the kernels come from the numba cache, so nothing is compiled on
the clock) and timed in processor time (``time.process_time``: on a loaded
machine the figure that load inflates least), in one thread (``threads=1``:
``benchmarks/threads.py`` measures the wall time that more threads save):

* ``camera-2``, ``camera-4``, ``astronaut-2``, ``astronaut-4``: the sample
  photos at 400 cells a side, black and white and four colours, as
  ``rofl make PICTURE -w 400 [-c 4]`` makes them (``--style auto``,
  ``--effort 1``);
* ``noise-2``: uniform noise (``np.random.default_rng(0)``) at 200×200 in
  black and white with ``--effort 0``;
* ``hex-90``: the same noise as a hexagon of side 90 (``--shape hex``).

``--style`` draws every case in another style than ``auto`` (what each
candidate of ``auto`` would cost); the style drawn is printed beside each
case.

Prints per case the processor time of the whole ``make`` and of each pass
of refinement (greedy, revert, polish, relocate: the outermost call of each,
so polishing's own greedy rounds count as polishing; a hexagon runs the
same passes, without polish and relocate), the judged grids,
the cells changed, the make report's SSIM and edge F1, and whether line
logic solves the puzzle to exactly its grid; below each case, the judged
grids of each pass and the revert trials that failure certificates proved
to fail without a judge (those of polishing's and relocation's own revert
passes count as theirs), the certificate checks of all passes by outcome
(proved a failure, proved nothing so that a judge followed, too far to
try) with their processor time, then, per pass, the judged grids that line logic
solves and those it leaves stalled with their mean processor time, and
the changes the revert passes put back.

``--rounds`` prints instead where each case's greedy pass goes, by the
cells still open when a round starts: its rounds, the moves estimated and
their processor time, the time of the rounds' judged grids, the plateau
rounds (a batch of blind changes) and the changes made (the pass alone,
``rofl.make`` stopped at its end).

``--study N`` measures instead the incremental judge that decisions.md
("At scale") left open: for each case, the grid the greedy pass hands the
revert pass (captured from ``rofl.make``, which stops there), and ``N`` of
its changed cells, each put back in turn (a revert trial), line logic's
fixpoint of the trial grid reached three ways: the judge refinement uses
(a replay of the greedy output's recorded solve), a plain solve from
nothing known (first in, first out), and the incremental judge -- the
fixpoint ``F`` of every line but the trial's row and column (from nothing
known), then every line of the trial grid from ``F``.  Printed per case
(medians): the cells ``F`` leaves open, and the line solves of each way
(all three reach the same fixpoint, checked); the propagation here is plain
Python over :func:`rofl.solver.single_line.solve_line`, so it counts line
solves, not time.

``--local N`` measures local proofs of failure: of ``N`` revert trials on
the greedy pass's output, how many of those that fail a square around the
change proves to fail (the rest of the grid set to the trial's colours,
the square open, its lines propagated; plain Python, so line solves, not
time).  ``--tiles T`` measures refinement tile by tile: each ``T`` x ``T``
tile of the picture ``make`` hands ``refine`` refined alone, as its own
puzzle, then the stitched grid refined whole (``make``'s options), with the
changes and processor time of each step and the cells line logic leaves
open on the stitched grid.

Usage::

    python benchmarks/make_large.py [--cases camera-2,noise-2,...] [--budget 900] [--style auto] [--write-docs]
    python benchmarks/make_large.py --cases astronaut-2 --rounds
    python benchmarks/make_large.py --cases noise-2 --study 20
    python benchmarks/make_large.py --cases camera-2 --local 80
    python benchmarks/make_large.py --cases noise-2 --tiles 50

``--write-docs`` writes the table into section ``make-large`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import time
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent

# name: (picture, size, colours, effort, shape)
CASES = {
    "camera-2": ("samples/camera.jpg", 400, 2, 1.0, "rect"),
    "camera-4": ("samples/camera.jpg", 400, 4, 1.0, "rect"),
    "astronaut-2": ("samples/astronaut.jpg", 400, 2, 1.0, "rect"),
    "astronaut-4": ("samples/astronaut.jpg", 400, 4, 1.0, "rect"),
    "noise-2": ("noise", 200, 2, 0.0, "rect"),
    "hex-90": ("noise", 90, 2, 1.0, "hex"),
}
PASSES = ("greedy", "revert", "polish", "relocate")


def run_case(case: str, out: str | None, style: str = "auto") -> dict:
    """One ``make`` of ``case`` in this process, drawn in ``style``, with per-pass processor times."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    import rofl
    from rofl.refine import passes
    from rofl.refine.judge import Judge
    from rofl.solver import solve

    name, n, k, effort, shape = CASES[case]
    spent = dict.fromkeys(PASSES, 0.0)
    judged = dict.fromkeys(PASSES, 0)  # judged grids per outermost pass
    proved = dict.fromkeys(PASSES, 0)  # revert trials a failure certificate proved to fail, per outermost pass
    depth, current = [0], [None]

    def timed(method, label):
        @functools.wraps(method)
        def wrapper(*args, **kwargs):
            if depth[0] == 0:
                current[0] = label
            depth[0] += 1
            t0 = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    spent[label] += time.process_time() - t0
                    current[0] = None

        return wrapper

    def counted(method, tally, keep=lambda result: True):
        @functools.wraps(method)
        def wrapper(*args, **kwargs):
            result = method(*args, **kwargs)
            if current[0] is not None and keep(result):
                tally[current[0]] += 1
            return result

        return wrapper

    for label in PASSES:
        setattr(passes._Run, label, timed(getattr(passes._Run, label), label))
    passes._Run.judge = counted(passes._Run.judge, judged)
    # per outermost pass: [judged grids that solve, their seconds, that stall, their seconds]
    outcomes = {label: [0, 0.0, 0, 0.0] for label in PASSES}
    plain_judge = passes._Run.judge

    @functools.wraps(plain_judge)
    def judge_timed(self, grid, near=None):
        t0 = time.process_time()
        state = plain_judge(self, grid, near)
        if current[0] is not None:
            tally = outcomes[current[0]]
            at = 0 if state.result.status == "solved" else 2
            tally[at] += 1
            tally[at + 1] += time.process_time() - t0
        return state

    passes._Run.judge = judge_timed
    passes._Run._still_fails = counted(passes._Run._still_fails, proved, bool)
    # certificate checks, all passes: [count, processor seconds] by outcome (too far to try, proved, proved nothing)
    checks = {"far": [0, 0.0], "proved": [0, 0.0], "missed": [0, 0.0]}
    plain_resume = Judge.resume_certificate

    @functools.wraps(plain_resume)
    def resume_timed(self, *args, **kwargs):
        t0 = time.process_time()
        result = plain_resume(self, *args, **kwargs)
        tally = checks["far" if result is None else "proved" if result.status == "stalled" else "missed"]
        tally[0] += 1
        tally[1] += time.process_time() - t0
        return result

    Judge.resume_certificate = resume_timed
    picture = np.random.default_rng(0).random((n, n, 3)) if name == "noise" else ROOT / name
    size = {"size": n} if shape == "hex" else {"width": n, "height": n, "mode": "crop"}
    c0 = time.process_time()
    res = rofl.make(picture, colors=k, effort=effort, shape=shape, style=style, threads=1, **size)
    cpu = time.process_time() - c0
    ok = None
    if shape == "rect":
        check = solve(res.puzzle)
        ok = check.status == "solved" and bool((check.grid == res.grid).all())
    if out and shape == "rect":  # the final picture, each cell 2x2 pixels
        from PIL import Image

        rgb = np.array([tuple(c) for c in res.palette], dtype=np.uint8)[res.grid]
        Image.fromarray(rgb.repeat(2, axis=0).repeat(2, axis=1)).save(out)
    stats = res.stats
    return {
        "cpu": cpu,
        "passes": spent,
        "judged": judged,
        "proved": proved,
        "checks": checks,
        "outcomes": outcomes,
        "reverted": getattr(res.refinement, "reverted", None),
        "evaluations": getattr(res.refinement, "evaluations", None),
        "n_changed": stats.n_changed,
        "pct": stats.changed_pct,
        "ssim": stats.ssim,
        "edge_f1": stats.edge_f1,
        "ok": ok,
        "style": stats.style,
    }


class _Captured(Exception):
    """Stops ``rofl.make`` once a stage's input or output is captured
    (``--study``, ``--tiles``); ``args[0]`` is what was captured."""


def _make_until(case: str, flag: str, owner, attr: str, capture, missing: str):
    """Run ``case``'s ``rofl.make`` with ``owner.attr`` replaced by
    ``capture(original)``, which raises :class:`_Captured` with what it
    wants; that value (``owner.attr`` restored).  Rectangles only
    (``flag`` names the option that asked); ``missing`` says what ``make``
    never reached."""
    import numpy as np

    import rofl

    name, n, k, effort, shape = CASES[case]
    if shape != "rect":
        msg = f"{flag} takes rectangles only, not {case}"
        raise SystemExit(msg)
    original = getattr(owner, attr)
    setattr(owner, attr, capture(original))
    picture = np.random.default_rng(0).random((n, n, 3)) if name == "noise" else ROOT / name
    try:
        rofl.make(picture, colors=k, effort=effort, shape=shape, width=n, height=n, mode="crop", threads=1)
    except _Captured as captured:
        return captured.args[0]
    finally:
        setattr(owner, attr, original)
    msg = f"{case}: {missing}"
    raise SystemExit(msg)


def greedy_output(case: str):
    """The grid the greedy pass of ``case``'s ``make`` hands the revert pass,
    and the picture before refinement: ``(grid, original, n_colours)``."""
    sys.path.insert(0, str(ROOT))
    from rofl.refine import passes

    def capturing(greedy):
        def capture(self, state, frozen, *args, **kwargs):
            out = greedy(self, state, frozen, *args, **kwargs)
            if self.large:
                raise _Captured((out.grid.copy(), self.original.copy(), self.k))
            return out

        return capture

    return _make_until(case, "--study", passes._Run, "greedy", capturing, "no greedy pass on a large grid")


def propagate_without(masks, grid, skip, queue) -> int:
    """Line logic in place on ``masks`` (first in, first out, from the lines
    ``queue``) for the clues of ``grid``, every line in ``skip`` (line
    numbers, rows first) left out; the line solves made.  Plain Python over
    the public line solver: a reference, not a fast path."""
    import numpy as np

    from rofl.refine.judge import grid_clues
    from rofl.solver.single_line import solve_line

    height, width = grid.shape
    packed = grid_clues(grid)
    lens, cols, offs = packed.lens.tolist(), packed.cols.tolist(), packed.offs.tolist()
    clue = [
        list(zip(lens[offs[i] : offs[i + 1]], cols[offs[i] : offs[i + 1]], strict=True)) for i in range(height + width)
    ]
    queued = np.zeros(height + width, dtype=bool)
    order = [line for line in queue if line not in skip]
    queued[order] = True
    head = solves = 0
    while head < len(order):
        line = order[head]
        head += 1
        queued[line] = False
        cells = masks[line] if line < height else masks[:, line - height]
        new = solve_line(cells, clue[line])
        solves += 1
        if new is None:
            msg = "a contradiction: the trial grid itself fits every clue"
            raise AssertionError(msg)
        for i in np.flatnonzero(new != cells).tolist():
            other = height + i if line < height else i
            if other not in skip and not queued[other]:
                queued[other] = True
                order.append(other)
        cells[:] = new
    return solves


def revert_trials(grid, original, k: int, n_trials: int):
    """``n_trials`` revert trials on the greedy pass's output ``grid`` (a
    changed cell, drawn at random with a fixed seed, put back to its colour
    in ``original``), each judged by a replay of the grid's record: yields
    ``(row, col, trial grid, replayed result)``."""
    import numpy as np

    from rofl.refine.judge import Judge, grid_clues
    from rofl.solver.line_logic import LineSolver

    height, width = grid.shape
    judge = Judge(LineSolver(cache_mb=256))
    _, record = judge.replay(grid_clues(grid), grid.shape, k, None, None)
    changed = np.argwhere(grid != original)
    pick = changed[np.random.default_rng(1).choice(len(changed), min(n_trials, len(changed)), replace=False)]
    for r, c in pick.tolist():
        trial = grid.copy()
        trial[r, c] = original[r, c]
        lines = np.zeros(height + width, dtype=bool)
        lines[[r, height + c]] = True
        replayed, _ = judge.replay(grid_clues(trial), grid.shape, k, record, lines)
        yield r, c, trial, replayed


def study(case: str, n_trials: int) -> None:
    """``--study``: the incremental judge against the replayed one (see the docstring)."""
    import numpy as np

    grid, original, k = greedy_output(case)
    height, width = grid.shape
    full = (1 << k) - 1
    rows = []
    for r, c, trial, replayed in revert_trials(grid, original, k, n_trials):
        plain = np.full(grid.shape, full, dtype=np.int64)
        plain_solves = propagate_without(plain, trial, set(), range(height + width))
        without = np.full(grid.shape, full, dtype=np.int64)
        without_solves = propagate_without(without, trial, {r, height + c}, range(height + width))
        left_open = int(np.count_nonzero(without & (without - 1)))
        from_f = propagate_without(without, trial, set(), [r, height + c])
        if not (np.array_equal(without, replayed.masks) and np.array_equal(plain, replayed.masks)):
            msg = f"{case}: the three ways disagree at trial ({r}, {c})"
            raise AssertionError(msg)
        rows.append((replayed.solved, replayed.line_solves, plain_solves, left_open, without_solves, from_f))
        print(
            f"  trial ({r:3}, {c:3}): {'solved ' if replayed.solved else 'stalled'}; line solves: replayed judge"
            f" {replayed.line_solves:6}, plain {plain_solves:6}; F leaves {left_open:6} cells open"
            f" ({without_solves:6} line solves), then {from_f:6} from F"
        )
    a = np.array(rows, dtype=float)
    for label, sel in (("trials that succeed", a[:, 0] == 1), ("trials that fail", a[:, 0] == 0)):
        if sel.any():
            med = np.median(a[sel], axis=0)
            print(
                f"{case}, {label} ({int(sel.sum())} of {len(a)}; {height}x{width}, {int((grid != original).sum())}"
                f" changes), medians: line solves of the replayed judge {med[1]:.0f}, of a plain solve {med[2]:.0f};"
                f" F leaves {med[3]:.0f} of {grid.size} cells open for {med[4]:.0f} line solves, then {med[5]:.0f}"
                f" from F ({med[4] + med[5]:.0f} in all)"
            )


def local_proofs(case: str, n_trials: int) -> None:
    """``--local``: of ``n_trials`` revert trials on the greedy pass's output
    (a changed cell put back), how many of those that fail a square around
    the change proves to fail: every cell outside it set to the trial's
    colour, the square open, its rows and columns propagated.  The other
    lines are determined and fit their clues, so the result is a fixpoint
    of the trial's puzzle containing its grid; with a cell left open it is
    a failure certificate, as the revert pass's are."""
    import numpy as np

    grid, original, k = greedy_output(case)
    height, width = grid.shape
    reaches = (2, 4, 6, 12)
    proved, solves, fails, tried = dict.fromkeys(reaches, 0), dict.fromkeys(reaches, 0), 0, 0
    for r, c, trial, replayed in revert_trials(grid, original, k, n_trials):
        tried += 1
        if replayed.solved:
            continue
        fails += 1
        for h in reaches:
            masks = np.left_shift(1, trial.astype(np.int64))
            rows, cols = slice(max(r - h, 0), r + h + 1), slice(max(c - h, 0), c + h + 1)
            masks[rows, cols] = (1 << k) - 1
            queue = [*range(height)[rows], *(height + j for j in range(width)[cols])]
            solves[h] += propagate_without(masks, trial, set(), queue)
            proved[h] += bool(np.count_nonzero(masks & (masks - 1)))
    print(
        f"{case}: {fails} of {tried} revert trials fail; "
        + "; ".join(
            f"a square of side {2 * h + 1} proves {proved[h]} ({solves[h] / max(fails, 1):.0f} line solves each)"
            for h in reaches
        )
    )


def refine_input(case: str):
    """What ``case``'s ``make`` hands :func:`rofl.refine.refine` (captured,
    ``make`` stopped there): ``(grid, palette, options)``."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    import rofl.refine

    def capturing(_refine):
        def capture(grid, palette, **options):
            raise _Captured((np.array(grid), palette, options))

        return capture

    return _make_until(case, "--tiles", rofl.refine, "refine", capturing, "make did not refine")


#: ``--rounds``' bands of open cells at the start of a round (high, low)
ROUND_BANDS = ((10**9, 100_000), (100_000, 80_000), (80_000, 60_000), (60_000, 40_000), (40_000, 20_000),
               (20_000, 10_000), (10_000, 5_000), (5_000, 0))  # fmt: skip


def greedy_rounds(case: str) -> None:
    """``--rounds``: where ``case``'s greedy pass goes, round by round,
    printed by the cells open when each round starts (:data:`ROUND_BANDS`)."""
    sys.path.insert(0, str(ROOT))
    from rofl.refine import passes

    log = []  # per round: [open cells, moves estimated, their seconds, the round's seconds, changes, plateau]
    estimated, best_round = passes._Run._estimated_moves, passes._Run._best_round

    def timed_estimates(self, state, frozen, estimates, rounds, undetermined):
        before, t0 = self.estimates, time.process_time()
        moves = estimated(self, state, frozen, estimates, rounds, undetermined)
        log.append([undetermined, self.estimates - before, time.process_time() - t0, 0.0, 0, False])
        return moves

    def timed_round(self, *args, **kwargs):
        t0 = time.process_time()
        taken = best_round(self, *args, **kwargs)
        log[-1][3:] = [time.process_time() - t0, 0 if taken is None else len(taken[0]), bool(taken and taken[2])]
        return taken

    passes._Run._estimated_moves, passes._Run._best_round = timed_estimates, timed_round
    c0 = time.process_time()
    try:
        greedy_output(case)
    finally:
        passes._Run._estimated_moves, passes._Run._best_round = estimated, best_round
    cpu = time.process_time() - c0
    print(f"{case}: greedy pass {cpu:.1f} s of processor time (with the picture drawn), {len(log)} rounds")
    heads = ("rounds", 6), ("estimates", 9), ("est. s", 7), ("judged s", 8), ("plateau", 7), ("changes", 7)
    print(f"{'open cells':>17} " + " ".join(f"{h:>{w}}" for h, w in heads))
    for high, low in ROUND_BANDS:
        rows = [r for r in log if low <= r[0] < high]
        if rows:
            band = f"{low:,}+" if high == 10**9 else f"{low:,}-{high:,}"
            print(
                f"{band:>17} {len(rows):>6} {sum(r[1] for r in rows):>9,} {sum(r[2] for r in rows):>7.1f}"
                f" {sum(r[3] for r in rows):>8.1f} {sum(r[5] for r in rows):>7} {sum(r[4] for r in rows):>7}"
            )
    plateau = [r for r in log if r[5]]
    print(
        f"{'all':>17} {len(log):>6} {sum(r[1] for r in log):>9,} {sum(r[2] for r in log):>7.1f}"
        f" {sum(r[3] for r in log):>8.1f} {len(plateau):>7} {sum(r[4] for r in log):>7}"
        f"  (plateau rounds' changes: {sum(r[4] for r in plateau)})"
    )


def tiles(case: str, side: int) -> None:
    """``--tiles``: refine ``case``'s picture tile by tile (each ``side`` x
    ``side`` tile alone, as its own puzzle), then the stitched grid whole."""
    import numpy as np

    from rofl.puzzle import Rectangle
    from rofl.refine import refine
    from rofl.solver.line_logic import LineSolver

    grid, palette, options = refine_input(case)
    cost = options.pop("cost")
    options = {key: options[key] for key in ("polish", "relocate", "pairs", "seed") if key in options}
    stitched, tile_changes = grid.copy(), 0
    c0 = time.process_time()
    for r in range(0, grid.shape[0], side):
        for c in range(0, grid.shape[1], side):
            part = (slice(r, r + side), slice(c, c + side))
            done = refine(grid[part], palette, cost=cost[part], polish=0, relocate=0)
            stitched[part] = done.grid
            tile_changes += done.n_changed
    tiles_cpu = time.process_time() - c0
    height, width = grid.shape
    result = LineSolver(cache_mb=256).solve(Rectangle(width, height).puzzle(stitched, palette))
    left = int(np.count_nonzero(~result.known))
    c0 = time.process_time()
    whole = refine(stitched, palette, cost=cost, **options)
    whole_cpu = time.process_time() - c0
    print(
        f"{case}, tiles of {side}: {tile_changes} changes in the tiles ({tiles_cpu:.1f} s); line logic on the"
        f" stitched grid leaves {left} of {grid.size} cells open; refined whole from there: {whole.n_changed} more"
        f" changes ({whole_cpu:.1f} s), {int(np.count_nonzero(whole.grid != grid))} cells changed in all"
    )


def judge_profile(r: dict) -> str:
    """Where a case's judged grids go: per pass, those that solve and those
    that stall, with their mean processor time, and the changes put back."""
    parts = []
    for p in PASSES:
        solved, t_solved, stalled, t_stalled = r["outcomes"][p]
        if solved or stalled:
            parts.append(
                f"{p} {solved} solve ({1000 * t_solved / max(solved, 1):.1f} ms each, {t_solved:.1f} s)"
                f" / {stalled} stall ({1000 * t_stalled / max(stalled, 1):.1f} ms each, {t_stalled:.1f} s)"
            )
    return "judged grids: " + ("; ".join(parts) or "none") + f"; changes put back by revert passes: {r['reverted']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="camera-2,camera-4,astronaut-2,astronaut-4,noise-2")
    parser.add_argument("--budget", type=float, default=900.0, help="wall seconds per case before it is stopped")
    parser.add_argument("--save", metavar="DIR", help="write each final picture to DIR/CASE.png")
    parser.add_argument("--style", default="auto", help="the style rofl make draws in (default: auto)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    parser.add_argument("--rounds", action="store_true", help="print where each case's greedy pass goes")
    parser.add_argument("--study", type=int, metavar="N", help="measure the incremental judge on N revert trials")
    parser.add_argument("--local", type=int, metavar="N", help="measure local failure proofs on N revert trials")
    parser.add_argument("--tiles", type=int, metavar="T", help="measure refining T x T tiles alone, then the whole")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one case, print JSON
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_case(args.one, args.out, args.style)))
        return
    if args.rounds:
        for case in args.cases.split(","):
            greedy_rounds(case)
        return
    if args.study:
        for case in args.cases.split(","):
            study(case, args.study)
        return
    if args.local:
        for case in args.cases.split(","):
            local_proofs(case, args.local)
        return
    if args.tiles:
        for case in args.cases.split(","):
            tiles(case, args.tiles)
        return
    if args.save:  # made before the cases run: a missing folder would lose every figure at the end
        Path(args.save).mkdir(parents=True, exist_ok=True)
    print(
        f"{'case':>12} {'CPU s':>7} "
        + " ".join(f"{p:>8}" for p in PASSES)
        + f" {'judged':>7} {'changed':>8} {'%':>5} {'SSIM':>5} {'edgeF1':>6} {'ok':>3}"
    )
    table = [
        "| case | CPU time | " + " | ".join(PASSES) + " | judged grids | changed cells | SSIM | edge F1 | solved |",
        "|---|---|" + "---|" * len(PASSES) + "---|---|---|---|---|",
    ]
    for case in args.cases.split(","):
        out = str(Path(args.save) / f"{case}.png") if args.save else None
        cmd = [sys.executable, __file__, "--one", case, "--style", args.style] + (["--out", out] if out else [])
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.budget, check=True)
        except subprocess.TimeoutExpired:
            print(f"{case:>12} > {args.budget:.0f} s wall (stopped)")
            table.append(f"| {case} | > {args.budget:.0f} s wall |" + " |" * (len(PASSES) + 5))
            continue
        except subprocess.CalledProcessError as err:
            print(f"{case:>12} failed: {err.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        ok = "-" if r["ok"] is None else ("yes" if r["ok"] else "NO")
        ssim = "-" if r["ssim"] is None else f"{r['ssim']:.3f}"
        f1 = "-" if r["edge_f1"] is None else f"{r['edge_f1']:.3f}"
        print(
            f"{case:>12} {r['cpu']:>7.1f} "
            + " ".join(f"{r['passes'][p]:>8.1f}" for p in PASSES)
            + f" {r['evaluations'] if r['evaluations'] is not None else '-':>7} {r['n_changed']:>8}"
            f" {r['pct']:>5.2f} {ssim:>5} {f1:>6} {ok:>3}  ({r['style']})"
        )
        print(
            f"{'':>12} judged by pass: "
            + ", ".join(f"{p} {r['judged'][p]}" for p in PASSES)
            + "; failures proved by certificates: "
            + (", ".join(f"{p} {r['proved'][p]}" for p in PASSES if r["proved"][p]) or "none")
        )
        print(f"{'':>12} {judge_profile(r)}")
        c = r["checks"]
        print(
            f"{'':>12} certificate checks: {c['proved'][0]} proved a failure ({c['proved'][1]:.1f} s),"
            f" {c['missed'][0]} proved nothing ({c['missed'][1]:.1f} s), {c['far'][0]} too far to try"
            f" ({c['far'][1]:.1f} s)"
        )
        table.append(
            f"| {case} ({r['style']}) | {r['cpu']:.1f} s | "
            + " | ".join(f"{r['passes'][p]:.1f} s" for p in PASSES)
            + f" | {r['evaluations']} | {r['n_changed']} ({r['pct']:.2f} %) | {ssim} | {f1} | {ok} |"
        )
    if args.write_docs:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _docs import stamp, write_section

        write_section("make-large", "\n".join([stamp(), "", *table]))


if __name__ == "__main__":
    main()
