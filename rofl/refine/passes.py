"""The passes of refinement, written once for boards of every shape, as
methods of one run (:class:`_Run`): greedy, fallback, revert, polish and
relocate (numbered in :mod:`rofl.refine`), and the helpers that pick the
moves they try.

What differs between shapes lives in a small adapter the run calls (its
``shape``, a :class:`ShapeLines`): :class:`~rofl.refine.rectangle.RectLines` over a rectangle's
packed-clue kernels (replayed solves, estimates with arrangement counts,
failure certificates), :class:`~rofl.refine.hexagon.HexLines` over the
index-line kernels of a hexagon.  An adapter judges a grid, estimates
moves, names the lines of a cell, and says how its greedy pass picks,
batches and refreshes (the two shapes were tuned apart; their constants
and rules are kept as they were measured).  Polishing and relocation need
the certificates: they run on rectangles.

Cells are addressed flat, in the board's order (a rectangle's row by row),
wherever a pass does not need a rectangle's rows and columns.

Every candidate grid is judged by :meth:`_Run.judge` -- its clues alone,
line-solved from nothing known -- so a pass never peeks at an answer it
could not derive from the clues.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from rofl.errors import UnsolvableError
from rofl.refine.judge import Trajectory
from rofl.solver.line_logic import full_mask
from rofl.solver.status import LineStatus


def initial_masks_for(height: int, width: int, n_colors: int) -> np.ndarray:
    return np.full((height, width), full_mask(n_colors), dtype=np.int64)


def default_cost(grid: np.ndarray, n_colors: int) -> np.ndarray:
    """0 for each cell's own colour, 1 for any other: ``(*grid.shape, K)`` float64."""
    cost = np.ones((*grid.shape, n_colors), dtype=np.float64)
    np.put_along_axis(cost, grid[..., None].astype(np.intp), 0.0, axis=-1)
    return cost


POLISH_VERIFY = 4  # candidates judged per greedy round of a repair
POLISH_RADIUS = 6  # a repair changes cells at most this far from the undone ones
POLISH_UNDO = 3  # at most this many changes undone per attempt
FAILURE_REUSE = 64  # cells a grid may differ from a failure's certificate for it to be tried
LARGE_FAILURE_REUSE = 512  # the same on a grid of more than FAR_REUSE_CELLS cells, where a judge costs more
FAR_REUSE_CELLS = 100_000  # (400x400 photos; not 200x200 noise: docs/decisions.md, "At scale")
FAILURE_BYTES = 64 << 20  # memory for those certificates (LARGE_FAILURE_BYTES on a large grid)
LARGE_FAILURE_BYTES = 256 << 20
POLISH_EXTRA = 8  # attempts on top of one per changed cell
POLISH_MOST = 256  # attempts per unit of effort at most (pictures with many more changes)
RELOCATE_TRIES = 2  # candidates that solve and get a revert pass, per change put back
RELOCATE_OPEN = 0.3  # a change whose undoing leaves more of the cells open than this stays...
RELOCATE_OPEN_CELLS = 1000  # ...and more cells than this (a small grid's searches are all cheap)
PAIR_PARTNERS = 3  # nearest changes tried as the second of a pair put back together
RELOCATE_REACH = 12  # on a large grid, relocation's new change lies at most this far from the one put back
LARGE_AFTER_SHARE = 0.75  # on a large grid, polish and relocation work at most this share of what came before...
LARGE_AFTER_CELL = 40  # ...or this many line solves a cell, whichever is more...
LARGE_POLISH_PART = 0.25  # ...polishing at most this part of it
LARGE_CACHE_MB = 256  # the line cache of a large grid's solver, unless the caller lends one
CACHE_MB_PER_CELL = 1 / 1000  # a smaller grid's: this much a cell, at least a megabyte (see refinement._shape)
LARGE_PLATEAU_SHARE = 0.5  # on a large grid, a plateau round changes at most this share of a side's cells
# rofl make --effort 0 on a large grid (refine's ``quick``) trades changed cells for time:
QUICK_BATCH = 16  # a greedy round judges this many gaining moves in distinct lines together...
QUICK_REFRESH_PART = 8  # ...a refresh re-estimates one move in this many (by cell, in turn)...
QUICK_PLATEAU_SHARE = 0.25  # ...a plateau round changes at most this share of a side's cells...
QUICK_REVERT_SHARE = 1.0  # ...and the revert pass stops at this share of the line solves before it...
QUICK_REVERT_CELL = 25  # ...or this many line solves a cell, whichever is more
QUICK_MOST_CELLS = 100_000  # ...on grids of at most this many cells (the camera at 400 took longer)
FAR_POLISH_ABOVE = 1.0  # a far grid is polished and relocated only with more effort than this (the default's)
FAR_JUDGE_LEAST = 8  # a far grid's greedy round judges single moves only if one is estimated to gain this many cells
FAR_REFRESH_PART = 4  # a far grid's refresh, with most cells open, re-estimates one stale move in this many
FAR_PLATEAU_SHARE = 0.18  # a far grid's plateau round changes at most this share of a side's cells (decisions.md)
# a lean far grid (no polishing or relocation: the default effort) keeps no greedy certificates, and tries
# the revert pass's own only this near: further, a check that fails to prove costs more than the judge it spares
FAR_CHECK_REUSE = 192
LARGE_CELLS = 20_000  # grids of more cells than this take the large-grid path (see docs/decisions.md "At scale")


