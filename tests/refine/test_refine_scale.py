"""Refinement of large grids (more than ``LARGE_CELLS`` cells): the same
guarantees as on small ones, and the failure certificates' memory budget."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.puzzle import Puzzle
from rofl.refine import passes as refine_module
from rofl.refine import refine
from rofl.refine.judge import Judge
from rofl.refine.passes import _top, default_cost
from rofl.solver import LineSolver, solve

from .test_refine import ADVERSARIAL, PALETTES, _rect_run, _revertable, assert_valid


@pytest.fixture
def large_path(monkeypatch):
    """Every grid takes the large-grid path (so small, fast grids test it)."""
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3", "1xN", "one colour"])
def test_the_large_grid_path_makes_a_line_solvable_puzzle_with_no_unneeded_change(name, large_path):
    grid = ADVERSARIAL[name]
    result = refine(grid, PALETTES[max(2, int(grid.max()) + 1)], polish=0)
    assert_valid(result, grid)
    assert _revertable(result, grid) == []


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_the_large_grid_path_with_polish_and_relocation_leaves_no_unneeded_change(name, large_path):
    # Relocation there reverts only near each swap, then once over all changes.
    grid = ADVERSARIAL[name]
    result = refine(grid, PALETTES[max(2, int(grid.max()) + 1)], polish=1, relocate=1)
    assert_valid(result, grid)
    assert _revertable(result, grid) == []


def test_the_large_grid_revert_pass_puts_back_one_change_at_a_time(large_path, monkeypatch):
    grid = ADVERSARIAL["noise"]
    run = _rect_run(default_cost(grid, 2), grid)
    state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
    changed = np.flatnonzero(state.grid != grid)
    assert len(changed) > 10
    tried = []
    judge = refine_module._Run.judge

    def counting(self, trial_grid, near=None):
        if near is not None:
            tried.append(int(np.count_nonzero(trial_grid != near.grid)))
        return judge(self, trial_grid, near)

    monkeypatch.setattr(refine_module._Run, "judge", counting)
    reverted, n_back = run.revert(state, changed)
    assert n_back > 0
    assert tried and set(tried) == {1}
    assert np.count_nonzero(reverted.grid != grid) == len(changed) - n_back


def test_a_budget_stops_polishing_and_relocation(large_path):
    grid = ADVERSARIAL["noise"]
    run = _rect_run(default_cost(grid, 2), grid)
    locked = np.zeros(grid.shape, dtype=bool)
    state = run.greedy(run.judge(grid), locked.copy())
    state, _ = run.revert(state, np.flatnonzero(state.grid != grid))
    spent = run.work()
    polished, rounds = run.polish(state, locked, 1.0, 0, budget=spent)
    assert rounds == 0 and polished is state and run.work() == spent
    moved_state, moved = run.relocate(state, locked, 1, budget=spent)
    assert moved == 0 and moved_state is state and run.work() == spent
    # with room, both do work
    run.polish(state, locked, 1.0, 0, budget=spent + 10**9)
    assert run.work() > spent


def test_large_grid_relocation_looks_for_swaps_near_the_change_put_back(large_path, monkeypatch):
    grid = ADVERSARIAL["noise"]
    monkeypatch.setattr(refine_module, "RELOCATE_REACH", 3)
    spans = []
    original = Judge.estimate_moves

    def recording(self, grid, masks, packed, moves, counts=True):
        if not counts and len(moves):  # relocation's search (the greedy pass counts)
            spans.append(int(max(np.ptp(moves[:, 0]), np.ptp(moves[:, 1]))))
        return original(self, grid, masks, packed, moves, counts)

    monkeypatch.setattr(Judge, "estimate_moves", recording)
    result = refine(grid, PALETTES[2], polish=0, relocate=1)
    assert_valid(result, grid)
    assert spans and max(spans) <= 2 * 3


def test_a_large_grid_is_line_solvable_to_exactly_its_picture():
    # 150 x 150 = 22 500 cells: over LARGE_CELLS, so the real threshold is crossed.
    assert 150 * 150 > refine_module.LARGE_CELLS
    rr, cc = np.indices((150, 150))
    grid = (((rr - 75) ** 2 + (cc - 60) ** 2) < 40**2).astype(np.uint8)
    grid[100:112, 100:112] = np.random.default_rng(5).integers(0, 2, (12, 12))
    result = refine(grid, PALETTES[2], polish=0)
    assert_valid(result, grid)
    assert 0 < result.n_changed < 100


def test_small_grids_do_not_take_the_large_grid_path(monkeypatch):
    # The large-grid greedy pass differs from the small one only in which
    # moves a refresh re-estimates; a threshold above the grid keeps them all.
    grid = ADVERSARIAL["noise"]
    estimated = []
    original = Judge.estimate_moves

    def counting(self, grid, masks, packed, moves, counts=True):
        estimated.append(len(moves))
        return original(self, grid, masks, packed, moves, counts)

    monkeypatch.setattr(Judge, "estimate_moves", counting)
    small = refine(grid, PALETTES[2], polish=0, relocate=0)
    small_estimates = list(estimated)
    estimated.clear()
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)
    large = refine(grid, PALETTES[2], polish=0, relocate=0)
    assert_valid(small, grid)
    assert_valid(large, grid)
    assert sum(estimated) <= sum(small_estimates)


def test_a_certificate_shared_by_several_cells_counts_once():
    # A plateau round of the greedy pass remembers one certificate for
    # every cell it changed: its memory counts once, and is given back
    # when the last of those cells forgets it.
    grid = ADVERSARIAL["noise"]
    run = _rect_run(default_cost(grid, 2), grid)
    masks = np.full(grid.shape, 0b11, dtype=np.int64)
    run._remember_failure([(0, 0), (1, 1), (2, 2)], grid, masks)
    one = next(iter(run.failures.values())).nbytes
    assert run.failure_bytes == one
    run._remember_failure([(3, 3)], grid, masks)
    assert run.failure_bytes == 2 * one
    for cell in [(0, 0), (1, 1)]:
        run._forget(cell)
    assert run.failure_bytes == 2 * one
    run._forget((2, 2))
    assert run.failure_bytes == one


def _compact_run(grid: np.ndarray) -> refine_module._Run:
    """A run that stores certificates small, as on a grid too large for every one at its widest."""
    run = _rect_run(default_cost(grid, max(2, int(grid.max()) + 1)), grid)
    run.compact_failures, run.every_cell = True, None
    return run


@pytest.mark.parametrize("name", ["noise", "noise-4"])
@pytest.mark.parametrize("share", [0.5, 0.01])
def test_a_compact_certificate_is_the_fixpoint_it_was_made_from(name, share):
    # With many cells open the open cells are stored a bit each (and a
    # black-and-white grid's masks not at all); with few, as indices.
    grid = ADVERSARIAL[name]
    k = int(grid.max()) + 1
    rng = np.random.default_rng(5)
    trial = np.where(rng.random(grid.shape) < 0.1, (grid + 1) % k, grid).astype(np.uint8)
    masks = (np.int64(1) << trial).astype(np.int64)
    is_open = rng.random(grid.shape) < share
    masks[is_open] |= np.int64(1) << ((trial[is_open] + 1) % k)
    run = _compact_run(grid)
    run._remember_failure([7], trial, masks)
    failure = run.failures[7]
    diff, colours, open_cells, open_masks = failure.certificate()
    np.testing.assert_array_equal(diff, np.flatnonzero(trial != grid))
    np.testing.assert_array_equal(colours, trial.reshape(-1)[diff])
    np.testing.assert_array_equal(open_cells, np.flatnonzero(is_open))
    np.testing.assert_array_equal(open_masks, masks.reshape(-1)[open_cells])
    assert (failure.bits == grid.size) == (share == 0.5)
    assert failure.nbytes <= 5 * (diff.size + open_cells.size)


@pytest.mark.parametrize("name", ["noise", "checkerboard-3"])
def test_a_far_revert_pass_proves_the_same_failures_with_compact_certificates(name, large_path, monkeypatch):
    # A lean far grid's revert pass makes its own certificates.  Packed into
    # a budget that holds them as bits (not as indices), they prove every
    # failure the certificates at their widest prove: the same changes go
    # back after the same judged grids.
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)
    monkeypatch.setattr(refine_module, "FAR_REFRESH_PART", 1)  # a greedy output with changes that go back
    grid = ADVERSARIAL[name]
    k = int(grid.max()) + 1
    proved = []
    still_fails = refine_module._Run._still_fails

    def counting(self, *args, **kwargs):
        fails = still_fails(self, *args, **kwargs)
        proved[-1] += fails
        return fails

    monkeypatch.setattr(refine_module._Run, "_still_fails", counting)
    outcomes = []
    for compact in (False, True):
        run = _rect_run(default_cost(grid, k), grid, lean=True)
        if compact:
            run.compact_failures, run.every_cell = True, None
            run.failure_budget = 32 * grid.size
        state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
        before = run.evaluations
        proved.append(0)
        reverted, back = run.revert(state, np.flatnonzero(state.grid != grid))
        outcomes.append((reverted.grid, back, run.evaluations - before))
        assert proved[-1] > 0
        if compact:
            assert any(failure.bits == grid.size for failure in run.failures.values())
            assert run.failure_bytes <= run.failure_budget
    assert outcomes[0][1] == outcomes[1][1] > 0
    np.testing.assert_array_equal(outcomes[0][0], outcomes[1][0])
    assert outcomes[0][2] == outcomes[1][2]
    assert proved[0] == proved[1]


def _plateau_rounds(grid: np.ndarray) -> np.ndarray:
    """Cells the greedy pass changes in each round, and the puzzle after a revert pass."""
    run = _rect_run(default_cost(grid, 2), grid)
    state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
    state, _ = run.revert(state, np.flatnonzero(state.grid != grid))
    assert solve(Puzzle.from_grid(state.grid, PALETTES[2])).status == "solved"
    return np.bincount(run.when[run.when >= 0])


def test_a_large_grid_plateau_round_changes_at_most_half_a_side(monkeypatch):
    # Sparse noise starts on a plateau (no single change determines a
    # cell): a round there changes one cell in as many rows and columns as
    # it can, on a large grid at most LARGE_PLATEAU_SHARE of a side's.
    grid = (np.random.default_rng(7).random((40, 40)) < 0.2).astype(np.uint8)
    assert _plateau_rounds(grid).max() > 20
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)
    assert _plateau_rounds(grid).max() == int(refine_module.LARGE_PLATEAU_SHARE * 40) == 20


def test_a_far_grid_plateau_round_changes_at_most_far_plateau_share_of_a_side(monkeypatch):
    # FAR_PLATEAU_SHARE: on a far grid (a photo at 400) smaller plateau
    # rounds, at every effort, and still a line-solvable puzzle
    grid = (np.random.default_rng(7).random((40, 40)) < 0.2).astype(np.uint8)
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)
    most = int(refine_module.FAR_PLATEAU_SHARE * 40)
    assert 2 <= most < int(refine_module.LARGE_PLATEAU_SHARE * 40)
    assert _plateau_rounds(grid).max() == most
    cost = default_cost(grid, 2)
    for lean in (True, False):
        assert refine_module._Run(_rect_run(cost, grid).shape, cost, grid, lean=lean).plateau_most == most
    result = refine(grid, PALETTES[2], polish=2, relocate=2)
    assert_valid(result, grid)


def test_refine_sizes_the_line_cache_to_the_grid(monkeypatch):
    # a large grid a large cache; a small one a megabyte a thousand cells
    # (at least one): the default 64 MB costs it fresh memory pages
    from rofl.refine import refinement

    made = []

    class Recording(LineSolver):
        def __init__(self, cache_mb: float = 64.0) -> None:
            made.append(cache_mb)
            super().__init__(cache_mb)

    monkeypatch.setattr(refinement, "LineSolver", Recording)
    grid = ADVERSARIAL["noise"]
    refine(grid, PALETTES[2], polish=0)
    monkeypatch.setattr(refinement, "LARGE_CELLS", 0)
    refine(grid, PALETTES[2], polish=0)
    small = max(1.0, refine_module.CACHE_MB_PER_CELL * grid.size)
    assert made == [small, refine_module.LARGE_CACHE_MB]
    assert small < 64.0


@pytest.mark.parametrize("n", [1, 5, 12, 256, 400])
def test_the_greedy_rounds_partial_sorts_equal_full_sorts(n):
    # a greedy round ranks tens of thousands of moves but judges a dozen
    rng = np.random.default_rng(n)
    for _ in range(20):
        size = int(rng.integers(1, 300))
        scores = rng.integers(0, 4, size=size)  # many ties
        second = rng.integers(-2, 2, size=size).astype(np.float64)
        added = rng.random(size)
        keys = (added, second, scores)
        assert np.array_equal(refine_module._lexsort_head(keys, n), np.lexsort(keys)[:n])
        gain = -rng.integers(-1, 5, size=size)
        expected = np.sort(np.argsort(gain, kind="stable")[:n])
        assert np.array_equal(np.sort(_top(gain, n)), expected)


class _Shape:
    """The two methods of a rectangle's adapter :func:`_forget_touched` uses, on a 10 x 10 grid."""

    n_lines = 20

    @staticmethod
    def move_lines(where):
        rows, cols = np.divmod(np.asarray(where, dtype=np.int64), 10)
        return np.stack([rows, cols + 10], axis=1)


