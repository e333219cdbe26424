"""A missing corpus skips the tests that need it, or fails them under ``ROFL_REQUIRE_CORPUS=1`` (issue 41)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import tests.places as places
from tests.places import REPO


def test_without_the_switch_a_missing_corpus_file_skips(monkeypatch):
    monkeypatch.setattr(places, "REQUIRE_CORPUS", False)
    with pytest.raises(pytest.skip.Exception, match="no-such-folder/x.json is not at"):
        places.corpus_file("no-such-folder/x.json")


def test_under_the_switch_a_missing_corpus_file_fails(monkeypatch):
    monkeypatch.setattr(places, "REQUIRE_CORPUS", True)
    with pytest.raises(pytest.fail.Exception, match="ROFL_REQUIRE_CORPUS is set"):
        places.corpus_file("no-such-folder/x.json")


PYTEST = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_places.py"]
PYTEST += ["-k", "skips"]


def test_under_the_switch_a_missing_corpus_stops_the_run(tmp_path):
    env = {**os.environ, "ROFL_CORPUS": str(tmp_path / "nowhere"), "ROFL_REQUIRE_CORPUS": "1", "PYTHONPATH": str(REPO)}
    run = subprocess.run(PYTEST, cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert f"the puzzle corpus is not at {tmp_path / 'nowhere'}" in run.stderr
