"""Quantise: cell colours into palette indices, and the cost of every other choice.

Black and white by a threshold on CIELAB lightness (Otsu's by default);
colour by a perceptual palette found by k-means in CIELAB whose colours stay
``min_delta_e`` (ΔE2000) apart (a constrained k-means: :func:`quantise`), or
a palette the caller gives; optionally dithered (:mod:`.dither`).  The cost array
:func:`quantise` returns tells the refinement which changes would show least.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from rofl._checks import is_real, is_whole
from rofl.errors import OptionError
from rofl.palette import Palette
from rofl.picture import colour
from rofl.picture.dither import check_dither, dither_palette, dither_two


@dataclass(eq=False)
class Quantised:
    """A grid of palette indices and what the refinement needs to know about it.

    Attributes
    ----------
    grid : (H, W) uint8 array of palette indices
    palette : Palette (index 0 is the background)
    cost : (H, W, K) float64 array
        How visibly wrong colour ``k`` is for each cell: ΔE2000 between the
        cell's averaged colour and palette colour ``k`` (colour puzzles);
        for black and white, the distance (in L*) of the cell's lightness
        from the threshold for the colour on the wrong side, 0 for the
        right side.
    lab : (H, W, 3) float64 array
        CIELAB colour of every cell (area-averaged source).
    threshold : float or None
        Black-and-white threshold as an sRGB grey level 0-255.
    asked : int or None
        The colours asked for; ``len(palette)`` is fewer when the picture
        does not hold that many distinct (``min_delta_e``) colours.
    """

    grid: np.ndarray
    palette: Palette
    cost: np.ndarray
    lab: np.ndarray
    threshold: float | None = None
    asked: int | None = None


def kmeans_lab(
    points: np.ndarray, k: int, *, fixed: np.ndarray | None = None, seed: int = 0, n_init: int = 4, max_iter: int = 100
) -> np.ndarray:
    """Deterministic k-means (k-means++ seeding, Lloyd iterations) on CIELAB points.

    Parameters
    ----------
    points : (N, 3) float array
    k : int
        Centres wanted (at most the number of distinct points).
    fixed : (3,) float array, optional
        A centre that must stay where it is (a background colour the user
        chose); it counts towards ``k``.
    seed : int
        The random generator's seed: the same picture always gives the
        same palette.

    Returns
    -------
    (k, 3) float64 array of centres (``fixed`` first when given)
    """
    pts = np.asarray(points, dtype=np.float64)
    n = len(pts)
    rng = np.random.default_rng(seed)
    n_fixed = 0 if fixed is None else 1
    sq = (pts * pts).sum(axis=1)
    starts = np.empty((n_init, k, 3))
    for centres in starts:  # every seeding first: Lloyd draws no random numbers, so the draws are as one by one
        centres[0] = fixed if fixed is not None else pts[rng.integers(n)]
        d2 = _sq_dist(pts, sq, centres[:1])[:, 0]
        for i in range(1, k):
            total = d2.sum()
            idx = int(rng.choice(n, p=d2 / total)) if total > 0 else int(rng.integers(n))
            centres[i] = pts[idx]
            d2 = np.minimum(d2, _sq_dist(pts, sq, centres[i : i + 1])[:, 0])
    best, best_inertia = None, np.inf
    for centres in _lloyd_runs(pts, sq, starts, n_fixed, max_iter, 1e-6):
        inertia = _sq_dist(pts, sq, centres).min(axis=1).sum()
        if inertia < best_inertia - 1e-9:
            best, best_inertia = centres, inertia
    assert best is not None
    return best


def _sq_dist(pts: np.ndarray, sq: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Squared distances ``(N, k)``: |p - c|^2 = |p|^2 - 2 p.c + |c|^2, one matrix product
    instead of an ``(N, k, 3)`` temporary (``sq`` is |p|^2 per point)."""
    d = sq[:, None] - 2.0 * (pts @ centres.T) + (centres * centres).sum(axis=1)[None, :]
    return np.maximum(d, 0.0)