def test_a_kept_judged_gain_is_forgotten_once_a_round_touches_one_of_its_lines():
    kept = {
        5: (1, 3, np.array([0, 15])),  # row 0, column 5
        22: (1, 2, np.array([2, 12, 13])),  # row 2, columns 2 and 3
        77: (1, 4, np.array([7, 17])),  # row 7, column 7
        99: (0, 1, np.array([9, 19])),  # taken this round
    }
    # the round changed cell 99 and narrowed cell (4, 3): column 3 is touched
    refine_module._forget_touched(kept, np.array([99]), np.array([43]), _Shape)
    assert sorted(kept) == [5, 77]


def _greedy_judged(grid, monkeypatch, *, keep: bool):
    """The greedy pass of ``grid`` on the large-grid path: its state and
    judged grids; with ``keep`` False, every judged gain is forgotten after
    each round (each round judges its candidates again)."""
    if not keep:
        monkeypatch.setattr(refine_module, "_forget_touched", lambda kept, *args: kept.clear())
    run = _rect_run(default_cost(grid, 2), grid)
    state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
    return state, run.evaluations


def test_the_large_greedy_pass_keeps_judged_gains_of_moves_not_taken(large_path, monkeypatch):
    # Sparse noise: a move judged but not taken keeps its judged gain until
    # a round touches one of its lines, so later rounds judge fewer grids;
    # here the pass makes the same changes either way.
    grid = (np.random.default_rng(0).random((60, 60)) < 0.35).astype(np.uint8)
    kept_state, kept_judged = _greedy_judged(grid, monkeypatch, keep=True)
    fresh_state, fresh_judged = _greedy_judged(grid, monkeypatch, keep=False)
    assert kept_state.result.status == fresh_state.result.status == "solved"
    assert solve(Puzzle.from_grid(kept_state.grid, PALETTES[2])).status == "solved"
    assert np.array_equal(kept_state.grid, fresh_state.grid)
    assert kept_judged < 0.9 * fresh_judged


