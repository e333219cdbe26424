"""Refinement: the result is always a uniquely line-solvable picture close to the input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.errors import PuzzleError, UnsolvableError
from rofl.puzzle import Palette, Puzzle
from rofl.refine import passes as refine_module
from rofl.refine import refine
from rofl.refine.rectangle import RectLines
from rofl.solver import LineSolver, solve

PALETTES = {
    2: Palette.black_white(),
    3: Palette(["#ffffff", "#000000", "#ff0000"]),
    4: Palette(["#ffffff", "#000000", "#ff0000", "#00ff00"]),
}


def _rect_run(cost: np.ndarray, original: np.ndarray, *, lean: bool = False) -> refine_module._Run:
    """One refinement run of a rectangle, as :func:`refine` makes it (``lean``: see ``refine``)."""
    shape = RectLines(LineSolver(), original.shape, cost.shape[-1], verify=12, lazy_top=256, refresh_every=8)
    return refine_module._Run(shape, cost, original, lean=lean)


def assert_valid(result, original, locked=None):
    """The clues alone line-solve to exactly the final grid, and the report is honest."""
    again = Puzzle.from_grid(result.grid, result.puzzle.palette)
    assert again == result.puzzle
    solved = solve(again)
    assert solved.status == "solved"
    np.testing.assert_array_equal(solved.grid, result.grid)
    np.testing.assert_array_equal(result.changed, result.grid != original)
    if locked is not None:
        assert not (result.changed & locked).any()


def _palette_grids(most_colours: int, least_side: int, most_side: int):
    """Hypothesis strategy: ``(k, grid)`` with ``k`` colours (2..most_colours)
    and a grid of side lengths least_side..most_side."""
    side = st.integers(least_side, most_side)
    return st.integers(2, most_colours).flatmap(
        lambda k: st.tuples(st.just(k), arrays(np.uint8, st.tuples(side, side), elements=st.integers(0, k - 1)))
    )


ADVERSARIAL = {
    "checkerboard": (np.indices((30, 30)).sum(0) % 2).astype(np.uint8),
    "checkerboard-3": (np.indices((21, 21)).sum(0) % 3).astype(np.uint8),
    "noise": np.random.default_rng(1).integers(0, 2, (40, 40)).astype(np.uint8),
    "noise-4": np.random.default_rng(2).integers(0, 4, (30, 30)).astype(np.uint8),
    "1xN": np.random.default_rng(3).integers(0, 2, (1, 57)).astype(np.uint8),
    "Nx1": np.random.default_rng(4).integers(0, 3, (57, 1)).astype(np.uint8),
    "one colour": np.ones((20, 20), dtype=np.uint8),
    "background only": np.zeros((7, 9), dtype=np.uint8),
    "1x1": np.ones((1, 1), dtype=np.uint8),
    "stripes": (np.indices((16, 16))[1] % 2).astype(np.uint8),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_inputs_terminate_with_a_valid_puzzle(name):
    grid = ADVERSARIAL[name]
    palette = PALETTES[max(2, int(grid.max()) + 1)]
    result = refine(grid, palette)
    assert_valid(result, grid)
    assert result.fallback_lines == 0


@settings(max_examples=60, deadline=None)
@given(_palette_grids(4, 1, 9))
def test_random_grids_become_uniquely_line_solvable(case):
    k, grid = case
    result = refine(grid, PALETTES[k])
    assert_valid(result, grid)


@settings(max_examples=40, deadline=None)
@given(arrays(np.uint8, (8, 8), elements=st.integers(0, 1)), arrays(np.bool_, (8, 8)))
def test_locked_cells_never_change(grid, locked):
    try:
        result = refine(grid, PALETTES[2], locked=locked)
    except UnsolvableError as exc:
        assert "locked cells" in str(exc)
        return
    assert_valid(result, grid, locked)


def test_a_line_solvable_grid_is_left_alone():
    grid = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    result = refine(grid, PALETTES[2])
    assert result.n_changed == 0
    assert result.iterations == 0


def test_the_cheapest_cell_is_the_one_changed():
    # [[1, 0], [0, 1]] and its mirror share their clues; changing any one
    # cell breaks the tie, and the cost says which one is least visible.
    grid = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    for cheap in [(0, 0), (0, 1), (1, 0), (1, 1)]:
        cost = np.full((2, 2, 2), 5.0)
        for r in range(2):
            for c in range(2):
                cost[r, c, grid[r, c]] = 0.0
        cost[cheap][1 - grid[cheap]] = 0.1
        result = refine(grid, PALETTES[2], cost=cost)
        assert result.n_changed == 1
        assert result.changed[cheap]


def test_locked_ambiguity_is_reported():
    grid = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    with pytest.raises(UnsolvableError, match="2x2|locked cells keep the puzzle ambiguous: 4 cells"):
        refine(grid, PALETTES[2], locked=np.ones((2, 2), dtype=bool))


def test_a_shared_solver_gives_the_same_result():
    grid = ADVERSARIAL["noise"]
    fresh = refine(grid, PALETTES[2])
    solver = LineSolver()
    refine(ADVERSARIAL["checkerboard"], PALETTES[2], solver=solver)
    shared = refine(grid, PALETTES[2], solver=solver)
    np.testing.assert_array_equal(fresh.grid, shared.grid)
    assert solver.hits > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"grid": np.zeros((0, 3))}, "non-empty"),
        ({"grid": np.full((2, 2), 7)}, "palette indices"),
        ({"cost": np.zeros((2, 2))}, "cost must have shape"),
        ({"locked": np.zeros((3, 3), dtype=bool)}, "locked must have shape"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"grid": np.zeros((2, 2), dtype=np.uint8)} | kwargs
    with pytest.raises(PuzzleError, match=message):
        refine(args.pop("grid"), PALETTES[2], **args)


def _revertable(result, original):
    """Changed cells that could go back to their original colour on their own."""
    out = []
    for r, c in np.argwhere(result.changed):
        trial = result.grid.copy()
        trial[r, c] = original[r, c]
        if solve(Puzzle.from_grid(trial, result.puzzle.palette)).status == "solved":
            out.append((int(r), int(c)))
    return out


@pytest.mark.parametrize("polish", [0, 1])
@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_no_change_is_unnecessary(name, polish):
    # The revert passes run to a fixpoint: no single change can be undone.
    grid = ADVERSARIAL[name]
    result = refine(grid, PALETTES[max(2, int(grid.max()) + 1)], polish=polish)
    assert_valid(result, grid)
    assert _revertable(result, grid) == []


@settings(max_examples=25, deadline=None)
@given(arrays(np.uint8, st.tuples(st.integers(4, 14), st.integers(4, 14)), elements=st.integers(0, 1)))
def test_polishing_never_changes_more_cells(grid):
    # Polishing keeps a repair only when it changes fewer cells (or as many
    # less visibly): before relocation it never ends with more changes.
    plain = refine(grid, PALETTES[2], polish=0, relocate=0)
    polished = refine(grid, PALETTES[2], polish=2, relocate=0)
    assert_valid(polished, grid)
    assert polished.n_changed <= plain.n_changed
    assert plain.polish_rounds == 0


#: A grid on which polishing moved the changes to others of the same count
#: (6), and relocation then moved none, where from the unpolished grid it
#: moved one: 5.  Relocation runs once, from the grid polishing left
#: (docs/design.md, "Polishing and relocation run once").
POLISHED_WORSE = np.array([
    [0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 0],
    [1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1],
    [0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1],
    [0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0],
    [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1],
    [0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1],
    [0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0],
], dtype=np.uint8)  # fmt: skip


def test_relocation_after_polishing_starts_from_the_polished_grid():
    plain = refine(POLISHED_WORSE, PALETTES[2], polish=0)
    polished = refine(POLISHED_WORSE, PALETTES[2], polish=2)
    unrelocated = refine(POLISHED_WORSE, PALETTES[2], polish=2, relocate=0)
    for result in (plain, polished, unrelocated):
        assert_valid(result, POLISHED_WORSE)
    assert (plain.n_changed, unrelocated.n_changed, polished.n_changed) == (5, 6, 6)
    assert polished.relocated == 0


def test_polishing_finds_fewer_changes_on_noise():
    grid = np.random.default_rng(1).integers(0, 2, (30, 30)).astype(np.uint8)
    plain = refine(grid, PALETTES[2], polish=0)
    polished = refine(grid, PALETTES[2], polish=3)
    assert_valid(polished, grid)
    assert polished.polish_rounds > 0
    assert polished.n_changed < plain.n_changed


@pytest.mark.slow
def test_polishing_is_reproducible_and_seeded():
    grid = ADVERSARIAL["noise"]
    first = refine(grid, PALETTES[2], seed=3)
    again = refine(grid, PALETTES[2], seed=3, solver=LineSolver(cache_mb=1))
    np.testing.assert_array_equal(first.grid, again.grid)
    others = [refine(grid, PALETTES[2], seed=s).grid for s in range(4, 8)]
    assert any((other != first.grid).any() for other in others)


def test_polishing_keeps_locked_cells():
    grid = ADVERSARIAL["noise"]
    locked = np.zeros(grid.shape, dtype=bool)
    locked[::2, ::3] = True
    result = refine(grid, PALETTES[2], locked=locked, polish=2)
    assert_valid(result, grid, locked)


@pytest.mark.parametrize("polish", [-1, float("nan"), float("inf")])
def test_bad_polish(polish):
    with pytest.raises(PuzzleError, match="polish must be"):
        refine(np.zeros((2, 2), dtype=np.uint8), PALETTES[2], polish=polish)


def test_progress_of_every_stage():
    grid = ADVERSARIAL["noise"]
    calls = {"refining": [], "checking": [], "polishing": []}
    result = refine(
        grid,
        PALETTES[2],
        progress=calls["refining"].append,
        revert_progress=lambda done, total: calls["checking"].append((done, total)),
        polish_progress=lambda done, total: calls["polishing"].append((done, total)),
    )
    assert_valid(result, grid)
    assert calls["refining"][0] > 0 and calls["refining"][-1] == 0
    assert calls["polishing"] and all(0 < done <= total for done, total in calls["polishing"])
    checks = calls["checking"]
    assert checks and all(0 <= done < total for done, total in checks)
    # every pass starts from 0 and counts up
    passes = [i for i, (done, _) in enumerate(checks) if done == 0]
    assert passes[0] == 0 and len(passes) >= 2
    for a, b in zip(passes, [*passes[1:], len(checks)], strict=True):
        assert [done for done, _ in checks[a:b]] == sorted(done for done, _ in checks[a:b])


def _checked_certificates(monkeypatch):
    """Make every failure certificate that refinement trusts be checked by a
    plain solve of the trial grid; returns the list of the statuses of the
    grids proved ambiguous and the number of cells each put back."""
    seen = []
    trusted = refine_module._Run._still_fails

    def still_fails(self, cell, grid, near):
        proved = trusted(self, cell, grid, near)
        if proved:
            seen.append((solve(Puzzle.from_grid(grid, PALETTES[self.k])).status, int((grid != near.grid).sum())))
        return proved

    monkeypatch.setattr(refine_module._Run, "_still_fails", still_fails)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_a_proof_that_a_change_cannot_go_back_is_never_wrong(name, monkeypatch):
    seen = _checked_certificates(monkeypatch)
    grid = ADVERSARIAL[name]
    refine(grid, PALETTES[max(2, int(grid.max()) + 1)])
    assert len(seen) > 10  # the certificates did skip solves
    assert {status for status, _ in seen} == {"stalled"}


def test_one_certificate_proves_that_a_run_of_changes_cannot_go_back(monkeypatch):
    seen = _checked_certificates(monkeypatch)
    refine(ADVERSARIAL["noise"], PALETTES[2])
    assert any(run > 1 for _, run in seen)
    assert {status for status, _ in seen} == {"stalled"}


@settings(max_examples=30, deadline=None)
@given(_palette_grids(4, 3, 14))
def test_failure_certificates_only_save_time(case):
    # Trusting certificates changes no decision: without them (every trial
    # judged by a solve) refinement makes exactly the same picture.
    k, grid = case
    with_proofs = refine(grid, PALETTES[k])
    saved = refine_module.FAILURE_REUSE
    refine_module.FAILURE_REUSE = -1  # no certificate is close enough
    try:
        without = refine(grid, PALETTES[k])
    finally:
        refine_module.FAILURE_REUSE = saved
    np.testing.assert_array_equal(with_proofs.grid, without.grid)
    assert with_proofs.evaluations <= without.evaluations


def _log_arrangements(cells, clue) -> float:
    from tests import naive

    fits = (all((m >> v) & 1 for m, v in zip(cells, line, strict=True)) for line in naive.placements(len(cells), clue))
    n = sum(fits)
    return float(np.log(n)) if n else -np.inf


@settings(max_examples=40, deadline=None)
@given(_palette_grids(3, 2, 7))
def test_move_estimates_match_a_slow_reference(case):
    # Every move's estimate is line logic resumed from the stalled state with
    # the changed clues (swept to its fixpoint by the naive solver), and its
    # entropy is the change of the row's and column's log arrangement counts.
    # The second call answers the counts from the memo.
    from rofl.refine.judge import Judge, grid_clues
    from tests import naive

    k, grid = case
    palette = PALETTES[k]
    height = grid.shape[0]
    solver = LineSolver()
    masks = np.full(grid.shape, (1 << k) - 1, dtype=np.int64)
    solver.run(grid_clues(grid), masks)
    moves = [
        (r, c, colour)
        for r, c in np.argwhere((masks & (masks - 1)) != 0)
        for colour in range(k)
        if colour != grid[r, c] and (masks[r, c] >> colour) & 1
    ]
    if not moves:
        return
    moves = np.array(moves, dtype=np.int64)
    packed = grid_clues(grid)
    judge = Judge(solver)
    results = [s.estimate_moves(grid, masks, packed, moves) for s in (judge, judge, Judge(LineSolver(cache_mb=0)))]
    before = Puzzle.from_grid(grid, palette)
    for m, (r, c, colour) in enumerate(moves):
        changed = grid.copy()
        changed[r, c] = colour
        puzzle = Puzzle.from_grid(changed, palette)
        status, after = naive.propagate(puzzle, start=masks)
        assert status != "contradiction"
        newly = int(np.count_nonzero(((after & (after - 1)) == 0) & ((masks & (masks - 1)) != 0)))
        entropy = 0.0
        for line, cells_before, cells_after in ((r, masks[r], after[r]), (height + c, masks[:, c], after[:, c])):
            entropy += _log_arrangements(cells_after, puzzle.clue(line))
            entropy -= _log_arrangements(cells_before, before.clue(line))
        # The estimate never determines fewer cells than a solve from
        # nothing known: relocation relies on that to skip hopeless moves.
        _, solved = naive.propagate(puzzle)
        still_open = int(np.count_nonzero((solved & (solved - 1)) != 0))
        assert still_open >= int(np.count_nonzero((masks & (masks - 1)) != 0)) - newly
        for got_newly, got_status, got_entropy in results:
            assert got_newly[m] == newly
            assert got_status[m] == ("solved", "stalled").index(status)
            assert got_entropy[m] == pytest.approx(entropy, abs=1e-9)


def _certificate_case(case, data):
    """A grid certified by line logic (its fixpoint's open cells, and the
    cells where it differs from the ``original`` grid) and a trial grid
    near it: ``(palette, original, grid, certified, trial, fixpoint,
    certificate)``, ``grid`` drawing more grids of the case's colours."""
    from tests import naive

    k, original = case
    palette = PALETTES[k]
    colours = st.integers(0, k - 1)

    def grid():
        return data.draw(arrays(np.uint8, original.shape, elements=colours))

    certified = grid()
    trial = np.where(data.draw(arrays(np.bool_, original.shape)), grid(), certified)
    _, fixpoint = naive.propagate(Puzzle.from_grid(certified, palette))
    flat_fix = fixpoint.ravel()
    diff = np.flatnonzero(certified.ravel() != original.ravel())
    open_cells = np.flatnonzero((flat_fix & (flat_fix - 1)) != 0)
    certificate = (diff, certified.ravel()[diff], open_cells, flat_fix[open_cells])
    return palette, original, grid, certified, trial, fixpoint, certificate