def _sums(pts: np.ndarray, label: np.ndarray, k: int) -> np.ndarray:
    """``(k, 3)`` sums of the points of each label: one ``bincount`` over
    (label, channel) pairs, which adds each bin's points in the same order as
    one ``bincount`` per channel would, so the sums are the same."""
    index = (label[:, None] * 3 + np.arange(3)).ravel()
    return np.bincount(index, weights=pts.ravel(), minlength=3 * k).reshape(k, 3)


def lloyd(
    points: np.ndarray, centres: np.ndarray, *, n_fixed: int = 0, max_iter: int = 100, tol: float = 1e-6
) -> np.ndarray:
    """Lloyd iterations from the given centres until they stop moving.

    Parameters
    ----------
    points : (N, 3) float array
    centres : (k, 3) float array
        Starting centres; the first ``n_fixed`` never move.
    tol : float
        Stop when no centre moves more than this (CIELAB units).

    Returns
    -------
    (k, 3) float64 array of centres
    """
    pts = np.asarray(points, dtype=np.float64)
    sq = (pts * pts).sum(axis=1)
    return _lloyd_runs(pts, sq, np.array(centres, dtype=np.float64)[None], n_fixed, max_iter, tol)[0]


def _lloyd_runs(
    pts: np.ndarray, sq: np.ndarray, starts: np.ndarray, n_fixed: int, max_iter: int, tol: float
) -> np.ndarray:
    """:func:`lloyd` from each of ``(m, k, 3)`` starts at once, ``(m, k, 3)``.

    The runs share every numpy call (one matrix product, one ``argmin``,
    one ``bincount`` for all), so k-means' restarts cost little more than
    one; each run stops when its own centres stop moving, with the same
    arithmetic, point by point, as a run of its own.
    """
    out = np.array(starts, dtype=np.float64)
    m, k, _ = out.shape
    n = len(pts)
    active = np.arange(m)
    channel = np.arange(3)
    for _ in range(max_iter):
        centres = out[active]
        a = len(active)
        dist = np.maximum(
            sq[None, :, None] - 2.0 * (pts @ centres.transpose(0, 2, 1)) + (centres * centres).sum(axis=2)[:, None, :],
            0.0,
        )
        label = dist.argmin(axis=2) + (np.arange(a) * k)[:, None]  # (a, N): cluster numbers across runs
        counts = np.bincount(label.ravel(), minlength=a * k).astype(np.float64).reshape(a, k)
        # each bin adds its points in the same order as one run's own bincount would
        sums = np.bincount(
            (label[:, :, None] * 3 + channel).ravel(),
            weights=np.broadcast_to(pts, (a, n, 3)).ravel(),
            minlength=3 * a * k,
        ).reshape(a, k, 3)
        new = centres.copy()
        filled = counts > 0
        filled[:, :n_fixed] = False
        new[filled] = sums[filled] / counts[filled][:, None]
        for r in np.flatnonzero((counts[:, n_fixed:] == 0).any(axis=1)):
            # an empty cluster takes the points worst served so far
            empty = np.flatnonzero(counts[r] == 0)
            empty = empty[empty >= n_fixed]
            worst = np.argsort(dist[r].min(axis=1))[::-1][: empty.size]
            new[r, empty] = pts[worst]
        moved = np.abs(new - centres).max(axis=(1, 2))
        out[active] = new
        active = active[moved >= tol]
        if not active.size:
            break
    return out


# ------------------------------------------------------ distinct palettes

#: The least ΔE2000 that ``k`` sRGB colours can keep between every pair, for
#: ``k = 2, 3, ...`` (index ``k - 2``), as far as rofl can guarantee it: 2 is
#: black and white; from 3 on, a greedy farthest-point choice among the 18^3
#: colours of an even sRGB grid (:func:`spacing_table`, rounded down).  The
#: true optimum may be a little higher; a limit above this is refused.
MAX_SPACING = (
    100.0, 73.8, 50.4, 48.2, 43.8, 41.6, 34.1, 32.6, 30.4, 29.7, 28.6, 26.8, 26.1, 25.8, 25.8, 24.4,
    23.8, 23.6, 23.4, 22.6, 22.2, 22.0, 21.4, 21.3, 20.2, 20.1, 19.8, 19.7, 19.4, 19.2, 19.1, 18.8,
    18.6, 18.3, 18.2, 17.5, 17.4, 17.1, 16.2, 15.8, 15.7, 15.5, 15.5, 15.4, 15.3, 15.3, 15.2, 15.1,
    15.1, 15.0, 14.9, 14.8, 14.7, 14.6, 14.4, 14.4, 14.4, 14.2, 14.1, 14.1, 14.0, 14.0, 13.9,
)  # fmt: skip