def test_a_large_greedy_pass_stalled_on_cells_it_froze_reopens_them(large_path):
    from rofl.refine import refinement
    from rofl.solver.status import LineStatus

    # A swap of four cells in an otherwise blank picture: line logic cannot
    # tell it from its mirror image.  Frozen, as if the greedy pass had made
    # those changes, the greedy pass alone cannot settle it.
    original = np.zeros((12, 12), dtype=np.uint8)
    original[[3, 8], [4, 9]] = 1
    cost = default_cost(original, 2)
    run = _rect_run(cost, original)
    assert run.large
    state = run.judge(original.copy())
    assert state.result.status == LineStatus.STALLED
    user_locked = np.zeros(original.shape, dtype=bool)
    frozen = ~state.result.known
    assert run.greedy(state, frozen.copy()).result.status == LineStatus.STALLED
    reopened = refinement._reopen_stuck(run, state, frozen, user_locked, None)
    assert reopened.result.status == LineStatus.SOLVED
    assert np.count_nonzero(reopened.grid != original) <= 2  # no blanked line
    # locked cells stay closed: then it is the fallback's to settle
    run = _rect_run(cost, original)
    locked = ~state.result.known
    assert refinement._reopen_stuck(run, state, locked.copy(), locked, None).result.status == LineStatus.STALLED


