"""``--budget`` and ``solve_picture``'s budget count line logic too, and the
commands that may search (decode, info, convert, reveal) all take one."""

from __future__ import annotations

import time

import numpy as np
import pytest

import rofl.solver
from rofl.decode import solve_picture
from rofl.errors import AmbiguousError, BudgetError
from rofl.formats import write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.clirun import run, usage_error_line

AMBIGUOUS = Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())


def test_a_search_does_not_run_line_logic_again(monkeypatch):
    import rofl.solver.search

    calls = []
    real = rofl.solver.solve

    def counted(puzzle, **options):
        calls.append(puzzle)
        return real(puzzle, **options)

    monkeypatch.setattr(rofl.solver, "solve", counted)
    monkeypatch.setattr(rofl.solver.search, "solve", counted)
    with pytest.raises(AmbiguousError):  # line logic stalls on it, the search finds two solutions
        solve_picture(AMBIGUOUS)
    assert len(calls) == 1


def test_line_logic_counts_in_the_budget(monkeypatch):
    real = rofl.solver.solve

    def slow(puzzle, **options):
        time.sleep(0.3)
        return real(puzzle, **options)

    monkeypatch.setattr(rofl.solver, "solve", slow)
    with pytest.raises(BudgetError, match="line logic took"):
        solve_picture(AMBIGUOUS, budget=0.1)


def test_the_budget_stops_line_logic_inside_one_pass(tmp_path):
    # a random 2048x2048 picture: one pass of line logic takes about 0.6 s
    grid = (np.random.default_rng(3).random((2048, 2048)) < 0.5).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    with pytest.raises(BudgetError, match="not decoded: line logic did not finish within the 0.05 s budget"):
        solve_picture(puzzle, budget=0.05, where="big.rofl")
    write_puzzle(tmp_path / "big.rofl", puzzle)
    result = run("info", tmp_path / "big.rofl", "--budget", "0.05")
    assert result.exit_code == 0, result.output
    assert "picture: not decoded (line logic ran out of budget)" in result.output


@pytest.mark.slow
def test_the_search_of_a_large_puzzle_stops_at_its_budget():
    # line logic stalls on a random 2048x2048 picture; the search's probe
    # records once asked for cells x lines int32 (64 GiB) and failed with
    # "out of memory" instead of searching until the budget.  Line logic runs
    # first, outside the budget, so that the search runs whatever the
    # machine's speed (the test once needed line logic to finish inside the
    # 2 s budget); no machine finishes this search in 2 s.
    from rofl.solver.search import solve_complete

    grid = (np.random.default_rng(3).random((2048, 2048)) < 0.5).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    line = rofl.solver.solve(puzzle)
    assert line.status == "stalled"
    result = solve_complete(puzzle, time_budget=2, line=line)
    assert result.status == "budget" and not result.line_stopped


@pytest.mark.parametrize("command", ["convert", "reveal"])
def test_convert_and_reveal_take_a_budget(tmp_path, command):
    grid = np.array([[1, 0], [1, 1]], np.uint8)
    source = tmp_path / "s.rofl"
    write_puzzle(source, Puzzle.from_grid(grid, Palette.black_white()), grid)
    extra = [tmp_path / "t.json"] if command == "convert" else []
    usage_error_line(run(command, source, *extra, "--budget", "nan"), "--budget")
    usage_error_line(run(command, source, *extra, "--budget", "0"), "--budget")
    result = run(command, source, *extra, "--budget", "2")
    assert "--budget" not in result.output


def test_info_runs_line_logic_once(tmp_path, monkeypatch):
    real = rofl.solver.solve
    calls = []

    def counting(puzzle, **options):
        calls.append(puzzle)
        return real(puzzle, **options)

    monkeypatch.setattr(rofl.solver, "solve", counting)
    grid = np.array([[1, 0], [1, 1]], np.uint8)
    write_puzzle(tmp_path / "s.rofl", Puzzle.from_grid(grid, Palette.black_white()), grid)
    result = run("info", tmp_path / "s.rofl")
    assert result.exit_code == 0 and "decodes by line logic" in result.output
    assert len(calls) == 1


# issue 40: a hexagon with '?' groups that line logic leaves open (several solutions)
HEX_UNKNOWN = """rofl clues 1
hexagon 4
colours #ffffff #000000 #ff0000 #00ff00 #0000ff
rows
2? 1? 1?
2? 1?
1? 1? 1? 1? 1? 1?
1? 1? 1? 1? 1?
1? 1? 1? 1? 1? 1?
1? 1? 1?
1? 1? 1?
falling
1? 1?
1? 1? 1? 2?
1? 1? 1? 1?
1? 1? 1? 1? 1?
1? 1? 1? 1? 1?
1? 3? 1?
1? 2? 1?
rising
1? 1? 1?
1? 1? 1? 1?
1? 1? 3?
2? 1? 1? 1?
1? 1? 1? 1?
1? 1? 3?
2? 2?
"""


