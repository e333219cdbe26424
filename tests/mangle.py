"""Damaging files for the tests that replay hostile input: cuts, splices and overwrites anywhere."""

from __future__ import annotations

from hypothesis import strategies as st


def edits(splices: list[bytes]):
    """A hypothesis strategy of up to six edits for :func:`mangle`."""
    edit = st.tuples(st.floats(0, 1), st.integers(0, 2), st.sampled_from(splices), st.integers(1, 12))
    return st.lists(edit, max_size=6)


def mangle(data: bytes, changes) -> bytes:
    """``data`` with each edit ``(where, kind, splice, length)`` applied:
    ``where`` is a fraction of the length; kind 0 cuts ``length`` bytes, 1
    inserts ``splice``, 2 overwrites one byte with ``splice``'s first."""
    out = bytearray(data)
    for where, kind, splice, length in changes:
        i = int(where * len(out))
        if kind == 0:
            del out[i : i + length]
        elif kind == 1:
            out[i:i] = splice
        elif out:
            out[min(i, len(out) - 1)] = splice[0]
    return bytes(out)