def test_a_large_grid_tries_failure_certificates_further_away(large_path, monkeypatch):
    # LARGE_FAILURE_REUSE: the same changes go back, with fewer judged grids.
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)
    monkeypatch.setattr(refine_module, "FAR_REFRESH_PART", 1)  # a greedy output with changes that go back
    grid = ADVERSARIAL["noise"]
    outcomes = {}
    for reuse in (0, 10**6):
        monkeypatch.setattr(refine_module, "LARGE_FAILURE_REUSE", reuse)
        run = _rect_run(default_cost(grid, 2), grid)
        state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
        before = run.evaluations
        reverted, back = run.revert(state, np.flatnonzero(state.grid != grid))
        outcomes[reuse] = (reverted.grid, back, run.evaluations - before)
    assert outcomes[0][1] == outcomes[10**6][1] > 0
    np.testing.assert_array_equal(outcomes[0][0], outcomes[10**6][0])
    assert outcomes[10**6][2] < outcomes[0][2]


def test_the_greedy_rounds_median_is_numpys():
    # the scale of a move's visual cost, every round: the same float as np.median
    rng = np.random.default_rng(3)
    for size in [*range(1, 12), 145, 146, 999]:
        for values in (rng.random(size) * 100, np.round(rng.random(size), 1) + 0.1, np.full(size, 0.3)):
            assert refine_module._median(values) == float(np.median(values))


