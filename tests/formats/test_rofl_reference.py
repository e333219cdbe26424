"""rofl's ROFL reader against a checker written from the spec alone
(``tests/formats/spec_reader.py``): on every vector, every cut of the small
ones and random mutations, both give the same result (ok, invalid, beyond
the limits) and name the same offset, so rofl follows section 5.2's order
of checks exactly (spec/ROFL.md revision 4, R39)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError, LimitError
from rofl.formats import rofl as codec
from tests.formats import spec_reader
from tests.places import REPO

VECTORS = REPO / "spec" / "vectors"
MANIFEST = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
NAMES = sorted(v["file"] for v in MANIFEST["valid"] + MANIFEST["invalid"])
SMALL = [name for name in NAMES if (VECTORS / name).stat().st_size <= 600]


def rofl_result(data: bytes) -> tuple[str, int | None]:
    try:
        codec.parse(data, where="f")
    except LimitError as exc:
        found = re.match(r"f: byte (\d+): ", str(exc))
        return "limit", int(found[1]) if found else None
    except FormatError as exc:
        found = re.match(r"f: byte (\d+): ", str(exc))
        return "invalid", int(found[1]) if found else None
    return "ok", None


@pytest.mark.parametrize("name", NAMES)
def test_every_vector(name):
    data = (VECTORS / name).read_bytes()
    assert rofl_result(data) == spec_reader.check(data)


@pytest.mark.parametrize("name", SMALL)
def test_every_cut(name):
    data = (VECTORS / name).read_bytes()
    for n in range(len(data)):
        assert rofl_result(data[:n]) == spec_reader.check(data[:n]), n


@settings(deadline=None, max_examples=500)
@given(
    st.sampled_from(SMALL),
    st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from([0, 1, 2, 3, 4, 5, 8, 9, 64, 65, 255])), max_size=3),
)
def test_mutations(name, changes):
    data = bytearray((VECTORS / name).read_bytes())
    for at, value in changes:
        data[at % len(data)] = value
    assert rofl_result(bytes(data)) == spec_reader.check(bytes(data))