#: The default least ΔE2000 between two palette colours: far enough apart to
#: tell clue numbers apart at a glance (two browns at 8 are not, issue 23).
MIN_DELTA_E = 20.0


#: Mean ΔE2000 (about one just noticeable difference) by which a palette with
#: more colours may be less accurate than one with fewer and still be chosen
#: (:func:`_distinct_palette`): more colours are what the caller asked for.
SAME_ERROR = 1.0


def spacing_table(k_max: int = 64, steps: int = 18) -> tuple[float, ...]:
    """Recompute :data:`MAX_SPACING` (greedy farthest-point over an sRGB grid).

    Starting from black, each step adds the grid colour farthest (ΔE2000)
    from those chosen so far; the distance it had is what that many colours
    can keep.  Black and white (``k = 2``) is 100.
    """
    import math

    g = np.rint(np.linspace(0, 255, steps))
    grid_lab = colour.rgb8_to_lab(np.stack(np.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3))
    d = colour.delta_e(grid_lab, grid_lab[:1])[:, 0]
    out = [100.0]
    for _ in range(3, k_max + 1):
        i = int(d.argmax())
        d = np.minimum(d, colour.delta_e(grid_lab, grid_lab[i : i + 1])[:, 0])
        out.append(math.floor(float(d.max()) * 10) / 10)
    return tuple(out)


def check_min_delta_e(value: Any, colors: int | None = None) -> float:
    """Validate a least palette distance (ΔE2000) for ``colors`` automatic colours.

    Parameters
    ----------
    value : float
        0 turns the constraint off.
    colors : int, optional
        The colours asked for; without it only the value itself is checked
        (a palette the caller gives is used as given).

    Raises
    ------
    OptionError
        Not a number, negative, NaN, or more than ``colors`` sRGB colours
        can keep between every pair (:data:`MAX_SPACING`).
    """
    if not is_real(value) or not 0 <= value < np.inf:
        msg = f"the least ΔE2000 between palette colours must be a number from 0 up, not {value!r}"
        raise OptionError(msg)
    if colors is not None and 2 <= colors <= len(MAX_SPACING) + 1 and value > MAX_SPACING[colors - 2]:
        most = MAX_SPACING[colors - 2]
        fewer = sum(1 for d in MAX_SPACING if d >= value) + 1
        msg = (
            f"{colors} colours cannot all be ΔE2000 {value:g} apart (at most about {most:g} in sRGB); "
            + (f"ask for {fewer} colours or fewer, or " if fewer >= 2 else "")
            + "lower the least ΔE2000 (min_delta_e, --min-delta-e)"
        )
        raise OptionError(msg)
    return float(value)


def pairwise_delta_e(rgb: np.ndarray) -> np.ndarray:
    """ΔE2000 between every two of ``(K, 3)`` 0-255 colours, ``(K, K)``, +inf on the diagonal."""
    d = colour.pairwise_ciede2000(colour.rgb8_to_lab(np.asarray(rgb)))
    np.fill_diagonal(d, np.inf)
    return d


def closest_pair(rgb: np.ndarray) -> tuple[int, int, float]:
    """The two closest colours of a palette (indices) and their ΔE2000."""
    d = pairwise_delta_e(rgb)
    i, j = np.unravel_index(int(d.argmin()), d.shape)
    return int(min(i, j)), int(max(i, j)), float(d[i, j])


