"""Where tests find the bundled samples and the shared puzzle corpus.

The corpus (``../shared/corpus`` beside the repository, or
``/work/shared/corpus``) is not part of the repository: tests that need it
skip when it is absent.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
_CANDIDATES = (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus"))
CORPUS = next((p for p in _CANDIDATES if p.is_dir()), _CANDIDATES[0])