@settings(max_examples=60, deadline=None)
@given(_palette_grids(3, 2, 7), st.data())
def test_resuming_from_a_certificate_matches_a_slow_reference(case, data):
    # The compiled certificate check: start from the certificate grid's
    # fixpoint, widened by the trial grid's colours where the two differ,
    # and propagate the trial grid's clues (derived from a third, nearby
    # grid's) -- the naive solver from the same start agrees.
    from rofl.refine.judge import Judge, grid_clues
    from tests import naive

    palette, original, grid, certified, trial, fixpoint, certificate = _certificate_case(case, data)
    near = np.where(data.draw(arrays(np.bool_, original.shape)), grid(), trial)
    flat_fix = fixpoint.ravel()
    open_cells = certificate[2]
    start = (np.int64(1) << certified.astype(np.int64)) | np.where(
        trial != certified, np.int64(1) << trial.astype(np.int64), 0
    )
    start.ravel()[open_cells] |= flat_fix[open_cells]
    status, expected = naive.propagate(Puzzle.from_grid(trial, palette), start=start)
    assert status != "contradiction"  # the start contains the trial grid
    moved = int(np.count_nonzero(trial != certified))
    solver = LineSolver(cache_mb=data.draw(st.sampled_from([0, 1])))
    # fewer than 8 colours: a caller may say the masks fit a byte (as refinement does)
    wide = data.draw(st.sampled_from([None, False]))
    got = Judge(solver).resume_certificate(trial, near, grid_clues(near), original, certificate, moved, wide=wide)
    if grid_clues(trial).kmax > grid_clues(near).kmax + 2:
        # More groups in a line than one changed cell can make: the work
        # buffers are not sized for it, and the call says so.
        assert got is None
        return
    assert got is not None and got.status == status
    np.testing.assert_array_equal(got.masks, expected)
    if moved:
        assert Judge(solver).resume_certificate(trial, near, grid_clues(near), original, certificate, moved - 1) is None


