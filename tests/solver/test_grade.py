"""The difficulty grader (:mod:`rofl.solver.grade`): its technique solver
against line logic and brute force, hand-made puzzles of a known hardest
technique, and grades that do not depend on how a puzzle is written."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import PuzzleError, UnsolvableError
from rofl.kernels import grade_codes as k
from rofl.kernels._grade import MASK_BITS
from rofl.solver.grade import NAMES, Technique, grade, run
from tests import naive


def _puzzle(rows) -> rofl.Puzzle:
    grid = np.array(rows, dtype=np.uint8)
    n = max(2, int(grid.max()) + 1)
    palette = ["#ffffff", "#000000", "#ff0000", "#0000ff", "#00aa00"][:n]
    return rofl.Puzzle.from_grid(grid, palette)


grids = st.integers(1, 6).flatmap(
    lambda h: st.integers(1, 6).flatmap(
        lambda w: st.integers(2, 4).flatmap(
            lambda c: st.lists(st.lists(st.integers(0, c - 1), min_size=w, max_size=w), min_size=h, max_size=h)
        )
    )
)


@settings(deadline=None, max_examples=60)
@given(grids)
def test_never_a_wrong_cell_and_line_logic_reaches_the_same(rows):
    """Every colour the grader strikes is wrong in the puzzle's picture, and
    without probing it ends where line logic ends (the rofl solver and the
    brute-force reference)."""
    grid = np.array(rows, dtype=np.uint8)
    puzzle = _puzzle(rows)
    status, masks, *_ = run(puzzle, probe_work=-1)
    assert np.all(masks >> grid.astype(np.int64) & 1), "a colour of the picture was struck"
    line = rofl.solve(puzzle)
    assert np.array_equal(masks, line.masks)
    reference, reference_masks = naive.propagate(puzzle)
    assert np.array_equal(masks, reference_masks)
    assert (status == k.SOLVED) == (reference == "solved")
    # with probing: still never a wrong cell
    status, masks, *_ = run(puzzle)
    assert np.all(masks >> grid.astype(np.int64) & 1)
    assert status in (k.SOLVED, k.STALLED)


@settings(deadline=None, max_examples=60)
@given(grids)
def test_probing_keeps_every_solution(rows):
    """On puzzles with several pictures, no solution loses a cell."""
    puzzle = _puzzle(rows)
    lines = naive.rect_lines(puzzle.height, puzzle.width)
    clues = [puzzle.clue(i) for i in range(puzzle.n_lines)]
    try:
        solutions = naive.all_solutions(lines, clues, puzzle.width * puzzle.height, limit=20_000)
    except ValueError:
        return  # too many for brute force
    _, masks, *_ = run(puzzle)
    for solution in solutions:
        cells = np.array(solution, dtype=np.int64).reshape(puzzle.height, puzzle.width)
        assert np.all(masks >> cells & 1)


@settings(deadline=None, max_examples=40)
@given(grids, st.randoms(use_true_random=False))
def test_grade_does_not_depend_on_transposition_or_colour_names(rows, random):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = _puzzle(rows)
    first = grade(puzzle)
    transposed = grade(_puzzle(grid.T))
    inks = list(range(1, int(grid.max()) + 1))
    random.shuffle(inks)
    renamed_grid = grid.copy()
    for old, new in zip(range(1, len(inks) + 1), inks, strict=True):
        renamed_grid[grid == old] = new
    renamed = grade(_puzzle(renamed_grid))
    if first.hardest < Technique.PROBING:  # probing tries cells and colours in order: only the grade is the same
        assert transposed == first
        assert renamed == first
    assert transposed.grade == first.grade == renamed.grade


def test_overlap_alone():
    """Every line full or empty: the first round finds every cell."""
    d = grade(_puzzle([[1, 1, 1], [0, 0, 0], [1, 1, 1]]))
    assert d.hardest == Technique.OVERLAP
    assert (d.steps, d.rounds, d.grade, d.name) == (1, (1, 0, 0, 0, 0), 1, "easy")


def test_edges():
    """Overlap leaves row 1's first cell crossed out (column 1 is empty) and
    (1, 3) ink (column 3's two cells); pushed against the cross, row 1's 3
    then covers cells 2-4, and the rest is crossing out finished lines."""
    d = grade(_puzzle([[0, 1, 1, 1], [0, 0, 1, 0]]))
    assert d.hardest == Technique.EDGES
    assert d.rounds == (1, 1, 0, 0, 0)


def test_harder_techniques_are_needed():
    joining = grade(_puzzle([[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 0]]))
    assert joining.hardest == Technique.JOINING
    whole = grade(_puzzle([[0, 0, 1, 1, 1, 0], [0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 1, 0], [1, 1, 0, 1, 0, 0]]))
    assert whole.hardest == Technique.WHOLE_LINE
    assert whole.rounds[3] >= 1


def test_probing():
    """Rows 2, (empty), 1 1 and every column 1: line logic learns only the
    empty row; putting the 2 at the left leaves row 3 two neighbours."""
    puzzle = _puzzle([[0, 1, 1, 0], [0, 0, 0, 0], [1, 0, 0, 1]])
    assert rofl.solve(puzzle).status == "stalled"
    d = grade(puzzle)
    assert d.hardest == Technique.PROBING
    assert d.grade == 4 and d.probes > 0


def test_guessing_is_the_top_grade():
    d = grade(_puzzle([[1, 0], [0, 1]]))  # two solutions: the diagonals
    assert d.needs_guessing and d.grade == 5 and d.name == NAMES[5] == "needs guessing"
    assert d.hardest == Technique.GUESSING
    assert "needs guessing" in d.summary()


def test_colour_puzzles_and_hexagons_are_graded():
    d = grade(_puzzle([[1, 2, 2, 0], [1, 1, 2, 3], [0, 3, 3, 3]]))
    assert 1 <= d.grade <= 5 and d.steps >= 1
    hexagon = rofl.HexPuzzle.from_cells(2, [1, 1, 0, 1, 0, 1, 1])
    status, masks, *_ = run(hexagon, probe_work=-1)
    assert np.array_equal(masks, rofl.solve(hexagon).masks)
    assert 1 <= grade(hexagon).grade <= 5


def test_question_marks_are_refused():
    puzzle = _puzzle([[1, 2], [2, 1]]).with_unknown_colors([True] + [False] * (_puzzle([[1, 2], [2, 1]]).n_groups - 1))
    with pytest.raises(PuzzleError, match=r"does not grade puzzles with '\?' groups"):
        grade(puzzle)


def test_no_solution():
    """Row 1 is full but column 2 is empty."""
    puzzle = rofl.Puzzle(2, 2, rofl.Palette.black_white(), [[(2, 1)], []], [[(2, 1)], []])
    with pytest.raises(UnsolvableError, match="no solution"):
        grade(puzzle)


def test_difficulty_is_frozen_and_importable_from_rofl():
    d = rofl.grade(_puzzle([[1]]))
    assert isinstance(d, rofl.Difficulty)
    with pytest.raises(AttributeError):
        d.grade = 3  # type: ignore[misc]


def hexagon_cells(most_side: int, most_colour: int):
    """A hexagon's side and its cells' colours (0 to ``most_colour``), of side 1 to ``most_side``."""
    return st.integers(1, most_side).flatmap(
        lambda side: st.tuples(
            st.just(side),
            st.lists(
                st.integers(0, most_colour), min_size=3 * side * (side - 1) + 1, max_size=3 * side * (side - 1) + 1
            ),
        )
    )


@settings(deadline=None, max_examples=30)
@given(hexagon_cells(4, 2))
def test_hexagons_reach_what_line_logic_reaches(hexagon):
    side, cells = hexagon
    if max(cells) < 2:
        cells = [*cells[:-1], 2]  # two ink colours, so the palette is the same every time
    puzzle = rofl.HexPuzzle.from_cells(side, cells, ["#ffffff", "#000000", "#ff0000"])
    _, masks, *_ = run(puzzle, probe_work=-1)
    assert np.all(masks >> np.array(cells, dtype=np.int64) & 1)
    assert np.array_equal(masks, rofl.solve(puzzle).masks)


@settings(deadline=None, max_examples=60)
@given(grids)
def test_probes_known_to_fail_are_skipped_without_changing_the_solve(rows):
    """Skipping probes known to fail (``recall``) gives the same rounds, the
    same cells and the same status as trying every probe again."""
    puzzle = _puzzle(rows)
    plain = run(puzzle, recall=False)
    quick = run(puzzle)
    assert plain[0] == quick[0]
    for a, b in zip(plain[1:4], quick[1:4], strict=True):
        assert np.array_equal(a, b)
    assert quick[4][k.ST_ROUNDS] == plain[4][k.ST_ROUNDS]
    assert quick[4][k.ST_LINE_DPS] <= plain[4][k.ST_LINE_DPS]


many_colour_grids = st.integers(9, 12).flatmap(
    lambda c: st.tuples(
        st.just(c),
        st.integers(3, 8).flatmap(
            lambda h: st.integers(3, 8).flatmap(
                lambda w: st.lists(
                    st.lists(st.integers(0, c - 1) | st.just(0), min_size=w, max_size=w), min_size=h, max_size=h
                )
            )
        ),
    )
)


@settings(deadline=None, max_examples=40)
@given(many_colour_grids)
def test_probes_known_to_fail_are_skipped_in_puzzles_of_many_colours(drawn):
    """More colours than a kept cell's mask packs beside it (the record of
    failed probes then keeps cells and masks apart): the same solve too."""
    n, rows = drawn
    palette = [f"#{i:02x}{i * 37 % 256:02x}{i * 91 % 256:02x}" for i in range(n)]
    grid = np.array(rows, dtype=np.uint8)
    grid[0, 0] = n - 1  # every colour of the palette a mask may hold
    puzzle = rofl.Puzzle.from_grid(grid, palette)
    assert puzzle.n_colors > MASK_BITS
    plain = run(puzzle, recall=False)
    quick = run(puzzle)
    assert plain[0] == quick[0]
    for a, b in zip(plain[1:4], quick[1:4], strict=True):
        assert np.array_equal(a, b)
    assert quick[4][k.ST_LINE_DPS] <= plain[4][k.ST_LINE_DPS]


@pytest.mark.slow
def test_skipping_probes_keeps_the_solve_of_puzzles_that_need_probing():
    """Corpus puzzles that probing solves or that stall after many probes:
    the same solve with and without the record of failed probes."""
    from rofl.formats import open_puzzle
    from tests.places import corpus_file

    for name in ("webpbn-survey/webpbn-00436.json", "taai-tournament/tcga2014-0250.json"):
        puzzle = open_puzzle(corpus_file(name)).puzzle
        plain = run(puzzle, recall=False)
        quick = run(puzzle)
        assert plain[0] == quick[0]
        for a, b in zip(plain[1:4], quick[1:4], strict=True):
            assert np.array_equal(a, b)
        assert quick[4][k.ST_LINE_DPS] < plain[4][k.ST_LINE_DPS]


@settings(deadline=None, max_examples=40)
@given(grids)
def test_grading_clues_derived_from_a_grid_is_grading_its_puzzle(rows):
    """Steering's path (clues from the compiled kernel, no puzzle built) grades as the puzzle does."""
    from rofl import kernels
    from rofl.solver.grade import solve_graded, solve_graded_clues
    from rofl.solver.index_lines import board_of

    grid = np.array(rows, dtype=np.uint8)
    puzzle = _puzzle(rows)
    kernels.ready(kernels.REFINE)
    for work in (-1, 200_000):
        expected, when = solve_graded(puzzle, probe_work=work)
        found, found_when = solve_graded_clues(board_of(puzzle), *kernels.grid_clues(grid), puzzle.n_colors, work)
        assert found == expected
        assert np.array_equal(found_when, when)


