"""The grader's cache of line solves on words (:func:`rofl.kernels._grade._solve_words`):
an answer read from it is the answer the line solver gives."""

from __future__ import annotations

import numpy as np

from rofl.kernels._bits import _line_bw
from rofl.kernels._grade import _NONE, Board, Words, _solve_words


def _line(rng, n: int):
    """A random clue that fits ``n`` cells, and random words of a line of
    ``n`` cells (each cell white, black or either)."""
    lens = []
    room = n
    while room > 0 and rng.random() < 0.7:
        length = int(rng.integers(1, room + 1))
        lens.append(length)
        room -= length + 1
    values = rng.choice([1, 2, 3], size=n, p=[0.15, 0.15, 0.7])
    w = b = 0
    for i, v in enumerate(values):
        w |= (int(v) & 1) << i
        b |= (int(v) >> 1) << i
    return np.array(lens, dtype=np.int64), np.uint64(w), np.uint64(b)


def _cache(n_lines: int, slots: int, lens_of: list[np.ndarray], n: int):
    """A board of ``n_lines`` lines of ``n`` cells with the given clues, and
    a word path whose cache has ``slots`` slots a line, empty."""
    offs = np.zeros(n_lines + 1, dtype=np.int64)
    offs[1:] = np.cumsum([len(x) for x in lens_of])
    lens = np.concatenate([*lens_of, np.zeros(0, dtype=np.int64)])
    line_offsets = np.arange(n_lines + 1, dtype=np.int64) * n
    none = np.zeros(0, dtype=np.int64)
    board = Board(none, line_offsets, none, none, lens, lens, offs)
    empty64 = np.zeros(0, dtype=np.uint64)
    table = np.full((n_lines, slots, 8), _NONE, dtype=np.uint64)
    words = Words(
        np.zeros(1, np.uint8), empty64, empty64, none, np.empty(64, np.uint64), none, empty64, empty64,
        np.zeros(0, np.uint8), none, none, none, empty64, table,
    )  # fmt: skip
    return board, words


def test_a_cached_answer_is_the_line_solvers_answer():
    """Lines solved again and again on words seen before (hits) and new
    ones (misses), in caches of one slot (every entry evicted soon) and of
    eight: every answer, contradictions too, is :func:`_line_bw`'s."""
    rng = np.random.default_rng(7)
    for n in (1, 5, 17, 63):
        for slots in (1, 8):
            n_lines = 3
            lines = [[_line(rng, n) for _ in range(6)] for _ in range(n_lines)]
            # one clue a line: the words of the other draws on that clue
            lens_of = [drawn[0][0] for drawn in lines]
            board, words = _cache(n_lines, slots, lens_of, n)
            hits = 0
            for _ in range(200):
                line = int(rng.integers(n_lines))
                _, w, b = lines[line][int(rng.integers(6))]
                full = (1 << n) - 1
                before = words.table.copy()
                got = _solve_words(line, w, b, board, words)
                want = _line_bw(
                    w, b, n, board.lens, int(board.offs[line]), int(board.offs[line + 1]), np.empty(64, np.uint64)
                )
                hits += np.array_equal(before, words.table)
                assert bool(got[0]) == bool(want[0]), (n, line, w, b)
                if want[0]:
                    assert (int(got[1]), int(got[2])) == (int(want[1]) & full, int(want[2]) & full)
            assert hits > 0  # some answers came from the cache