def test_estimates_without_counts_agree():
    # counts=False skips the arrangement counts only: same estimates, no entropy.
    from rofl.refine.judge import Judge, grid_clues

    grid = ADVERSARIAL["noise"]
    solver = LineSolver()
    masks = np.full(grid.shape, 3, dtype=np.int64)
    packed = grid_clues(grid)
    solver.run(packed, masks)
    open_cells = (masks & (masks - 1)) != 0
    moves = refine_module._all_moves(grid, masks, open_cells, 2)
    assert len(moves) > 100
    newly, status, entropy = Judge(solver).estimate_moves(grid, masks, packed, moves)
    newly_fast, status_fast, entropy_fast = Judge(solver).estimate_moves(grid, masks, packed, moves, counts=False)
    np.testing.assert_array_equal(newly, newly_fast)
    np.testing.assert_array_equal(status, status_fast)
    assert entropy.any() and not entropy_fast.any()


@settings(max_examples=40, deadline=None)
@given(_palette_grids(4, 1, 8), st.data())
def test_all_moves_match_a_slow_reference(case, data):
    k, grid = case
    masks = data.draw(arrays(np.int64, grid.shape, elements=st.integers(1, (1 << k) - 1)))
    open_cells = data.draw(arrays(np.bool_, grid.shape))
    expected = [
        (r, c, colour)
        for r in range(grid.shape[0])
        for c in range(grid.shape[1])
        for colour in range(k)
        if open_cells[r, c] and colour != grid[r, c] and (masks[r, c] >> colour) & 1
    ]
    got = refine_module._all_moves(grid, masks, open_cells, k)
    assert got.dtype == np.int64 and got.shape == (len(expected), 3)
    assert [tuple(map(int, move)) for move in got] == expected


