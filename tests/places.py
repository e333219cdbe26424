"""Where tests find the repository, their data, the bundled samples and the
shared puzzle corpus.

The corpus is not part of the repository.  It is the folder ``ROFL_CORPUS``
names, else ``../shared/corpus`` beside the repository (a worktree under
``/work``), else ``/work/shared/corpus`` (a clean clone elsewhere, as CI
makes one under ``/tmp``).  A test that needs it skips when it is absent
(:data:`needs_corpus`, :func:`corpus_file`, the ``corpus`` fixture, all
through :func:`no_corpus`); with ``ROFL_REQUIRE_CORPUS=1`` (``.ci/run``
sets it wherever the machine has the corpus) the skip is a failure, and the run stops at once when the whole
corpus is missing (``tests/conftest.py``), as ``ROFL_REQUIRE_BROWSER`` and
``ROFL_REQUIRE_AOT`` do for the browser and the compiled extension.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
DATA_DIR = REPO / "tests" / "data"


def _corpus() -> Path:
    given = os.environ.get("ROFL_CORPUS")
    if given:
        return Path(given)
    candidates = (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus"))
    return next((p for p in candidates if p.is_dir()), candidates[0])


CORPUS = _corpus()
#: Whether a missing corpus fails the tests that need it instead of skipping them.
REQUIRE_CORPUS = os.environ.get("ROFL_REQUIRE_CORPUS", "") not in ("", "0")


def no_corpus(what: str = "the puzzle corpus") -> NoReturn:
    """Skip the calling test because ``what`` is missing from the corpus, or
    fail it under ``ROFL_REQUIRE_CORPUS=1``: the one way a test gives up
    for want of the corpus."""
    msg = f"{what} is not at {CORPUS} (ROFL_CORPUS names the corpus folder)"
    if REQUIRE_CORPUS:
        pytest.fail(f"{msg}, and ROFL_REQUIRE_CORPUS is set")
    pytest.skip(msg)


#: A test that needs the corpus: skipped (failed under ``ROFL_REQUIRE_CORPUS``) without it.
needs_corpus = pytest.mark.usefixtures("corpus")


def corpus_file(name: str) -> Path:
    """``CORPUS / name``, or :func:`no_corpus` when that file is absent."""
    path = CORPUS / name
    if not path.is_file():
        no_corpus(name)
    return path
