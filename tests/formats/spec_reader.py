"""A ROFL checker written from spec/ROFL.md section 5 alone: the slow,
obviously correct reference for rofl's reader (tests/naive.py's role for the
codec).

It reads a file byte by byte in the order of checks of section 5.2 and stops
at the first rule broken, with plain Python ints everywhere (masks of any
width, no numpy).  It does not solve: R26-R28 are out of its reach.  Its
limits are rofl's (64 colours, 2**22 cells, hexagons of side 512).

``check(data)`` returns ``("invalid", offset)`` (offset None for a rule that
names none), ``("limit", offset)`` for a valid file beyond the limits, or
``("ok", None)``.
"""

from __future__ import annotations

import re

MAX_COLOURS = 64
MAX_CELLS = 1 << 22
MAX_SIDE = 512  # R29: a reader may impose its limits; these are rofl's (docs/formats.md)
KEY = re.compile(rb"[a-z][a-z0-9_.-]{0,63}")


class Broken(Exception):
    def __init__(self, offset: int | None) -> None:
        self.offset = offset


def check(data: bytes) -> tuple[str, int | None]:
    try:
        limit = _check(data)
    except Broken as exc:
        return "invalid", exc.offset
    return ("limit", limit) if limit is not None else ("ok", None)


def _int(data: bytes, at: int, size: int) -> int:
    if at + size > len(data):
        raise Broken(at)
    return int.from_bytes(data[at : at + size], "big")