@pytest.mark.slow
def test_a_grid_over_far_reuse_cells_is_line_solvable_to_exactly_its_picture():
    # 330 x 330: over FAR_REUSE_CELLS, where certificates are tried further away.
    assert 330 * 330 > refine_module.FAR_REUSE_CELLS
    rr, cc = np.indices((330, 330))
    grid = (((rr - 165) ** 2 + (cc - 130) ** 2) < 90**2).astype(np.uint8)
    rng = np.random.default_rng(7)
    grid[200:214, 220:234] = rng.integers(0, 2, (14, 14))
    grid[40:52, 40:52] = rng.integers(0, 2, (12, 12))
    result = refine(grid, PALETTES[2])
    assert_valid(result, grid)
    assert 0 < result.n_changed < 200


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_a_far_grids_sparse_refreshes_estimate_fewer_moves_for_a_line_solvable_puzzle(name, large_path, monkeypatch):
    # FAR_REFRESH_PART: on a grid of more than FAR_REUSE_CELLS cells (at the
    # default effort) a refresh re-estimates one stale move in so many, in turn
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)
    grid = ADVERSARIAL[name]
    palette = PALETTES[max(2, int(grid.max()) + 1)]
    estimated = {}
    for part in (1, 4):
        monkeypatch.setattr(refine_module, "FAR_REFRESH_PART", part)
        result = refine(grid, palette, polish=0, relocate=0)
        assert_valid(result, grid)
        assert _revertable(result, grid) == []
        estimated[part] = result.estimates
    assert estimated[4] <= estimated[1]
    if name == "noise":  # many rounds, most of them after a refresh
        assert estimated[4] < estimated[1]


