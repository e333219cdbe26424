"""How much a grid looks like its picture: lightness SSIM, edge agreement, faces.

The measures of issue 46, shared by ``rofl make``'s stats (the cheap ones:
:func:`lightness_ssim` and :func:`edge_f1`, a few milliseconds at 60 cells)
and by ``benchmarks/styles.py`` (all of them, :func:`find_faces` included).
Each takes the picture *at the grid's scale* (every cell's area-averaged
lightness, L* 0-100, as :func:`rofl.picture.quantise` gives it in
``Quantised.lab[..., 0]``) and the final grid's lightness (each cell's
palette colour's L*), for rectangles (``(H, W)`` arrays) and hexagonal
boards (``(n_cells,)`` arrays in :class:`rofl.hexagon.Hexagon`'s order,
with ``side``).

* :func:`lightness_ssim`: scikit-image's structural similarity of the two
  lightness arrays: large regions and their contrast.
* :func:`edge_agreement` / :func:`edge_f1`: do the grid's region boundaries
  fall where the picture has edges?  Canny's edges of the picture's
  lightness at grid scale against the grid's region boundaries, each
  allowed :data:`EDGE_TOLERANCE` cell of slack: precision (grid boundaries
  that follow an edge), recall (edges the grid shows) and their F1.
* :func:`find_faces` / :func:`faces_kept`: scikit-image's LBP frontal-face
  cascade on a picture (a photo, or a grid's colours scaled up with nearest
  neighbour and softened by a Gaussian, as a person sees a puzzle from a
  distance), and whether a face found in the photo is found in the grid.

scikit-image is imported inside the functions (``import rofl`` stays fast).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from rofl.hexagon import Hexagon

# ---------------------------------------------------------------- SSIM


def lightness_ssim(source: np.ndarray, final: np.ndarray) -> float | None:
    """Structural similarity of two ``(H, W)`` lightness (L*, 0-100) arrays.

    scikit-image's SSIM with a 7x7 window (smaller on a grid under 7 cells
    on a side); None under 3 cells, where SSIM means nothing.
    """
    from skimage.metrics import structural_similarity

    side = min(source.shape)
    win = min(7, side if side % 2 else side - 1)
    if win < 3:
        return None
    return float(structural_similarity(source, final, data_range=100.0, win_size=win))


#: :func:`ssim_gains`' window (scikit-image's default, as :func:`lightness_ssim` uses it).
SSIM_WINDOW = 7


def ssim_gains(
    source: np.ndarray,
    final: np.ndarray,
    cells: np.ndarray,
    values: np.ndarray,
    *,
    side: int | None = None,
) -> np.ndarray | None:
    """How the lightness SSIM of ``source`` against ``final`` changes when
    one cell of ``final`` takes another lightness, for many such changes at
    once, each alone: the flat index of each changed cell in ``cells`` and
    its new lightness in ``values`` (1-d, one entry a change); the change of
    the *sum* of SSIM over the windows the measure averages (divide by
    their count for the change of the measure).

    On a square grid the measure is :func:`lightness_ssim` (the windows
    wholly inside the grid, ``(H - 6) * (W - 6)`` of them); on a hexagonal
    board of ``side`` (``(n_cells,)`` arrays), :func:`hex_lightness_ssim`
    (one window on each cell of the board laid out on its axial grid, which
    is reflected at its border as scikit-image does).  Each window's means,
    variances and covariance change by a term in the one cell's lightness
    (times the times the window holds it), so each of the 49 windows over a
    cell is recomputed from its sums (scikit-image's formula: sample
    covariance, K1 0.01, K2 0.03, a data range of 100).  None where the
    measure uses a smaller window than 7 (a grid under 7 cells on a side, a
    side under 4).
    """
    x, y = np.asarray(source, dtype=np.float64), np.asarray(final, dtype=np.float64)
    cells, values = np.asarray(cells, dtype=np.int64), np.asarray(values, dtype=np.float64)
    win = SSIM_WINDOW
    if side is None:
        if min(x.shape) < win:
            return None
        weight = np.zeros(x.shape)
        weight[win // 2 : -(win // 2), win // 2 : -(win // 2)] = 1.0
        rows, cols = np.divmod(cells, x.shape[1])
        return _layout_gains(x, y, weight, rows, cols, values)
    if 2 * side - 1 < win:
        return None
    coords = Hexagon.of(side).coords
    at_row, at_col = coords[:, 1] + side - 1, coords[:, 0] + side - 1  # the axial grid of hex_lightness_ssim
    size = 2 * side - 1
    lx, ly, weight = np.zeros((size, size)), np.zeros((size, size)), np.zeros((size, size))
    lx[at_row, at_col], ly[at_row, at_col], weight[at_row, at_col] = x, y, 1.0
    return _layout_gains(lx, ly, weight, at_row[cells], at_col[cells], values)


def _layout_gains(x, y, weight, rows, cols, values) -> np.ndarray:
    """:func:`ssim_gains` on a picture ``x`` and grid ``y`` laid out on a
    square array, the windows counted by ``weight`` (one per cell, the
    window centred on it), reflected at the border as scipy's
    ``uniform_filter`` does; the changes at ``rows``, ``cols`` to ``values``.
    The windows over a cell are gathered once for all the changes of that
    cell."""
    from scipy.ndimage import uniform_filter

    win = SSIM_WINDOW
    r, n = win // 2, win * win

    def ssim(mx, my, mxx, myy, mxy):
        norm, c1, c2 = n / (n - 1), 1.0**2, 3.0**2  # (K1 L)^2, (K2 L)^2 for L = 100
        vx, vy, vxy = norm * (mxx - mx * mx), norm * (myy - my * my), norm * (mxy - mx * my)
        return ((2 * mx * my + c1) * (2 * vxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))

    def held(length):
        """``(length, win)``: how many times the window centred at each
        offset from a cell at each position of an axis holds that cell (twice
        where the window reflects at the border)."""
        at = np.arange(length)
        t = at[:, None, None] + np.arange(-r, r + 1)[None, :, None] + np.arange(-r, r + 1)[None, None, :]
        t = np.where(t < 0, -t - 1, np.where(t >= length, 2 * length - 1 - t, t))
        return (t == at[:, None, None]).sum(axis=2)

    if not len(rows):
        return np.zeros(0)
    h, w = x.shape
    sums = [uniform_filter(a, win, mode="reflect") for a in (x, y, x * x, y * y, x * y)]
    base = ssim(*sums)
    layers = np.stack([*sums, base, weight], axis=-1)  # (h, w, 7)
    flat = rows * w + cols
    cells, which = np.unique(flat, return_inverse=True)
    cr, cc = np.divmod(cells, w)
    offsets = np.arange(-r, r + 1)
    # every window over each changed cell: rows and columns of their centres, (cells, 7) each
    ci, cj = cr[:, None] + offsets, cc[:, None] + offsets
    in_i, in_j = (ci >= 0) & (ci < h), (cj >= 0) & (cj < w)
    ci, cj = np.where(in_i, ci, 0), np.where(in_j, cj, 0)
    times = (held(h)[cr][:, :, None] * held(w)[cc][:, None, :]).reshape(len(cells), -1) / n
    inside = (in_i[:, :, None] & in_j[:, None, :]).reshape(len(cells), -1)
    at = layers[np.repeat(ci, win, axis=1), np.tile(cj, (1, win))]  # (cells, 49, 7)
    at[..., 6] *= inside
    mx, my, mxx, myy, mxy, old, wt = (at[which, :, k] for k in range(7))
    times = times[which]
    yc, xc = y[cr, cc][which, None], x[cr, cc][which, None]
    d = values[:, None] - yc
    new = ssim(mx, my + times * d, mxx, myy + times * (2 * yc * d + d * d), mxy + times * xc * d)
    return (wt * (new - old)).sum(axis=1)


def hex_lightness_ssim(source: np.ndarray, final: np.ndarray, side: int) -> float | None:
    """:func:`lightness_ssim` of two hexagonal boards' lightness (``(n_cells,)``
    in the board's order): SSIM over the cells laid out on their axial
    ``(q, r)`` grid (a sheared picture, which keeps every cell's six
    neighbours but two as grid neighbours), averaged over the board's cells
    only; None for a side under 3."""
    from skimage.metrics import structural_similarity

    if side < 3:
        return None
    coords = Hexagon.of(side).coords
    m = side - 1
    a = np.zeros((2 * m + 1, 2 * m + 1))
    b = np.zeros_like(a)
    a[coords[:, 1] + m, coords[:, 0] + m] = source
    b[coords[:, 1] + m, coords[:, 0] + m] = final
    win = min(7, 2 * m + 1 if (2 * m + 1) % 2 else 2 * m)
    _, full = structural_similarity(a, b, data_range=100.0, win_size=win, full=True)
    return float(full[coords[:, 1] + m, coords[:, 0] + m].mean())


# ---------------------------------------------------------------- edges

#: Slack, in cells, between a grid boundary and a picture edge that match:
#: 1 lets a boundary cell match an edge in itself or in one of its
#: neighbours (the 8 around a square, the 6 around a hexagon).  A grid can
#: only draw a boundary between two cells, so half a cell beside the
#: picture's edge is as good as it can do, and Canny's edge may lie on
#: either side of it: 0 would punish grids that are right.
EDGE_TOLERANCE = 1

#: Gaussian smoothing before Canny, in cells: enough to ignore single-cell
#: noise of the area average, little enough to keep features two cells apart.
EDGE_SIGMA = 1.0

#: Canny's hysteresis thresholds, as the lightness step (ΔL*, 0-100) of a
#: sharp straight edge whose gradient just reaches them: an edge is a step
#: of at least :data:`EDGE_STEP` that may continue through steps of
#: :data:`EDGE_STEP_LOW` (what tells apart a feature a person sees from the
#: shading of a flat region; a picture's faint texture is no edge).
EDGE_STEP = 12.0
EDGE_STEP_LOW = 6.0


class EdgeAgreement(NamedTuple):
    """How well a grid's region boundaries follow a picture's edges.

    Attributes
    ----------
    precision : float
        Share of the grid's boundary cells matched to a picture edge cell
        (1.0 when the grid has no boundary).
    recall : float
        Share of the picture's edge cells matched to a boundary cell (1.0
        when the picture has no edge).
    f1 : float
        Their harmonic mean; 1.0 when neither has any, 0.0 when only one has.
    edges, boundaries, matched : int
        Edge cells of the picture, boundary cells of the grid, pairs matched.
    """

    precision: float
    recall: float
    f1: float
    edges: int
    boundaries: int
    matched: int


def edge_agreement(
    source: np.ndarray, final: np.ndarray, *, side: int | None = None, tolerance: int = EDGE_TOLERANCE
) -> EdgeAgreement:
    """Canny's edges of the picture at grid scale against the grid's region boundaries.

    The picture's edges are the cells Canny marks on its lightness
    (:data:`EDGE_SIGMA`, :data:`EDGE_STEP`), thinned to lines one cell
    wide.  The grid's boundaries are marked once each, on their darker side:
    a cell is a boundary cell when a neighbour (of 4 on a square grid, of 6
    on a hexagon) is lighter.  So a step between two regions marks one line
    of cells, as Canny does, and so does an outline one cell wide drawn
    along it (the ink is darker than both sides), while a light line on a
    dark field marks the dark cells on both its sides, as Canny marks both
    of its edges.  Edge and boundary cells are then matched one to one,
    each pair at most ``tolerance`` cells apart, nearest first (the boundary
    benchmarks' correspondence, as in Martin, Fowlkes and Malik's, made
    greedy): a grid cannot score by drawing boundaries everywhere.

    Parameters
    ----------
    source : (H, W) or (n_cells,) float array
        The picture's lightness (L*, 0-100) in every cell: its area average.
    final : (H, W) or (n_cells,) float array
        The final grid's lightness: the L* of each cell's palette colour.
        Two neighbours of another colour but the same lightness are no
        boundary (a palette keeps its colours ΔE2000 20 apart, seldom
        with equal L*).
    side : int, optional
        A hexagonal board's side; then both arrays hold one entry per cell
        in :class:`~rofl.hexagon.Hexagon`'s order.
    tolerance : int
        :data:`EDGE_TOLERANCE`: 0 matches a cell only with itself, 1 with
        its neighbours too (the 8 around a square, the 6 around a hexagon).

    Returns
    -------
    EdgeAgreement

    Notes
    -----
    On a hexagonal board Canny runs on the cells laid out two pixels wide
    and two high, each row shifted by one pixel; a cell is an edge when any
    of its pixels is, and the edge cells are thinned on the board.  A grid
    whose boundary is exactly a straight edge scores F1 0.7-1 depending on
    the edge's angle (1 on a square grid): compare hexagonal figures with
    hexagonal ones.
    """
    source, final = np.asarray(source, dtype=np.float64), np.asarray(final, dtype=np.float64)
    if source.shape != final.shape:
        msg = f"source {source.shape} and final {final.shape} differ in shape"
        raise ValueError(msg)
    if side is None:
        edges, boundaries = picture_edges(source), _rect_boundaries(final)
        matched, _ = _rect_match(boundaries, edges, tolerance)
    else:
        edges, boundaries = picture_edges(source, side=side), _hex_boundaries(final, side)
        matched, _ = _hex_match(boundaries, edges, side, tolerance)
    n_edges, n_bounds = int(edges.sum()), int(boundaries.sum())
    precision = matched / n_bounds if n_bounds else 1.0
    recall = matched / n_edges if n_edges else 1.0
    if not n_edges and not n_bounds:
        f1 = 1.0
    elif not matched:
        f1 = 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return EdgeAgreement(precision, recall, f1, n_edges, n_bounds, matched)


def edge_f1(
    source: np.ndarray, final: np.ndarray, *, side: int | None = None, tolerance: int = EDGE_TOLERANCE
) -> float:
    """The F1 of :func:`edge_agreement` (0 to 1; what ``rofl make`` prints)."""
    return edge_agreement(source, final, side=side, tolerance=tolerance).f1


def picture_edges(source: np.ndarray, *, side: int | None = None) -> np.ndarray:
    """The picture's edge cells that :func:`edge_agreement` matches against:
    Canny's on its lightness at grid scale, thinned to lines one cell wide
    (bool, ``source``'s shape)."""
    source = np.ascontiguousarray(source, dtype=np.float64)
    if source.size > _EDGES_CACHED:
        return _edges_of(source, side)
    return _remembered_edges(source.tobytes(), source.shape, side).copy()


#: :func:`picture_edges` remembers the edges of the last few pictures of at
#: most this many cells: ``rofl make`` asks for one picture's edges several
#: times (the styles, their measures, trimming, the stats).
_EDGES_CACHED = 200 * 200


@functools.lru_cache(maxsize=4)
def _remembered_edges(data: bytes, shape: tuple[int, ...], side: int | None) -> np.ndarray:
    return _edges_of(np.frombuffer(data).reshape(shape), side)


def _edges_of(source: np.ndarray, side: int | None) -> np.ndarray:
    return _rect_edges(source) if side is None else _hex_edges(source, side)


def unmatched_edges(edges: np.ndarray, final: np.ndarray, *, side: int | None = None) -> np.ndarray:
    """The cells of ``edges`` (:func:`picture_edges`) that :func:`edge_agreement`
    leaves unmatched against the region boundaries of ``final`` (a grid's
    lightness): edges the grid does not show, or shows with a boundary cell
    another edge cell already took (bool, ``edges``' shape)."""
    final = np.asarray(final, dtype=np.float64)
    if side is None:
        return _rect_match(_rect_boundaries(final), edges, EDGE_TOLERANCE)[1]
    return _hex_match(_hex_boundaries(final, side), edges, side, EDGE_TOLERANCE)[1]


def cell_neighbours(shape: tuple[int, ...], *, side: int | None = None) -> np.ndarray:
    """``(n_cells, k)`` int array: the flat indices of every cell's
    neighbours that share a side with it (4 on a square grid of ``shape``,
    6 on a hexagonal board of ``side``), -1 off the board."""
    if side is not None:
        return _hex_neighbours(side)
    h, w = shape
    index = np.pad(np.arange(h * w).reshape(h, w), 1, constant_values=-1)
    return np.stack([index[:-2, 1:-1], index[2:, 1:-1], index[1:-1, :-2], index[1:-1, 2:]], axis=-1).reshape(-1, 4)


def _canny(lightness: np.ndarray, sigma: float) -> np.ndarray:
    """Canny on an L* image smoothed by ``sigma`` pixels, with the thresholds
    of :data:`EDGE_STEP` and the image's border kept (padded by its own edge
    values instead of Canny's dropping of the outer pixels)."""
    from skimage.feature import canny

    pad = int(np.ceil(2 * sigma)) + 1
    image = np.pad(lightness / 100.0, pad, mode="edge")
    from skimage.morphology import thin

    per_step = _gradient_of_unit_step(sigma)
    found = canny(
        image,
        sigma=sigma,
        low_threshold=EDGE_STEP_LOW / 100.0 * per_step,
        high_threshold=EDGE_STEP / 100.0 * per_step,
        mode="nearest",
    )
    # a symmetric step has two equal gradient maxima, one each side, and
    # Canny keeps both: thinning leaves a line one pixel wide
    return thin(found)[pad:-pad, pad:-pad]


@functools.cache
def _gradient_of_unit_step(sigma: float) -> float:
    """Canny's gradient magnitude at a sharp step of height 1 after smoothing
    by ``sigma`` (Sobel's scale), so the thresholds read as lightness steps."""
    from scipy import ndimage
    from skimage.filters import gaussian

    n = int(8 * sigma) + 8
    step = np.zeros((n, n))
    step[:, n // 2 :] = 1.0
    smoothed = gaussian(step, sigma=sigma, mode="nearest", preserve_range=True)
    return float(np.abs(ndimage.sobel(smoothed, axis=1)).max())


def _rect_edges(source: np.ndarray) -> np.ndarray:
    if min(source.shape) < 2:
        return np.zeros(source.shape, dtype=bool)
    return _canny(source, EDGE_SIGMA)


def _rect_boundaries(final: np.ndarray) -> np.ndarray:
    """Cells with a lighter 4-neighbour."""
    out = np.zeros(final.shape, dtype=bool)
    out[:, :-1] |= final[:, 1:] > final[:, :-1]
    out[:, 1:] |= final[:, :-1] > final[:, 1:]
    out[:-1, :] |= final[1:, :] > final[:-1, :]
    out[1:, :] |= final[:-1, :] > final[1:, :]
    return out


def _rect_match(a: np.ndarray, b: np.ndarray, tolerance: int) -> tuple[int, np.ndarray]:
    """Pairs of ``a`` and ``b`` cells matched one to one, at most ``tolerance``
    cells apart (Chebyshev), nearest offsets first, and the ``b`` cells left
    unmatched.  For one offset the pairing is a shift, so it never gives one
    cell two partners."""
    h, w = a.shape
    free_a, free_b = a.copy(), b.copy()
    offsets = [(dy, dx) for dy in range(-tolerance, tolerance + 1) for dx in range(-tolerance, tolerance + 1)]
    offsets.sort(key=lambda o: (max(abs(o[0]), abs(o[1])), abs(o[0]) + abs(o[1])))
    matched = 0
    for dy, dx in offsets:
        if abs(dy) >= h or abs(dx) >= w:
            continue
        sa = (slice(max(0, -dy), h - max(0, dy)), slice(max(0, -dx), w - max(0, dx)))
        sb = (slice(max(0, dy), h - max(0, -dy)), slice(max(0, dx), w - max(0, -dx)))
        pair = free_a[sa] & free_b[sb]
        free_a[sa] &= ~pair
        free_b[sb] &= ~pair
        matched += int(pair.sum())
    return matched, free_b


# A hexagonal board is laid out for Canny in "doubled" coordinates: cell
# (q, r) covers the 2x2 pixels at rows 2(r + m), 2(r + m) + 1 and columns
# 2q + r + 2m, +1, so each row of cells is shifted half a cell from the
# next, as on the board, and a pixel is 0.87 by 0.75 circumradii: nearly
# square.  A cell is an edge when Canny marks any of its pixels.
_HEX_PIXELS = 2


@functools.cache
def _hex_layout(side: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, cols)`` int arrays ``(n_cells, 4)``: each cell's pixels, and
    the layout's shape is ``(2 (2s - 1), 2 (2s - 1))``."""
    coords = Hexagon.of(side).coords
    m = side - 1
    y = 2 * (coords[:, 1] + m)
    x = 2 * coords[:, 0] + coords[:, 1] + 2 * m
    rows = np.stack([y, y, y + 1, y + 1], axis=1)
    cols = np.stack([x, x + 1, x, x + 1], axis=1)
    return rows, cols


@functools.cache
def _hex_neighbours(side: int) -> np.ndarray:
    """``(n_cells, 6)`` int array: each cell's six neighbours, -1 off the board."""
    board = Hexagon.of(side)
    q, r = board.coords[:, 0:1], board.coords[:, 1:2]
    dq = np.array([[1, -1, 0, 0, 1, -1]])
    dr = np.array([[0, 0, 1, -1, -1, 1]])
    return board.cells_at(q + dq, r + dr)


def _hex_edges(source: np.ndarray, side: int) -> np.ndarray:
    if side < 2:
        return np.zeros(source.shape, dtype=bool)
    rows, cols = _hex_layout(side)
    n = 2 * (2 * side - 1)
    image = np.zeros((n, n))
    inside = np.zeros((n, n), dtype=bool)
    image[rows, cols] = source[:, None]
    inside[rows, cols] = True
    # outside the board: the nearest cell's lightness, so that the board's
    # outline is no edge (Canny's mask alone would smooth in zeros)
    from scipy import ndimage

    nearest = ndimage.distance_transform_edt(~inside, return_distances=False, return_indices=True)
    image = image[nearest[0], nearest[1]]
    found = _canny(image, EDGE_SIGMA * _HEX_PIXELS)[rows, cols].any(axis=1)
    return _hex_thin(found, side)


def _hex_thin(cells: np.ndarray, side: int) -> np.ndarray:
    """Edge cells thinned to lines one cell wide.  An edge along a zigzag of
    cells takes two cells per cell of its length in the pixel layout;
    thinning on the board laid out by two of its cube coordinates (a
    sheared square grid, whose 8 neighbours are the 6 and two more)
    removes the second, and doing it in two such layouts and keeping the
    cells either keeps undoes the layout's over-thinning along its own two
    false neighbours."""
    from skimage.morphology import thin

    coords = Hexagon.of(side).coords + (side - 1)
    kept = np.zeros(len(cells), dtype=bool)
    for i, j in ((1, 2), (0, 2)):
        board = np.zeros((2 * side - 1,) * 2, dtype=bool)
        board[coords[:, i], coords[:, j]] = cells
        kept |= thin(board)[coords[:, i], coords[:, j]]
    return kept


def _hex_boundaries(final: np.ndarray, side: int) -> np.ndarray:
    """Cells with a lighter neighbour (of six)."""
    nb = _hex_neighbours(side)
    on = nb >= 0
    return ((final[np.where(on, nb, 0)] > final[:, None]) & on).any(axis=1)


def _hex_match(a: np.ndarray, b: np.ndarray, side: int, tolerance: int) -> tuple[int, np.ndarray]:
    """:func:`_rect_match` on a hexagonal board: the cell itself, then (with
    ``tolerance`` 1 or more) each of the six directions in turn."""
    free_a, free_b = a.copy(), b.copy()
    pair = free_a & free_b
    free_a &= ~pair
    free_b &= ~pair
    matched = int(pair.sum())
    if tolerance < 1:
        return matched, free_b
    if tolerance > 1:
        msg = "a hexagonal board's edges match within one cell at most"
        raise ValueError(msg)
    nb = _hex_neighbours(side)
    cells = np.arange(len(a))
    for d in range(6):
        on = nb[:, d] >= 0
        src, dst = cells[on], nb[on, d]
        pair = free_a[src] & free_b[dst]
        free_a[src[pair]] = False
        free_b[dst[pair]] = False
        matched += int(pair.sum())
    return matched, free_b


# ---------------------------------------------------------------- faces

#: The picture is scaled up (nearest neighbour, a whole factor) until its
#: longer side reaches this many pixels before the cascade looks for faces,
#: and larger photos are scaled down to it.
FACE_SIDE = 320


class Face(NamedTuple):
    """A face the cascade found: its box as shares (0-1) of the picture's
    height and width, so boxes on a photo and on its grid compare."""

    top: float
    left: float
    height: float
    width: float

    def overlap(self, other: Face) -> float:
        """Intersection over union of the two boxes (0-1)."""
        h = min(self.top + self.height, other.top + other.height) - max(self.top, other.top)
        w = min(self.left + self.width, other.left + other.width) - max(self.left, other.left)
        inter = max(h, 0.0) * max(w, 0.0)
        union = self.height * self.width + other.height * other.width - inter
        return inter / union if union > 0 else 0.0


def find_faces(rgb: np.ndarray, *, cells: bool = True, soften: float = 0.5) -> list[Face]:
    """Frontal faces in a picture: scikit-image's LBP cascade
    (``skimage.data.lbp_frontal_face_cascade_filename()``).

    Parameters
    ----------
    rgb : (H, W, 3) uint8 array
        A photo, or a grid's colours, one pixel per cell.
    cells : bool
        ``rgb`` is a grid: scale it up by a whole factor with nearest
        neighbour to about :data:`FACE_SIDE` pixels and soften it with a
        Gaussian of ``soften`` cells, as it looks from a distance.  Else
        (a photo) scale it to about :data:`FACE_SIDE` pixels, area-averaged.
    soften : float
        The Gaussian's sigma in cells.

    Returns
    -------
    list of Face
        Slow (a few tenths of a second): for the benchmarks, not ``rofl
        make``.  The cascade finds false faces too (2 of its windows must
        agree, which keeps faces of 8-10 cells across): judge a grid by
        :func:`faces_kept` against a face known to be in the photo.
    """
    from skimage.color import rgb2gray
    from skimage.filters import gaussian
    from skimage.transform import resize

    rgb = np.asarray(rgb)
    h, w = rgb.shape[:2]
    grey = rgb2gray(rgb[..., :3])
    if cells:
        k = max(1, round(FACE_SIDE / max(h, w)))
        grey = np.repeat(np.repeat(grey, k, axis=0), k, axis=1)
        if soften > 0:
            grey = gaussian(grey, sigma=soften * k, preserve_range=True)
    else:
        k = FACE_SIDE / max(h, w)
        if k < 1:
            grey = resize(grey, (max(1, round(h * k)), max(1, round(w * k))), anti_aliasing=True)
    gh, gw = grey.shape
    found = _cascade().detect_multi_scale(
        img=grey, scale_factor=1.1, step_ratio=1, min_size=(24, 24), max_size=(gh, gw), min_neighbor_number=2
    )
    return [Face(d["r"] / gh, d["c"] / gw, d["height"] / gh, d["width"] / gw) for d in found]


def faces_kept(photo: list[Face], grid: list[Face], *, overlap: float = 0.3) -> bool:
    """Whether a face found in the photo is found in the grid too: some pair
    of boxes overlaps by at least ``overlap`` (intersection over union)."""
    return any(a.overlap(b) >= overlap for a in photo for b in grid)


@functools.cache
def _cascade():
    from skimage.data import lbp_frontal_face_cascade_filename
    from skimage.feature import Cascade

    return Cascade(lbp_frontal_face_cascade_filename())


__all__ = [
    "EDGE_SIGMA",
    "EDGE_STEP",
    "EDGE_STEP_LOW",
    "EDGE_TOLERANCE",
    "FACE_SIDE",
    "EdgeAgreement",
    "Face",
    "edge_agreement",
    "edge_f1",
    "faces_kept",
    "find_faces",
    "hex_lightness_ssim",
    "lightness_ssim",
    "SSIM_WINDOW",
    "ssim_gains",
    "cell_neighbours",
    "picture_edges",
    "unmatched_edges",
]