def _same_solve(puzzle, **kwargs) -> None:
    """The word path and the general path give the same status, masks, log, rounds and line solves."""
    words = run(puzzle, **kwargs)
    general = run(puzzle, words=False, **kwargs)
    assert words[0] == general[0]
    for a, b in zip(words[1:], general[1:], strict=True):
        assert np.array_equal(a, b)


@settings(deadline=None, max_examples=60)
@given(
    st.integers(1, 14).flatmap(
        lambda h: st.integers(1, 14).flatmap(
            lambda w: st.lists(st.lists(st.integers(0, 1), min_size=w, max_size=w), min_size=h, max_size=h)
        )
    ),
    st.booleans(),
)
def test_probing_on_words_is_the_general_path(rows, recall):
    """Black-and-white puzzles probe on their lines' words: the same solve
    (masks, rounds, line solves, status) as on the general path."""
    puzzle = rofl.Puzzle.from_grid(np.array(rows, dtype=np.uint8), rofl.Palette.black_white())
    _same_solve(puzzle, recall=recall)


@settings(deadline=None, max_examples=30)
@given(hexagon_cells(5, 1))
def test_hexagons_probe_on_words_as_on_the_general_path(hexagon):
    side, cells = hexagon
    _same_solve(rofl.HexPuzzle.from_cells(side, cells, ["#ffffff", "#000000"]))