@settings(max_examples=25, deadline=None)
@given(_palette_grids(3, 4, 14))
def test_relocation_never_changes_more_cells(case):
    k, grid = case
    plain = refine(grid, PALETTES[k], relocate=0)
    moved = refine(grid, PALETTES[k], relocate=3)
    assert_valid(moved, grid)
    assert moved.n_changed <= plain.n_changed
    assert plain.relocated == 0
    assert moved.n_changed <= plain.n_changed - moved.relocated


def test_relocation_moves_changes_on_noise():
    grid = np.random.default_rng(5).integers(0, 2, (30, 30)).astype(np.uint8)
    plain = refine(grid, PALETTES[2], relocate=0)
    moved = refine(grid, PALETTES[2], relocate=5)
    assert_valid(moved, grid)
    assert moved.relocated > 0
    assert moved.n_changed < plain.n_changed
    assert _revertable(moved, grid) == []


def _gaining_swaps(result, original):
    """Brute force: changed cells ``a`` and single changes ``x`` elsewhere such
    that putting ``a`` back and making ``x`` leaves a puzzle line logic
    solves (a plain solve each), after which the revert pass keeps fewer
    changes than ``result``."""
    palette = result.puzzle.palette
    cost = refine_module.default_cost(original, len(palette))
    run = _rect_run(cost, original)
    out = []
    for a in map(tuple, np.argwhere(result.changed)):
        for x in map(tuple, np.argwhere(~result.changed)):
            for colour in range(len(palette)):
                if colour == original[x]:
                    continue
                swapped = result.grid.copy()
                swapped[a] = original[a]
                swapped[x] = colour
                if solve(Puzzle.from_grid(swapped, palette)).status != "solved":
                    continue
                after, _ = run.revert(run.judge(swapped), np.flatnonzero(swapped != original))
                if np.count_nonzero(after.grid != original) < result.n_changed:
                    out.append((a, x))
    return out


