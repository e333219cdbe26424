"""Hostile files of every other reader replayed under a time limit.

``tests/data/hostile/`` holds the cases issue 31 found (named ``issue31-*``),
those of issue 40 (``issue40-*``, with a sample of what the fuzzer kept for
its new targets, ``issue40-fuzz-*``), the tournament files of session 9's
audit of ``rofl bench --tournament`` (``audit9-txt-*``) and what the fuzzer
(``fuzz/fuzz_formats.py``) found or kept for coverage:
each file is a selector byte (the reader, see ``tests/formats/hostile.py``)
and the file.  Only rofl's own errors may come out, within the time limit.
"""

from __future__ import annotations

import pytest

from tests.formats.hostile import TARGETS, check
from tests.places import DATA_DIR

HOSTILE = DATA_DIR / "hostile"


def corpus():
    return [pytest.param(f.read_bytes(), id=f.name) for f in sorted(HOSTILE.iterdir())]


def test_the_corpus_covers_every_target():
    seen = {TARGETS[f.read_bytes()[0] % len(TARGETS)][0] for f in HOSTILE.iterdir()}
    assert {"fuzz.notmine", "fuzz.non", "fuzz.nin", "fuzz.json", "cipher", "fuzz.gno", "fuzz.mk"} <= seen
    assert {"fuzz.pzl", "fuzz.clues"} <= seen
    assert {"fuzz.rofl", "sniff", "summary.json", "summary.csv"} <= seen  # issue 40


# 120 s, not 30: on a fresh install the first input that reaches the solver
# compiles its kernels, and with the tests on both cores that took over 30 s
@pytest.mark.timeout(120)
@pytest.mark.parametrize("data", corpus())
def test_hostile_input(data):
    check(data)  # raises only rofl's errors inside; anything else fails the test