class ShapeLines(Protocol):
    """What the passes ask of a shape's adapter (:class:`~rofl.refine.rectangle.RectLines`,
    :class:`~rofl.refine.hexagon.HexLines`): its board, its kernels, and the
    rules its passes were tuned with.  Cells are flat, in the board's order."""

    grid_shape: tuple[int, ...]
    n_cells: int
    n_lines: int
    line_cells: np.ndarray  # the board's index lines (rows, then columns; a hexagon's three directions)
    line_offsets: np.ndarray
    fallback_lines: int  # the fallback blanks one of the first this many lines
    verify: int  # best-estimated moves judged per greedy round
    lazy_top: int  # at most this many moves' estimates refreshed between full refreshes
    certificates: bool  # failure certificates, and with them polishing and relocation
    large_path: bool  # a grid of more than LARGE_CELLS cells takes the large-grid path
    count_rounds: bool  # iterations count greedy rounds (else the changes made)
    wide_plateaus_only: bool  # plateau batches only with most of the board undetermined
    greedy_after_fallback: bool  # the greedy pass goes on after each blanked line
    revert_after_fallback: bool  # the revert pass runs after the fallback too
    revert_latest_first: bool  # the revert pass tries the latest changes first (else the most visible)
    skip_failed_in_runs: bool  # a revert pass leaves out the changes known to fail
    retry_short_runs: bool  # a run cut short by the end of the list is halved and tried again

    def judge(self, grid: np.ndarray, near: Any = None) -> tuple[Any, Any, Trajectory | None]:
        """The clues of ``grid``, line logic's result on them and its record."""
        ...

    def final_solve(self, run: _Run, state: _State) -> Any:
        """The plain solve of the final grid that gives its sweeps."""
        ...

    def estimate(self, state: _State, where: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per move, the estimate kept per cell and the tie-break (lower: tightens its lines more)."""
        ...

    def scores(self, stored: np.ndarray, undetermined: int) -> np.ndarray:
        """What each move leaves undetermined, from its kept estimate."""
        ...

    def lazy(self, stored: np.ndarray) -> np.ndarray:
        """The moves whose estimates are refreshed between full refreshes."""
        ...

    def move_lines(self, where: np.ndarray) -> np.ndarray:
        """``(M, D)``: each cell's line in each of the board's ``D`` directions."""
        ...

    def plateau_candidates(self, order, scores, tie, undetermined) -> np.ndarray:
        """The moves, in ``order``, a plateau batch takes from."""
        ...

    def plateau_most(self, large: bool) -> int:
        """The most moves one plateau round takes."""
        ...

    def refresh(self, *, batched: bool, gained: bool, n_moves: int, rounds: int) -> bool:
        """Whether the next greedy round estimates every move again."""
        ...

    def estimated(self) -> int:
        """Line solves spent estimating (counted by the work budgets)."""
        ...


@dataclass(frozen=True)
class _State:
    """A grid with its clues and what line logic makes of them (``result``:
    ``status``, ``masks`` and ``known`` of the grid's shape, ``undetermined``,
    ``line_solves``)."""

    grid: np.ndarray
    packed: Any  # the clues, in the form the shape's kernels take
    result: Any
    record: Trajectory | None = None  # how line logic got there, to replay for similar grids

    @cached_property
    def undetermined(self) -> int:
        """``result.undetermined``, counted once (the passes ask it of a state several times)."""
        return self.result.undetermined


@dataclass(frozen=True)
class _Failure:
    """A grid in which putting a change back left line logic stalled: the
    grid's cells that differ from the original (flat indices and colours)
    and its stalled fixpoint's undetermined cells (flat indices and masks;
    every other cell is determined to the grid's colour).  On a small grid
    (see :class:`_Run`) every cell is listed in both, the colours and masks
    being the grid and the fixpoint themselves (flat views, no copies): the
    same certificate, made without picking the cells out."""

    diff: np.ndarray
    colours: np.ndarray
    open_: np.ndarray
    masks: np.ndarray
    #: When not 0, ``open_`` is a bit for each of this many cells
    #: (``np.packbits``) instead of flat indices: smaller where many cells
    #: are open.  ``masks`` is then empty if every open cell allows both
    #: colours of a black-and-white grid (``both``, their mask).
    bits: int = 0
    both: int = 0

    #: Bytes a certificate takes per cell at most: as the kernels take it
    #: (int64 cells and masks, uint8 colours).
    WIDEST = 8 + 1 + 8 + 8

    @property
    def nbytes(self) -> int:
        return self.diff.nbytes + self.colours.nbytes + self.open_.nbytes + self.masks.nbytes

    def certificate(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(diff, colours, open cells, masks)`` as the kernels take them
        (the cells and masks int64)."""
        wide = np.int64
        open_, masks = self.open_, self.masks
        if self.bits:
            open_ = np.flatnonzero(np.unpackbits(open_, count=self.bits))
            if not masks.size:
                masks = np.full(open_.size, self.both, dtype=wide)
        return (
            self.diff.astype(wide, copy=False),
            self.colours,
            open_.astype(wide, copy=False),
            masks.astype(wide, copy=False),
        )


@dataclass
class _Moves:
    """One greedy round's moves (flat cells, colours, added costs) and what
    their estimates say: ``scores`` (cells left undetermined), ``second``
    (the tie-break), and whether every move was estimated just now."""

    where: np.ndarray
    colours: np.ndarray
    added: np.ndarray
    scores: np.ndarray
    second: np.ndarray
    fresh: bool


class _Estimates:
    """The greedy pass's estimates, kept per cell between rounds (lazy
    greedy: between full refreshes only the promising moves, and those
    never estimated, are estimated again)."""

    def __init__(self, shape) -> None:
        self.stored = np.full(shape.n_cells, -1, dtype=np.int64)  # -1: not estimated
        self.tie = np.zeros(shape.n_cells, dtype=np.float64)
        self.refresh = True
        self.turn = 0  # quick refreshes taken (which part of the moves the next one re-estimates)
        # on a large grid a refresh re-estimates only the moves on lines
        # whose clue or masks changed since the last one (and the lazy top)
        self.stale = np.zeros(shape.n_lines, dtype=bool)
        # on a large grid, the judged gains of moves not taken (see
        # _Run._judge_best): flat cell -> (colour, gain, lines it touched)
        self.judged: dict[int, tuple[int, int, np.ndarray]] | None = None


class _Run:
    """One refinement of a board: its shape's adapter, the costs and the work counters."""

    def __init__(
        self, shape: ShapeLines, cost: np.ndarray, original: np.ndarray, quick: bool = False, lean: bool = False
    ):
        self.shape = shape
        self.cost = cost
        self.flat_cost = cost.reshape(-1, cost.shape[-1])
        self.original = original.copy()  # the picture before any change
        self.k = cost.shape[-1]
        self.line_solves = 0  # by full solves
        self.evaluations = 0
        self.estimates = 0
        self.iterations = 0
        self.when = np.full(original.shape, -1, dtype=np.int64)  # round in which each cell changed
        # Per changed cell (flat index), proof that putting it back failed in
        # a recent grid (oldest first, FAILURE_BYTES of them at most).
        self.failures: dict[int, _Failure] = {}
        self.failure_holders: dict[int, int] = {}  # cells holding each certificate, by id
        self.failure_bytes = 0
        self.failure_budget = LARGE_FAILURE_BYTES if original.size > LARGE_CELLS else FAILURE_BYTES
        # Certificates are kept small (int32 cells, uint8 masks) where the
        # colours allow it and they could outgrow their budget.  Where every
        # cell's certificate at its widest fits it (a small grid: none is
        # ever dropped), a certificate is the whole grid and fixpoint, as
        # the kernels take them: nothing picked out, converted or copied
        # (grids and fixpoints are never changed once judged).
        fits = original.size * original.size * _Failure.WIDEST <= self.failure_budget
        self.compact_failures = self.k <= 8 and not fits
        # (a large grid's certificate checks settle cells by their lines' open cells: see _still_fails)
        small = fits and original.size <= LARGE_CELLS
        self.every_cell = np.arange(original.size, dtype=np.int64) if small else None
        # a large rectangle takes the large-grid path (docs/decisions.md, "At scale")
        self.large = shape.large_path and original.size > LARGE_CELLS
        # refine's ``quick`` (rofl make --effort 0) on a large grid: greedy rounds
        # that judge moves together, sparse refreshes, smaller plateau rounds
        # and a revert pass with a budget (docs/decisions.md, "At scale")
        self.quick = quick and self.large and original.size <= QUICK_MOST_CELLS
        # a grid of more than FAR_REUSE_CELLS cells at the default effort (docs/decisions.md, "At scale")
        self.far = self.large and not self.quick and original.size > FAR_REUSE_CELLS
        # ...with no polishing or relocation after its revert pass (refine's ``lean``: the default
        # effort), where certificates serve that revert pass alone (docs/benchmarks.md, "Certificates
        # on a lean far grid")
        self.lean = self.far and lean
        self.plateau_most = shape.plateau_most(self.large)
        if self.quick or self.far:
            share = QUICK_PLATEAU_SHARE if self.quick else FAR_PLATEAU_SHARE
            self.plateau_most = min(self.plateau_most, max(2, int(share * min(original.shape))))

    def work(self) -> int:
        """Line solves so far, judged and estimated: the measure of the
        work done that budgets count (the same on any machine)."""
        return self.line_solves + self.shape.estimated()

    def judge(self, grid: np.ndarray, near: _State | None = None) -> _State:
        """Judge a grid the honest way: its clues alone, from nothing known.

        With ``near``, a judged grid that differs from ``grid`` in a few
        cells, a shape that records its solves replays ``near``'s wherever
        the two puzzles agree (:meth:`~rofl.refine.judge.Judge.replay`):
        the same fixpoint for a fraction of the line solves."""
        packed, result, record = self.shape.judge(grid, near)
        self.line_solves += result.line_solves
        self.evaluations += 1
        return _State(grid, packed, result, record)

    def judge_with(self, state: _State, where, colours) -> _State:
        """:meth:`judge` of ``state``'s grid with the flat cells ``where`` set to ``colours``."""
        grid = state.grid.copy()
        grid.reshape(-1)[where] = colours
        return self.judge(grid, state)

    # ------------------------------------------------------------- greedy

    def greedy(
        self, state: _State, frozen: np.ndarray, progress=None, verify: int | None = None, limit: int | None = None
    ) -> _State:
        """Change undetermined cells, one way each, until line logic solves the
        grid or every undetermined cell is frozen.  ``frozen`` is updated.

        With ``limit``, give up (return the stalled state) rather than make
        more than ``limit`` changes, and never batch moves on a plateau."""
        verify = self.shape.verify if verify is None else verify
        estimates = _Estimates(self.shape)
        if self.large and limit is None:
            estimates.judged = {}
        flat_frozen = frozen.reshape(-1)
        rounds = made = 0
        while state.result.status == LineStatus.STALLED:
            if limit is not None and made >= limit:
                break
            undetermined = state.undetermined
            if progress is not None:
                progress(undetermined)
            moves = self._estimated_moves(state, flat_frozen, estimates, rounds, undetermined)
            if moves is None:
                break  # every undetermined cell is frozen: the caller decides
            # With every move estimated just now (the estimates are lower
            # bounds), the last move a limited repair may make is worth
            # judging only where its estimate leaves nothing undetermined.
            last = limit is not None and made + 1 >= limit and moves.fresh
            if last and moves.scores.min() > 0:
                break  # the repair cannot succeed
            keys = (moves.added, moves.second, moves.scores)
            quick = self._quick_batch(state, moves, keys, undetermined) if self.quick and limit is None else None
            if quick is not None:
                (chosen, trial), batched = quick, False
            else:
                taken = self._best_round(state, moves, keys, estimates, undetermined, verify, last, limit)
                if taken is None:
                    break
                chosen, trial, batched = taken
            new_undetermined = trial.undetermined
            where = moves.where[chosen]
            if self.shape.certificates and not self.lean:
                # The stalled grid before this round is where putting these
                # cells back would lead: proof that the revert pass cannot.
                # (A lean far grid's revert pass finds them too far: most
                # checks of one fail to prove and cost more than a judge.)
                self._remember_failure(where.tolist(), state.grid, state.result.masks)
            flat_frozen[where] = True
            self.when.reshape(-1)[where] = self.iterations
            made += len(chosen)
            self.iterations += 1 if self.shape.count_rounds else len(chosen)
            rounds += 1
            if self.quick:  # no periodic refresh: after a round that gained nothing, or a plateau
                # round off a wide plateau (most cells open, where few estimates move)
                wide = 2 * undetermined > self.shape.n_cells
                estimates.refresh = (batched and not wide) or new_undetermined >= undetermined
            else:
                estimates.refresh = self.shape.refresh(
                    batched=batched, gained=new_undetermined < undetermined, n_moves=moves.where.size, rounds=rounds
                )
            if self.large:
                narrowed = np.flatnonzero(state.result.masks.reshape(-1) != trial.result.masks.reshape(-1))
                estimates.stale[self.shape.move_lines(narrowed)] = True
                estimates.stale[self.shape.move_lines(where)] = True
                if estimates.judged is not None:
                    _forget_touched(estimates.judged, where, narrowed, self.shape)
            state = trial
        return state

    def _estimated_moves(
        self, state: _State, frozen: np.ndarray, estimates: _Estimates, rounds: int, undetermined: int
    ) -> _Moves | None:
        """The round's moves -- one per open cell, to its cheapest allowed
        colour -- with their estimates, or None when every undetermined
        cell is frozen.

        The estimate (compiled) resumes from the stalled state and
        propagates from the changed cell's lines only.  The state still
        contains the changed grid (the new colour was possible there), so
        this never fails; it may keep deductions only the old clues
        justified, hence the honest judge after it.  Estimates far from the
        last change rarely move, so between full refreshes only the
        promising moves and those never estimated are estimated again."""
        result, shape = state.result, self.shape
        where, colours, added = cheapest_moves(
            state.grid.reshape(-1), self.flat_cost, result.masks.reshape(-1), ~result.known.reshape(-1) & ~frozen
        )
        if where.size == 0:
            return None
        known = estimates.stored[where]
        pick = known < 0
        if estimates.refresh and self.large and rounds > 0:
            if self.quick:  # one move in QUICK_REFRESH_PART, in turn
                estimates.turn += 1
                pick |= where % QUICK_REFRESH_PART == estimates.turn % QUICK_REFRESH_PART
            else:
                stale = estimates.stale[shape.move_lines(where)].any(axis=1)
                if self.far and 2 * undetermined > shape.n_cells:  # a wide plateau: one stale move in FAR_REFRESH_PART
                    estimates.turn += 1
                    stale &= where % FAR_REFRESH_PART == estimates.turn % FAR_REFRESH_PART
                pick |= stale
            pick[shape.lazy(known)] = True
            estimates.stale[:] = False
        elif estimates.refresh or where.size <= shape.lazy_top:
            pick[:] = True
        else:
            pick[shape.lazy(known)] = True
        idx = np.flatnonzero(pick)
        self.estimates += idx.size
        estimates.stored[where[idx]], estimates.tie[where[idx]] = shape.estimate(state, where[idx], colours[idx])
        scores = shape.scores(estimates.stored[where], undetermined)
        # Among moves that determine equally many cells -- on a plateau,
        # where no single change determines anything, that is all of them --
        # prefer the one that most tightens its lines (fewer arrangements,
        # less slack), less its visual cost in units of a typical change:
        # that walks towards a foothold for line logic.
        positive = added[added > 0]
        scale = _median(positive) if positive.size else 1.0
        second = estimates.tie[where] + added / scale
        return _Moves(where, colours, added, scores, second, bool(pick.all()))

    def _best_round(
        self,
        state: _State,
        moves: _Moves,
        keys,
        estimates: _Estimates,
        undetermined: int,
        verify: int,
        last: bool,
        limit: int | None,
    ) -> tuple[np.ndarray, _State, bool] | None:
        """A greedy round's move: the best judged (:meth:`_judge_best`), or
        off a plateau (it gains nothing) a batch of moves
        (:meth:`_plateau_round`) when that leaves no more undetermined --
        ``(moves, judged state, batched)``, or None (no move to make)."""
        wide = self.shape.wide_plateaus_only and 2 * undetermined > self.shape.n_cells
        gain = undetermined - int(moves.scores.min())  # the best estimated gain
        # on a far grid's greedy pass, judging single moves that cannot gain enough does not pay
        hopeless = self.far and limit is None and gain < FAR_JUDGE_LEAST
        if (wide and gain <= 0) or hopeless:
            # No estimate gains, and estimates never undercount: judging single
            # moves would only confirm the plateau (a full solve each).
            best = (undetermined, int(_lexsort_head(keys, 1)[0]), None)
        else:
            best = self._judge_best(state, moves, keys, verify, last, estimates.judged)
        if best is None:
            return None
        new_undetermined, i, trial = best
        plateau = wide or not self.shape.wide_plateaus_only
        if new_undetermined >= undetermined and limit is None and plateau:
            batch = self._plateau_round(state, moves, keys, estimates, undetermined)
            if batch is not None and (trial is None or batch[1].undetermined <= new_undetermined):
                return batch[0], batch[1], True
        if trial is None:  # the plateau's best single move, not judged yet
            trial = self.judge_with(state, moves.where[i], moves.colours[i])
        return np.array([i]), trial, False

    def _quick_batch(self, state: _State, moves: _Moves, keys, undetermined: int) -> tuple[np.ndarray, _State] | None:
        """A quick greedy round (:attr:`quick`): the best-estimated moves
        that gain, each in a row and column no better one uses,
        ``QUICK_BATCH`` at most, judged together and taken if the grid then
        gains; if it does not, the better half of them, and so on down to
        two -- ``(moves, judged state)``; None for fewer than two such
        moves or no gain (the round then goes on as usual)."""
        gaining = moves.scores < undetermined
        n = int(np.count_nonzero(gaining))
        if n < 2:
            return None
        order = _lexsort_head(keys, min(n, self.shape.lazy_top))
        batch = plateau_batch(order[gaining[order]], self.shape.move_lines(moves.where), QUICK_BATCH)
        while len(batch) >= 2:
            trial = self.judge_with(state, moves.where[batch], moves.colours[batch])
            if trial.undetermined < undetermined:
                return batch, trial
            batch = batch[: len(batch) // 2]  # the better half (plateau_batch keeps the order)
        return None

    def _judge_best(self, state: _State, moves: _Moves, keys, verify: int, last: bool, judged=None):
        """Judge the best-estimated moves by full solves and return the best
        ``(undetermined, move, state)``, or None.  The estimate is a lower
        bound on the true count (resuming below the top of the lattice can
        only reach a narrower fixpoint), so judging in estimate order stops
        as soon as no remaining estimate could beat the best judged result.

        With ``judged`` (the greedy pass of a large grid: see
        :func:`_forget_touched`), a move judged in an earlier round whose
        lines nothing has touched since counts with the gain it was judged
        to make then, without a solve; only the winner is judged again."""
        best = None
        undetermined = state.undetermined
        flat_masks = state.result.masks.reshape(-1)
        for i in _lexsort_head(keys, verify)[:verify].tolist():
            estimate, key = int(moves.scores[i]), float(moves.second[i])
            if (best is not None and (estimate, key) >= best[0]) or (last and estimate > 0):
                break
            cell, colour = int(moves.where[i]), int(moves.colours[i])
            kept = None if judged is None else judged.get(cell)
            if kept is not None and kept[0] == colour:
                score, trial = (undetermined - kept[1], key), None
            else:
                trial = self.judge_with(state, moves.where[i], moves.colours[i])
                score = (trial.undetermined, key)
                if judged is not None:
                    narrowed = np.flatnonzero(flat_masks != trial.result.masks.reshape(-1))
                    lines = np.unique(self.shape.move_lines(np.append(narrowed, cell)))
                    judged[cell] = (colour, undetermined - score[0], lines)
            if best is None or score < best[0]:
                best = (score, i, trial)
        if best is None:
            return None
        (score, _), i, trial = best
        if trial is None:  # a kept gain won: judge it now, honestly
            trial = self.judge_with(state, moves.where[i], moves.colours[i])
            score = trial.undetermined
        return score, i, trial

    def _plateau_round(self, state: _State, moves: _Moves, keys, estimates: _Estimates, undetermined: int):
        """On a plateau no single change determines anything.  There the
        tightening of a move's lines does not depend on moves on other lines,
        so the best tightening moves of as many distinct lines as possible
        go in one round (the revert pass later drops those that turn out
        unneeded): ``(moves, judged state)``, or None for fewer than two."""
        order = self.shape.plateau_candidates(np.lexsort(keys), moves.scores, estimates.tie[moves.where], undetermined)
        batch = plateau_batch(order, self.shape.move_lines(moves.where), self.plateau_most)
        if len(batch) <= 1:
            return None
        return batch, self.judge_with(state, moves.where[batch], moves.colours[batch])

    # ----------------------------------------------------------- fallback

    def fallback(self, state: _State, user_locked: np.ndarray, frozen: np.ndarray) -> _State:
        """Last resort, one step: blank the line (of the shape's
        ``fallback_lines`` first ones) with the most undetermined cells, its
        cells not ``user_locked``, and freeze it (:func:`blank_line`).  A
        blank line stays blank and an all-blank picture is trivially
        solvable, so repeating this ends."""
        work, cells = blank_line(
            state.grid.reshape(-1), state.result.known.reshape(-1), user_locked.reshape(-1),
            self.shape.line_cells, self.shape.line_offsets, self.shape.fallback_lines,
        )  # fmt: skip
        frozen.reshape(-1)[cells] = True
        if self.shape.count_rounds:
            self.iterations += 1
        return self.judge(work.reshape(state.grid.shape), state)

    # ------------------------------------------------------------- revert

    def revert(
        self,
        state: _State,
        cells: np.ndarray,
        progress: Callable[[int, int], None] | None = None,
        budget: int | None = None,
    ) -> tuple[_State, int]:
        """Put back every one of ``cells`` (changed, flat indices) whose
        original colour keeps the puzzle line-solvable.  ``progress`` is
        called with the cells tried so far in a pass and the pass's total.

        On a rectangle the latest changes are tried first (ties: the most
        visible first): early changes, made while line logic knew little,
        are what later changes were chosen around, and trying them last
        keeps fewer changes in the end on every benchmark picture; on a
        hexagon the most visible first.  Putting one cell back can make
        another one's change unnecessary, so the cells that stayed are
        tried again until a pass puts none back.

        Changes are tried in runs (see below), except on a large grid
        (more than ``LARGE_CELLS`` cells), where they go one at a time.  With
        ``budget`` (refine's ``quick``), stops once :meth:`work` reaches it."""
        if len(cells) == 0:
            return state, 0
        original = self.original.reshape(-1)
        cost = self.flat_cost
        saving = cost[cells, state.grid.reshape(-1)[cells]] - cost[cells, original[cells]]
        recency = (-self.when.reshape(-1)[cells],) if self.shape.revert_latest_first else ()
        todo = np.lexsort((-saving, *recency))
        reverted = 0
        # On a large grid runs do not pay: half the changes or more stay, a
        # run of two fails about three times in four, and every failed run
        # is a judge wasted (see docs/decisions.md, "At scale").
        large = self.large
        # A change that could not go back is tried again after the grid has
        # changed since; while it has not, the same trial would fail again.
        failed_at = np.full(len(cells), -1, dtype=np.int64)
        while len(todo):
            # Most changes of a long greedy pass turn out unnecessary, so try
            # them in runs: a run that can go back goes back in one solve
            # (and the next run is twice as long, but on a large grid stays
            # one change); one that cannot is halved.
            passing = todo
            if self.shape.skip_failed_in_runs:
                passing = todo[failed_at[todo] != reverted]
            kept = []
            i, size = 0, 1
            while i < len(passing):
                if progress is not None:
                    progress(i, len(passing))
                if budget is not None and self.work() >= budget:
                    return state, reverted
                if failed_at[passing[i]] == reverted:
                    kept.append(passing[i])
                    i += 1
                    continue
                run = passing[i : i + size]
                if size > 1:  # (the first one is not known to fail: see above)
                    known_to_fail = np.flatnonzero(failed_at[run] == reverted)
                    if len(known_to_fail):
                        run = run[: known_to_fail[0]]
                where = cells[run]
                trial_grid = state.grid.copy()
                trial_grid.reshape(-1)[where] = original[where]
                cell = int(where[0])
                # The first cell's certificate (see _still_fails) also proves
                # that a whole run cannot go back, if it stays ambiguous.
                if self._still_fails(cell, trial_grid, state):
                    if len(run) > 1:
                        size //= 2
                        continue
                    failed_at[passing[i]] = reverted
                    kept.append(passing[i])
                    i += 1
                    continue
                trial = self.judge(trial_grid, state)
                if trial.result.status == LineStatus.SOLVED:
                    state = trial
                    reverted += len(run)
                    i += len(run)
                    if not large:
                        size *= 2
                elif len(run) > 1 or (size > 1 and self.shape.retry_short_runs):
                    size //= 2
                else:
                    # A run cut to its first cell fails for good: halving
                    # ``size`` down to 1 would only repeat this same solve.
                    size = 1
                    if self.shape.certificates:
                        self._remember_failure([cell], trial_grid, trial.result.masks)
                    failed_at[passing[i]] = reverted
                    kept.append(passing[i])
                    i += 1
            # what stays to try: the changes this pass left out or kept (flags: np.isin sorts)
            still = np.ones(len(cells), dtype=bool)
            still[passing] = False
            still[np.asarray(kept, dtype=np.intp)] = True
            still = still[todo]
            todo = todo[still] if np.count_nonzero(still) < len(todo) else ()
        return state, reverted

    def polish(
        self,
        state: _State,
        user_locked: np.ndarray,
        effort: float,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
        budget: int | None = None,
    ) -> tuple[_State, int]:
        """Iterated local repair: undo a few nearby changes, let the greedy
        loop mend the picture near them (the undone cells and the other
        changes held), and put back what is no longer needed; keep the
        outcome unless it changes more cells (or as many, more visibly).

        Makes about ``effort`` attempts per changed cell (counting at most
        ``POLISH_MOST`` changed cells: a picture with many more changes is
        mostly fine texture, where each attempt costs more and gains less),
        and stops early after as many attempts in a row without fewer
        changes, or once :meth:`work` reaches ``budget``."""
        original = self.original
        rng = np.random.default_rng(seed)
        best_cost = self._visible(state.grid)
        attempts = int(np.ceil(effort * _polish_unit(np.count_nonzero(state.grid != original))))
        rounds = 0
        failures = 0
        while rounds < attempts:
            changed = np.argwhere(state.grid != original)
            if len(changed) == 0 or failures > effort * _polish_unit(len(changed)):
                break
            if budget is not None and self.work() >= budget:
                break
            rounds += 1
            if progress is not None:
                progress(rounds, attempts)
            centre = changed[rng.integers(len(changed))]
            near = np.argsort(np.abs(changed - centre).max(axis=1), kind="stable")
            undo = changed[near[: rng.integers(1, POLISH_UNDO + 1)]]
            trial_grid = state.grid.copy()
            trial_grid[undo[:, 0], undo[:, 1]] = original[undo[:, 0], undo[:, 1]]
            # Undoing even a few changes can leave line logic with almost
            # nothing, so the repair is kept near them (a far one is rarely
            # better and costs many estimates), and the undone cells stay
            # undone so that it finds another way.  It is worth finishing
            # only while it could still come out ahead once the revert pass
            # has had its say.
            region = np.zeros(original.shape, dtype=bool)
            for r, c in undo - POLISH_RADIUS:
                region[max(0, r) : r + 2 * POLISH_RADIUS + 1, max(0, c) : c + 2 * POLISH_RADIUS + 1] = True
            frozen = user_locked | (state.grid != original) | ~region
            trial = self.greedy(self.judge(trial_grid, state), frozen, verify=POLISH_VERIFY, limit=len(undo) + 1)
            if trial.result.status != LineStatus.SOLVED:
                failures += 1
                continue
            # Only changes that share a row or column with a cell this round
            # touched are likely to have become unnecessary.
            touched = trial.grid != state.grid
            touched[undo[:, 0], undo[:, 1]] = True
            near = (trial.grid != original) & (touched.any(axis=1)[:, None] | touched.any(axis=0)[None, :])
            trial, _ = self.revert(trial, np.flatnonzero(near))
            n_old, n_new = np.count_nonzero(state.grid != original), np.count_nonzero(trial.grid != original)
            trial_cost = self._visible(trial.grid)
            if n_new < n_old or (n_new == n_old and trial_cost <= best_cost):
                failures = 0 if n_new < n_old else failures + 1
                state, best_cost = trial, trial_cost
            else:
                failures += 1
        return state, rounds

    def relocate(
        self,
        state: _State,
        user_locked: np.ndarray,
        passes: int,
        progress: Callable[[int, int], None] | None = None,
        *,
        pairs: bool = False,
        budget: int | None = None,
    ) -> tuple[_State, int]:
        """Move changes: put one change back, make instead a single change
        anywhere else that makes the puzzle line-solvable again, and keep
        that if the revert pass can then put back at least one other change
        (a two-for-one swap that polishing's local repairs miss: the new
        cell is often far from the old one).  Returns the state and the
        number of changes moved.

        The single changes that could work are found without a solve each.
        Let ``G`` be the grid with the change put back and ``M`` its stalled
        fixpoint; a candidate recolours one open cell to a colour its mask
        in ``M`` still allows, giving ``G'``.  ``G'`` lies in ``M`` and
        satisfies its own clues, so propagating ``G'``'s clues from ``M``
        (the estimate) cannot contradict and reaches a fixpoint of ``G'``'s
        puzzle, inside the greatest one -- the one a solve from nothing
        known reaches.  So a candidate whose estimate leaves a cell
        undetermined fails, and only the others (a few in a thousand) are
        judged, the least visible first; the first ``RELOCATE_TRIES`` of
        them that solve get a revert pass (nearly every swap that gains is
        the first or second).

        A change whose undoing leaves more than ``RELOCATE_OPEN`` of the
        cells (and more than ``RELOCATE_OPEN_CELLS``) undetermined -- one
        that much of line logic's deductions hang on -- stays: its search
        costs the most estimates, with the longest cascades, and finds a
        swap about half as often.  Every other change is tried once per
        pass; up to ``passes`` passes, while one gains.

        With ``pairs``, a change for which no such swap gains is also put
        back together with each of the ``PAIR_PARTNERS`` changes nearest to
        it, and the same filter looks for a single change anywhere that
        makes that grid line-solvable: two changes for one.  A pair is not
        tried again until the grid has changed.

        On a large grid (more than ``LARGE_CELLS`` cells) the new change
        is looked for within ``RELOCATE_REACH`` of the one put back, and a
        swap's revert pass tries only the changes in the rows and columns of
        those two cells (the caller then runs one over all changes).  Stops
        once :meth:`work` reaches ``budget``.
        """
        original = self.original
        open_limit = max(RELOCATE_OPEN * original.size, RELOCATE_OPEN_CELLS)
        moved = 0
        tried_pairs: set[frozenset] = set()
        for _ in range(passes):
            gained = False
            cells = np.argwhere(state.grid != original)
            for done, cell in enumerate(map(tuple, cells)):
                if progress is not None:
                    progress(done, len(cells))
                if budget is not None and self.work() >= budget:
                    return state, moved
                if state.grid[cell] == original[cell]:
                    continue  # put back earlier in this pass
                trial_grid = state.grid.copy()
                trial_grid[cell] = original[cell]
                undone = self.judge(trial_grid, state)
                if undone.result.status == LineStatus.SOLVED:  # only after a relocation
                    state, gained = undone, True
                    continue
                self._remember_failure([self._flat(cell)], trial_grid, undone.result.masks)
                changed = state.grid != original
                frozen = user_locked | changed  # the cell too: it was just undone
                swapped = None
                if undone.undetermined <= open_limit:  # else costly to search, and rarely moves
                    swapped = self._swap_in(undone, frozen, RELOCATE_TRIES, np.count_nonzero(changed), cell)
                if swapped is None and pairs:
                    # No single change elsewhere lets another go back: try
                    # putting back a nearby change too and making one change
                    # instead of the two.
                    swapped = self._pair_swap(state, cell, np.argwhere(changed), frozen, open_limit, tried_pairs)
                if swapped is not None:
                    state, gained = swapped, True
                    moved += 1
                    tried_pairs.clear()  # in the new grid they may work
            if not gained:
                break
        return state, moved

    def _swap_in(self, undone: _State, frozen: np.ndarray, tries: int, beat: int, around) -> _State | None:
        """The grid of ``undone`` (stalled) with one more change anywhere
        that makes it line-solvable, and after a revert pass fewer than
        ``beat`` changes -- or None.  Changes are looked for among the open
        cells not ``frozen`` (see :meth:`relocate` for the filter), the
        least visible first; at most ``tries`` of those that solve get a
        revert pass.  On a large grid only cells within
        ``RELOCATE_REACH`` of ``around`` (the change put back) are
        candidates."""
        original, grid, masks = self.original, undone.grid, undone.result.masks
        candidates = ~undone.result.known & ~frozen
        if original.size > LARGE_CELLS:
            top, left = around[0] - RELOCATE_REACH, around[1] - RELOCATE_REACH
            window = np.zeros(original.shape, dtype=bool)
            window[max(0, top) : top + 2 * RELOCATE_REACH + 1, max(0, left) : left + 2 * RELOCATE_REACH + 1] = True
            candidates &= window
        moves = _all_moves(grid, masks, candidates, self.k)
        newly, _, _ = self.shape.lines.estimate_moves(grid, masks, undone.packed, moves, counts=False)
        hopeful = moves[newly == undone.undetermined]
        rows, cols = hopeful[:, 0], hopeful[:, 1]
        added = self.cost[rows, cols, hopeful[:, 2]] - self.cost[rows, cols, grid[rows, cols]]
        for r, c, colour in hopeful[np.argsort(added, kind="stable")]:
            swapped_grid = grid.copy()
            swapped_grid[r, c] = colour
            swapped = self.judge(swapped_grid, undone)
            if swapped.result.status != LineStatus.SOLVED:
                continue
            others = swapped_grid != original
            if original.size > LARGE_CELLS:
                # Only changes in the rows and columns of the two cells this
                # swap touched are tried (as polishing does): a full pass
                # over the changes follows relocation (see refine).
                near = np.zeros(original.shape, dtype=bool)
                near[[r, around[0]], :] = True
                near[:, [c, around[1]]] = True
                others &= near
            swapped, _ = self.revert(swapped, np.flatnonzero(others))
            if np.count_nonzero(swapped.grid != original) < beat:
                return swapped
            tries -= 1
            if tries <= 0:
                break  # the first that solve are the ones that gain
        return None

    def _pair_swap(
        self, state: _State, cell, changed: np.ndarray, frozen: np.ndarray, open_limit: float, tried: set[frozenset]
    ) -> _State | None:
        """Two for one: put back ``cell`` and one of the ``PAIR_PARTNERS``
        changes nearest to it (``changed``: ``state``'s changed cells,
        ``(N, 2)``), and make one change anywhere instead that makes the
        puzzle line-solvable (then revert) -- or None.  Pairs in ``tried``
        are skipped, and every pair tried is added to it."""
        original = self.original
        distance = np.abs(changed - np.asarray(cell)).max(axis=1)
        for j in np.argsort(distance, kind="stable")[1 : PAIR_PARTNERS + 1]:
            partner = tuple(changed[j])
            pair = frozenset((cell, partner))
            if pair in tried:
                continue
            tried.add(pair)
            trial_grid = state.grid.copy()
            trial_grid[cell] = original[cell]
            trial_grid[partner] = original[partner]
            undone = self.judge(trial_grid, state)
            if undone.result.status == LineStatus.SOLVED:
                return self.revert(undone, np.flatnonzero(trial_grid != original))[0]
            if undone.undetermined > open_limit:
                continue
            swapped = self._swap_in(undone, frozen, 1, len(changed), cell)
            if swapped is not None:
                return swapped
        return None

    def _flat(self, cell: tuple[int, int]) -> int:
        """The flat index of a rectangle's cell ``(row, col)``."""
        return int(cell[0]) * self.original.shape[1] + int(cell[1])

    def _remember_failure(self, cells, grid: np.ndarray, masks: np.ndarray) -> None:
        """Keep the stalled fixpoint ``masks`` of ``grid``, in which each of
        ``cells`` has its original colour, as a certificate that putting
        them back fails (see :meth:`_still_fails`): the grid as its cells
        that differ from the original, and the fixpoint's undetermined
        cells.  One certificate shared by several cells (a plateau batch)
        counts once towards ``FAILURE_BYTES``."""
        flat_grid, flat_masks = grid.reshape(-1), masks.reshape(-1)
        if self.every_cell is not None:  # a small grid (see __init__)
            failure = _Failure(self.every_cell, flat_grid, self.every_cell, flat_masks)
        else:
            diff = (flat_grid != self.original.reshape(-1)).nonzero()[0]
            is_open = (flat_masks & (flat_masks - 1)) != 0
            open_ = is_open.nonzero()[0]
            open_masks = flat_masks[open_]
            if not self.compact_failures:
                failure = _Failure(diff, flat_grid[diff], open_, open_masks)
            else:  # stored small (a large grid's certificates are many and wide)
                diff, open_masks = diff.astype(np.int32), open_masks.astype(np.uint8)
                if 32 * open_.size <= flat_masks.size:
                    failure = _Failure(diff, flat_grid[diff], open_.astype(np.int32), open_masks)
                else:  # many cells open: a bit a cell takes less than an index and a mask (5 bytes) an open cell
                    if self.k == 2:  # every open cell allows both colours: no masks
                        open_masks = open_masks[:0]
                    bits = np.packbits(is_open)
                    failure = _Failure(diff, flat_grid[diff], bits, open_masks, is_open.size, full_mask(self.k))
        for cell in cells:
            self._forget(cell)
            self.failures[cell] = failure
            self._hold(failure, 1)
        while self.failure_bytes > self.failure_budget:
            self._forget(next(iter(self.failures)))

    def _hold(self, failure: _Failure, step: int) -> None:
        """Count one more (``step`` 1) or one fewer (-1) cell holding ``failure``."""
        key = id(failure)
        held = self.failure_holders.get(key, 0) + step
        if held == step == 1:
            self.failure_bytes += failure.nbytes
        elif held == 0:
            self.failure_bytes -= failure.nbytes
        if held:
            self.failure_holders[key] = held
        else:
            del self.failure_holders[key]

    def _forget(self, cell) -> None:
        failure = self.failures.pop(cell, None)
        if failure is not None:
            self._hold(failure, -1)

    def _still_fails(self, cell, grid: np.ndarray, near: _State) -> bool:
        """Whether putting ``cell`` back, giving ``grid`` (``near``'s grid
        with a few cells changed), provably leaves the puzzle ambiguous
        again, without a full solve.

        The certificate: the stalled fixpoint ``M`` of the last grid ``G``
        in which putting ``cell`` back failed.  Widen ``M`` by ``grid``'s
        colours where ``grid`` differs from ``G`` and propagate from there
        with the rows and columns of those cells queued (every other line is
        unchanged and at its fixpoint in ``M``).  That reaches a fixpoint of
        ``grid``'s puzzle which contains ``grid``; propagation from nothing
        known reaches the greatest fixpoint, which contains every other
        one.  So when this one still has an undetermined cell, so has line
        logic's answer: the trial fails.  Otherwise it proves nothing and the
        trial is judged."""
        failure = self.failures.get(cell)
        if failure is None:
            return False
        large = self.original.size > LARGE_CELLS
        if self.lean:
            limit = FAR_CHECK_REUSE
        else:
            limit = LARGE_FAILURE_REUSE if self.original.size > FAR_REUSE_CELLS else FAILURE_REUSE
        result = self.shape.lines.resume_certificate(
            grid,
            near.grid,
            near.packed,
            self.original,
            failure.certificate(),
            limit,
            settle=large,
            wide=False if self.k <= 8 else None,
        )
        if result is None:
            return False  # too far from the certificate to be cheaper than a solve
        self.line_solves += result.line_solves
        if result.status != LineStatus.STALLED:
            return False
        self._remember_failure([cell], grid, result.masks)  # a nearer certificate for next time
        return True

    def _visible(self, grid: np.ndarray) -> float:
        rows, cols = np.indices(grid.shape)
        return float((self.cost[rows, cols, grid] - self.cost[rows, cols, self.original]).sum())


def _forget_touched(judged: dict, where: np.ndarray, narrowed: np.ndarray, shape) -> None:
    """Drop from ``judged`` (flat cell -> (colour, gain, lines)) the moves
    a greedy round's changes ``where`` may have changed the gain of: those
    whose lines (their own and those of every cell their judge narrowed)
    include a line of ``where`` or of a cell the round narrowed
    (``narrowed``).  For any other move, each line holds the narrowing of
    one move at most, so the two narrowings together are a fixpoint of the
    two changes' clues; its judge is not repeated (the greedy pass judges
    the move it takes anyway)."""
    touched = np.zeros(shape.n_lines, dtype=bool)
    touched[shape.move_lines(np.concatenate([where, narrowed]))] = True
    for cell in [c for c, (_, _, lines) in judged.items() if touched[lines].any()]:
        del judged[cell]
    for cell in where.tolist():
        judged.pop(cell, None)


def _polish_unit(n_changed: int) -> int:
    """Polishing's attempts per unit of effort for ``n_changed`` changes (and
    its patience: failed attempts in a row before it stops)."""
    return min(n_changed + POLISH_EXTRA, POLISH_MOST)


def _allowed_moves(
    cells: np.ndarray, masks: np.ndarray, open_cells: np.ndarray, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """The open cells (flat indices, in order) and, per cell and colour,
    whether line logic still allows that other colour there: ``(N, K)``.
    ``cells`` and ``masks`` are flat, ``open_cells`` a flat bool array."""
    where = np.flatnonzero(open_cells)
    allowed = ((masks[where][:, None] >> np.arange(k, dtype=np.int64)) & 1) != 0
    allowed[np.arange(where.size), cells[where]] = False
    return where, allowed


def cheapest_moves(
    cells: np.ndarray, cost: np.ndarray, masks: np.ndarray, open_cells: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One move per open cell, on a board of any shape: to the cheapest other
    colour line logic still allows there.

    Parameters
    ----------
    cells : (n_cells,) uint8 array of palette indices, the board's flat order
    cost : (n_cells, K) float64 array
    masks : (n_cells,) int64 array of possible colours (bit ``k``: colour ``k``)
    open_cells : (n_cells,) bool array of the cells that may change

    Returns
    -------
    where, colours, added : (M,) arrays
        The moves' flat cells, new colours and the cost each adds.
    """
    where, allowed = _allowed_moves(cells, masks, open_cells, cost.shape[1])
    added = cost[where, :] - cost[where, cells[where]][:, None]
    added = np.where(allowed, added, np.inf)
    colour = np.argmin(added, axis=1) if where.size else np.zeros(0, dtype=np.intp)
    best = added[np.arange(where.size), colour]
    usable = np.isfinite(best)
    return where[usable], colour[usable], best[usable]


def _all_moves(grid: np.ndarray, masks: np.ndarray, open_cells: np.ndarray, k: int) -> np.ndarray:
    """Every move of an open cell to another colour line logic still allows
    there, as ``(M, 3)`` rows of ``(row, col, colour)``: row-major, colours
    in order within a cell."""
    where, allowed = _allowed_moves(grid.ravel(), masks.ravel(), open_cells.ravel(), k)
    which, colour = np.nonzero(allowed)
    rows, cols = np.divmod(where[which], grid.shape[1])
    return np.stack([rows, cols, colour], axis=1).astype(np.int64)


def plateau_batch(order: np.ndarray, lines: np.ndarray, most: int) -> np.ndarray:
    """Moves for one plateau round, on a board of any shape: in ``order``
    (indices of moves), each whose lines no earlier pick uses, ``most`` at
    most.

    ``lines`` is ``(n_moves, D)``: the line of each move's cell in each of
    the board's ``D`` directions (a rectangle's row and column, a
    hexagon's three).  Once every line of one direction is used no other
    move can join, so ``most`` past the fewest lines of a direction changes
    nothing."""
    used: set[int] = set()
    batch = []
    # plain ints (a loop over numpy scalars took 30 ms a round on a 400x400 plateau)
    for i, its_lines in zip(order.tolist(), lines[order].tolist(), strict=True):
        if not used.isdisjoint(its_lines):
            continue
        used.update(its_lines)
        batch.append(i)
        if len(batch) >= most:
            break
    return np.array(batch, dtype=np.intp)


def blank_line(
    grid: np.ndarray, known: np.ndarray, locked: np.ndarray, line_cells: np.ndarray, line_offsets: np.ndarray,
    lines: int,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The fallback's step on a board of any shape: among its first
    ``lines`` lines (``line_cells``/``line_offsets``: a board's index
    lines), the one with the most undetermined cells and a cell to blank
    (not 0, not ``locked``), the first of equals, blanked.  ``grid``,
    ``known`` and ``locked`` are flat.  Returns the new flat grid and the
    flat cells of the line.

    Raises
    ------
    UnsolvableError
        No line with an undetermined cell has a cell to blank: the locked
        cells keep the puzzle ambiguous.
    """
    starts = line_offsets[:lines]
    unknown = np.add.reduceat((~known[line_cells]).astype(np.int64), starts)
    paintable = np.add.reduceat(((grid != 0) & ~locked)[line_cells].astype(np.int64), starts)
    scores = np.where(paintable > 0, unknown, -1)
    line = int(np.argmax(scores))
    if scores[line] <= 0:
        msg = f"the locked cells keep the puzzle ambiguous: {int(np.count_nonzero(~known))} cells stay undetermined"
        raise UnsolvableError(msg)
    cells = line_cells[line_offsets[line] : line_offsets[line + 1]]
    work = grid.copy()
    work[cells[~locked[cells]]] = 0
    return work, cells


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D float array without NaN, the same
    float, by one partial sort (``np.median`` costs several times as much
    on a greedy round's hundred moves)."""
    half = values.size // 2
    if values.size % 2:
        return float(np.partition(values, half)[half])
    middle = np.partition(values, (half - 1, half))
    return float((middle[half - 1] + middle[half]) / 2)


def _top(values: np.ndarray, n: int) -> np.ndarray:
    """Indices of the ``n`` smallest ``values``, ties to the lower index:
    the set ``np.argsort(values, kind="stable")[:n]`` holds, without sorting
    them all (a greedy round of a large grid has tens of thousands)."""
    if n >= values.size:
        return np.arange(values.size)
    kth = np.partition(values, n - 1)[n - 1]
    below = np.flatnonzero(values < kth)
    ties = np.flatnonzero(values == kth)[: n - below.size]
    return np.concatenate([below, ties])


def _lexsort_head(keys: tuple[np.ndarray, ...], n: int) -> np.ndarray:
    """The first ``n`` of ``np.lexsort(keys)`` (the last key primary), in
    order, sorting only the moves whose primary key could put them there."""
    primary = keys[-1]
    if n >= primary.size:
        return np.lexsort(keys)
    kth = np.partition(primary, n - 1)[n - 1]
    head = np.flatnonzero(primary <= kth)  # in index order: lexsort's ties stay as they were
    return head[np.lexsort(tuple(key[head] for key in keys))][:n]