@pytest.mark.slow
def test_relocation_leaves_no_two_for_one_swap(monkeypatch):
    # Relocation's filter skips no useful swap: where brute force finds one,
    # relocation takes it, and after it stops no swap is left -- once its
    # two shortcuts (skip the changes most deductions hang on; revert after
    # the first two candidates that solve only) are off.
    monkeypatch.setattr(refine_module, "RELOCATE_OPEN", 1.0)
    monkeypatch.setattr(refine_module, "RELOCATE_TRIES", 10**9)
    grid = np.random.default_rng(8).integers(0, 2, (18, 18)).astype(np.uint8)
    plain = refine(grid, PALETTES[2], relocate=0)
    assert _gaining_swaps(plain, grid)
    result = refine(grid, PALETTES[2], relocate=100)
    assert_valid(result, grid)
    assert result.relocated > 0 and result.n_changed < plain.n_changed
    assert _gaining_swaps(result, grid) == []


@settings(max_examples=25, deadline=None)
@given(_palette_grids(3, 4, 14))
def test_pair_swaps_never_change_more_cells(case):
    k, grid = case
    plain = refine(grid, PALETTES[k], relocate=0)
    paired = refine(grid, PALETTES[k], relocate=2, pairs=True)
    assert_valid(paired, grid)
    assert paired.n_changed <= plain.n_changed - paired.relocated