def test_a_far_grid_with_most_cells_known_refreshes_every_stale_move(large_path, monkeypatch):
    # the sparse refresh is for a wide plateau only: a grid line logic
    # leaves mostly known refines as it did without it
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)
    grid = np.zeros((60, 60), dtype=np.uint8)  # line logic leaves 1,391 of its 3,600 cells open
    grid[:, :24] = np.random.default_rng(1).integers(0, 2, (60, 24))
    outcomes = {}
    for part in (1, 4):
        monkeypatch.setattr(refine_module, "FAR_REFRESH_PART", part)
        result = refine(grid, PALETTES[2], polish=0, relocate=0)
        assert_valid(result, grid)
        outcomes[part] = (result.grid, result.estimates, result.evaluations)
    np.testing.assert_array_equal(outcomes[1][0], outcomes[4][0])
    assert outcomes[1][1:] == outcomes[4][1:]
    assert outcomes[1][1] > 0


def test_only_a_grid_over_far_reuse_cells_at_the_default_effort_is_far(large_path, monkeypatch):
    grid = ADVERSARIAL["noise"]
    cost = default_cost(grid, 2)
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", grid.size - 1)
    assert _rect_run(cost, grid).far
    monkeypatch.setattr(refine_module, "QUICK_MOST_CELLS", grid.size)
    assert not refine_module._Run(_rect_run(cost, grid).shape, cost, grid, quick=True).far  # effort 0's own regime
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", grid.size)
    assert not _rect_run(cost, grid).far


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3", "1xN", "one colour"])
def test_quick_refinement_of_a_large_grid_makes_a_line_solvable_puzzle(name, large_path):
    # refine's quick (rofl make --effort 0 on a large grid): batched greedy
    # rounds, sparse refreshes and a revert pass with a budget
    grid = ADVERSARIAL[name]
    result = refine(grid, PALETTES[max(2, int(grid.max()) + 1)], polish=0, relocate=0, quick=True)
    assert_valid(result, grid)


def test_quick_greedy_rounds_judge_gaining_moves_together(large_path, monkeypatch):
    grid = ADVERSARIAL["noise"]
    batches = []
    original = refine_module._Run._quick_batch

    def recording(self, *args):
        taken = original(self, *args)
        if taken is not None:
            moves, trial = taken
            batches.append(len(moves))
            # one per row and column
            rows, cols = np.divmod(args[1].where[moves], grid.shape[1])
            assert len(set(rows.tolist())) == len(set(cols.tolist())) == len(moves)
            assert trial.undetermined < args[0].undetermined
        return taken

    monkeypatch.setattr(refine_module._Run, "_quick_batch", recording)
    result = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(result, grid)
    assert batches and max(batches) > 1 and max(batches) <= refine_module.QUICK_BATCH


def test_the_quick_revert_pass_stops_at_its_budget(large_path, monkeypatch):
    from rofl.refine import refinement

    grid = ADVERSARIAL["noise"]
    monkeypatch.setattr(refinement, "QUICK_REVERT_SHARE", 0.0)
    monkeypatch.setattr(refinement, "QUICK_REVERT_CELL", 0)
    none_back = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(none_back, grid)
    assert none_back.reverted == 0
    monkeypatch.setattr(refinement, "QUICK_REVERT_SHARE", 1e9)
    all_back = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(all_back, grid)
    # the same greedy pass, then a revert pass that runs to its end
    assert all_back.reverted > 0
    assert all_back.n_changed == none_back.n_changed - all_back.reverted
    assert _revertable(all_back, grid) == []


