"""Hostile files for the tests that replay them: cuts, splices and overwrites anywhere, and crafted headers."""

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


def empty_hexagon_rofl(side: int) -> bytes:
    """A version-2 ROFL file of an empty hexagon of side ``side``: a count of
    0 for every line (two bytes each beyond side 255, spec section 13)."""
    counts = bytes((2 if side > 255 else 1) * 3 * (2 * side - 1))
    return b"ROFL\x00\x02\x01" + side.to_bytes(2, "big") + b"\x01" + bytes(3) + counts + b"IEND\0\0\0\0"
