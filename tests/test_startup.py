"""What a fresh interpreter loads: ``import rofl`` stays light, ``rofl solve``
of a text puzzle loads what solving needs only, the first solve skips
scipy.linalg."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.places import REPO


def _run(code: str, cwd=None) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=cwd)
    return out.stdout.strip()


def test_import_rofl_loads_no_heavy_module():
    # not even PIL.Image: the Pillow plugin is registered when Pillow is imported (test_rofl_plugin.py)
    code = (
        "import sys, rofl; heavy = ['numpy', 'numba', 'skimage', 'scipy', 'click', 'PIL']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    assert _run(code) == "[]"


#: What ``rofl`` runs as, in a process that then lists the modules it loaded.
_COMMAND = """
import runpy, sys
sys.argv = ["rofl", *{args!r}]
try:
    runpy.run_module("rofl", run_name="__main__")
except SystemExit:
    pass
loaded = sorted(sys.modules)
from rofl.kernels import aot_status
print(aot_status()[0], loaded, file=sys.stderr)
"""


def _loaded(*args: str, cwd=None) -> tuple[str, set[str]]:
    """Whether the extension was in use, and the modules loaded, after ``rofl ARGS`` in a fresh process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run(
        [sys.executable, "-c", _COMMAND.format(args=args)], env=env, capture_output=True, text=True, cwd=cwd
    )
    status, _, modules = out.stderr.strip().splitlines()[-1].partition(" [")
    return status, {m.strip("'") for m in modules.rstrip("]").split(", ")}


#: Libraries that solving a text puzzle does not need (pictures, ROFL's codec, sheets, the SAT solver).
NOT_FOR_TEXT = ("PIL", "construct", "skimage", "scipy", "fpdf", "pypdf", "pysat", "tqdm", "json")

#: What numba itself imports when the kernels are compiled by it (no extension, or one built from older sources).
NUMBA_LOADS = {"scipy", "json"}


def _not_for_text(status: str, names=NOT_FOR_TEXT) -> set[str]:
    """The top-level modules a solve of a text puzzle must not load (numba's own allowed when it compiles)."""
    return set(names) if status == "in use" else set(names) - NUMBA_LOADS


HANDS_UP = """width 5
height 5

rows
1,1,1
5
3
3
1,1

columns
2
4
4
4
2
"""


def _tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_solving_a_text_puzzle_loads_no_picture_library(tmp_path):
    (tmp_path / "hands-up.non").write_text(HANDS_UP, encoding="utf-8")
    status, modules = _loaded("solve", "hands-up.non", cwd=tmp_path)
    assert "rofl.cli.solve" in modules and "rofl.solver.line_logic" in modules  # it did solve
    assert not _tops(modules) & _not_for_text(status), sorted(_tops(modules) & _not_for_text(status))
    # one command and one format of each are loaded (a format's sniff may be asked: .pzl, SVG, TAAI)
    assert {m for m in modules if m.startswith("rofl.cli.") and not m.startswith("rofl.cli._")} == {"rofl.cli.solve"}
    formats = {m for m in modules if m.startswith("rofl.formats.") and not m.startswith("rofl.formats._")}
    assert formats <= {"rofl.formats.non", "rofl.formats.pzl", "rofl.formats.sheets", "rofl.formats.taai"}
    assert not {m for m in modules if m.startswith(("rofl.picture", "rofl.refine", "rofl.maker"))}
    if status == "in use":  # the extension compiled at install runs the kernels: no numba
        assert "numba" not in _tops(modules)


def test_search_of_a_text_puzzle_loads_no_picture_library():
    status, modules = _loaded("solve", str(REPO / "samples" / "two-ways.non"))
    assert "rofl.cli.solve" in modules
    assert not _tops(modules) & _not_for_text(status, ("PIL", "construct", "skimage", "scipy", "fpdf", "pypdf"))
    if status == "in use":
        assert "numba" not in _tops(modules)


def test_help_and_version_load_no_numpy():
    for args in (("--help",), ("--version",), ("solve", "--help")):
        _, modules = _loaded(*args)
        assert not _tops(modules) & {"numpy", "numba", "PIL", "construct"}, args


def test_each_command_is_loaded_from_the_module_that_defines_it():
    # rofl.cli.COMMANDS names every command's module; loading them all registers exactly those
    code = (
        "import importlib; from rofl.cli import COMMANDS, main; "
        "[importlib.import_module(m) for m in set(COMMANDS.values())]; "
        "print(sorted(main.commands) == sorted(COMMANDS), "
        "all(main.commands[n].callback.__module__ == m for n, m in COMMANDS.items()))"
    )
    assert _run(code) == "True True"


def test_an_unknown_command_is_told_the_nearest_of_every_command():
    # click suggests from the commands loaded: all of them are loaded for it
    code = (
        "from click.testing import CliRunner; from rofl.cli import main; "
        "print(CliRunner().invoke(main, ['slove']).output.strip().splitlines()[-1])"
    )
    assert _run(code) == "Error: No such command 'slove'. Did you mean 'solve'?"


def test_every_public_name_of_rofl_is_there_after_import_rofl():
    code = (
        "import rofl; missing = [n for n in rofl.__all__ if getattr(rofl, n, None) is None]; "
        "print(missing, sorted(rofl.__all__) == dir(rofl))"
    )
    assert _run(code) == "[] True"


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


def test_after_import_runs_once_the_module_has_run(tmp_path, monkeypatch):
    import importlib.util

    from rofl._lazy import _AfterImport, after_import

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "rofl_probe_mod.py").write_text("import sys\nVALUE = 1\n", encoding="utf-8")
    (tmp_path / "rofl_probe_bad.py").write_text("raise ImportError('not now')\n", encoding="utf-8")
    calls = []

    def then():
        calls.append(sys.modules["rofl_probe_mod"].VALUE)

    after_import("rofl_probe_mod", then)
    after_import("rofl_probe_mod", then)  # asked twice: runs once
    assert calls == []
    assert importlib.util.find_spec("rofl_probe_mod") is not None  # looked up, not imported: still waiting
    assert calls == []
    module = importlib.import_module("rofl_probe_mod")
    assert calls == [1]
    assert type(module.__loader__).__name__ == "SourceFileLoader" and module.__spec__.loader is module.__loader__
    assert not any(isinstance(f, _AfterImport) and f.name == "rofl_probe_mod" for f in sys.meta_path)
    after_import("rofl_probe_mod", then)  # already imported: at once
    assert calls == [1, 1]

    failed = []
    after_import("rofl_probe_bad", lambda: failed.append(True))
    try:
        with pytest.raises(ImportError, match="not now"):
            importlib.import_module("rofl_probe_bad")
        assert not failed  # the module did not run to its end: still waiting
        assert any(isinstance(f, _AfterImport) and f.name == "rofl_probe_bad" for f in sys.meta_path)
    finally:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AfterImport) or f.name != "rofl_probe_bad"]
        for name in ("rofl_probe_mod", "rofl_probe_bad"):
            sys.modules.pop(name, None)


def test_pillow_imported_after_rofl_opens_rofl_files():
    code = (
        "import sys, rofl; assert 'PIL' not in sys.modules; "
        "from PIL import Image; "
        f"image = Image.open({str(REPO / 'samples' / 'horse.rofl')!r}); image.load(); "
        "print(image.format, image.size, Image.ID[0])"
    )
    assert _run(code) == "ROFL (27, 20) ROFL"