def test_quick_changes_nothing_on_a_small_grid():
    # below LARGE_CELLS quick is ignored: the same puzzle, cell for cell
    grid = ADVERSARIAL["noise"]
    plain = refine(grid, PALETTES[2], polish=0, relocate=0)
    quick = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    np.testing.assert_array_equal(plain.grid, quick.grid)
    assert (plain.evaluations, plain.estimates) == (quick.evaluations, quick.estimates)


def test_quick_changes_nothing_on_a_grid_over_quick_most_cells(large_path, monkeypatch):
    # at 400x400 the quick regime took longer than the usual one (the camera)
    grid = ADVERSARIAL["noise"]
    monkeypatch.setattr(refine_module, "QUICK_MOST_CELLS", grid.size - 1)
    plain = refine(grid, PALETTES[2], polish=0, relocate=0)
    quick = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    np.testing.assert_array_equal(plain.grid, quick.grid)
    assert (plain.evaluations, plain.estimates) == (quick.evaluations, quick.estimates)


@pytest.mark.slow
def test_quick_refinement_of_noise_over_large_cells_is_line_solvable():
    # 150 x 150 = 22 500 cells of noise: the real threshold crossed
    grid = np.random.default_rng(11).integers(0, 2, (150, 150)).astype(np.uint8)
    assert grid.size > refine_module.LARGE_CELLS
    result = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(result, grid)
    assert 0 < result.n_changed < grid.size // 5


@pytest.fixture
def far_path(large_path, monkeypatch):
    """Every grid is a far grid (more than ``FAR_REUSE_CELLS`` cells) at the default effort."""
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", 0)


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_a_far_greedy_round_judges_no_single_move_that_cannot_gain_enough(name, far_path, monkeypatch):
    # FAR_JUDGE_LEAST: a round whose best estimated gain is under it takes a
    # plateau batch (or its best-tightening move) without judging single moves
    grid = ADVERSARIAL[name]
    palette = PALETTES[max(2, int(grid.max()) + 1)]
    rounds = []
    best_round, judge_best = refine_module._Run._best_round, refine_module._Run._judge_best

    def recording_round(self, state, moves, *args, **kwargs):
        rounds.append([state.undetermined - int(moves.scores.min()), 0])
        return best_round(self, state, moves, *args, **kwargs)

    def recording_judge(self, *args, **kwargs):
        if rounds:
            rounds[-1][1] += 1
        return judge_best(self, *args, **kwargs)

    monkeypatch.setattr(refine_module._Run, "_best_round", recording_round)
    monkeypatch.setattr(refine_module._Run, "_judge_best", recording_judge)
    for least in (1, 4):
        monkeypatch.setattr(refine_module, "FAR_JUDGE_LEAST", least)
        rounds.clear()
        result = refine(grid, palette, polish=0, relocate=0)
        assert_valid(result, grid)
        assert _revertable(result, grid) == []
        assert all(judged == (gain >= least) for gain, judged in rounds)
        assert any(gain >= least for gain, _ in rounds)


def test_a_far_grid_is_neither_polished_nor_relocated_at_the_default_effort(far_path):
    # FAR_POLISH_ABOVE: the revert pass is the last, and it leaves no change
    # that could go back on its own
    grid = ADVERSARIAL["noise"]
    result = refine(grid, PALETTES[2], polish=1, relocate=1)
    assert_valid(result, grid)
    assert _revertable(result, grid) == []
    assert result.polish_rounds == 0 and result.relocated == 0


def test_a_large_grid_that_is_not_far_is_still_polished(large_path):
    grid = ADVERSARIAL["noise"]
    assert grid.size <= refine_module.FAR_REUSE_CELLS
    assert refine(grid, PALETTES[2], polish=1, relocate=1).polish_rounds > 0


