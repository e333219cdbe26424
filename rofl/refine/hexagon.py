"""Refinement of a hexagonal picture: change as few, and as little visible,
cells as possible until line logic alone solves its puzzle.

The same plan as the rectangular refinement (:mod:`rofl.refine.passes`),
over the hexagon's three directions of lines, in Python around the
compiled propagation over index lines (:mod:`rofl.kernels._index`,
kernel set :data:`~rofl.kernels._compile.INDEX`):

1. **Greedy.**  While line logic stalls, every undetermined cell may take
   the cheapest other colour line logic still allows there.  Each such move
   is *estimated* by resuming line logic from the stalled masks with the
   changed cell's three lines queued under their new clues: the stalled
   masks still hold the changed picture, so this never fails, and since it
   starts below the top of the lattice it can only reach a narrower
   fixpoint -- the estimate never determines fewer cells than the truth.
   The best estimates are then *judged* by a full solve, in estimate order,
   stopping as soon as no estimate left could beat the best judged result;
   the best is kept and its cell frozen.  Between full refreshes only the
   :data:`LAZY_TOP` best earlier estimates are estimated again.  Among equal
   counts a move that leaves its three lines less slack (cells not covered
   by groups and gaps: what the overlap rule needs to fire) and a less
   visible one wins, which walks across plateaus; on a plateau (no move
   determines anything) the best moves on distinct lines are taken
   together, up to one per row.
2. **Fallback.**  If every undetermined cell is frozen, the row with the
   most undetermined cells is blanked: an empty row fixes its cells in any
   solve, so this ends (at worst every row blank) -- never seen on photos.
3. **Revert.**  Later changes often make earlier ones unnecessary: each
   change, most visible first, is put back when line logic still solves
   the puzzle without it, in passes until none goes back.

A kept picture is always one the line solver solved from scratch reading
its clues alone, which proves the puzzle unique.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from rofl.errors import PuzzleError
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette

#: Moves whose earlier estimates were best, estimated again between refreshes.
LAZY_TOP = 48
#: Rounds between full refreshes of every estimate.
REFRESH_EVERY = 3
#: Best-estimated moves judged by a full solve per round (at most).
VERIFY = 6
#: Above this many possible moves a full refresh of the estimates comes
#: proportionally less often, so that a round costs about as much as
#: estimating this many moves (a large textured board starts on a plateau
#: of ten thousand moves that each determine nothing).
REFRESH_MOVES = 4000


@dataclass(eq=False)
class HexRefinement:
    """The outcome of :func:`refine_hex`.

    Attributes
    ----------
    cells : (n_cells,) uint8 array
        The final picture in the board's cell order; its puzzle is uniquely
        line-solvable.
    puzzle : HexPuzzle
        The clues of ``cells``.
    changed : (n_cells,) bool array
        Cells that differ from the input.
    iterations : int
        Changes the greedy pass made (a round on a plateau makes several).
    evaluations : int
        Full solves of candidate pictures.
    estimates : int
        Moves estimated (resumed solves).
    line_solves : int
        Line solves over the whole run.
    sweeps : int
        Sweeps of line logic's final solve: the puzzle's difficulty.
    fallback_lines : int
        Rows blanked by the fallback.
    reverted : int
        Changes put back by the revert passes.
    seconds : float
        Wall time; compiling or loading the kernels
        (:func:`rofl.kernels.ready`, once a process) is not in it.
    """

    cells: np.ndarray = field(repr=False)
    puzzle: HexPuzzle = field(repr=False)
    changed: np.ndarray = field(repr=False)
    iterations: int
    evaluations: int
    estimates: int
    line_solves: int
    sweeps: int
    fallback_lines: int
    reverted: int
    seconds: float

    @property
    def n_changed(self) -> int:
        return int(np.count_nonzero(self.changed))


@dataclass(eq=False)
class _Solved:
    """A picture and where line logic got with its clues."""

    cells: np.ndarray
    clues: tuple[np.ndarray, np.ndarray, np.ndarray]
    status: int
    masks: np.ndarray
    undetermined: int


class _Run:
    """State shared by the passes: the board, costs and counters."""

    def __init__(self, side: int, cost: np.ndarray, n_colors: int) -> None:
        from rofl.solver.index_lines import full_mask, hex_board

        self.board = hex_board(side)
        self.hexagon = Hexagon.of(side)
        self.cost = cost
        self.full = np.int64(full_mask(n_colors))
        self.all_lines = np.arange(self.hexagon.n_lines, dtype=np.int64)
        self.evaluations = 0
        self.estimates = 0
        self.line_solves = 0
        self.sweeps = 0

    def propagate(self, clues, masks: np.ndarray, queue: np.ndarray) -> int:
        from rofl.solver.index_lines import propagate_board

        status, stats = propagate_board(self.board, clues, masks, queue)
        self.line_solves += int(stats[0])
        self.sweeps = int(stats[1])
        return int(status)

    def judge(self, cells: np.ndarray) -> _Solved:
        """Line logic from scratch on ``cells``' own clues."""
        self.evaluations += 1
        clues = self.hexagon.clues_of(cells)
        masks = np.full(len(cells), self.full, dtype=np.int64)
        status = self.propagate(clues, masks, self.all_lines)
        return _Solved(cells, clues, status, masks, _undetermined(masks))

    def judge_with(self, state: _Solved, at, values) -> _Solved:
        """:meth:`judge` of ``state``'s picture with the cells ``at`` set to ``values``."""
        cells = state.cells.copy()
        cells[at] = values
        return self.judge(cells)

    def estimate(self, state: _Solved, cells: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each move (``cells[i]`` to ``colours[i]``): the cells left
        undetermined when line logic resumes from ``state``'s masks with
        the changed cell's three lines queued under their new clues (never
        more than the truth), and the slack left on those lines."""
        from rofl.kernels import hex_estimate_moves

        self.estimates += len(cells)
        undetermined = np.empty(len(cells), dtype=np.int64)
        slack = np.empty(len(cells), dtype=np.int64)
        b = self.board
        hex_estimate_moves(
            state.masks, state.cells.astype(np.int64), b.line_cells, b.line_offsets, b.cell_lines, b.cell_offsets,
            *state.clues, cells.astype(np.int64), colours.astype(np.int64), undetermined, slack,
        )  # fmt: skip
        return undetermined, slack


def refine_hex(
    cells: np.ndarray,
    palette: Palette,
    side: int,
    *,
    cost: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
    verify: int = VERIFY,
    revert: bool = True,
) -> HexRefinement:
    """Change as few, and as little visible, cells of a hexagonal picture as
    possible until line logic proves its puzzle unique.

    Parameters
    ----------
    cells : (n_cells,) integer array of palette indices, in the order of :class:`~rofl.hexagon.Hexagon`
    palette : Palette
    side : int
    cost : (n_cells, K) float array, optional
        ``cost[c, k]``: how visibly wrong colour ``k`` is for cell ``c``.
        Default: 0 for the cell's own colour, 1 for the others.
    progress : callable, optional
        Called with the number of undetermined cells after every round.
    verify : int
        At most this many best-estimated moves are judged by a full solve per round.
    revert : bool
        Put back the changes that later ones made unnecessary.

    Returns
    -------
    HexRefinement

    Raises
    ------
    PuzzleError
        Bad shapes or values.
    """
    from rofl import kernels
    from rofl.kernels.structs import SOLVED

    kernels.ready(kernels.INDEX, kernels.HEX_REFINE)
    start = time.perf_counter()
    if not isinstance(palette, Palette):
        palette = Palette(palette)
    board = Hexagon.of(side)
    k = len(palette)
    original = np.asarray(cells)
    if original.shape != (board.n_cells,):
        msg = f"a hexagon of side {board.side} has {board.n_cells} cells, not an array of shape {original.shape}"
        raise PuzzleError(msg)
    if original.size and (original.min() < 0 or original.max() >= k):
        msg = f"cell values must be palette indices 0..{k - 1}"
        raise PuzzleError(msg)
    work = original.astype(np.uint8)
    if cost is None:
        cost = np.ones((board.n_cells, k))
        cost[np.arange(board.n_cells), work] = 0.0
    cost = np.asarray(cost, dtype=np.float64)
    if cost.shape != (board.n_cells, k):
        msg = f"cost must have shape {(board.n_cells, k)}, not {cost.shape}"
        raise PuzzleError(msg)
    run = _Run(board.side, cost, k)
    frozen = np.zeros(board.n_cells, dtype=bool)
    state = run.judge(work)
    iterations = fallback_lines = 0
    while state.status != SOLVED:
        state, made = _greedy(run, state, frozen, progress, verify)
        iterations += made
        if state.status != SOLVED:
            state = _fallback(run, state, frozen)
            fallback_lines += 1
    reverted = 0
    if revert:
        state, reverted = _revert(run, state, original)
    final = run.judge(state.cells)  # the difficulty figure: a plain solve
    if progress is not None:
        progress(0)
    return HexRefinement(
        cells=final.cells,
        puzzle=HexPuzzle.from_cells(board.side, final.cells, palette),
        changed=final.cells != original,
        iterations=iterations,
        evaluations=run.evaluations,
        estimates=run.estimates,
        line_solves=run.line_solves,
        sweeps=run.sweeps,
        fallback_lines=fallback_lines,
        reverted=reverted,
        seconds=time.perf_counter() - start,
    )


def _greedy(run: _Run, state: _Solved, frozen: np.ndarray, progress, verify: int) -> tuple[_Solved, int]:
    """Greedy rounds until line logic solves the picture or every
    undetermined cell is frozen; ``frozen`` is updated."""
    from rofl.kernels.structs import SOLVED

    n = len(state.cells)
    estimate = np.full(n, -1, dtype=np.int64)  # undetermined after the cell's move, -1: not estimated
    slack = np.zeros(n, dtype=np.int64)
    refresh, rounds, made = True, 0, 0
    while state.status != SOLVED:
        if progress is not None:
            progress(state.undetermined)
        cells, colours, added = _cheapest_moves(state, run.cost, frozen)
        if cells.size == 0:
            break
        known = estimate[cells]
        pick = known < 0
        if refresh or cells.size <= LAZY_TOP:
            pick[:] = True
        else:
            pick[np.argsort(known, kind="stable")[:LAZY_TOP]] = True
        idx = np.flatnonzero(pick)
        estimate[cells[idx]], slack[cells[idx]] = run.estimate(state, cells[idx], colours[idx])
        scores = estimate[cells]
        positive = added[added > 0]
        scale = float(np.median(positive)) if positive.size else 1.0
        # slack per cell of the three lines (0-3) plus the visual cost in typical changes
        second = slack[cells] / max(1, 2 * run.hexagon.side - 1) + added / scale
        order = np.lexsort((added, second, scores))
        wide = 2 * state.undetermined > len(state.cells)
        if wide and scores.min() >= state.undetermined:
            # No estimate gains, and estimates never undercount: judging single
            # moves would only confirm the plateau (a full solve each).
            i, trial, new_undetermined = int(order[0]), None, state.undetermined
        else:
            best = None
            for i in order[:verify].tolist():
                key = (int(scores[i]), float(second[i]))
                if best is not None and key >= best[0]:
                    break  # estimates never undercount: none left can win
                trial = run.judge_with(state, cells[i], colours[i])
                score = (trial.undetermined, float(second[i]))
                if best is None or score < best[0]:
                    best = (score, i, trial)
            (new_undetermined, _), i, trial = best
        chosen = [i]
        if new_undetermined >= state.undetermined and wide:
            # A wide plateau: no single change determines anything, and line
            # logic has no foothold on most of the board.  A move's slack
            # then depends only on its own three lines, so take the best of as
            # many moves on distinct lines as there are rows, in one round
            # (the revert pass drops those that turn out unneeded).
            batch = _plateau_batch(run, order, cells)
            if len(batch) > 1:
                batch_trial = run.judge_with(state, cells[batch], colours[batch])
                if trial is None or batch_trial.undetermined <= new_undetermined:
                    chosen, trial, new_undetermined = batch, batch_trial, batch_trial.undetermined
        if trial is None:  # the plateau's best single move, not judged yet
            trial = run.judge_with(state, cells[i], colours[i])
            new_undetermined = trial.undetermined
        frozen[cells[chosen]] = True
        every = REFRESH_EVERY * max(1, -(-cells.size // REFRESH_MOVES))
        refresh = (cells.size <= REFRESH_MOVES and new_undetermined >= state.undetermined) or (rounds + 1) % every == 0
        state = trial
        rounds += 1
        made += len(chosen)
    return state, made


def _plateau_batch(run: _Run, order: np.ndarray, cells: np.ndarray) -> list[int]:
    """The first moves of ``order`` (indices into ``cells``) whose three
    lines no earlier pick uses, at most one per row of the board."""
    board = run.board
    used = np.zeros(len(board.line_offsets) - 1, dtype=bool)
    batch: list[int] = []
    most = 2 * run.hexagon.side - 1
    for i in order.tolist():
        cell = int(cells[i])
        lines = board.cell_lines[board.cell_offsets[cell] : board.cell_offsets[cell + 1]]
        if used[lines].any():
            continue
        used[lines] = True
        batch.append(i)
        if len(batch) >= most:
            break
    return batch


def _cheapest_moves(state: _Solved, cost: np.ndarray, frozen: np.ndarray):
    """For every undetermined, unfrozen cell, the cheapest other colour line
    logic still allows there: cells, colours and the cost they add."""
    masks = state.masks
    open_cells = np.flatnonzero(((masks & (masks - 1)) != 0) & ~frozen)
    k = cost.shape[1]
    bits = (masks[open_cells, None] >> np.arange(k)) & 1
    bits[np.arange(len(open_cells)), state.cells[open_cells]] = 0
    choice = np.where(bits == 1, cost[open_cells], np.inf)
    colours = choice.argmin(axis=1)
    added = choice[np.arange(len(open_cells)), colours] - cost[open_cells, state.cells[open_cells]]
    ok = np.isfinite(added)
    return open_cells[ok], colours[ok], added[ok]


def _fallback(run: _Run, state: _Solved, frozen: np.ndarray) -> _Solved:
    """Blank the row with the most undetermined cells and freeze it."""
    hexagon = run.hexagon
    unknown = (state.masks & (state.masks - 1)) != 0
    rows = range(2 * hexagon.side - 1)  # the first direction's lines
    counts = [int(unknown[hexagon.line(row)].sum()) for row in rows]
    line = hexagon.line(int(np.argmax(counts)))
    frozen[line] = True
    return run.judge_with(state, line, 0)


def _revert(run: _Run, state: _Solved, original: np.ndarray) -> tuple[_Solved, int]:
    """Put back, most visible first, each change line logic does not need,
    in passes until a pass puts none back.

    Changes are tried in runs: a run that can go back goes back in one
    solve, and the next run is twice as long; one that cannot is halved,
    down to a single change, which then stays for this pass.  (A large
    textured board takes thousands of changes on its plateau, most of
    which later ones make unneeded.)"""
    from rofl.kernels.structs import SOLVED

    reverted = 0
    failed_at: dict[int, int] = {}  # cell -> the number of reverts when it last failed
    while True:
        changed = np.flatnonzero(state.cells != original)
        saving = run.cost[changed, state.cells[changed]] - run.cost[changed, original[changed]]
        todo = [c for c in changed[np.argsort(-saving, kind="stable")].tolist() if failed_at.get(c) != reverted]
        back, i, size = 0, 0, 1
        while i < len(todo):
            batch = todo[i : i + size]
            trial = run.judge_with(state, batch, original[batch])
            if trial.status == SOLVED:
                state, back, reverted = trial, back + len(batch), reverted + len(batch)
                i += len(batch)
                size *= 2
            elif size > 1:
                size = max(1, size // 2)
            else:
                failed_at[batch[0]] = reverted
                i += 1
        if not back:
            return state, reverted


def _undetermined(masks: np.ndarray) -> int:
    return int(np.count_nonzero(masks & (masks - 1)))


__all__ = ["HexRefinement", "refine_hex"]
