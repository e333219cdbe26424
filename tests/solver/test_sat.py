"""The SAT engine against rofl's compiled search and brute force: the
corpus puzzles of at most 30x30, random hexagonal and ``?`` puzzles."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import OptionError
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Palette, Puzzle
from tests.places import CORPUS, needs_corpus

pytest.importorskip("pysat")

PALETTES = {k: Palette([(60 * i, 0, 0) for i in range(k)]) for k in (2, 3, 4)}
SMALL = sorted(p for p in CORPUS.glob("*/*.json")) if CORPUS.is_dir() else []  # filtered to <= 30x30 when read


def _same_answer(puzzle, budget=5.0):
    """Both engines give the same status, and solutions that satisfy the clues
    (the same one when unique); None when either ran out of budget."""
    search = rofl.solve_complete(puzzle, time_budget=budget)
    if search.status == "budget":
        return None  # nothing to compare the SAT engine's answer with
    sat = rofl.solve_complete(puzzle, time_budget=budget, engine="sat")
    if sat.status == "budget":
        return None
    assert sat.status == search.status, (search.status, sat.status)
    for grid in sat.solutions:
        assert puzzle.is_solution(grid)
    if sat.status == "unique":
        assert np.array_equal(sat.grid, search.grid)
    if sat.status == "multiple":
        assert not np.array_equal(*sat.solutions)
    return sat.status


def _corpus_cases(every: int, skip: tuple[str, ...] = ()):
    from rofl.formats import read_puzzle

    for path in SMALL[::every]:
        if path.parent.name in skip:
            continue
        puzzle, _ = read_puzzle(path)
        if puzzle.width <= 30 and puzzle.height <= 30:
            yield path, puzzle


@needs_corpus
def test_corpus_sample():
    """Every tenth corpus puzzle of at most 30x30 but the tournament's, which
    take the SAT engine seconds each (all of them: the slow test below)."""
    seen = {_same_answer(p) for _, p in _corpus_cases(10, skip=("taai-tournament",))}
    assert "unique" in seen


FOLDERS = sorted({p.parent.name for p in SMALL})
# the tournament's 150 puzzles take the SAT engine up to seconds each: a
# budget, and every third of them (50, evenly spread: the suite's time)
BUDGET = {"taai-tournament": 0.5}
EVERY = {"taai-tournament": 3}


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_corpus_puzzle_up_to_30(folder):
    """Every corpus puzzle of at most 30x30 (the tournament's: every third),
    a folder at a time; those either engine cannot decide within the budget
    are counted, not compared."""
    tally: dict = {}
    others = tuple(f for f in FOLDERS if f != folder)
    for path, puzzle in _corpus_cases(EVERY.get(folder, 1), skip=others):
        got = _same_answer(puzzle, budget=BUDGET.get(folder, 2.0))
        tally[got] = tally.get(got, 0) + 1
        assert got != "none", path.name
    print(f"\n{folder}: {tally}")
    if not tally:
        pytest.skip(f"{folder}: no puzzle of at most 30x30")
    assert set(tally) - {None}


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 6), st.sampled_from([2, 3, 4]), st.floats(0, 1), st.data())
def test_random_hexagons_with_question_marks(side, k, fraction, data):
    n = 3 * side * (side - 1) + 1
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    cells = rng.integers(0, k, n)
    exact = HexPuzzle.from_cells(side, cells, PALETTES[k])
    puzzle = exact.with_unknown_colors(rng.random(exact.n_groups) < fraction) if k > 2 else exact
    assert _same_answer(puzzle) in ("unique", "multiple", None)


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from([3, 4]), st.data())
def test_random_rectangles_with_question_marks(h, w, k, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.integers(0, k, (h, w))
    exact = Puzzle.from_grid(grid, PALETTES[k])
    _same_answer(exact.with_unknown_colors(rng.random(exact.n_groups) < 0.5))


def test_no_solution():
    clash = HexPuzzle(2, PALETTES[2], [[(1, 1)], [], [(1, 1)]], [[(1, 1)], [], [(1, 1)]], [[], [(2, 1)], []])
    assert rofl.solve_complete(clash, engine="sat").status == "none"
    # a rectangle whose clues contradict: the rows and columns agree in totals only
    p = Puzzle(2, 2, PALETTES[2], [[(1, 1)], [(1, 1)]], [[(2, 1)], []])
    assert rofl.solve_complete(p, engine="sat").status == rofl.solve_complete(p).status


def test_engine_options():
    p = Puzzle.from_grid(np.eye(3, dtype=int))
    with pytest.raises(OptionError, match=r"engine must be 'search' or 'sat', not 'picosat'"):
        rofl.solve_complete(p, engine="picosat")
    with pytest.raises(OptionError, match="the SAT engine takes a time budget, not a node budget"):
        rofl.solve_complete(p, engine="sat", node_budget=10)
    assert rofl.solve_complete(p, engine="sat", search=False).status == rofl.solve_complete(p, search=False).status


# ---- the formula's size and the deadline while it is built (issue 40, defect 6)


def _loose(size: int) -> Puzzle:
    """Every line ``1 1`` on ``size`` cells: the order clauses grow with the square of the slack."""
    lengths = np.ones(4 * size, dtype=np.int64)
    colors = np.ones(4 * size, dtype=np.int64)
    offsets = np.arange(0, 4 * size + 1, 2)
    return Puzzle.from_arrays(size, size, Palette.black_white(), lengths, colors, offsets)


def test_the_count_of_literals_bounds_the_formula():
    from rofl.solver.sat import Encoding, formula_literals

    rng = np.random.default_rng(4)
    for k, size in ((2, 12), (3, 9), (8, 7)):
        grid = rng.integers(0, k, (size, size)).astype(np.uint8)
        palette = Palette.from_array(rng.integers(0, 256, (k, 3)).astype(np.uint8))
        for puzzle in (Puzzle.from_grid(grid, palette), _loose(size)):
            literals = sum(len(clause) for clause in Encoding(puzzle).clauses)
            assert literals <= formula_literals(puzzle) <= 2 * literals


@pytest.mark.timeout(30)  # it took 4 GB and minutes before the formula was counted first
def test_a_formula_too_large_is_refused_before_it_is_built(tmp_path):
    from rofl.errors import LimitError
    from rofl.formats import write_puzzle
    from rofl.solver.sat import MAX_LITERALS, formula_literals, solve_sat
    from tests.clirun import one_error_line, run

    puzzle = _loose(400)  # 64 million literals
    assert formula_literals(puzzle) > MAX_LITERALS
    with pytest.raises(LimitError, match="literals"):
        solve_sat(puzzle, time_budget=1)
    write_puzzle(tmp_path / "loose.nin", puzzle)
    assert (tmp_path / "loose.nin").stat().st_size < 16_000
    result = run("solve", tmp_path / "loose.nin", "--engine", "sat", "--budget", 1)
    one_error_line(result, "literals", "--engine search")


def test_the_deadline_counts_while_the_formula_is_built(monkeypatch):
    from rofl.solver import sat

    encoded = []
    real = sat.Encoding._line

    def line(self, puzzle, line, *args):
        encoded.append(line)
        return real(self, puzzle, line, *args)

    monkeypatch.setattr(sat.Encoding, "_line", line)
    grid = (np.random.default_rng(6).random((60, 60)) < 0.5).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())  # building its formula takes a second or more
    status, solutions, _ = sat.solve_sat(puzzle, time_budget=1e-4)
    assert status == "budget" and solutions == []
    assert len(encoded) < puzzle.n_lines  # stopped while building, not after


# ---- the solver and its slices


class _Slow:
    """A stand-in SAT solver: each slice takes ``seconds_per_conflict`` of a fake clock and never decides."""

    def __init__(self, clock, seconds_per_conflict: float) -> None:
        self.clock, self.rate, self.budgets = clock, seconds_per_conflict, []

    def conf_budget(self, budget: int) -> None:
        self.budgets.append(budget)

    def solve_limited(self):
        self.clock[0] += self.budgets[-1] * self.rate
        return None


def test_slices_double_and_shrink_to_the_deadline(monkeypatch):
    from rofl.solver import sat

    clock = [0.0]
    monkeypatch.setattr(sat.time, "monotonic", lambda: clock[0])
    solver = _Slow(clock, 1e-5)  # 1000 conflicts: 10 ms
    assert sat._solve_until(solver, sat.Deadlines(1.0)) is None
    budgets = solver.budgets
    assert budgets[:4] == [1000, 2000, 4000, 8000]
    assert all(b <= 2 * a for a, b in zip(budgets, budgets[1:], strict=False))
    assert clock[0] <= 1.0 + sat.FIRST_SLICE * 1e-5 + 1e-9  # the last slices fit what was left, or are the first's size
    assert min(budgets) == sat.FIRST_SLICE


def test_the_first_solver_python_sat_has(monkeypatch):
    from rofl.solver import sat

    monkeypatch.setattr(sat, "SOLVERS", ("no-such-solver", "cadical195"))
    assert sat._solver_name() == "cadical195"


# ---- a second solution among the first's rectangle swaps (issue 45)


def _groups(line) -> list[tuple[int, int]]:
    """A black-and-white line's groups as (first cell, length)."""
    cells = [i for i, c in enumerate(line) if c]
    starts = [i for i in cells if i - 1 not in cells]
    return [(a, next(e for e in range(a, len(line) + 1) if e not in cells) - a) for a in starts]


def test_one_cell_moves_keep_the_groups():
    """Every move the swap search takes keeps a line's groups (brute force on
    every line of up to 10 cells); it takes all that keep the groups in order."""
    import itertools

    from rofl.solver.sat import _one_cell_moves

    for n in range(1, 11):
        for bits in itertools.product((0, 1), repeat=n):
            line = np.array(bits)
            moves = set(_one_cell_moves(line))
            for a, b in itertools.product(range(n), repeat=2):
                if not line[a] or line[b]:
                    continue
                moved = line.copy()
                moved[a], moved[b] = 0, 1
                before, after = _groups(line), _groups(moved)
                keeps = [n for _, n in before] == [n for _, n in after]
                # a group of one that jumps over another also keeps the clue (two groups
                # move); the search leaves those out
                jumps = keeps and sum(x != y for x, y in zip(before, after, strict=True)) > 1
                assert ((a, b) in moves) == (keeps and not jumps), (bits, a, b)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_swap_is_another_solution(data):
    """What :func:`swapped` returns satisfies the same clues and differs from
    the grid in the four corners of a rectangle; on a grid where it finds
    none, every rectangle whose flip keeps the clues moves a group of one
    past another (the moves it leaves out)."""
    import itertools

    from rofl.solver.sat import swapped

    h, w = data.draw(st.integers(2, 6)), data.draw(st.integers(2, 6))
    grid = np.array(data.draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w)), dtype=np.uint8)
    grid = grid.reshape(h, w)
    puzzle = Puzzle.from_grid(grid, PALETTES[2])
    alt = swapped(grid)
    if alt is not None:
        assert puzzle.is_solution(alt)
        rows, cols = np.nonzero(alt != grid)
        assert len(rows) == 4 and len(set(rows)) == 2 and len(set(cols)) == 2
        return
    for r1, r2 in itertools.combinations(range(h), 2):
        for c1, c2 in itertools.combinations(range(w), 2):
            corners = grid[[r1, r1, r2, r2], [c1, c2, c1, c2]]
            if corners.tolist() not in ([1, 0, 0, 1], [0, 1, 1, 0]):
                continue
            flipped = grid.copy()
            flipped[[r1, r1, r2, r2], [c1, c2, c1, c2]] = 1 - corners
            # a rectangle the search skips moves two groups of some line (one jumps another)
            if puzzle.is_solution(flipped):
                lines = [(grid[r], flipped[r]) for r in (r1, r2)] + [(grid[:, c], flipped[:, c]) for c in (c1, c2)]
                assert any(sum(x != y for x, y in zip(_groups(a), _groups(b), strict=True)) > 1 for a, b in lines)


