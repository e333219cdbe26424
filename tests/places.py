"""Where tests find the repository, their data, the bundled samples and the
shared puzzle corpus.

The corpus (``../shared/corpus`` beside the repository, as CI clones it, or
``/work/shared/corpus``) is not part of the repository: tests that need it
skip when it is absent (:data:`needs_corpus`, :func:`corpus_file`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
DATA_DIR = REPO / "tests" / "data"
_CANDIDATES = (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus"))
CORPUS = next((p for p in _CANDIDATES if p.is_dir()), _CANDIDATES[0])

#: Skips a test when the corpus is not there.
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the puzzle corpus is not at {CORPUS}")


def corpus_file(name: str) -> Path:
    """``CORPUS / name``, or skip the calling test when that file is absent."""
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the corpus at {CORPUS}")
    return path