@pytest.mark.slow
def test_corpus_puzzles_that_need_probing_probe_on_words_as_on_the_general_path():
    from rofl.formats import open_puzzle
    from tests.places import corpus_file

    for name in ("webpbn-survey/webpbn-00803.json", "webpbn-survey/webpbn-00436.json"):
        _same_solve(open_puzzle(corpus_file(name)).puzzle)


@settings(deadline=None, max_examples=60)
@given(
    st.integers(2, 7).flatmap(
        lambda h: st.integers(2, 7).flatmap(
            lambda w: st.lists(st.lists(st.integers(0, 1), min_size=w, max_size=w), min_size=h, max_size=h)
        )
    )
    | grids,
    st.booleans(),
)
def test_probing_stalls_only_where_no_probe_leads_line_logic_to_a_contradiction(rows, words):
    """Where the grader stalls (guessing needed), its masks are a fixpoint
    of line logic and no colour of an open cell leads the brute-force line
    logic to a contradiction: a probe reaches line logic's fixpoint (on the
    words or the general path) and misses no contradiction."""
    puzzle = _puzzle(rows)
    status, masks, *_ = run(puzzle, words=words)
    if status != k.STALLED:
        return
    assert naive.propagate(puzzle, masks)[0] == "stalled"
    assert np.array_equal(naive.propagate(puzzle, masks)[1], masks)
    for (r, c), mask in np.ndenumerate(masks):
        for colour in range(puzzle.n_colors):
            if mask & (mask - 1) and mask >> colour & 1:
                start = masks.copy()
                start[r, c] = 1 << colour
                assert naive.propagate(puzzle, start)[0] != "contradiction", (r, c, colour)


