"""The kernels' named work structures, and the solver package standing on its own."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from rofl.kernels import _line as k
from rofl.kernels import _refine as rk
from rofl.kernels import _search
from rofl.puzzle import Puzzle
from rofl.refine.judge import Trajectory
from rofl.solver import LineSolver, solve, solve_line
from rofl.solver.line_logic import initial_masks, kernel_clues
from tests.places import REPO

SOLVER = REPO / "rofl" / "solver"


def test_line_solver_lends_its_buffers_as_named_tuples():
    puzzle = Puzzle.from_grid(np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 1]]))
    solver = LineSolver(cache_mb=1)
    solver.prepare(puzzle.packed.kmax, initial_masks(puzzle))
    scratch, cache = solver.work()
    assert isinstance(scratch, k.LineScratch) and isinstance(cache, k.LineCache)
    kmax, nmax = puzzle.packed.kmax, max(puzzle.width, puzzle.height)
    assert scratch.run.shape == (kmax, nmax + 1) and scratch.fwd.shape == (kmax + 1, nmax + 2)
    assert scratch.slot.shape == scratch.gap.shape == (kmax,) and scratch.color_slot.shape == (64,)
    assert cache.use and cache.tag.shape[1] == 4 and cache.io.shape[1] == 2 * nmax
    # the buffers only grow
    solver.reserve(1, 1)
    assert solver.work()[0] is scratch
    bare = LineSolver(cache_mb=0)
    bare.reserve(1, 4)
    assert bare.work()[1].use is False


def test_kernels_called_with_named_structures_agree_with_the_wrappers():
    rng = np.random.default_rng(5)
    grid = (rng.random((9, 7)) < 0.6).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid)
    expected = solve(puzzle)
    solver = LineSolver(cache_mb=1)
    masks = initial_masks(puzzle)
    solver.prepare(puzzle.packed.kmax, masks)
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    clues = kernel_clues(puzzle.packed)
    scratch, cache = solver.work()
    status = k._propagate(masks, *clues, np.arange(puzzle.n_lines, dtype=np.int64), *scratch, *cache, stats)
    assert status == ("solved", "stalled", "contradiction").index(expected.status)
    np.testing.assert_array_equal(masks, expected.masks)
    assert stats[k.ST_LINE_SOLVES] == expected.line_solves
    # one line through the DP kernel with a LineScratch, as solve_line does
    row = expected.masks[0].copy()
    out = np.empty(puzzle.width, dtype=np.int64)
    assert k._solve_line(row, puzzle.width, clues.lens, clues.cols, clues.starts[0], clues.ends[0], out, *scratch)
    np.testing.assert_array_equal(out, solve_line(row, puzzle.clue(0)))


def _parameters(kernel) -> list[str]:
    return list(inspect.signature(kernel.py_func).parameters)


@pytest.mark.parametrize(
    ("kernel", "structures"),
    [
        (k._propagate, [("", k.Clues), ("", k.LineScratch), ("", k.LineCache)]),
        (
            rk._replay,
            [("", k.Clues), ("base_", Trajectory), ("out_", Trajectory), ("", k.LineScratch), ("", k.LineCache)],
        ),
        (rk._resume_certificate, [("", k.Clues), ("", k.LineScratch), ("", k.LineCache)]),
        (_search._search, [("", k.Clues), ("", k.LineScratch), ("", k.LineCache)]),
        (
            rk._estimate_moves,
            [("", k.Clues), ("", k.LineScratch), ("", k.LineCache), ("memo_", rk.CountMemo)],
        ),
    ],
)
def test_kernels_called_from_python_take_the_structures_fields_in_order(kernel, structures):
    # Named tuples cross the Python boundary flat (numba types a named tuple
    # argument slowly): callers splat them, the kernel packs them again.
    # The parameters must be the fields, in order, so that a splat lands
    # where the kernel expects it.
    names = _parameters(kernel)
    last = -1
    for prefix, structure in structures:
        fields = [prefix + field for field in structure._fields]
        at = names.index(fields[0])
        assert names[at : at + len(fields)] == fields, (kernel.__name__, structure.__name__)
        assert at > last
        last = at


def test_solver_package_does_not_import_refinement():
    # Layers point down: refinement builds on the solver, never the reverse
    # (lazy imports count).
    for path in sorted(SOLVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(name.startswith("rofl.refine") for name in names), f"{path.name} imports {names}"
