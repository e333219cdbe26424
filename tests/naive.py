"""Slow, obviously-correct references for the compiled solver (stumpy's ``tests/naive.py``).

Nothing here is clever: lines are solved by listing every filling (or
every placement of the groups), clues are read off a row cell by cell, and
propagation re-solves every line until nothing changes.  The one shortcut:
a board's solutions (:func:`all_solutions`) are listed row by row, going no
deeper where a crossing line has no filling left, which
``tests/test_naive.py`` checks against the plain product of the rows'
fillings.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np


def clue_of(line) -> tuple[tuple[int, int], ...]:
    """The ``(length, colour)`` groups of one line of palette indices, cell by cell."""
    groups: list[list[int]] = []
    prev = 0
    for v in (int(x) for x in line):
        if v != 0 and v == prev:
            groups[-1][0] += 1
        elif v != 0:
            groups.append([1, v])
        prev = v
    return tuple((n, c) for n, c in groups)


def clues_of_grid(grid) -> tuple[list, list]:
    """Row and column clues of an ``(H, W)`` grid, one line at a time."""
    grid = np.asarray(grid)
    return [clue_of(r) for r in grid], [clue_of(c) for c in grid.T]


# ------------------------------------------------------ every filling of a line


@cache
def fillings(n: int, n_colors: int) -> tuple[np.ndarray, dict]:
    """Every filling of a line of ``n`` cells with ``n_colors`` colours, grouped by clue.

    Returns
    -------
    all_fillings : (n_colors ** n, n) int64 array
    by_clue : dict mapping a clue (tuple of ``(length, colour)``) to the
        row indices of ``all_fillings`` that have that clue.
    """
    f = np.array(list(itertools.product(range(n_colors), repeat=n)), dtype=np.int64).reshape(-1, n)
    # The clue of every filling at once: runs start where a cell is inked and
    # differs from its left neighbour, and end where it differs from its right
    # neighbour.  A filling's clue becomes a zero-padded row of codes.
    pad = np.full((f.shape[0], n + 2), -1, dtype=np.int64)
    pad[:, 1:-1] = f
    starts = (f != 0) & (f != pad[:, :-2])
    ends = (f != 0) & (f != pad[:, 2:])
    sr, sc = np.nonzero(starts)
    _, ec = np.nonzero(ends)
    counts = np.bincount(sr, minlength=f.shape[0])
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos = np.arange(sr.size) - first[sr]
    codes = np.zeros((f.shape[0], max(n, 1)), dtype=np.int64)
    codes[sr, pos] = (ec - sc + 1) * 64 + f[sr, sc]
    keys, inverse = np.unique(codes, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(keys) + 1))
    by_clue = {}
    for i, key in enumerate(keys):
        clue = tuple((int(v) // 64, int(v) % 64) for v in key if v)
        by_clue[clue] = order[bounds[i] : bounds[i + 1]]
    return f, by_clue


def brute_line(cells, clue, n_colors: int) -> np.ndarray | None:
    """Solve a line by listing every filling: the union of those that fit.

    Parameters
    ----------
    cells : (n,) int64 masks (bit ``c``: colour ``c`` possible)
    clue : tuple of ``(length, colour)``
    n_colors : colours in the palette, background included

    Returns
    -------
    (n,) int64 masks, or None when no filling has this clue and fits ``cells``.
    """
    cells = np.asarray(cells, dtype=np.int64)
    f, by_clue = fillings(len(cells), n_colors)
    rows = by_clue.get(tuple(tuple(int(v) for v in g) for g in clue))
    if rows is None:
        return None
    cand = f[rows]
    fits = np.all((cells[None, :] >> cand) & 1, axis=1)
    if not fits.any():
        return None
    return np.bitwise_or.reduce(np.int64(1) << cand[fits], axis=0)


# --------------------------------------------- every placement of the groups


def placements(n: int, clue):
    """Yield every filling of ``n`` cells with clue ``clue`` (recursive placement of groups)."""
    clue = [tuple(g) for g in clue]
    # need[j]: the fewest cells groups j.. take (a gap only between groups of one colour),
    # so that no start is tried that leaves the later groups too little room
    need = [0] * (len(clue) + 1)
    for j in range(len(clue) - 1, -1, -1):
        gap = 1 if j + 1 < len(clue) and clue[j + 1][1] == clue[j][1] else 0
        need[j] = clue[j][0] + gap + need[j + 1]

    def rec(pos: int, j: int, line: list[int]):
        if j == len(clue):
            yield line + [0] * (n - pos)
            return
        length, color = clue[j]
        # a group of the same colour as the previous one needs a gap
        min_start = pos + (1 if j > 0 and clue[j - 1][1] == color else 0)
        for start in range(min_start, n - need[j] + 1):
            yield from rec(start + length, j + 1, line + [0] * (start - pos) + [color] * length)

    yield from rec(0, 0, [])


def placement_line(cells, clue) -> np.ndarray | None:
    """Solve a line by listing every placement of its groups (for lines too long to enumerate)."""
    cells = [int(c) for c in cells]
    out = [0] * len(cells)
    found = False
    for line in placements(len(cells), clue):
        if all((m >> v) & 1 for m, v in zip(cells, line, strict=True)):
            found = True
            for i, v in enumerate(line):
                out[i] |= 1 << v
    return np.array(out, dtype=np.int64) if found else None


# ------------------------------------------------------------ whole puzzles


def propagate(puzzle, start=None, line_solver=None):
    """Line logic by sweeping every line until nothing changes.

    Returns ``(status, masks)`` with status ``"solved"``, ``"stalled"`` or
    ``"contradiction"`` (masks undefined then).
    """
    h, w = puzzle.height, puzzle.width
    k = puzzle.n_colors
    full = (1 << k) - 1
    masks = np.full((h, w), full, dtype=np.int64) if start is None else np.array(start, dtype=np.int64)
    if line_solver is None:

        def line_solver(cells, clue):
            return brute_line(cells, clue, k)

    changed = True
    while changed:
        changed = False
        for line in range(h + w):
            view = masks[line, :] if line < h else masks[:, line - h]
            new = line_solver(view.copy(), puzzle.clue(line))
            if new is None:
                return "contradiction", masks
            if np.any(new != view):
                changed = True
                view[:] = new
    single = (masks & (masks - 1)) == 0
    if np.any(masks == 0):
        return "contradiction", masks
    return ("solved" if single.all() else "stalled"), masks


# --------------------------------------------------- hexagons and colour sets


def hex_cells(side: int) -> list[tuple[int, int, int]]:
    """Cube coordinates ``(q, r, s)`` of a hexagon's cells, row by row (``r``),
    left to right (``q``), by testing every candidate."""
    m = side - 1
    return [(q, r, -q - r) for r in range(-m, m + 1) for q in range(-m, m + 1) if abs(q + r) <= m]


def hex_lines(side: int) -> list[list[int]]:
    """Cell indices of every line of a hexagon: rows by ``r``, falling
    diagonals by growing ``q``, rising ones by falling ``s``; each top to
    bottom (rows left to right)."""
    cells = hex_cells(side)
    m = side - 1
    lines = []
    for axis, values in ((1, range(-m, m + 1)), (0, range(-m, m + 1)), (2, range(m, -m - 1, -1))):
        for v in values:
            on = [i for i, c in enumerate(cells) if c[axis] == v]
            lines.append(sorted(on, key=lambda i: (cells[i][1], cells[i][0])))
    return lines


def fits_clue(line, clue) -> bool:
    """Whether a line of palette indices gives ``clue``, whose group colours
    may be sets (``frozenset``): the same runs, each colour in its set."""
    runs = clue_of(line)
    if len(runs) != len(clue):
        return False
    for (n, c), (want_n, want_c) in zip(runs, clue, strict=True):
        allowed = want_c if isinstance(want_c, frozenset) else {want_c}
        if n != want_n or c not in allowed:
            return False
    return True


def min_cells(clue) -> int:
    """Cells a clue with colour sets needs: the shortest line that gives it,
    by trying every choice of colours (same-coloured neighbours need a gap)."""
    choices = [sorted(c) if isinstance(c, frozenset) else [c] for _, c in clue]
    best = None
    for picked in itertools.product(*choices):
        gaps = sum(a == b for a, b in itertools.pairwise(picked))
        total = sum(n for n, _ in clue) + gaps
        best = total if best is None else min(best, total)
    return best or 0


def brute_line_sets(cells, clue, n_colors: int) -> np.ndarray | None:
    """:func:`brute_line` for a clue whose colours may be sets (``frozenset``):
    a filling fits when its clue is the clue with some choice of colours,
    so the answer is the union over every choice."""
    choices = [sorted(c) if isinstance(c, frozenset) else [c] for _, c in clue]
    out = None
    for picked in itertools.product(*choices):
        exact = tuple((n, c) for (n, _), c in zip(clue, picked, strict=True))
        got = brute_line(cells, exact, n_colors)
        if got is not None:
            out = got if out is None else out | got
    return out


def placements_sets(n: int, clue):
    """Yield every filling of ``n`` cells that fits ``clue`` (colours may be
    sets) by the seed document's recursive rules: each group takes each
    colour it allows, and one of the same colour as the group before needs a
    background cell after it."""
    clue = [(n_, c if isinstance(c, frozenset) else frozenset({c})) for n_, c in clue]

    def rec(pos: int, j: int, prev: int, line: list[int]):
        if j == len(clue):
            yield line + [0] * (n - pos)
            return
        length, colours = clue[j]
        for color in sorted(colours):
            min_start = pos + (1 if color == prev else 0)
            for start in range(min_start, n - length + 1):
                yield from rec(start + length, j + 1, color, line + [0] * (start - pos) + [color] * length)

    yield from rec(0, 0, 0, [])


def all_solutions(lines, clues, n_cells: int, limit: int = 10**6) -> list[tuple[int, ...]]:
    """Every filling of a board that gives every clue, by brute force.

    ``lines`` are cell index lists (the first ones must cover every cell
    once, as a rectangle's rows or a hexagon's rows do), ``clues`` their
    clues (colours may be sets).  Gives those first lines every filling of
    theirs, one line after another, and goes no deeper while some other
    line has no filling that agrees with the cells given so far; a full
    board is kept if every line, read cell by cell, gives its clue.
    ``limit`` bounds the fillings tried.
    """
    covered: list[int] = []
    first = 0
    while sorted(covered) != list(range(n_cells)):
        covered += list(lines[first])
        first += 1
    fillings = [list(placements_sets(len(line), clue)) for line, clue in zip(lines, clues, strict=True)]
    crossing = [[i for i in range(first, len(lines)) if set(lines[i]) & set(lines[k])] for k in range(first)]
    cells: list[int | None] = [None] * n_cells
    out: list[tuple[int, ...]] = []
    tried = 0

    def agrees(i: int) -> bool:  # some filling of line i has every cell given so far
        return any(all(cells[c] in (None, v) for c, v in zip(lines[i], f, strict=True)) for f in fillings[i])

    def fill(k: int) -> None:
        nonlocal tried
        if k == first:
            if all(fits_clue([cells[c] for c in lines[i]], clues[i]) for i in range(len(lines))):
                out.append(tuple(cells))
            return
        for filling in fillings[k]:
            tried += 1
            if tried > limit:
                msg = "too many candidates for brute force"
                raise ValueError(msg)
            for c, v in zip(lines[k], filling, strict=True):
                cells[c] = v
            if all(agrees(i) for i in crossing[k]):
                fill(k + 1)
        for c in lines[k]:
            cells[c] = None

    fill(0)
    return out


def rect_lines(height: int, width: int) -> list[list[int]]:
    """Cell indices (reading order) of every line of a rectangle: its rows
    left to right, then its columns top to bottom."""
    return [[r * width + c for c in range(width)] for r in range(height)] + [
        [r * width + c for r in range(height)] for c in range(width)
    ]


def puzzle_solutions(puzzle) -> list[tuple[int, ...]]:
    """Every solution of a rectangular ``puzzle`` (rows, then columns), by
    brute force (:func:`all_solutions`): cell values in reading order."""
    lines = rect_lines(puzzle.height, puzzle.width)
    return all_solutions(lines, [*puzzle.rows, *puzzle.cols], puzzle.height * puzzle.width)


def order_line(lengths: list[int], black: list[int], top: int) -> tuple[list[list[int]], int]:
    """The clauses of a black-and-white line in the SAT engine's order
    encoding (``rofl.solver.sat.Encoding._order_line``), written literal by
    literal, with the constants true and false dropped as they come; new
    variables are numbered from ``top + 1``.  Returns the clauses and the
    new ``top``."""
    n, groups = len(black), len(lengths)
    clauses: list[list[int]] = []
    if not groups:
        return [[-b] for b in black], top
    earliest = [0] * groups
    latest = [0] * groups
    for g in range(1, groups):
        earliest[g] = earliest[g - 1] + lengths[g - 1] + 1
    latest[-1] = n - lengths[-1]
    for g in range(groups - 2, -1, -1):
        latest[g] = latest[g + 1] - lengths[g] - 1
    if latest[0] < 0:
        return [[top + 1], [-(top + 1)]], top + 1
    ys = []
    for g in range(groups):
        mine = {}
        for p in range(earliest[g], latest[g]):
            top += 1
            mine[p] = top
        ys.append(mine)

    def y(g, p):  # "group g starts at p or before": a variable, or True / False
        return False if p < earliest[g] else True if p >= latest[g] else ys[g][p]

    def neg(lit):
        return (not lit) if isinstance(lit, bool) else -lit

    def clause(*lits):
        if any(lit is True for lit in lits):
            return
        clauses.append([lit for lit in lits if lit is not False])

    covering: list[list[int]] = [[] for _ in range(n)]
    for g, length in enumerate(lengths):
        for p in range(earliest[g], latest[g] - 1):
            clause(-ys[g][p], ys[g][p + 1])
        if g + 1 < groups:
            for p in range(earliest[g + 1], latest[g + 1]):
                clause(-ys[g + 1][p], y(g, p - length - 1))
        for i in range(earliest[g], latest[g] + length):
            started, not_over = y(g, i), neg(y(g, i - length))
            top += 1
            v = top
            clause(-v, started)
            clause(-v, not_over)
            clause(v, neg(started), neg(not_over))
            clause(-v, black[i])
            covering[i].append(v)
    for i in range(n):
        clauses.append([-black[i], *covering[i]])
    return clauses, top


def probe_clauses(puzzle, start, x) -> list[list[int]]:
    """The SAT engine's probe clauses (``rofl.solver.sat._probe_clauses``),
    by :func:`propagate` with :func:`placement_line`: each open cell of
    ``start`` (a line-logic fixpoint) in each of its colours; a colour that
    leads to a contradiction is ruled out (a unit clause), else every colour
    the probe rules out elsewhere gives "not this colour here, or not that
    one there".  ``x[cell, colour]`` are the colour variables."""
    height, width = start.shape
    root = np.asarray(start, dtype=np.int64)
    clauses = []
    for cell in range(height * width):
        r, c = divmod(cell, width)
        allowed = int(root[r, c])
        if allowed & (allowed - 1) == 0:
            continue
        for colour in range(puzzle.n_colors):
            if not (allowed >> colour) & 1:
                continue
            masks = root.copy()
            masks[r, c] = 1 << colour
            status, after = propagate(puzzle, masks, placement_line)
            not_here = -int(x[cell, colour])
            if status == "contradiction":
                clauses.append([not_here])
                continue
            for other in range(height * width):
                gone = int(root.flat[other]) & ~int(after.flat[other])
                for d in range(puzzle.n_colors):
                    if other != cell and (gone >> d) & 1:
                        clauses.append([not_here, -int(x[other, d])])
    return clauses


def boundary_changes(final, levels, near, nb, cells) -> tuple[np.ndarray, np.ndarray]:
    """``rofl.picture.style._boundary_changes`` by recounting: each of
    ``cells`` set to each lightness of ``levels`` in a copy of ``final``,
    and the boundary marks (a cell with a lighter neighbour in ``nb``) of
    the cell and its neighbours counted before and after, near (``near``)
    and away from the picture's edges."""

    def marked(grid, x) -> int:
        return int(any(grid[y] > grid[x] for y in nb[x] if y >= 0))

    near_change = np.zeros((len(levels), len(cells)), dtype=np.int64)
    far_change = np.zeros((len(levels), len(cells)), dtype=np.int64)
    for j, p in enumerate(cells):
        around = [p, *(q for q in nb[p] if q >= 0)]
        for c, v in enumerate(levels):
            after = final.copy()
            after[p] = v
            for x in around:
                counts = near_change if near[x] else far_change
                counts[c, j] += marked(after, x) - marked(final, x)
    return near_change, far_change