def test_probing_on_long_lines_spends_fewer_line_solves():
    """Probing's line solves shrink with the square of the longest line past
    PROBE_LINE cells, so a large puzzle that needs guessing is graded in about
    a second, not minutes (a random 200x200 took 14 s at the full count)."""
    from rofl.solver.grade import PROBE_LINE, PROBE_WORK, probe_budget

    assert probe_budget(PROBE_LINE) == probe_budget(5) == PROBE_WORK
    assert probe_budget(2 * PROBE_LINE) == PROBE_WORK // 4
    grid = (np.random.default_rng(1).random((70, 70)) < 0.55).astype(np.uint8)
    puzzle = rofl.Puzzle.from_grid(grid)
    scaled, full = run(puzzle), run(puzzle, probe_work=PROBE_WORK)
    assert scaled[0] == k.BUDGET and full[0] in (k.STALLED, k.BUDGET)  # needs guessing either way
    assert scaled[4][k.ST_PROBES] == run(puzzle, probe_work=probe_budget(70))[4][k.ST_PROBES]
    assert scaled[4][k.ST_PROBES] < full[4][k.ST_PROBES]
    assert grade(puzzle).name == "needs guessing"


@pytest.mark.parametrize("entry", ["solve", "solve_complete", "grade"])
def test_a_path_or_grid_instead_of_a_puzzle_is_one_clear_type_error(entry):
    from pathlib import Path

    for value, hint in (
        ("p.non", "rofl.open_puzzle"),
        (Path("p.non"), "rofl.open_puzzle"),
        (np.zeros((2, 2)), "from_grid"),
    ):
        with pytest.raises(TypeError, match=rf"^rofl\.{entry} takes a Puzzle or HexPuzzle, not \w+ \(.*{hint}"):
            getattr(rofl, entry)(value)
    with pytest.raises(TypeError, match=rf"^rofl\.{entry} takes a Puzzle or HexPuzzle, not NoneType$"):
        getattr(rofl, entry)(None)