def _pair_swaps_left(result, original):
    """Brute force: changed cells ``a``, one of their ``PAIR_PARTNERS``
    nearest changes ``b`` (as relocation chooses them) and a change of a
    cell ``x`` that line logic leaves open once both are back (or no
    change) such that putting ``a`` and ``b`` back and making ``x`` leaves a
    puzzle line logic solves (a plain solve each)."""
    palette = result.puzzle.palette
    changed = np.argwhere(result.changed)
    out = []
    for a in changed:
        distance = np.abs(changed - a).max(axis=1)
        for j in np.argsort(distance, kind="stable")[1 : refine_module.PAIR_PARTNERS + 1]:
            b = changed[j]
            both = result.grid.copy()
            both[tuple(a)], both[tuple(b)] = original[tuple(a)], original[tuple(b)]
            fixpoint = LineSolver(cache_mb=0).solve(Puzzle.from_grid(both, palette)).masks
            trials = [both]
            for x in map(tuple, np.argwhere(((fixpoint & (fixpoint - 1)) != 0) & ~result.changed)):
                for colour in range(len(palette)):
                    if colour != both[x]:
                        swapped = both.copy()
                        swapped[x] = colour
                        trials.append(swapped)
            out += [(tuple(a), tuple(b)) for t in trials if solve(Puzzle.from_grid(t, palette)).status == "solved"]
    return out


