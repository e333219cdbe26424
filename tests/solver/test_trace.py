"""The step-by-step trace of a solve (``rofl solve --steps``): its frames,
what each highlights, and that it ends on the solution."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import OptionError
from rofl.formats import open_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.solver import solve, solve_complete, solve_line
from rofl.solver.line_logic import determined, full_mask
from rofl.solver.trace import Per, StepKind, trace_solve
from tests.places import DATA_DIR, REPO, SAMPLES

BW = Palette.black_white()

#: Needs probing, a guess that fails and a backtrack (found by a random
#: search; two solutions).
BACKTRACKS = Puzzle(
    5,
    7,
    BW,
    rows=[[(1, 1)], [(1, 1)], [(1, 1), (1, 1)], [(1, 1)], [(1, 1), (1, 1)], [(2, 1)], [(2, 1), (1, 1)]],
    cols=[[(1, 1), (1, 1)], [(1, 1), (1, 1)], [(3, 1)], [(1, 1), (2, 1)], [(2, 1)]],
)
#: Unique, but line logic stalls: probing finishes it (from tests/cli/test_solve.py).
PROBES = Puzzle(
    4,
    4,
    BW,
    rows=[[(1, 1)], [(1, 1), (1, 1)], [(1, 1), (1, 1)], [(2, 1)]],
    cols=[[(1, 1), (1, 1)], [(1, 1), (1, 1)], [(1, 1)], [(2, 1)]],
)


def frames(puzzle, per="line", max_frames=100_000, **options):
    return list(trace_solve(puzzle, **options).frames(per, max_frames))


@pytest.mark.parametrize("path", [SAMPLES / "horse.rofl", SAMPLES / "rocket.rofl", DATA_DIR / "pzl" / "emoji.pzl"])
def test_line_logic_frames_end_on_the_solution(path):
    puzzle = open_puzzle(path).puzzle
    trace = trace_solve(puzzle)
    shown = list(trace.frames())
    expected = solve_complete(puzzle).grid
    assert trace.status == "solved" and np.array_equal(trace.solution, expected)
    assert np.array_equal(shown[-1].grid, expected) and shown[-1].label.endswith(": solved")
    # the Python loop's fixpoint is the compiled loop's
    assert np.array_equal(trace.final_masks(), solve(puzzle).masks)
    assert {step.kind for step in trace.steps} == {StepKind.LINE}


def test_each_line_frame_highlights_the_one_line_that_changed_cells():
    puzzle = open_puzzle(SAMPLES / "rocket.rofl").puzzle
    shown = frames(puzzle)
    assert shown[0].kinds == (StepKind.START,) and not shown[0].known.any()
    height = puzzle.height
    for before, frame in zip(shown, shown[1:], strict=False):
        (line,) = frame.lines
        changed = np.argwhere(before.masks != frame.masks)
        assert changed.size  # a line solve that learns nothing is no frame
        if line < height:
            assert set(changed[:, 0]) == {line}
            assert frame.label.removesuffix(": solved") == f"row {line + 1}"
        else:
            assert set(changed[:, 1]) == {line - height}
            assert frame.label.removesuffix(": solved") == f"column {line - height + 1}"


def test_the_first_step_shows_what_its_clue_alone_gives():
    puzzle = open_puzzle(SAMPLES / "horse.rofl").puzzle
    first = frames(puzzle)[1]
    (line,) = first.lines
    blank = np.full(puzzle.width if line < puzzle.height else puzzle.height, full_mask(puzzle.n_colors))
    alone = solve_line(blank, puzzle.clue(line))
    got = first.masks[line] if line < puzzle.height else first.masks[:, line - puzzle.height]
    assert np.array_equal(got, alone)
    assert (first.masks != full_mask(2)).sum() == (alone != full_mask(2)).sum()  # nothing else


def test_frame_counts_per_line_per_sweep_and_capped():
    puzzle = open_puzzle(SAMPLES / "camera.rofl").puzzle
    trace = trace_solve(puzzle)
    steps = len(trace.steps)
    assert trace.frame_count("line") == steps + 1 == len(list(trace.frames("line")))
    sweeps = len({step.sweep for step in trace.steps})
    assert trace.frame_count("sweep") == sweeps + 1 == len(list(trace.frames(Per.SWEEP)))
    assert 2 < sweeps < steps
    for cap in (2, 3, 10, steps, steps + 1, steps + 50):
        shown = list(trace.frames("line", cap))
        assert len(shown) == min(cap, steps + 1) == trace.frame_count("line", cap)
        assert np.array_equal(shown[-1].masks, trace.final_masks())  # the cap never cuts the end
        covered = [i for frame in shown for i in frame.steps]
        assert covered == list(range(steps))  # every step, once, in order
    with pytest.raises(OptionError, match="from 2 to"):
        trace.frame_count("line", 1)


def test_sweep_frames_highlight_every_line_of_their_pass():
    puzzle = open_puzzle(SAMPLES / "horse.rofl").puzzle
    for frame in frames(puzzle, "sweep")[1:]:
        rows = [line < puzzle.height for line in frame.lines]
        assert all(rows) or not any(rows)  # a pass over the rows, or over the columns
        assert "pass" in frame.label or len(frame.lines) == 1


def test_probing_frames_are_labelled_and_sound():
    trace = trace_solve(PROBES)
    kinds = {step.kind for step in trace.steps}
    assert StepKind.PROBE in kinds and StepKind.GUESS not in kinds
    solution = solve_complete(PROBES).grid
    for frame in trace.frames():
        known = frame.known
        assert np.array_equal(frame.grid[known], solution[known])  # nothing guessed: all proved
        if StepKind.PROBE in frame.kinds:
            assert frame.label.startswith("probe r") and frame.cells and not frame.lines
    assert np.array_equal(trace.solution, solution)


def test_search_frames_guess_contradict_and_backtrack():
    trace = trace_solve(BACKTRACKS)
    kinds = [step.kind for step in trace.steps]
    for kind in (StepKind.PROBE, StepKind.GUESS, StepKind.CONTRADICTION, StepKind.BACKTRACK):
        assert kind in kinds
    assert trace.status == "solved" and BACKTRACKS.is_solution(trace.solution)
    shown = list(trace.frames())
    assert np.array_equal(shown[-1].grid, trace.solution)
    at = kinds.index(StepKind.CONTRADICTION)
    assert shown[at + 1].depth >= 1 and "cannot be filled" in shown[at + 1].label
    back = shown[kinds.index(StepKind.BACKTRACK) + 1]
    guess = shown[kinds.index(StepKind.GUESS) + 1]
    assert back.cells == guess.cells and back.label.startswith("backtrack: r")
    # the backtrack undoes everything learnt under the guess but strikes its colour out
    (cell,) = back.cells
    assert back.masks.ravel()[cell] == 1 and guess.masks.ravel()[cell] == 2


def test_no_solution_ends_in_a_contradiction():
    puzzle = Puzzle(2, 2, BW, rows=[[(2, 1)], []], cols=[[(2, 1)], []])
    trace = trace_solve(puzzle)
    assert trace.status == "contradiction" and trace.solution is None
    assert trace.steps[-1].kind == StepKind.CONTRADICTION


def test_line_only_stops_where_line_logic_stalls():
    trace = trace_solve(PROBES, search=False)
    assert trace.status == "stalled" and trace.solution is None
    assert np.array_equal(trace.final_masks(), solve(PROBES).masks)


def test_out_of_budget_the_compiled_search_finishes():
    trace = trace_solve(BACKTRACKS, time_budget=1e-9)
    assert trace.status == "solved" and trace.steps[-1].kind == StepKind.SEARCH
    assert BACKTRACKS.is_solution(trace.solution)


@settings(deadline=None, max_examples=40)
@given(
    st.integers(2, 7).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 2), min_size=w, max_size=w), min_size=2, max_size=7)
    )
)
def test_any_small_puzzle_ends_on_a_solution(rows):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette(["#ffffff", "#000000", "#ff0000"]))
    trace = trace_solve(puzzle, time_budget=None)
    assert trace.status == "solved" and puzzle.is_solution(trace.solution)
    last = list(trace.frames(max_frames=5))[-1]
    assert determined(last.masks).all() and np.array_equal(last.grid, trace.solution)


@pytest.mark.parametrize("seed", range(4))
def test_a_puzzle_of_colour_sets_is_traced_to_a_solution(seed):
    # issue 40: a TypeError on a frozenset ('?' groups) in --gif and --steps
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, 3, (5, 6)).astype(np.uint8)
    exact = Puzzle.from_grid(grid, Palette(["#ffffff", "#000000", "#ff0000"]))
    unknown = [[(n, "?") for n, _ in clue] for clue in (*exact.rows, *exact.cols)]
    puzzle = Puzzle(6, 5, exact.palette, rows=unknown[:5], cols=unknown[5:])
    trace = trace_solve(puzzle)
    assert trace.status == "solved" and puzzle.is_solution(trace.solution)
    assert np.array_equal(list(trace.frames())[-1].grid, trace.solution)


def test_the_spec_vector_of_colour_sets_is_traced():
    puzzle = open_puzzle(REPO / "spec" / "vectors" / "rect-sets.rofl").puzzle
    trace = trace_solve(puzzle)
    assert trace.status == "solved" and np.array_equal(trace.solution, solve_complete(puzzle).grid)