def _check(data: bytes) -> int | None:
    n = len(data)
    if data[:4] != b"ROFL":
        raise Broken(0)
    # ---- 1. header and palette; limits noted
    limits: list[int] = []
    extended = _int(data, 4, 1) == 0
    version, flags, side = None, 0, None
    if not extended:
        width, height = data[4], _int(data, 5, 1)
        if height == 0:
            raise Broken(5)
        at = 6
        size_at = 4
    else:
        version = _int(data, 5, 1)
        if version not in (1, 2):
            raise Broken(5)
        at = 6
        if version == 2:
            flags = _int(data, 6, 1)
            if flags not in (1, 2, 3):
                raise Broken(6)
            at = 7
        size_at = at
        if flags & 1:
            side = _int(data, at, 2)
            if side == 0:
                raise Broken(at)
            width = height = 2 * side - 1
            at += 2
        else:
            width = _int(data, at, 2)
            height = _int(data, at + 2, 2)
            if width == 0:
                raise Broken(at)
            if height == 0:
                raise Broken(at + 2)
            at += 4
    if side is not None:
        if side > MAX_SIDE or 3 * side * (side - 1) + 1 > MAX_CELLS:
            limits.append(size_at)
    elif width * height > MAX_CELLS:
        limits.append(size_at)
    k = _int(data, at, 1)
    if k == 0 or (flags & 2 and k < 3):
        raise Broken(at)
    if k > MAX_COLOURS:
        limits.append(at)
    if at + 1 + 3 * k > n:
        raise Broken(at + 1)
    at += 1 + 3 * k
    # ---- 2. the clue block, line by line
    if side is not None:
        per = 2 * side - 1
        lengths_of_lines = [per - abs(i - (side - 1)) for i in range(per)] * 3
        direction = [i // per for i in range(3 * per)]
    else:
        lengths_of_lines = [width] * height + [height] * width
        direction = [0] * height + [1] * width
    nb = 1 if max(width, height) <= 255 else 2
    gsize = nb + (1 if k >= 3 else 0)
    lines = []  # (count offset, line length, [(length, colour)])
    for cells in lengths_of_lines:
        count_at = at
        count = _int(data, at, nb)
        if count > cells or (count and k == 1):
            raise Broken(at)
        at += nb
        if at + count * gsize > n:
            raise Broken(at)
        groups = []
        for _ in range(count):
            length = int.from_bytes(data[at : at + nb], "big")
            if length < 1:
                raise Broken(at)
            colour = data[at + nb] if k >= 3 else 1
            if k >= 3 and not ((1 if not flags & 2 else 0) <= colour < k):
                raise Broken(at + nb)
            groups.append((length, colour))
            at += gsize
        if all(c for _, c in groups) and _need(groups, {}) > cells:
            raise Broken(count_at)
        lines.append((count_at, cells, groups))
    # ---- 3. after the clue block
    n_sets = sum(1 for _, _, groups in lines for _, c in groups if c == 0)
    if flags & 2 and not n_sets:
        raise Broken(6)
    masks = None
    if not extended:
        if at != n:
            raise Broken(at)
    else:
        # ---- 4. chunks
        meta: set[bytes] = set()
        crc = False
        while True:
            if at >= n or at + 4 > n:
                raise Broken(at)
            tag = data[at : at + 4]
            if not all(65 <= b <= 90 or 97 <= b <= 122 for b in tag):
                raise Broken(at)
            length = _int(data, at + 4, 4)
            if length > n - at - 8:
                raise Broken(at + 4)
            body = at + 8
            payload = data[body : body + length]
            if tag == b"IEND":
                if length:
                    raise Broken(at + 4)
                at = body
                break
            if tag == b"meta":
                if b"\0" not in payload:
                    raise Broken(body)
                key, _, value = payload.partition(b"\0")
                if not KEY.fullmatch(key):
                    raise Broken(body)
                try:
                    if b"\0" in value:
                        raise UnicodeError
                    value.decode("utf-8")
                except UnicodeError:
                    raise Broken(body + len(key) + 1) from None
                if key in meta:
                    raise Broken(at)
                meta.add(key)
            elif tag == b"pcrc":
                if length != 4:
                    raise Broken(at + 4)
                if crc:
                    raise Broken(at)
                crc = True
            elif tag == b"QSET" and flags & 2:
                m = (k + 7) // 8
                if length != m * n_sets:
                    raise Broken(at + 4)
                found = []
                for j in range(n_sets):
                    mask = int.from_bytes(payload[j * m : (j + 1) * m], "big")
                    if mask & 1 or mask >> k or bin(mask).count("1") < 2:
                        raise Broken(body + j * m)
                    found.append(mask)
                if masks is not None:
                    raise Broken(at)
                masks = found
            elif not 97 <= tag[0] <= 122:
                raise Broken(at)
            at = body + length
        if at != n:
            raise Broken(at)
    # ---- 5. what needs the whole file
    if flags & 2 and masks is None:
        raise Broken(n - 8)
    mask_of = {}
    if masks is not None:
        sets = iter(masks)
        for i, (_, _, groups) in enumerate(lines):
            for g, (_, c) in enumerate(groups):
                if c == 0:
                    mask_of[i, g] = next(sets)
        for i, (count_at, cells, groups) in enumerate(lines):
            if (
                any(c == 0 for _, c in groups)
                and _need(groups, {g: mask_of[i, g] for g in range(len(groups)) if (i, g) in mask_of}) > cells
            ):
                raise Broken(count_at)
    _totals(lines, direction, k, mask_of)
    # ---- 6. limits
    return limits[0] if limits else None


def _need(groups, masks: dict[int, int]) -> int:
    """Fewest cells: lengths plus a gap between neighbours of one colour,
    each set group taking the colour of its mask that needs fewest (a DP)."""
    best: dict[int, int] = {}
    for g, (_, c) in enumerate(groups):
        mask = masks.get(g, 1 << c)
        colours = [x for x in range(mask.bit_length()) if mask >> x & 1]
        best = {x: min((gaps + (x == y) for y, gaps in best.items()), default=0) for x in colours}
    return sum(length for length, _ in groups) + min(best.values(), default=0)


def _totals(lines, direction, k, mask_of) -> None:
    n_dirs = max(direction) + 1
    exact = [[0] * k for _ in range(n_dirs)]
    ink = [0] * n_dirs
    maybe_extra = [[0] * k for _ in range(n_dirs)]
    for i, (_, _, groups) in enumerate(lines):
        d = direction[i]
        for g, (length, c) in enumerate(groups):
            ink[d] += length
            if c:
                exact[d][c] += length
            else:
                for x in range(k):
                    if mask_of[i, g] >> x & 1:
                        maybe_extra[d][x] += length
    if not mask_of:
        if any(exact[d] != exact[0] for d in range(n_dirs)):
            raise Broken(None)
        return
    if any(ink[d] != ink[0] for d in range(n_dirs)):
        raise Broken(None)
    for d in range(n_dirs):
        for e in range(n_dirs):
            if d != e and any(exact[d][c] > exact[e][c] + maybe_extra[e][c] for c in range(k)):
                raise Broken(None)