def test_the_sat_engine_takes_a_swap_for_the_second_solution(monkeypatch):
    """Two solutions: after the first, a swap of it is the second, and the
    SAT solver is asked once; without swaps it is asked twice.  The verdict
    is the same."""
    from rofl.solver import sat

    grid = np.zeros((6, 6), dtype=np.uint8)
    grid[1, 1] = grid[2, 2] = grid[4, 4] = 1  # the 2 x 2 at (1, 1) flips
    puzzle = Puzzle.from_grid(grid, PALETTES[2])
    calls = []
    real = sat._solve_until
    monkeypatch.setattr(sat, "_solve_until", lambda *a: calls.append(1) or real(*a))
    status, solutions, _ = sat.solve_sat(puzzle, want=2)
    assert status == "multiple" and len(calls) == 1
    assert all(puzzle.is_solution(g) for g in solutions) and not np.array_equal(*solutions)
    monkeypatch.setattr(sat, "SWAP", False)
    calls.clear()
    assert sat.solve_sat(puzzle, want=2)[0] == "multiple" and len(calls) == 2


class _SleepingSolver:
    """Stands in for a python-sat solver: a slice takes 0.2 s, and using it
    after its ``delete`` (what a ``with`` block's exit does) is recorded."""

    def __init__(self):
        self.deleted = False
        self.used_after_delete = False

    def conf_budget(self, budget):
        pass

    def solve_limited(self):
        time.sleep(0.2)
        self.used_after_delete |= self.deleted
        return True

    def delete(self):
        self.deleted = True


@pytest.mark.parametrize("launched", [True, False])
def test_ctrl_c_as_a_slice_s_thread_starts_leaves_the_solver_to_it(monkeypatch, launched):
    """Ctrl-C can land inside ``Thread.start``: before the thread is launched,
    or after, while start waits to hear from it (python-sat holds the
    interpreter through a slice, so that wait can last the slice).  Either
    way the interrupt goes on only once no thread will touch the solver, or
    the caller's ``with`` would delete a solver a slice still runs (the
    process crashed in CaDiCaL)."""
    import threading

    from rofl.solver import sat

    class Interrupted(threading.Thread):
        def start(self):
            if launched:
                super().start()
            raise KeyboardInterrupt

    solver = _SleepingSolver()
    monkeypatch.setattr(threading, "Thread", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        sat._slice(solver, 1000)
    solver.delete()
    time.sleep(0.4)  # a slice left running would end here, after the delete
    assert not solver.used_after_delete