def test_a_hexagon_out_of_budget_is_not_decoded_not_a_crash():
    # issue 40: 'HexPuzzle' object has no attribute 'width' in both messages
    from rofl.decode import _proved_grid
    from rofl.formats import clues
    from rofl.solver.search import solve_complete

    puzzle = clues.loads(HEX_UNKNOWN)
    # a budget this small may stop line logic itself (which honours budgets since issue 40 too),
    # or, when line logic's first check comes too soon, the search after it
    stopped = "not decoded(: line logic did not finish .* on this hexagon of side 4| within .* leaves 30 of 37)"
    with pytest.raises(BudgetError, match=stopped):
        solve_picture(puzzle, budget=1e-9)
    line = rofl.solver.solve(puzzle)
    complete = solve_complete(puzzle, time_budget=None, node_budget=1, line=line)
    with pytest.raises(BudgetError, match="leaves 30 of 37 cells undetermined and the search did not finish"):
        _proved_grid(complete, "", 1.0)


def test_info_states_the_budget_the_user_gave(tmp_path, monkeypatch):
    # issue 40: "not decoded within the 1e-06 s search budget" for --budget 0.5
    real = rofl.solver.solve

    def slow(puzzle, **options):  # line logic that took 0.6 s, as its result says
        result = real(puzzle)
        result.seconds = 0.6
        return result

    monkeypatch.setattr(rofl.solver, "solve", slow)
    (tmp_path / "h.clues").write_text(HEX_UNKNOWN)
    result = run("info", tmp_path / "h.clues", "--budget", "0.5")
    assert "not decoded within the 0.5 s budget: line logic took 0.6 s" in result.output, result.output
    assert "1e-06" not in result.output


@pytest.mark.slow
def test_loading_the_kernels_is_not_in_the_budget(tmp_path):
    # a fresh process loads the hexagon kernels (seconds) before line logic:
    # that once ate the whole 0.5 s budget
    import subprocess
    import sys

    (tmp_path / "h.clues").write_text(HEX_UNKNOWN)
    out = subprocess.run(
        [sys.executable, "-m", "rofl", "info", "--budget", "0.5", str(tmp_path / "h.clues")],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "picture: not decodable: the puzzle has several solutions" in out, out


def _random_hexagon(side: int):
    from rofl.hexagon import Hexagon, HexPuzzle

    cells = np.random.default_rng(5).integers(0, 2, Hexagon.of(side).n_cells).astype(np.uint8)
    return HexPuzzle.from_cells(side, cells)


def _random_sets(size: int):
    # three colours, every other group "? of black or red": ? groups on every line
    grid = np.random.default_rng(5).integers(0, 3, (size, size)).astype(np.uint8)
    palette = Palette.from_array(np.array([[255, 255, 255], [0, 0, 0], [255, 0, 0]], np.uint8))
    plain = Puzzle.from_grid(grid, palette)
    colors, sets = plain.colors.copy(), np.zeros(len(plain.lengths), np.uint64)
    colors[::2], sets[::2] = 0, 0b110
    return Puzzle.from_arrays(size, size, palette, plain.lengths, colors, plain.offsets, color_sets=sets)


# line logic on these takes a few tenths of a second; the kernels read no stop
# flag before issue 40 (a 0.1 s budget on a larger one ran 60 s)
@pytest.mark.parametrize("make", [lambda: _random_hexagon(300), lambda: _random_sets(200)], ids=["hexagon", "sets"])
def test_the_budget_stops_line_logic_of_hexagons_and_colour_sets(make):
    puzzle = make()
    rofl.solver.solve(puzzle, start=None)  # compiled before the clock, and not solved by line logic
    with pytest.raises(BudgetError, match="line logic did not finish within the 0.001 s budget"):
        rofl.solver.solve(puzzle, budget=0.001)
    with pytest.raises(BudgetError, match="not decoded"):
        solve_picture(puzzle, budget=0.001, where="x")


def test_a_complete_solve_bounds_its_line_logic_by_its_budget():
    from rofl.solver.search import solve_complete

    puzzle = _random_hexagon(300)
    rofl.solver.solve(puzzle)  # compiled before the clock
    result = solve_complete(puzzle, time_budget=0.001)
    assert result.status == "budget" and result.solutions == []
    assert result.masks.shape == (puzzle.n_cells,)