@pytest.mark.slow
def test_a_grid_just_over_far_reuse_cells_is_line_solvable_with_no_unneeded_change():
    # 317 x 317 = 100,489 cells: the far path (judges skipped, no polishing)
    side = 317
    assert side * side > refine_module.FAR_REUSE_CELLS >= (side - 1) ** 2
    rr, cc = np.indices((side, side))
    grid = (((rr - 150) ** 2 + (cc - 170) ** 2) < 80**2).astype(np.uint8)
    rng = np.random.default_rng(11)
    grid[60:74, 60:74] = rng.integers(0, 2, (14, 14))
    grid[230:240, 200:212] = rng.integers(0, 2, (10, 12))
    result = refine(grid, PALETTES[2])
    assert_valid(result, grid)
    assert 0 < result.n_changed < 200
    assert result.polish_rounds == 0
    assert _revertable(result, grid) == []


def test_a_far_grid_is_polished_with_more_than_the_default_effort(far_path):
    grid = ADVERSARIAL["noise"]
    result = refine(grid, PALETTES[2], polish=2, relocate=2)
    assert_valid(result, grid)
    assert result.polish_rounds > 0


def test_a_lean_far_grid_keeps_no_greedy_certificates_and_puts_back_the_same_changes(far_path, monkeypatch):
    # refine's ``lean`` run (a far grid at the default effort: no polishing
    # or relocation): the greedy pass stores no certificate, and the revert
    # pass tries its own only within FAR_CHECK_REUSE cells; certificates only
    # spare judges of trials that fail, so the same changes go back
    monkeypatch.setattr(refine_module, "FAR_REFRESH_PART", 1)  # a greedy output with changes that go back
    grid = ADVERSARIAL["noise"]
    cost = default_cost(grid, 2)
    outcomes = {}
    for lean, reuse in ((False, 0), (True, 0), (True, 10**6)):
        monkeypatch.setattr(refine_module, "FAR_CHECK_REUSE", reuse)
        run = refine_module._Run(_rect_run(cost, grid).shape, cost, grid, lean=lean)
        assert run.lean == lean
        state = run.greedy(run.judge(grid), np.zeros(grid.shape, dtype=bool))
        assert bool(run.failures) != lean  # the greedy pass's certificates
        before = run.evaluations
        reverted, back = run.revert(state, np.flatnonzero(state.grid != grid))
        outcomes[lean, reuse] = (state.grid, reverted.grid, back, run.evaluations - before)
    for key in ((True, 0), (True, 10**6)):
        np.testing.assert_array_equal(outcomes[key][0], outcomes[False, 0][0])  # the same greedy pass
        np.testing.assert_array_equal(outcomes[key][1], outcomes[False, 0][1])
        assert outcomes[key][2] == outcomes[False, 0][2] > 0
    assert outcomes[True, 10**6][3] < outcomes[True, 0][3]  # the revert pass's own certificates spare judges


def test_only_a_far_grid_at_the_default_effort_is_lean(far_path, monkeypatch):
    from rofl.refine import refinement

    leans = []

    class Recording(refine_module._Run):
        def revert(self, *args, **kwargs):
            leans.append(self.lean)
            return super().revert(*args, **kwargs)

    monkeypatch.setattr(refinement, "_Run", Recording)
    grid = ADVERSARIAL["noise"]
    for polish, relocate, lean in ((1, 1, True), (0, 0, True), (2, 1, False), (1, 2, False)):
        leans.clear()
        assert_valid(refine(grid, PALETTES[2], polish=polish, relocate=relocate), grid)
        assert leans and set(leans) == {lean}
    cost = default_cost(grid, 2)
    assert not refine_module._Run(_rect_run(cost, grid).shape, cost, grid, lean=True, quick=True).lean
    monkeypatch.setattr(refine_module, "FAR_REUSE_CELLS", grid.size)
    assert not refine_module._Run(_rect_run(cost, grid).shape, cost, grid, lean=True).lean
