"""64 colours, the most rofl supports, with ``?`` groups and on hexagons
(issue 40, defect 15): colour 63 is bit 63 of a cell's mask, the sign bit of
the solver's int64 masks, and ``(1 << 64) - 1`` does not fit one.  Every
command that solves such a puzzle must work, not end in an ``OverflowError``."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.formats import open_puzzle
from rofl.formats import rofl as codec
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Palette, Puzzle
from rofl.solver.index_lines import colour_bit, full_mask
from tests.clirun import run
from tests.places import SAMPLES

PALETTE = Palette([(255, 255, 255)] + [((i * 37) % 256, (i * 91) % 256, (i * 53) % 256) for i in range(1, 64)])


def rectangle() -> tuple[Puzzle, np.ndarray]:
    """64x4, every colour used, the first group of colour 63 given as '?'."""
    grid = (np.arange(64 * 4, dtype=np.int64).reshape(4, 64) % 64).astype(np.uint8)
    grid[:, 0] = 0
    puzzle = Puzzle.from_grid(grid, PALETTE)
    return puzzle.with_unknown_colors(np.arange(puzzle.n_groups) == np.argmax(puzzle.colors == 63)), grid


def hexagon() -> tuple[HexPuzzle, np.ndarray]:
    """A side-5 hexagon of 61 distinct colours, 63 down to 3."""
    cells = (63 - np.arange(61)).astype(np.uint8)
    return HexPuzzle.from_cells(5, cells, PALETTE), cells


def test_the_masks_of_64_colours_fit_int64():
    assert np.full(3, full_mask(64), dtype=np.int64).tolist() == [-1] * 3
    assert full_mask(4) == 0b1111
    assert np.int64(colour_bit(63)) == np.int64(np.uint64(1 << 63).view(np.int64))
    assert colour_bit(5) == 32


@pytest.fixture(params=["rectangle", "hexagon"])
def case(request, tmp_path):
    puzzle, solution = (rectangle if request.param == "rectangle" else hexagon)()
    path = tmp_path / "p64.rofl"
    path.write_bytes(codec.dumps(puzzle))
    return path, puzzle, solution


@pytest.mark.parametrize(
    "command",
    [["info"], ["solve"], ["solve", "--engine", "sat"], ["solve", "--line-only"]],
    ids=" ".join,
)
def test_commands_that_solve(case, command):
    path, _, _ = case
    result = run(*command, path)
    assert result.exit_code == 0, result.output
    assert "64 colours" in result.output or "colours: 64" in result.output


def test_the_solution_is_the_picture(case):
    from rofl import solve

    _, puzzle, solution = case
    result = solve(puzzle)
    assert result.status == "solved"
    assert np.array_equal(np.asarray(result.grid).ravel(), solution.ravel())


@pytest.mark.parametrize("suffix", [".clues", ".rofl"])
def test_convert(case, tmp_path, suffix):
    path, puzzle, _ = case
    out = tmp_path / f"out{suffix}"
    result = run("convert", path, out)
    assert result.exit_code == 0, result.output
    back = open_puzzle(out).puzzle
    assert np.array_equal(back.lengths, puzzle.lengths)


def test_sheet_with_the_solution(case, tmp_path):
    path, puzzle, _ = case
    result = run("sheet", "--solution", path, "-o", tmp_path / "s.svg")
    if isinstance(puzzle, Puzzle):  # rectangular sheets do not draw '?' groups (yet): one clear error
        assert result.exit_code == 1 and "Error:" in result.output and "Traceback" not in result.output
    else:
        assert result.exit_code == 0, result.output


def test_decode_a_rectangle(tmp_path):
    puzzle, grid = rectangle()
    path = tmp_path / "r.rofl"
    path.write_bytes(codec.dumps(puzzle))
    result = run("decode", path, "-o", tmp_path / "r.png")
    assert result.exit_code == 0, result.output


def recoloured(colour: int, palette: Palette) -> Puzzle:
    """The puzzle that needs probing and guessing of ``tests/solver/test_trace.py``, in ``colour``."""
    from tests.solver.test_trace import BACKTRACKS

    return Puzzle.from_arrays(
        BACKTRACKS.width,
        BACKTRACKS.height,
        palette,
        BACKTRACKS.lengths,
        np.full(BACKTRACKS.n_groups, colour),
        BACKTRACKS.offsets,
    )


def test_the_step_by_step_solve_probes_and_guesses_colour_63():
    """Colour 63 takes the same steps as colour 2 of three (``rofl solve --steps``)."""
    from rofl.solver.trace import trace_solve

    three = trace_solve(recoloured(2, Palette(PALETTE.colors[:3])))
    many = trace_solve(recoloured(63, PALETTE))
    assert three.guesses and three.probes
    assert (many.status, many.guesses, many.probes, len(many.steps)) == (
        three.status,
        three.guesses,
        three.probes,
        len(three.steps),
    )
    assert np.array_equal(many.solution == 63, three.solution == 2)
    assert [s.label.replace("colour 63", "colour 2") for s in many.steps] == [s.label for s in three.steps]


@pytest.mark.slow
@pytest.mark.parametrize("options", [["--shape", "hex", "--size", "8"], ["-w", "20", "--unknown-colours", "0.3"]])
def test_make_with_64_colours(tmp_path, options):
    out = tmp_path / "m.clues"
    result = run("make", SAMPLES / "chelsea.jpg", *options, "-c", "64", "--min-delta-e", "1", "-o", out)
    assert result.exit_code == 0, result.output
    assert open_puzzle(out).puzzle.n_colors == 64