@pytest.mark.slow
def test_pair_swaps_leave_no_two_for_one(monkeypatch, data_dir):
    # The pair search skips no useful pair swap: where brute force finds
    # one, the search takes it, and after it stops none is left -- with its
    # shortcut (skip pairs whose undoing leaves most cells open) off.
    monkeypatch.setattr(refine_module, "RELOCATE_OPEN", 1.0)
    text = (data_dir / "refine" / "coffee30.txt").read_text()
    grid = np.array([[int(v) for v in line] for line in text.splitlines() if not line.startswith("#")], dtype=np.uint8)
    single = refine(grid, PALETTES[2], relocate=100)
    assert _pair_swaps_left(single, grid)
    result = refine(grid, PALETTES[2], relocate=100, pairs=True)
    assert_valid(result, grid)
    assert result.relocated > single.relocated and result.n_changed < single.n_changed
    assert _pair_swaps_left(result, grid) == []


def test_relocation_keeps_locked_cells_and_reports_progress():
    grid = ADVERSARIAL["noise"]
    locked = np.zeros(grid.shape, dtype=bool)
    locked[::2, ::3] = True
    calls = []
    result = refine(grid, PALETTES[2], locked=locked, relocate=2, relocate_progress=lambda *a: calls.append(a))
    assert_valid(result, grid, locked)
    assert calls and all(0 <= done < total for done, total in calls)


@pytest.mark.parametrize("relocate", [-1, 1.5, True, "2"])
def test_bad_relocate(relocate):
    with pytest.raises(PuzzleError, match="relocate must be"):
        refine(np.zeros((2, 2), dtype=np.uint8), PALETTES[2], relocate=relocate)


def test_quiet_lines_are_the_lines_line_logic_leaves_alone():
    # _quiet_line's closed form (slack at least the longest group) against
    # line solving by listing placements, for every clue of colour 1 on
    # lines of up to 9 cells that allow colours 0 and 1; lines allowing
    # anything else, or clues of other colours, are never quiet.  Counts
    # from the table of groups and slack are the counts themselves.
    from itertools import product

    from rofl.kernels import _refine as rk
    from tests import naive

    cnt = np.empty((12, 12), dtype=np.float64)
    for n in range(1, 10):
        table = np.full((12, n + 1), np.nan)
        seen_quiet = seen_loud = False
        for line in product((0, 1), repeat=n):
            clue = naive.clue_of(line)
            lens = np.array([g for g, _ in clue], dtype=np.int64)
            cols = np.array([c for _, c in clue], dtype=np.int64)
            cells = np.full(n, 3, dtype=np.int64)
            solved = naive.placement_line(cells, clue)
            leaves_alone = bool((solved == 3).all())
            quiet = rk._quiet_line(np.array([True]), 0, n, lens, cols, 0, len(clue))
            assert quiet == leaves_alone, (line, clue)
            seen_quiet |= quiet
            seen_loud |= not quiet
            assert not rk._quiet_line(np.array([False]), 0, n, lens, cols, 0, len(clue))
            assert not rk._quiet_line(np.array([True]), 0, n, lens, cols + 1, 0, len(clue)) or not len(clue)
            if quiet:
                got = rk._quiet_log_count(cells, n, lens, cols, 0, len(clue), cnt, table)
                assert got == rk._line_log_count(cells, n, lens, cols, 0, len(clue), cnt)
                assert got == pytest.approx(np.log(sum(1 for _ in naive.placements(n, clue))))
        assert seen_loud and (seen_quiet or n < 3)