def _distinct_palette(pts: np.ndarray, centres: np.ndarray, limit: float, fixed: bool) -> np.ndarray:
    """Constrained k-means: 0-255 colours at least ``limit`` (ΔE2000) apart.

    Two ways to meet the constraint are tried from ``centres`` (unconstrained
    k-means):

    * *projection*: Lloyd iterations each followed by pushing apart any two
      centres closer than ``limit`` (:func:`_projected_lloyd`), which keeps
      the number of colours when the picture has room for them;
    * *merging*: the closest pair merges into its point-weighted mean (a
      fixed background absorbs the other) and Lloyd iterations re-fit the
      rest, one colour fewer each time, and projection is tried again at
      each size, until the centres are far enough apart (or 2 are left:
      :func:`_spread_two`).

    Merging stops once the unconstrained error of the merged centres is no
    lower than the best palette's: fewer colours cannot do better.  Of the
    palettes found, the one with the most colours wins among those within
    :data:`SAME_ERROR` of the lowest mean ΔE2000 to the picture (the one
    with the lower error among as many colours): a crowded picture is often
    served as well by fewer, freely fitted colours as by more, pushed ones,
    and then the colours asked for win, unless they cost visibly more.
    """
    n_fixed = 1 if fixed else 0
    sq = (pts * pts).sum(axis=1)
    rgb = colour.lab_to_rgb8(centres)
    if closest_pair(rgb)[2] >= limit:
        return rgb  # the free palette already meets the limit: nothing to search, nothing to measure

    # the error of a palette: mean ΔE2000 from each cell to its nearest colour,
    # measured once per distinct cell colour (flat pictures have few) and weighted
    distinct, weight = _distinct_rows(pts)
    weight = weight / len(pts)

    def error(rgb: np.ndarray) -> float:
        return float(colour.nearest_delta_e(distinct, colour.rgb8_to_lab(rgb)) @ weight)

    candidates: list[tuple[np.ndarray, float]] = []
    while True:
        if candidates:
            # Every palette still to come has fewer colours than the candidates,
            # and an error no lower than this free error (the constraint only
            # adds error, and k-means error grows as colours go).  It could only
            # win by pushing the current winner out of SAME_ERROR of the lowest
            # error: when it cannot, the search is over.
            free_error = error(rgb)
            if free_error >= candidates[_winner(candidates)][1] - SAME_ERROR:
                break
            if closest_pair(rgb)[2] >= limit:
                candidates.append((rgb, free_error))
                break
        elif closest_pair(rgb)[2] >= limit:
            return rgb  # the only palette found: no error to compare
        projected = _projected_lloyd(pts, sq, centres, limit, n_fixed)
        if projected is not None:
            rgb_p = colour.lab_to_rgb8(projected)
            candidates.append((rgb_p, error(rgb_p)))
        if len(centres) <= 2:
            spread = _spread_two(rgb, limit, fixed)
            if not candidates:
                return spread
            candidates.append((spread, error(spread)))
            break
        i, j, _ = closest_pair(rgb)
        counts = np.bincount(_sq_dist(pts, sq, centres).argmin(axis=1), minlength=len(centres)).astype(float)
        if i < n_fixed:
            merged = centres[i]
        elif counts[i] + counts[j] > 0:
            merged = (centres[i] * counts[i] + centres[j] * counts[j]) / (counts[i] + counts[j])
        else:
            merged = (centres[i] + centres[j]) / 2
        centres = np.delete(centres, j, axis=0)
        centres[i] = merged
        centres = lloyd(pts, centres, n_fixed=n_fixed, max_iter=20, tol=0.1)  # finer than 0-255 steps
        rgb = colour.lab_to_rgb8(centres)
    return candidates[_winner(candidates)][0]


