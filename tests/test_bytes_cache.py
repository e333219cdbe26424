""":func:`rofl._cache.bytes_cache` bounds what the board caches hold by bytes, not entries."""

from __future__ import annotations

import numpy as np

from rofl._cache import array_bytes, bytes_cache


def test_the_cache_keeps_the_most_recent_within_its_bytes():
    made = []

    @bytes_cache(3000, lambda a: a.nbytes)
    def block(n):
        made.append(n)
        return np.zeros(n, np.uint8)

    assert block(1000) is block(1000) and made == [1000]
    block(1500)
    block(1000)  # the most recent now
    block(900)  # 3400 bytes: the 1500 goes, the least recently used
    assert block.cache_bytes() == 1900
    block(1000)
    block(1500)
    assert made == [1000, 1500, 900, 1500]
    big = block(5000)  # larger than the whole budget: made, not kept
    assert block(5000) is not big and block.cache_bytes() <= 3000
    block.cache_clear()
    assert block.cache_bytes() == 0


def test_boards_are_cached_within_their_budget():
    from rofl.hexagon import CACHE_BYTES, Hexagon, _hexagon
    from rofl.solver.index_lines import BOARD_CACHE_BYTES, hex_board

    _hexagon.cache_clear()
    hex_board.cache_clear()
    held = 0
    for side in (200, 240, 280, 320, 360, 400):
        held += array_bytes(Hexagon.of(side))
        hex_board(side)
    assert held > CACHE_BYTES // 8  # the sizes count: 16 of the largest held 3.1 GB
    assert 0 < _hexagon.cache_bytes() <= CACHE_BYTES
    assert 0 < hex_board.cache_bytes() <= BOARD_CACHE_BYTES
    assert Hexagon.of(400) is Hexagon.of(400)