@pytest.mark.parametrize("name", ["noise", "noise-4"])
def test_move_estimates_on_open_lines_match_line_logic(name):
    # On a textured grid line logic leaves whole lines open, where a move's
    # changed row and column are often provably left alone (no line solve):
    # every move's estimate is still line logic resumed from the stalled
    # state with the changed clues (the solver's propagation of every line
    # from there), and its entropy is the one the counts give.
    from rofl.kernels import _refine as rk
    from rofl.refine.judge import Judge, grid_clues

    grid = ADVERSARIAL[name]
    k = int(grid.max()) + 1
    solver = LineSolver()
    masks = np.full(grid.shape, (1 << k) - 1, dtype=np.int64)
    packed = grid_clues(grid)
    solver.run(packed, masks)
    open_cells = (masks & (masks - 1)) != 0
    moves = refine_module._all_moves(grid, masks, open_cells, k)
    newly, status, _ = Judge(solver).estimate_moves(grid, masks, packed, moves)
    undetermined = int(np.count_nonzero(open_cells))
    full = np.concatenate([(masks == 3).all(axis=1), (masks == 3).all(axis=0)])
    quiet = 0
    for m, (r, c, colour) in enumerate(moves):
        changed = grid.copy()
        changed[r, c] = colour
        after = masks.copy()
        result = solver.run(grid_clues(changed), after)
        assert newly[m] == undetermined - result.undetermined
        assert status[m] == (0 if result.undetermined == 0 else 1)
        clues = grid_clues(changed)
        row = rk._quiet_line(full, r, grid.shape[1], clues.lens, clues.cols, clues.offs[r], clues.offs[r + 1])
        line = grid.shape[0] + c
        col = rk._quiet_line(full, line, grid.shape[0], clues.lens, clues.cols, clues.offs[line], clues.offs[line + 1])
        quiet += row and col
    assert quiet > 0 or k > 2


@settings(max_examples=60, deadline=None)
@given(_palette_grids(3, 2, 7), st.data())
def test_settled_certificates_match_a_slow_reference(case, data):
    # With ``settle``, a cell where the trial grid differs from the
    # certificate's grid starts determined to the trial's colour when no
    # open cell shares its row or column (else as without settle); only
    # the others count towards the limit.  The naive solver from that start
    # agrees, and the fixpoint still contains the trial grid.
    from rofl.refine.judge import Judge, grid_clues
    from tests import naive

    palette, original, _, certified, trial, fixpoint, certificate = _certificate_case(case, data)
    is_open = (fixpoint & (fixpoint - 1)) != 0
    crossing = is_open.any(axis=1)[:, None] | is_open.any(axis=0)[None, :]
    moved = trial != certified
    own = np.int64(1) << trial.astype(np.int64)
    start = np.where(moved & ~crossing, own, fixpoint | np.where(moved, own, 0))
    status, expected = naive.propagate(Puzzle.from_grid(trial, palette), start=start)
    assert status != "contradiction"
    assert ((expected >> trial.astype(np.int64)) & 1).all()
    widened = int(np.count_nonzero(moved & crossing))
    judge = Judge(LineSolver(cache_mb=data.draw(st.sampled_from([0, 1]))))
    got = judge.resume_certificate(trial, trial, grid_clues(trial), original, certificate, widened, settle=True)
    assert got is not None and got.status == status
    np.testing.assert_array_equal(got.masks, expected)
    if widened:
        assert (
            judge.resume_certificate(trial, trial, grid_clues(trial), original, certificate, widened - 1, settle=True)
            is None
        )
