"""The complete solver against brute force, hand-made cases and the corpus.

The reference is enumeration: every grid of a small size is generated, its
clues derived by a plain per-line run count, and the number of grids that
share a puzzle's clues is that puzzle's number of solutions.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rofl.errors import OptionError
from rofl.puzzle import Palette, Puzzle
from rofl.solver.search import solve_complete
from tests.places import corpus_file

PALETTE3 = Palette(["#ffffff", "#000000", "#ff0000"])


# ----------------------------------------------------------- the reference


def line_clue(cells) -> tuple[tuple[int, int], ...]:
    """The clue of one line: its runs of equal non-background colour."""
    return tuple((len(list(run)), colour) for colour, run in itertools.groupby(cells) if colour != 0)


def all_puzzles(height: int, width: int, n_colors: int) -> dict[tuple, tuple[int, np.ndarray]]:
    """Every puzzle of the size that has a solution: clues -> (solution count, one solution).

    Every grid is enumerated; a line's clue is looked up by the line's
    pattern (``line_clue`` of each of the ``n_colors ** n`` patterns), and
    grids are grouped by the clues of all their lines.
    """
    grids = np.array(list(itertools.product(range(n_colors), repeat=height * width)), dtype=np.int64)
    grids = grids.reshape(-1, height, width)
    clue_ids: dict[tuple, int] = {}
    clues: list[tuple] = []

    def pattern_ids(n):
        ids = np.empty(n_colors**n, dtype=np.int64)
        for index, cells in enumerate(itertools.product(range(n_colors), repeat=n)):
            ids[index] = clue_ids.setdefault(line_clue(cells), len(clue_ids))
            if ids[index] == len(clues):
                clues.append(line_clue(cells))
        return ids

    row_ids, col_ids = pattern_ids(width), pattern_ids(height)
    weights_w = n_colors ** np.arange(width - 1, -1, -1)
    weights_h = n_colors ** np.arange(height - 1, -1, -1)
    keys = np.concatenate([row_ids[grids @ weights_w], col_ids[np.swapaxes(grids, 1, 2) @ weights_h]], axis=1)
    unique, first, counts = np.unique(keys, axis=0, return_index=True, return_counts=True)
    return {
        (tuple(clues[i] for i in key[:height]), tuple(clues[i] for i in key[height:])): (
            int(count),
            grids[index].astype(np.uint8),
        )
        for key, index, count in zip(unique.tolist(), first, counts, strict=True)
    }


def check(puzzle: Puzzle, count: int, solution: np.ndarray | None = None) -> None:
    """solve_complete agrees with the reference count (0, 1, 2+)."""
    result = solve_complete(puzzle, time_budget=None)
    key = (puzzle.rows, puzzle.cols)
    for grid in result.solutions:
        assert grid.dtype == np.uint8 and grid.shape == (puzzle.height, puzzle.width)
        assert (tuple(line_clue(r) for r in grid.tolist()), tuple(line_clue(c) for c in grid.T.tolist())) == key
    if count == 0:
        assert result.status == "none" and result.solutions == [] and result.grid is None
    elif count == 1:
        assert result.status == "unique" and len(result.solutions) == 1
        assert np.array_equal(result.grid, solution)
    else:
        assert result.status == "multiple" and len(result.solutions) == 2
        assert not np.array_equal(result.solutions[0], result.solutions[1])
        assert result.grid is None


def _puzzle(key, width, height, palette) -> Puzzle:
    rows, cols = key
    return Puzzle(width, height, palette, rows, cols)


# ---------------------------------------------------------- brute force


@pytest.mark.parametrize(("height", "width"), [(1, 1), (2, 3), (3, 3), (3, 4), (4, 3)])
def test_every_black_white_puzzle_up_to_3x4(height, width):
    for key, (count, grid) in all_puzzles(height, width, 2).items():
        check(_puzzle(key, width, height, Palette.black_white()), count, grid)


@pytest.mark.slow
def test_black_white_4x4_every_ambiguous_puzzle_and_a_sample():
    # 58196 puzzles: every one with several solutions, and 3000 of the unique ones
    puzzles = all_puzzles(4, 4, 2)
    keys = sorted(puzzles)
    ambiguous = [k for k in keys if puzzles[k][0] > 1]
    unique = random.Random(4).sample([k for k in keys if puzzles[k][0] == 1], 3000)
    assert len(ambiguous) > 5000
    for key in ambiguous + unique:
        count, grid = puzzles[key]
        check(_puzzle(key, 4, 4, Palette.black_white()), count, grid)


def test_restarts_in_every_order_prove_the_same(monkeypatch):
    # One node for the first attempt: searches are cut short and restarted
    # in other colour orders (most narrowing first, least, random), and must
    # still prove what a single uninterrupted search proves.
    from rofl.solver import search

    rng = np.random.default_rng(7)
    puzzles = []
    for _ in range(120):
        size = int(rng.integers(6, 16))
        grid = (rng.random((size, size)) < 0.5).astype(np.uint8)
        puzzles.append((Puzzle.from_grid(grid, Palette.black_white()), grid))
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 10**9)
    single = [solve_complete(p, time_budget=None) for p, _ in puzzles]
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 1)
    monkeypatch.setattr(search, "STRATEGIES", (0, 1, 2, 3, 4))
    restarted = 0
    for (puzzle, grid), one in zip(puzzles, single, strict=True):
        again = solve_complete(puzzle, time_budget=None)
        assert one.attempts <= 1  # 0: line logic alone
        restarted += again.attempts > 1
        assert again.status == one.status != "none"
        if one.status == "unique":
            assert np.array_equal(again.grid, grid) and np.array_equal(one.grid, grid)
        else:
            assert all(puzzle.is_solution(s) for s in again.solutions)
            assert not np.array_equal(*again.solutions)
    assert restarted > 20  # the restarts were exercised


def test_every_three_colour_puzzle_of_2x3():
    for key, (count, grid) in all_puzzles(2, 3, 3).items():
        check(_puzzle(key, 3, 2, PALETTE3), count, grid)


_PUZZLES_3X3_3 = None


def _three_colour_3x3():
    global _PUZZLES_3X3_3
    if _PUZZLES_3X3_3 is None:
        _PUZZLES_3X3_3 = all_puzzles(3, 3, 3)
    return _PUZZLES_3X3_3


def test_random_three_colour_3x3_puzzles():
    puzzles = _three_colour_3x3()
    keys = sorted(puzzles)
    rng = random.Random(6)
    # every ambiguous puzzle, and as many unique ones
    ambiguous = [k for k in keys if puzzles[k][0] > 1]
    unique = rng.sample([k for k in keys if puzzles[k][0] == 1], 1500)
    assert len(ambiguous) > 100
    for key in ambiguous + unique:
        count, grid = puzzles[key]
        check(_puzzle(key, 3, 3, PALETTE3), count, grid)


def _unsolvable(puzzles, height, width, palette, n_colors, tries, seed):
    """Valid clue sets (every line fits, colour totals agree) that no grid has."""
    lines = {n: sorted({line_clue(c) for c in itertools.product(range(n_colors), repeat=n)}) for n in (width, height)}
    rng = random.Random(seed)
    out = []
    for _ in range(tries):
        rows = tuple(rng.choice(lines[width]) for _ in range(height))
        cols = tuple(rng.choice(lines[height]) for _ in range(width))
        if (rows, cols) in puzzles:
            continue
        try:
            out.append(Puzzle(width, height, palette, rows, cols))
        except Exception:  # totals differ: not a valid puzzle, skip
            continue
    return out


def test_valid_clues_without_solution_black_white():
    puzzles = all_puzzles(4, 4, 2)
    unsolvable = _unsolvable(puzzles, 4, 4, Palette.black_white(), 2, 20000, 1)
    assert len(unsolvable) > 200
    statuses = Counter()
    for puzzle in unsolvable:
        result = solve_complete(puzzle, time_budget=None)
        assert result.status == "none" and result.solutions == []
        statuses[result.line_status] += 1
    # some of them need search to be refuted, not just line logic
    assert statuses["stalled"] > 0


def test_valid_clues_without_solution_three_colours():
    puzzles = _three_colour_3x3()
    unsolvable = _unsolvable(puzzles, 3, 3, PALETTE3, 3, 20000, 2)
    assert len(unsolvable) > 100
    for puzzle in unsolvable:
        assert solve_complete(puzzle, time_budget=None).status == "none"


def test_handmade_no_solution_needing_search():
    # Two 2x2 "diagonal" blocks: each alone has two solutions, and line
    # logic cannot start; the 1-cell clue of the middle row makes them clash.
    puzzle = Puzzle(
        3,
        3,
        Palette.black_white(),
        rows=[[(1, 1), (1, 1)], [(1, 1)], [(1, 1), (1, 1)]],
        cols=[[(1, 1), (1, 1)], [(1, 1)], [(1, 1), (1, 1)]],
    )
    # the reference says: the grids with these clues are exactly those two
    puzzles = all_puzzles(3, 3, 2)
    key = (puzzle.rows, puzzle.cols)
    check(puzzle, puzzles.get(key, (0, None))[0], puzzles.get(key, (0, None))[1])


def test_black_white_words_search_as_the_masks_do():
    # A black-and-white puzzle of at most 63 cells a side propagates on words
    # (_search._spread_bw); the same puzzle drawn in red on a palette of three
    # colours takes the general path: the same tree, node for node and probe
    # for probe, and the same solutions.
    rng = np.random.default_rng(45)
    searched = 0
    for _ in range(40):
        size = int(rng.integers(12, 20))
        grid = (rng.random((size, size)) < 0.35).astype(np.uint8)
        bw = solve_complete(Puzzle.from_grid(grid, Palette.black_white()), time_budget=None)
        red = solve_complete(Puzzle.from_grid(grid * 2, PALETTE3), time_budget=None)
        assert (bw.status, bw.nodes, bw.probes, bw.attempts) == (red.status, red.nodes, red.probes, red.attempts)
        assert len(bw.solutions) == len(red.solutions)
        assert all(np.array_equal(a * 2, b) for a, b in zip(bw.solutions, red.solutions, strict=True))
        searched += bw.nodes > 1
    assert searched > 30


@pytest.mark.parametrize("name", ["taai2011-0500", "icga2016-0750"])
def test_black_white_words_search_a_deep_tree_as_the_masks_do(name, monkeypatch):
    # The word path keeps every line's words as the grid has them, through
    # probes taken back, lessons, nogoods, branches and restarts: a tournament
    # puzzle of some hundreds of nodes walks the same tree as the same puzzle
    # in red (the general path, which reads the masks), to the same answer.
    from rofl.formats import read_puzzle
    from rofl.solver import search

    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1000.0)  # nodes decide, not the machine's load
    puzzle = read_puzzle(corpus_file(f"taai-tournament/{name}.json"))[0]
    red = Puzzle(puzzle.width, puzzle.height, PALETTE3, rows=_redden(puzzle.rows), cols=_redden(puzzle.cols))
    bw = solve_complete(puzzle, time_budget=None)
    general = solve_complete(red, time_budget=None)
    assert bw.nodes > 100 and bw.sat_seconds == 0
    assert (bw.status, bw.nodes, bw.probes, bw.attempts) == (general.status, general.nodes, general.probes,
                                                             general.attempts)  # fmt: skip
    assert all(np.array_equal(a * 2, b) for a, b in zip(bw.solutions, general.solutions, strict=True))


def _redden(lines):
    """Clues of black groups as the same groups in red (colour 2)."""
    return [[(length, 2) for length, _ in line] for line in lines]


def test_random_puzzles_that_need_deep_search_against_brute_force(monkeypatch):
    # Random sparse 6x6 grids, many of which leave line logic stuck: the search
    # (probe records over a deep tree; then restarts cut short after every
    # node) must find what brute force over the rows' fillings finds; each
    # puzzle goes through both.
    from rofl.solver import search
    from tests.naive import puzzle_solutions

    rng = np.random.default_rng(30)
    cases = []
    for _ in range(80):
        puzzle = Puzzle.from_grid((rng.random((6, 6)) < 0.35).astype(np.uint8), Palette.black_white())
        cases.append((puzzle, set(puzzle_solutions(puzzle))))
    for restarts in (False, True):
        if restarts:  # every attempt a single node: records never outlive an attempt
            monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 1)
        deep = 0
        for puzzle, truth in cases:
            result = solve_complete(puzzle, time_budget=None)
            assert result.status == ("unique" if len(truth) == 1 else "multiple")
            assert {tuple(g.ravel().tolist()) for g in result.solutions} <= truth
            deep += result.max_depth >= 2
        assert deep >= 8, (restarts, deep)  # the tree was deep enough for records to matter


# ----------------------------------------------------------- properties


@st.composite
def noisy_grids(draw):
    height = draw(st.integers(2, 9))
    width = draw(st.integers(2, 9))
    n_colors = draw(st.integers(2, 4))
    cells = draw(st.lists(st.integers(0, n_colors - 1), min_size=height * width, max_size=height * width))
    return np.array(cells, dtype=np.uint8).reshape(height, width), n_colors


COLOURS = ["#ffffff", "#000000", "#ff0000", "#00ff00"]


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(noisy_grids())
def test_random_grids_decode_to_themselves_or_show_ambiguity(case):
    grid, n_colors = case
    puzzle = Puzzle.from_grid(grid, Palette(COLOURS[:n_colors]))
    result = solve_complete(puzzle, time_budget=None)
    assert result.status in ("unique", "multiple")  # the grid itself is a solution
    for sol in result.solutions:
        assert puzzle.is_solution(sol)
    if result.status == "unique":
        assert np.array_equal(result.grid, grid)
    else:
        assert not np.array_equal(*result.solutions)


def test_splits_into_independent_parts():
    # k separate 2x2 diagonal blocks: 2**k solutions; the search must say
    # "multiple" at once and "unique" when every block but one is pinned.
    block = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    grid = np.zeros((12, 12), dtype=np.uint8)
    for i in range(0, 12, 3):
        grid[i : i + 2, i : i + 2] = block
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    result = solve_complete(puzzle, time_budget=None)
    assert result.status == "multiple"
    assert all(puzzle.is_solution(s) for s in result.solutions)


# two puzzles that need branching after probing (found among random grids)
NEEDS_BRANCHING = [
    ["00001010", "11110110", "00111010", "00010111", "01010000", "11101110", "11011001", "10000001"],
    ["0101010010", "1111100000", "1011110001", "0010101000", "1011100101",
     "0001001000", "0111000101", "0011100010", "0010100100", "1010011101"],
]  # fmt: skip


def _grid(rows):
    return np.array([[int(ch) for ch in row] for row in rows], dtype=np.uint8)


def test_block_diagonal_puzzles_split_into_parts(monkeypatch):
    # Two puzzles on a diagonal: once the search has settled which cells
    # are empty, their undetermined cells share no row or column, and it
    # solves them as separate parts and combines their solutions.  (Whether
    # it splits before it meets two whole solutions depends on its branching
    # order: with the larger puzzle first, and no quick try of one node
    # that meets a solution first, it does.)
    from rofl.solver import search

    monkeypatch.setattr(search, "QUICK_CELLS", 0)
    b, a = (_grid(rows) for rows in NEEDS_BRANCHING)
    grid = np.zeros((a.shape[0] + b.shape[0], a.shape[1] + b.shape[1]), dtype=np.uint8)
    grid[: a.shape[0], : a.shape[1]] = a
    grid[a.shape[0] :, a.shape[1] :] = b
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    result = solve_complete(puzzle, time_budget=None)
    assert result.status == "multiple" and result.splits > 0
    first, second = result.solutions
    assert puzzle.is_solution(first) and puzzle.is_solution(second)
    assert not np.array_equal(first, second)


# ------------------------------------------------------------ budget, API


def _hard():
    from rofl.formats import read_puzzle

    return read_puzzle(corpus_file("webpbn-survey/knotty.json"))[0]


def test_node_budget_is_reported_not_guessed():
    result = solve_complete(_hard(), node_budget=1, time_budget=None)
    assert result.status == "budget"
    assert result.line_status == "stalled"
    assert result.grid is None
    assert result.nodes <= 2


def test_time_budget_stops_quickly():
    puzzle = _hard()
    # load (or compile) the search first: compilation is not part of the budget
    solve_complete(Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white()))
    result = solve_complete(puzzle, time_budget=0.2)
    assert result.status == "budget"
    assert result.seconds < 5  # generous: stops near the budget, not at the end of the search


def test_line_solvable_puzzle_needs_no_search():
    grid = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    result = solve_complete(Puzzle.from_grid(grid, Palette.black_white()))
    assert result.status == "unique" and result.line_solvable and result.nodes == 0
    assert np.array_equal(result.grid, grid)


@pytest.mark.parametrize(
    "kwargs", [{"time_budget": 0}, {"time_budget": -1.0}, {"time_budget": float("nan")}, {"node_budget": 0}]
)
def test_bad_budgets(kwargs):
    puzzle = Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white())
    with pytest.raises(OptionError, match="budget"):
        solve_complete(puzzle, **kwargs)


def test_lazy_export():
    import rofl

    assert rofl.solve_complete is solve_complete
