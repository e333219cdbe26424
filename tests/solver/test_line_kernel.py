"""The compiled line kernel against brute force over every filling of the line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import PuzzleError
from rofl.solver import solve_line
from tests import naive


def _knowledge(rng: np.random.Generator, solutions: np.ndarray, n_colors: int) -> np.ndarray:
    """Random partial knowledge of lines, one row per row of ``solutions``.

    Mostly consistent with the given filling (each cell unknown or known
    right), with a few cells narrowed at random so that some lines have no
    filling left.
    """
    full = (1 << n_colors) - 1
    truth = np.int64(1) << solutions
    extra = rng.integers(0, full + 1, size=solutions.shape)  # random colour sets
    choice = rng.random(solutions.shape)
    cells = np.where(choice < 0.5, full, truth | (extra & (rng.random(solutions.shape) < 0.5) * full))
    wild = choice > 0.95  # a random set, possibly without the true colour
    cells = np.where(wild, np.maximum(extra, 1), cells)
    return cells.astype(np.int64)


def _check_all_clues(n: int, n_colors: int, samples: int, seed: int) -> tuple[int, int]:
    """Every clue of an ``n``-cell line: unknown cells plus ``samples`` random states.

    Returns the number of lines checked and how many of them had no filling.
    """
    rng = np.random.default_rng(seed)
    f, by_clue = naive.fillings(n, n_colors)
    full = (1 << n_colors) - 1
    checked = contradictions = 0
    for clue, rows in by_clue.items():
        picks = f[rng.choice(rows, size=samples)]
        states = np.vstack([np.full((1, n), full, dtype=np.int64), _knowledge(rng, picks, n_colors)])
        for cells in states:
            want = naive.brute_line(cells, clue, n_colors)
            got = solve_line(cells, clue)
            checked += 1
            if want is None:
                contradictions += 1
                assert got is None, (n, clue, cells.tolist(), got.tolist())
            else:
                assert got is not None, (n, clue, cells.tolist(), want.tolist())
                np.testing.assert_array_equal(got, want, err_msg=f"{n=} {clue=} cells={cells.tolist()}")
    return checked, contradictions


@pytest.mark.parametrize("n", range(1, 13))
def test_black_white_every_clue(n):
    checked, contradictions = _check_all_clues(n, 2, samples=6, seed=n)
    assert checked == 7 * len(naive.fillings(n, 2)[1])
    if n >= 3:
        assert 0 < contradictions < checked


# palettes of 3 and 4 colours (background included) up to 8 cells; 5 (four inks) up to 6
# the largest take seconds each (every clue of 8 cells, three inks): slow
_SLOW_CASES = {(8, 3), (6, 4), (7, 4), (8, 4), (6, 5)}
COLOUR_CASES = [
    pytest.param(n, k, marks=pytest.mark.slow) if (n, k) in _SLOW_CASES else (n, k)
    for n, k in [(n, k) for k in (3, 4) for n in range(1, 9)] + [(n, 5) for n in range(1, 7)]
]


@pytest.mark.parametrize(("n", "n_colors"), COLOUR_CASES)
def test_colour_every_clue(n, n_colors):
    samples = 1 if (n_colors == 4 and n >= 7) or n_colors == 5 else 3
    checked, contradictions = _check_all_clues(n, n_colors, samples=samples, seed=100 * n_colors + n)
    if n >= 3:
        assert 0 < contradictions < checked


@pytest.mark.parametrize("n", range(1, 9))
def test_clue_too_long_for_line(n):
    # Every clue of an (n + 1)-cell line that does not fit in n cells.
    _, by_clue = naive.fillings(n + 1, 3)
    _, fits = naive.fillings(n, 3)
    cells = np.full(n, 0b111, dtype=np.int64)
    tested = 0
    for clue in by_clue:
        if clue not in fits:
            assert solve_line(cells, clue) is None, clue
            tested += 1
    assert tested > 0


def test_empty_clue_and_empty_cells():
    assert solve_line([3, 3, 3], []).tolist() == [1, 1, 1]
    assert solve_line([3, 2, 3], []) is None
    assert solve_line([3, 0, 3], [(1, 1)]) is None  # a cell with no colour left
    assert solve_line([0b011, 0b111], [(1, 2), (1, 1)]) is None  # colour 2 excluded from cell 0
    assert solve_line([0b101, 0b111], [(1, 2), (1, 1)]).tolist() == [4, 2]


def test_sixty_four_colours():
    # Bit 63 is the sign bit of an int64 mask.
    full = -1
    got = solve_line([full, full, full], [(2, 63), (1, 62)])
    assert got.tolist() == [np.int64(1) << 63, np.int64(1) << 63, 1 << 62]


def test_invalid_clue_for_solve_line():
    with pytest.raises(PuzzleError, match="lengths must be >= 1"):
        solve_line([3, 3], [(0, 1)])
    with pytest.raises(PuzzleError, match="colours 1..63"):
        solve_line([3, 3], [(1, 64)])
    with pytest.raises(PuzzleError, match="at least one cell"):
        solve_line([], [])


# ---------------------------------------------------------------- hypothesis


@st.composite
def lines(draw, max_n=18, max_colors=6):
    n_colors = draw(st.integers(2, max_colors))
    n = draw(st.integers(1, max_n))
    truth = draw(st.lists(st.integers(0, n_colors - 1), min_size=n, max_size=n))
    # the clue of this line, or now and then of another line (which may not fit)
    if draw(st.booleans()) or n < 2:
        clue = naive.clue_of(truth)
    else:
        other = draw(st.lists(st.integers(0, n_colors - 1), min_size=1, max_size=n + 2))
        clue = naive.clue_of(other)
    full = (1 << n_colors) - 1
    cells = []
    for v in truth:
        kind = draw(st.sampled_from(["unknown", "unknown", "true", "superset", "random"]))
        if kind == "unknown":
            cells.append(full)
        elif kind == "true":
            cells.append(1 << v)
        elif kind == "superset":
            cells.append((1 << v) | draw(st.integers(0, full)))
        else:
            cells.append(draw(st.integers(1, full)))
    return cells, clue


@settings(deadline=None, max_examples=300)
@given(lines())
def test_line_against_placements(case):
    cells, clue = case
    want = naive.placement_line(cells, clue)
    got = solve_line(np.array(cells, dtype=np.int64), clue)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert got.tolist() == want.tolist()


@settings(deadline=None, max_examples=100)
@given(lines(max_n=9, max_colors=4))
def test_placements_agree_with_fillings(case):
    # The two references agree with each other where both are feasible.
    cells, clue = case
    n_colors = max(int(c).bit_length() for c in cells)
    n_colors = max(n_colors, 1 + max((c for _, c in clue), default=0), 2)
    a = naive.placement_line(cells, clue)
    b = naive.brute_line(cells, clue, n_colors)
    assert (a is None) == (b is None)
    if a is not None:
        assert a.tolist() == b.tolist()


def _count_fitting(cells, clue) -> int:
    placements = naive.placements(len(cells), clue)
    return sum(all((int(m) >> v) & 1 for m, v in zip(cells, line, strict=True)) for line in placements)


@settings(deadline=None, max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(2, 4))
def test_arrangement_count_matches_enumeration(seed, n, n_colors):
    # The log count behind refinement's "tightening" figure: the number of
    # placements of the clue's groups that fit the line's masks.
    from rofl.kernels import _refine as k

    rng = np.random.default_rng(seed)
    line = np.where(rng.random(n) < 0.5, rng.integers(1, n_colors, size=n), 0)
    clue = naive.clue_of(line)
    cells = _knowledge(rng, line[None, :], n_colors)[0]
    lens = np.array([g[0] for g in clue], dtype=np.int64)
    cols = np.array([g[1] for g in clue], dtype=np.int64)
    cnt = np.empty((len(clue) + 1, n + 2), dtype=np.float64)
    got = k._line_log_count(cells, n, lens, cols, 0, len(clue), cnt)
    want = _count_fitting(cells, clue)
    if want == 0:
        assert got == -np.inf
    else:
        assert got == pytest.approx(np.log(want), rel=1e-12, abs=1e-12)