def _distinct_rows(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``(N, 3)`` points in lexicographic order, and how
    often each occurs: ``np.unique(pts, axis=0, return_counts=True)`` by one
    ``lexsort``, several times faster than its sort of structured rows."""
    ordered = pts[np.lexsort(pts.T[::-1])]
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(first)
    return ordered[starts], np.diff(np.append(starts, len(ordered)))


def _winner(candidates: list[tuple[np.ndarray, float]]) -> int:
    """Index of the palette :func:`_distinct_palette` picks: the most colours among
    those within :data:`SAME_ERROR` of the lowest error, then the lower error."""
    lowest = min(e for _, e in candidates)
    return max((len(rgb), -e, n) for n, (rgb, e) in enumerate(candidates) if e <= lowest + SAME_ERROR)[2]


def _projected_lloyd(
    pts: np.ndarray, sq: np.ndarray, centres: np.ndarray, limit: float, n_fixed: int, max_iter: int = 5
) -> np.ndarray | None:
    """Lloyd steps, each projected back onto the constraint; None when a
    projection fails or a centre is left without points (a colour the
    picture does not have)."""
    k = len(centres)
    for _ in range(max_iter):
        pushed = _push_apart(centres, limit, n_fixed)
        if pushed is None:
            return None
        label = _sq_dist(pts, sq, pushed).argmin(axis=1)
        counts = np.bincount(label, minlength=k).astype(np.float64)
        if (counts[n_fixed:] == 0).any():
            return None
        sums = _sums(pts, label, k)
        new = sums / np.maximum(counts, 1.0)[:, None]  # a fixed background may have no cells
        new[:n_fixed] = pushed[:n_fixed]
        if np.abs(new - centres).max() < 0.5:  # finer than 0-255 sRGB steps would only oscillate
            return pushed  # the push of these very centres: the push is deterministic
        centres = new
    return _push_apart(centres, limit, n_fixed)


def _push_apart(centres: np.ndarray, limit: float, n_fixed: int, max_steps: int = 40) -> np.ndarray | None:
    """Move every two centres closer than ``limit`` apart (:func:`_parting_step`),
    all such pairs at once, until none is left as 0-255 sRGB colours;
    None when that fails (the gamut's edge, or pairs pushing each other
    round in circles).

    The steps move in CIELAB; only every fourth (and the last) rounds the
    centres to 0-255 sRGB, which clips them into the gamut, since the
    conversions cost more than the steps.  The steps are deterministic, so
    rounded colours seen before mean a cycle: the push gives up there
    rather than after ``max_steps``.
    """
    lab = np.array(centres, dtype=np.float64)
    k = len(lab)
    rounded = False
    seen: set[bytes] = set()
    for step_no in range(max_steps):
        # plain Python floats: a handful of colours, where numpy's cost per call dominates
        rows = lab.tolist()
        d = colour.pairwise_lists(rows)
        close = [(i, j) for i in range(k) for j in range(i + 1, k) if d[i][j] < limit]
        if not close:
            if rounded:
                return lab
            lab, rounded = colour.rgb8_to_lab(colour.lab_to_rgb8(lab)), True
            continue
        move = [[0.0, 0.0, 0.0] for _ in range(k)]
        for i, j in close:
            step = _parting_step(rows[i], rows[j], d[i][j], limit + 0.5)
            for axis in range(3):
                if i < n_fixed:
                    move[j][axis] += step[axis]
                else:
                    move[i][axis] -= step[axis] / 2
                    move[j][axis] += step[axis] / 2
        before = lab
        lab = lab + np.array(move)
        rounded = step_no % 4 == 3
        if rounded:
            rgb = colour.lab_to_rgb8(lab)
            if rgb.tobytes() in seen:
                return None  # pushing round in circles: the same colours again
            seen.add(rgb.tobytes())
            lab = colour.rgb8_to_lab(rgb)
            if np.abs(lab - before).max() < 1e-6:
                return None  # clipped at the gamut's edge: no room on these lines
    return None


def _parting_step(lab1: list[float], lab2: list[float], de: float, target: float) -> list[float]:
    """How far to move two CIELAB colours ``de`` (ΔE2000) apart so that they
    are about ``target`` apart: ``lab2 - lab1`` grows by the step returned.

    The step goes where ΔE2000 grows fastest for the distance moved (its
    gradient) as CIEDE2000's weighted Euclidean form has it: it divides a
    difference in lightness by ``S_L`` (1 to 1.6) and one in chroma by
    ``S_C = 1 + 0.045 C`` (2 to 3 for the colours of photos), so a move in
    lightness parts two colours two to three times as much as one as long
    in chroma.  Hue (divided by ``S_H``, a little less) counts as chroma
    here: a step with hue apart gave no better palettes (384 palettes: mean
    ΔE2000 6.89 against 6.87).  Along the line through the two colours (the push until
    2026-11) the move splits as their difference does, and its chroma part
    takes the colours far from the cells they stand for: two browns of the
    cat became a saturated orange and a grey of one lightness, the shapes
    between them lost.  The length makes that weighted distance grow, to
    first order, to ``target / de`` times its own; the push measures again
    and steps again as needed.
    """
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    gl, ga, gb = L2 - L1, a2 - a1, b2 - b1
    if gl == 0.0 and ga == 0.0 and gb == 0.0:
        return [target, 0.0, 0.0]  # one colour twice: part them in lightness
    tmp = (0.5 * (L1 + L2) - 50) ** 2
    wl = (1 + 0.015 * tmp / math.sqrt(20 + tmp)) ** -2
    wc = (1 + 0.0225 * (math.hypot(a1, b1) + math.hypot(a2, b2))) ** -2
    # moving the gap by s * (wl gl, wc ga, wc gb), its weighted length m grows at slope / m
    square = wl * gl * gl + wc * (ga * ga + gb * gb)
    slope = wl * wl * gl * gl + wc * wc * (ga * ga + gb * gb)
    factor = (target / max(de, 1e-3) - 1.0) * square / slope
    return [wl * gl * factor, wc * ga * factor, wc * gb * factor]


def _spread_two(rgb: np.ndarray, limit: float, fixed: bool) -> np.ndarray:
    """Two colours closer than ``limit``: move the lighter towards white and the
    darker towards black (only the second when the first is a fixed
    background), the least that makes them ``limit`` apart.

    Raises
    ------
    OptionError
        With a fixed background no colour is that far from it.
    """
    lab = colour.rgb8_to_lab(rgb)
    targets = np.where((lab[:, 0] >= lab[::-1, 0])[:, None], [100.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    if lab[0, 0] == lab[1, 0]:  # same lightness: the first goes light, so the two part
        targets = np.array([[100.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    if fixed:  # the background stays; the other colour goes to the far end from it
        targets[1] = [0.0, 0.0, 0.0] if lab[0, 0] >= 50 else [100.0, 0.0, 0.0]
    step = targets - lab
    if fixed:
        step[0] = 0.0
    for t in np.linspace(0.0, 1.0, 101)[1:]:
        moved = colour.lab_to_rgb8(lab + t * step)
        if closest_pair(moved)[2] >= limit:
            return moved
    bg = Palette.from_array(rgb).hex()[0]
    msg = f"no colour is ΔE2000 {limit:g} from the background {bg}; lower the least ΔE2000 (--min-delta-e)"
    raise OptionError(msg)


def quantise(
    cells_linear: np.ndarray,
    *,
    colors: int = 2,
    palette: Any = None,
    background: Any = None,
    threshold: float | None = None,
    dither: str = "none",
    min_delta_e: float = MIN_DELTA_E,
) -> Quantised:
    """Turn cell colours into palette indices.

    Parameters
    ----------
    cells_linear : (H, W, 3) float array
        Linear-light RGB of every cell (from :func:`rofl.picture.cell_colors`).
    colors : int
        2: black and white (or the two colours of ``palette``) by a
        lightness threshold.  3-64: a palette of that many colours found by
        k-means in CIELAB (fewer when the picture has fewer distinct colours).
    palette : str or sequence of colours, optional
        Use these colours instead of finding them (``colors`` is then the
        palette's size).
    background : colour, optional
        The background (palette index 0).  Default: the colour that covers
        the most cells; with two colours (black and white, or a given
        palette of two) the lighter one.  With an automatic palette the colour is kept
        exactly as given; with a given palette it must be one of its colours.
    threshold : float, optional
        Black-and-white threshold as an sRGB grey level 0-255 (cells darker
        than it take the dark colour).  Default: Otsu's threshold of the
        cells' lightness.
    dither : {"none", "ordered", "floyd-steinberg"}
    min_delta_e : float
        The least ΔE2000 between any two colours of an automatic palette,
        the background included (0: no constraint).  k-means finds
        ``colors`` centres; while two are closer than this, the closest pair
        merges and Lloyd iterations re-fit the rest, so a picture without
        that many distinct colours gets fewer (``Quantised.asked`` keeps the
        number asked for).  A ``palette`` the caller gives is used as given,
        with a ``UserWarning`` when two of its colours are closer.

    Returns
    -------
    Quantised

    Raises
    ------
    OptionError
        An unknown dither, a bad palette or background, a number of colours
        outside 2-64, a threshold outside 0-255 or for more than 2 colours,
        or a ``min_delta_e`` that is negative, NaN or more than ``colors``
        colours can keep (:func:`check_min_delta_e`).
    """
    given, bg, colors, limit = _checked(palette, colors, background, threshold, dither, min_delta_e)
    from skimage.color import rgb2lab

    lab = rgb2lab(colour.linear_to_srgb(cells_linear))
    if colors == 2:
        return _black_and_white(lab, given, bg, threshold, dither)
    rgb = np.array(given, dtype=np.uint8) if given is not None else _automatic_palette(lab, colors, bg, limit)
    pal_lab = colour.rgb8_to_lab(rgb)
    cost = colour.delta_e(lab, pal_lab)
    if dither == "none":
        grid = cost.argmin(axis=2).astype(np.uint8)
    else:
        grid = dither_palette(cells_linear, lab, rgb, pal_lab, dither)
    if given is None:
        grid, rgb, cost = _drop_unused(grid, rgb, cost, bg)
    grid, rgb, cost = _order_background(grid, rgb, cost, bg)
    return Quantised(grid, Palette.from_array(rgb), cost, lab, None, colors)


def _checked(palette, colors, background, threshold, dither, min_delta_e):
    """:func:`quantise`'s options checked: the given palette (or None), the
    background (or None), the number of colours and the ΔE2000 limit; an
    :class:`OptionError` for a bad one, a ``UserWarning`` for a given
    palette with colours closer than the limit."""
    check_dither(dither)
    given = colour.parse_palette(palette) if palette is not None else None
    if given is not None:
        colors = len(given)
    if not is_whole(colors) or not 2 <= colors <= 64:
        msg = f"colors must be a whole number from 2 to 64, not {colors!r}"
        raise OptionError(msg)
    bg = colour.parse_color(background, "background") if background not in (None, "auto") else None
    if given is not None and bg is not None and bg not in given:
        msg = f"background #{bg[0]:02x}{bg[1]:02x}{bg[2]:02x} is not one of the palette's colours"
        raise OptionError(msg)
    if threshold is not None:
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, int | float | np.number)
            or not (0 <= threshold <= 255)
        ):
            msg = f"threshold must be a grey level from 0 to 255, not {threshold!r}"
            raise OptionError(msg)
        if colors != 2:
            msg = "a threshold only applies to black-and-white (2-colour) puzzles"
            raise OptionError(msg)
    limit = check_min_delta_e(min_delta_e, None if given is not None else colors)
    if given is not None and limit > 0:
        i, j, d = closest_pair(np.array(given))
        if d < limit:
            a, b = (Palette(given).hex()[x] for x in (i, j))
            warnings.warn(
                f"palette colours {a} and {b} differ by ΔE2000 {d:.1f}, less than {limit:g}: "
                "they may be hard to tell apart",
                UserWarning,
                stacklevel=4,
            )
    return given, bg, colors, limit


def _black_and_white(lab: np.ndarray, given, bg, threshold: float | None, dither: str) -> Quantised:
    """:func:`quantise` of two colours: the cells' lightness cut at
    ``threshold`` (Otsu's by default), or dithered about it."""
    h, w = lab.shape[:2]
    if given is None:
        two = [(255, 255, 255), (0, 0, 0)]
        if bg is not None and bg not in two:
            msg = "for a black-and-white puzzle the background must be white or black"
            raise OptionError(msg)
    else:
        two = given
    pal_lab = colour.rgb8_to_lab(np.array(two))
    light = int(np.argmax(pal_lab[:, 0]))
    dark = 1 - light
    big_l = lab[:, :, 0]
    if threshold is not None:
        t = colour.lightness_of_grey(float(threshold))
    elif np.ptp(big_l) < 1e-6:
        t = 50.0  # one colour only: a dark picture stays dark, a light one light
    else:
        from skimage.filters import threshold_otsu

        t = float(threshold_otsu(big_l))
        # Otsu puts the threshold inside the lower class (<= t); cells at t are dark
        t = float(np.nextafter(t, np.inf))
    is_light = big_l >= t
    if dither != "none":
        lo = big_l[~is_light].mean() if (~is_light).any() else 0.0
        hi = big_l[is_light].mean() if is_light.any() else 100.0
        spread = max(hi - lo, 1.0)
        v = (big_l - t) / spread + 0.5
        is_light = dither_two(v, dither)
    grid = np.where(is_light, light, dark).astype(np.uint8)
    off = np.abs(big_l - t)
    cost = np.zeros((h, w, 2))
    cost[:, :, dark] = np.where(big_l >= t, off, 0.0)
    cost[:, :, light] = np.where(big_l < t, off, 0.0)
    rgb = np.array(two, dtype=np.uint8)
    # the clues are those of the dark colour, as in any black-and-white
    # nonogram, even where it covers most cells: shading them draws the picture
    grid, rgb, cost = _order_background(grid, rgb, cost, two[light] if bg is None else bg)
    return Quantised(grid, Palette.from_array(rgb), cost, lab, colour.grey_of_lightness(t), 2)


def _automatic_palette(lab: np.ndarray, colors: int, bg, limit: float) -> np.ndarray:
    """Up to ``colors`` colours (uint8 sRGB rows) found by k-means in
    CIELAB, the background ``bg`` first when given, spaced at least
    ``limit`` ΔE2000 apart, and at least two."""
    flat = lab.reshape(-1, 3)
    distinct, _ = _distinct_rows(np.round(flat, 3))
    k = int(min(colors, len(distinct) + (1 if bg is not None else 0)))
    fixed = colour.rgb8_to_lab(np.array(bg)) if bg is not None else None
    centres = kmeans_lab(flat, max(k, 1), fixed=fixed)
    if limit > 0 and len(centres) >= 2:
        rgb = _distinct_palette(flat, centres, limit, fixed is not None)
    else:
        rgb = colour.lab_to_rgb8(centres)
    if bg is not None:
        rgb[0] = bg
    _, first = np.unique(rgb, axis=0, return_index=True)
    rgb = rgb[np.sort(first)]
    if len(rgb) < 2:  # a one-colour picture: add its opposite so the palette has ink
        other = (0, 0, 0) if colour.rgb8_to_lab(rgb[0])[0] >= 50 else (255, 255, 255)
        if tuple(int(v) for v in rgb[0]) == other:
            other = (255, 255, 255) if other == (0, 0, 0) else (0, 0, 0)
        rgb = np.vstack([rgb, np.array(other, dtype=np.uint8)])
    if limit > 0 and len(rgb) == 2 and closest_pair(rgb)[2] < limit:
        rgb = _spread_two(rgb, limit, fixed=bg is not None)
    return rgb


def _drop_unused(grid: np.ndarray, rgb: np.ndarray, cost: np.ndarray, bg):
    """Leave out automatic colours no cell took (a puzzle's palette lists only
    colours it shows), keeping a given background and at least 2 colours."""
    used = np.bincount(grid.ravel(), minlength=len(rgb)) > 0
    if bg is not None:
        used |= (rgb == np.array(bg, dtype=np.uint8)).all(axis=1)
    if used.all() or used.sum() < 2:
        return grid, rgb, cost
    keep = np.flatnonzero(used)
    index = np.zeros(len(rgb), dtype=np.int64)
    index[keep] = np.arange(len(keep))
    return index[grid].astype(np.uint8), rgb[keep], cost[:, :, keep]


def _order_background(grid: np.ndarray, rgb: np.ndarray, cost: np.ndarray, bg):
    """Move the background to index 0: the given colour, else the one covering the most cells."""
    if bg is not None:
        matches = np.flatnonzero((rgb == np.array(bg, dtype=np.uint8)).all(axis=1))
        b = int(matches[0])
    else:
        counts = np.bincount(grid.ravel(), minlength=len(rgb))
        b = int(np.argmax(counts))  # ties: the lower index, so the result is deterministic
    if b == 0:
        return grid, rgb, cost
    order = np.array([b] + [i for i in range(len(rgb)) if i != b])
    inverse = np.argsort(order)
    return inverse[grid].astype(np.uint8), rgb[order], cost[:, :, order]
