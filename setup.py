"""Build step of rofl's optional extension: its kernels compiled ahead of time.

pyproject.toml holds the package's metadata; this file only adds a
``build_ext`` that compiles the kernels of line logic, refinement, the
complete search and the grader with ``numba.pycc`` into the extension's two
parts, ``rofl.kernels._aot_kernels_0`` and ``_1``, side by side in two
processes (:func:`rofl.kernels._aot.build`; minutes of CPU).  If that
fails (no C compiler, no numba, ``ROFL_NO_AOT=1``), the install goes on
with a warning and rofl compiles the same kernels with numba's JIT on first
use.  An editable install (``pip install -e .``) and
``python setup.py build_ext --inplace`` build it into the source tree,
beside the kernels' sources, where the editable install and
``PYTHONPATH=.`` find it (:func:`extension_folder`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def extension_folder(command: build_ext) -> Path:
    """Where ``command`` puts the extension: ``rofl/kernels/`` of the source
    tree for an editable install (which imports rofl from there) or
    ``--inplace``, of the build folder (the wheel) otherwise."""
    in_tree = command.inplace or getattr(command, "editable_mode", False)
    return (ROOT if in_tree else Path(command.build_lib)) / "rofl" / "kernels"


class BuildKernels(build_ext):
    def run(self) -> None:
        super().run()
        if os.environ.get("ROFL_NO_AOT", "") not in ("", "0"):
            print("rofl: ROFL_NO_AOT is set: kernels not compiled ahead of time", file=sys.stderr)
            return
        target = extension_folder(self)
        target.mkdir(parents=True, exist_ok=True)
        sys.path.insert(0, str(ROOT))  # rofl's kernels, from this source tree
        try:
            from rofl.kernels._aot import build

            paths = build(target)
        except Exception as exc:  # noqa: BLE001 -- optional: any failure leaves the JIT
            reason = (str(exc).strip().splitlines() or [""])[0]
            print(
                f"warning: rofl's kernels were not compiled ahead of time ({type(exc).__name__}: {reason}); "
                "rofl will compile them with numba on first use",
                file=sys.stderr,
            )
        else:
            print(f"rofl: kernels compiled ahead of time: {', '.join(p.name for p in paths)}", file=sys.stderr)
        finally:
            sys.path.remove(str(ROOT))


class PlatformDistribution(Distribution):
    """A wheel for this platform (it may hold the compiled extension)."""

    def has_ext_modules(self) -> bool:
        return True


if __name__ == "__main__":  # as setuptools' build backend and `python setup.py` run it; not when a test imports it
    setup(cmdclass={"build_ext": BuildKernels}, distclass=PlatformDistribution)
