"""What a fresh interpreter loads: ``import rofl`` stays light; the first solve skips scipy.linalg."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.places import REPO


def _run(code: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_import_rofl_loads_no_heavy_module():
    # PIL.Image is loaded on purpose: importing rofl registers the Pillow plugin.
    code = (
        "import sys, rofl; heavy = ['numpy', 'numba', 'skimage', 'scipy', 'click']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    assert _run(code) == "[]"


def test_subpackages_are_attributes_after_import_rofl():
    # issue 41: `rofl.render.svg.puzzle_svg` after `import rofl` raised AttributeError
    code = (
        "import rofl; print(rofl.render.svg.puzzle_svg.__name__, rofl.formats.rofl.parse.__name__, "
        "rofl.solver.grade.grade.__name__, rofl.picture.style.STYLES[0], hasattr(rofl, 'nosuch'), "
        "hasattr(rofl.render, 'nosuch'))"
    )
    assert _run(code) == "puzzle_svg parse grade auto False False"


@pytest.mark.slow
def test_first_solve_skips_the_blas_probe():
    code = """
import sys
import numpy as np
import rofl
r = rofl.solve(rofl.Puzzle.from_grid(np.eye(3, dtype=np.uint8)))
print(r.status, 'scipy.linalg' in sys.modules)
# later users of numba and scipy are unaffected
import numba
@numba.njit
def f(a, b):
    return np.dot(a, b), np.convolve(a, b)
d, c = f(np.arange(3.0), np.ones(3))
try:
    import scipy.linalg
except ImportError:  # scipy is not a dependency of rofl itself
    det = 1.0
else:
    det = scipy.linalg.det(np.eye(2))
print(d, c.tolist(), det)
"""
    assert _run(code).splitlines() == ["stalled False", "3.0 [0.0, 1.0, 3.0, 3.0, 2.0] 1.0"]
