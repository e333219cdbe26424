"""Styles (rofl.picture.style) and the crop to the subject (rofl.picture.subject)
on synthetic pictures with known answers, for both shapes, end to end."""

from __future__ import annotations

import numpy as np
import pytest

import rofl
from rofl.errors import OptionError
from rofl.hexagon import Hexagon
from rofl.picture import crop_to_subject, fit, quantise, style_cells
from rofl.picture.style import follow_edges
from rofl.picture.subject import subject_box
from rofl.solver import solve
from tests import naive
from tests.clirun import run, usage_error_line


def line_picture(size: int = 400, row: int = 201) -> np.ndarray:
    """A light grey field crossed by one black pixel row."""
    px = np.full((size, size, 3), 215, dtype=np.uint8)
    px[row] = 0
    return px


def disc_picture(size: int = 400) -> np.ndarray:
    """A red disc on white."""
    y, x = np.mgrid[:size, :size]
    px = np.full((size, size, 3), 255, dtype=np.uint8)
    px[(x - size / 2) ** 2 + (y - size / 2) ** 2 < (size * 0.3) ** 2] = (200, 40, 40)
    return px


def check_unique(result) -> None:
    """The made puzzle is line-solved, from its clues alone, to its grid."""
    solved = solve(result.puzzle)
    assert solved.status == "solved"
    got = solved.grid.ravel() if result.side is not None else solved.grid
    assert (got == result.grid).all()


def test_a_one_pixel_line_survives_lines_one_cell_wide():
    px = line_picture()
    geometry = fit((400, 400), 40)
    drawn = style_cells(px, geometry, "lines")
    grid = quantise(drawn.cells, threshold=drawn.threshold).grid
    ink = grid != grid[0, 0]
    rows = np.flatnonzero(ink.any(axis=1))
    assert rows.tolist() == [20]  # pixel row 201 of 400 lies in cell row 20, and only there
    assert ink[20].all()


@pytest.mark.slow
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("per_cell", [5, 10, 20])
def test_a_one_pixel_line_survives_lines_wherever_it_crosses_its_cell(per_cell, axis):
    """A row (axis 0) or a column (axis 1) of black pixels across a light
    field, at every pixel offset within one cell: one line of ink cells, the
    cells it crosses, in the made puzzle.  (It was lost at 5 pixels a cell,
    at offsets 3-5 and 8 of 10, where its own darkness made the cell's tone
    no clear paper, and at 20 the polish cut a gap of 7 cells out of it.)"""
    size = 40 * per_cell
    lost = []
    for offset in range(per_cell):
        line = size // 2 + offset
        px = np.full((size, size, 3), 215, dtype=np.uint8)
        px[(line, slice(None)) if axis == 0 else (slice(None), line)] = 0
        result = rofl.make(px, width=40, style="lines", trim=False)
        check_unique(result)
        ink = np.moveaxis(result.grid != 0, axis, 0)  # the line's cells: a row of ink
        if np.flatnonzero(ink.any(axis=1)).tolist() != [line // per_cell] or not ink[line // per_cell].all():
            lost.append(offset)
    assert lost == [], f"lost at pixel offsets {lost} of {per_cell}"


#: A known defect (refinement, rofl.refine): ``lines`` draws a one-pixel
#: diagonal as the staircase of cells it crosses, and follow_edges keeps it
#: (test below), but a lone slanted line one cell wide is a clue of 1 in each
#: of its rows and columns that line logic cannot place, and the changes
#: refinement makes it unique with break it (of its 40 cells 9 stay, and 3
#: cells far from it are inked).
DIAGONAL_LOST = pytest.mark.xfail(reason="refinement breaks a lone one-cell diagonal to make it unique")


@pytest.mark.parametrize("per_cell", [10, 20])
@pytest.mark.parametrize("direction", [1, -1])
def test_lines_draws_a_one_pixel_diagonal_and_follow_edges_keeps_it(per_cell, direction):
    """Before refinement: the cells the diagonal crosses, touching at their
    corners, are drawn, and follow_edges clears none of them as a speck (it
    cleared them all at 20 pixels a cell; at 10 none was drawn); without
    ``keep`` it still does."""
    from rofl.maker import _lab_of

    size = 40 * per_cell
    y, x = np.mgrid[:size, :size]
    px = np.full((size, size, 3), 215, dtype=np.uint8)
    px[y == (x if direction == 1 else size - 1 - x)] = 0
    drawn = style_cells(px, fit((size, size), 40), "lines")
    diagonal = np.eye(40, dtype=bool)[:, ::direction]
    assert (drawn.thin == diagonal).all() and (drawn.ink == diagonal).all()
    q = quantise(drawn.cells, threshold=drawn.threshold)
    palette = _lab_of(rofl.picture.srgb_to_linear(q.palette.to_array() / 255.0))
    grid = follow_edges(q.grid, _lab_of(drawn.photo), palette, keep=drawn.thin)
    assert ((grid != grid[0, -1 if direction == 1 else 0]) == diagonal).all()
    assert (follow_edges(q.grid, _lab_of(drawn.photo), palette) == grid[0, -1 if direction == 1 else 0]).all()


@pytest.mark.parametrize("direction", [pytest.param(1, marks=DIAGONAL_LOST), pytest.param(-1, marks=DIAGONAL_LOST)])
def test_a_one_pixel_diagonal_survives_lines(direction):
    size = 800  # 20 pixels a cell: every offset of a straight line survives (above)
    y, x = np.mgrid[:size, :size]
    px = np.full((size, size, 3), 215, dtype=np.uint8)
    px[y == (x if direction == 1 else size - 1 - x)] = 0
    result = rofl.make(px, width=40, style="lines", trim=False)
    check_unique(result)
    ink = result.grid != 0
    diagonal = np.eye(40, dtype=bool)[:, ::direction]
    # every cell the line crosses holds ink, within a cell of it, and nothing far from it
    assert (ink | ~diagonal).all()
    near = np.abs(np.subtract.outer(np.arange(40), np.arange(40)[::direction])) <= 1
    assert not (ink & ~near).any()


@pytest.mark.parametrize("shape", ["rect", "hex"])
@pytest.mark.parametrize(
    ("style", "colors"),
    [
        ("lines", 2),
        ("lines", 4),
        ("poster", 2),
        ("poster", 4),
        ("photo", 4),
        ("auto", 4),
        ("auto", 2),
    ],
)
def test_a_flat_field_has_no_speckle(shape, style, colors):
    """(The photo style in black and white splits a flat field's noise at
    Otsu's threshold, as rofl always has; ``auto`` keeps a blank drawing
    over that noise, rofl.maker.NOISE_DELTA_E.)"""
    rng = np.random.default_rng(3)
    px = np.clip(rng.normal(150, 6, (300, 300, 3)), 0, 255).astype(np.uint8)  # flat, with sensor noise
    size = {"width": 30} if shape == "rect" else {"size": 10}
    result = rofl.make(px, shape=shape, style=style, colors=colors, trim=False, **size)
    assert len(np.unique(result.grid)) == 1
    assert result.stats.style == style or style == "auto"
    if (style, colors) == ("auto", 2):  # photo's split of the noise, dropped and said why
        assert dict(result.stats.style_dropped)["photo"].startswith("it splits a flat picture's noise (ΔE 0.")


def test_auto_keeps_a_faint_disc_that_the_drawings_leave_blank():
    """A disc 4 L* darker than its field: below Canny's step and the styles'
    flat range, so ``lines`` and ``poster`` draw nothing, and ``photo``'s
    threshold draws the disc.  ``auto`` keeps it (and must go on doing so
    when it learns to keep the flat field above blank)."""
    y, x = np.mgrid[:300, :300]
    px = np.where(((x - 150) ** 2 + (y - 150) ** 2 < 80**2)[..., None], 140, 150).astype(np.uint8).repeat(3, axis=2)
    result = rofl.make(px, width=30, trim=False)
    check_unique(result)
    assert result.stats.style == "photo"
    assert set(dict(result.stats.style_dropped)) == {"lines", "poster"}
    disc = (np.hypot(*(np.mgrid[:30, :30] + 0.5 - 15)) < 8).astype(result.grid.dtype)
    assert (result.grid != disc).sum() <= 12  # the disc's 201 cells, give or take its rim


@pytest.mark.parametrize("colors", [2, 3])
def test_a_disc_keeps_its_outline_in_poster(colors):
    result = rofl.make(disc_picture(), width=40, colors=colors, style="poster", trim=False)
    check_unique(result)
    grid = result.grid
    y, x = np.mgrid[:40, :40] + 0.5
    r = np.hypot(x - 20, y - 20)
    # the disc's rim (its cells with a background neighbour) lies on the
    # circle of radius 12 cells, all round it, with a flat inside and a
    # clean background
    disc = np.pad(grid != 0, 1)
    rim = (grid != 0) & ~(disc[:-2, 1:-1] & disc[2:, 1:-1] & disc[1:-1, :-2] & disc[1:-1, 2:])
    assert (np.abs(r[rim] - 12) < 1.5).all()
    angles = np.arctan2(y[rim] - 20, x[rim] - 20)
    assert np.histogram(angles, bins=16, range=(-np.pi, np.pi))[0].min() >= 2
    assert len(np.unique(grid[r < 10])) == 1
    assert (grid[r > 13.5] == 0).all()


@pytest.mark.parametrize("colors", [2, 3])
def test_a_disc_keeps_its_outline_in_poster_on_a_hexagon(colors):
    from rofl.picture import hex_fit
    from rofl.picture.hexfit import cell_centres
    from rofl.picture.measures import cell_neighbours

    side = 12
    result = rofl.make(disc_picture(), shape="hex", size=side, colors=colors, style="poster")
    check_unique(result)
    grid = result.grid
    x, y = cell_centres(side)  # circumradii from the board's centre, the picture's
    x0, _, x1, _ = hex_fit((400, 400), side).box
    radius = 120 / ((x1 - x0) / Hexagon.of(side).extent()[0])  # the disc's 120 pixels in circumradii
    r = np.hypot(x, y)
    nb = cell_neighbours((0,), side=side)
    disc = grid != 0
    rim = disc & np.where(nb >= 0, ~disc[np.maximum(nb, 0)], False).any(axis=1)
    # the rim lies on the circle all round it, within the distance between
    # neighbouring cells' centres (√3 circumradii), a flat inside, a clean background
    assert (np.abs(r[rim] - radius) < np.sqrt(3)).all()
    assert np.histogram(np.arctan2(y[rim], x[rim]), bins=12, range=(-np.pi, np.pi))[0].min() >= 1
    assert len(np.unique(grid[r < radius - 2])) == 1
    assert (grid[r > radius + 1.5] == 0).all()


def grey_lab(lightness) -> np.ndarray:
    """CIELAB of greys of the given lightness (L*)."""
    lightness = np.asarray(lightness, dtype=np.float64)
    return np.stack([lightness, np.zeros_like(lightness), np.zeros_like(lightness)], axis=-1)


def test_follow_edges_clears_a_speck_away_from_edges():
    source = np.full((12, 12), 50.0)
    grid = np.zeros((12, 12), dtype=np.uint8)
    grid[5, 5] = grid[5, 6] = 1  # a speck of two cells on a flat picture
    out = follow_edges(grid, grey_lab(source), grey_lab([50.0, 20.0]))
    assert (out == 0).all() and out.dtype == grid.dtype


def test_follow_edges_draws_a_missed_edge_one_palette_step_darker():
    # 6 rows: under the 7 cells SSIM's window needs, so no polish (tested below)
    source = np.full((6, 12), 60.0)
    source[:, :6] = 40.0  # a step of 20 L* between columns 5 and 6
    grid = np.zeros((6, 12), dtype=np.int64)  # both sides quantised to one colour
    levels = grey_lab([50.0, 20.0, 80.0])  # colour 1 is the only one darker than 0
    out = follow_edges(grid, grey_lab(source), levels)
    # the dark side of the edge, one cell wide, takes colour 1; the rest stays
    assert (out[:, 5] == 1).all()
    assert (np.delete(out, 5, axis=1) == 0).all()
    # the darkest colour already: the light side (L* 60) takes the nearest lighter (50, not 80)
    out = follow_edges(np.ones((6, 12), dtype=np.int64), grey_lab(source), levels)
    assert (out[:, 6] == 0).all() and (np.delete(out, 6, axis=1) == 1).all()


def test_polish_gives_back_ssim_and_keeps_the_boundaries_on_edges():
    from rofl.picture.measures import lightness_ssim, picture_edges
    from rofl.picture.style import _diagonal_near, _polish

    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[:24, :30]
    source = 30.0 + 40.0 * (xx > 14) + 10.0 * np.sin(yy / 3.0) + rng.normal(0, 2, (24, 30))  # an edge, shading
    levels = np.array([30.0, 45.0, 70.0, 85.0])
    before = np.where(xx > 14, 2, 0)  # flat regions: the boundary exactly on the edge

    def polish(grid, quantised, source, levels):
        from rofl.picture.measures import cell_neighbours

        nb = cell_neighbours(grid.shape)
        return _polish(grid.ravel(), quantised.ravel(), source.ravel(), levels, nb, grid.shape, None).reshape(
            grid.shape
        )

    def far_boundaries(grid):
        final = np.pad(levels[grid], 1, constant_values=-1.0)
        lighter = np.max([final[:-2, 1:-1], final[2:, 1:-1], final[1:-1, :-2], final[1:-1, 2:]], axis=0)
        return int(((lighter > levels[grid]) & ~_diagonal_near(picture_edges(source))).sum())

    # nothing to take back (the grid is its own quantised): a stray block away
    # from the edges goes, as it raises SSIM and adds no boundary
    stray = before.copy()
    stray[8:10, 4:7] = 1
    out = polish(stray, stray, source, levels)
    assert lightness_ssim(source, levels[out]) > lightness_ssim(source, levels[stray])
    assert (out[:, 14] == 0).all() and (out[:, 15] == 2).all()  # the step along the edge stays
    assert far_boundaries(out) < far_boundaries(stray)
    assert (polish(before, before, source, levels) == before).all()  # flat regions: no move adds no boundary
    # a block the steps painted away from its quantised colour goes back
    painted = before.copy()
    painted[3:6, 3:6] = 3
    out = polish(painted, before, source, levels)
    assert (out[3:6, 3:6] == 0).sum() >= 8  # all but at most one cell (a lone one may keep its SSIM)
    assert lightness_ssim(source, levels[out]) > lightness_ssim(source, levels[painted])
    # a grid under 7 cells on a side is left alone
    assert (polish(painted[:6], before[:6], source[:6], levels) == painted[:6]).all()


def test_follow_edges_steps_over_an_in_between_colour():
    source = np.full((6, 12), 90.0)  # under 7 rows: no polish
    source[:, :6] = 10.0
    source[:, 6] = 40.0  # a cell half on each side, nearer the dark
    grid = np.where(source < 30, 0, 2)
    grid[:, 6] = 1  # quantised to the middle colour: two boundaries for one edge
    out = follow_edges(grid, grey_lab(source), grey_lab([10.0, 50.0, 90.0]))
    assert (out[:, 6] == 0).all() and (out[:, :6] == 0).all() and (out[:, 7:] == 2).all()


def test_follow_edges_on_a_hexagon():
    from rofl.picture.hexfit import cell_centres

    side = 8
    x, y = cell_centres(side)
    source = np.where(x < 0, 40.0, 60.0)
    out = follow_edges(np.zeros(x.size, dtype=np.int64), grey_lab(source), grey_lab([50.0, 20.0]), side=side)
    # in every row the dark side's cell nearest the edge, and only it
    inked = out == 1
    nearest = {row: x[(y == row) & (x < 0)].max() for row in np.unique(y)}
    assert sorted(y[inked].tolist()) == sorted(nearest)
    assert all(x[i] == nearest[y[i]] for i in np.flatnonzero(inked))


@pytest.mark.parametrize("shape", ["rect", "hex"])
@pytest.mark.parametrize("style", ["photo", "lines", "poster", "auto"])
@pytest.mark.parametrize("colors", [2, 4])
def test_every_style_makes_unique_puzzles_deterministically(shape, style, colors):
    import skimage.data

    px = skimage.data.astronaut()
    size = {"width": 30} if shape == "rect" else {"size": 9}
    first = rofl.make(px, shape=shape, style=style, colors=colors, **size)
    again = rofl.make(px, shape=shape, style=style, colors=colors, **size)
    check_unique(first)
    assert (first.grid == again.grid).all() and first.palette == again.palette
    assert first.stats.style in ("photo", "lines", "poster")
    if style == "auto":
        assert {name for name, _ in first.stats.style_scores} >= {"photo"}
        kept = [s for s in first.stats.style_scores if s[0] not in dict(first.stats.style_dropped)]
        assert first.stats.style == max(kept, key=lambda s: s[1])[0]
    else:
        assert first.stats.style == style
    if len(first.palette) > 2:
        assert first.stats.palette_delta_e >= 20 - 1e-6


def test_lines_on_hexagons_draws_the_line():
    result = rofl.make(line_picture(), shape="hex", size=8, style="lines")
    check_unique(result)
    from rofl.picture.hexfit import cell_centres

    _, y = cell_centres(8)
    ink = result.grid != 0
    assert ink.any() and (np.abs(y[ink]) <= 1.5).all()  # along the middle rows only


def test_the_quick_start_coffee_gets_no_hint(tmp_path):
    from tests.places import REPO

    # the README's first command: four colours, recognisable, no hint
    result = run("make", REPO / "samples" / "coffee.jpg", "-c", "4", "-o", tmp_path / "coffee.rofl")
    assert result.exit_code == 0, result.output
    assert "hint:" not in result.output
    assert "(auto: likeness " in result.output


def test_auto_draws_the_black_and_white_coffee_with_outlines():
    from tests.places import REPO

    # the README's picture, black and white, 45 cells wide (at 40 lines keeps SSIM 0.30 and is kept)
    result = rofl.make(REPO / "samples" / "coffee.jpg", width=45)
    scores = dict(result.stats.style_scores)
    assert set(scores) == {"photo", "lines", "poster"}
    # lines follows more edges (the wood's grain too) but loses the cup's
    # large regions (SSIM under the recognisable level, where photo's is
    # not): auto keeps the best of the others, which beats photo
    assert scores["lines"] > scores["poster"] > scores["photo"]
    assert result.stats.style == "poster"
    # the style line says why the higher-scoring lines was not kept
    assert set(dict(result.stats.style_dropped)) == {"lines"}
    assert "lines" in result.stats.report() and "(dropped: SSIM 0." in result.stats.report()
    # a threshold or a dither is the photo style's own option
    assert rofl.make(REPO / "samples" / "coffee.jpg", threshold=128).stats.style == "photo"


def step_picture(size: int = 400) -> np.ndarray:
    """A white left half beside a light grey right half (L* 100 and about 70)."""
    px = np.full((size, size, 3), 255, dtype=np.uint8)
    px[:, size // 2 :] = 170
    return px


@pytest.mark.parametrize("shape", ["rect", "hex"])
def test_lines_draws_a_step_as_one_ink_cell_on_its_dark_side(shape):
    """The grey half is lighter than the cut that fills (Otsu's lowered),
    so only its edge is drawn: one ink cell beside the white, the rest paper."""
    from rofl.picture import hex_fit

    px = step_picture()
    if shape == "rect":
        drawn = style_cells(px, fit((400, 400), 40), "lines")
        assert np.flatnonzero(drawn.ink.any(axis=0)).tolist() == [20]  # the first grey column
        assert drawn.ink[:, 20].all()
    else:
        from rofl.picture.measures import cell_neighbours

        drawn = style_cells(px, hex_fit((400, 400), 10), "lines")
        nb = cell_neighbours((0,), side=10)
        grey = drawn.photo[:, 1] < 0.9  # cells mostly on the grey half
        assert drawn.ink.any() and (grey[drawn.ink]).all()
        # one line along the step, not the grey half: every ink cell has a
        # lighter neighbour, and there is one a row of the board (19 rows)
        lum = drawn.photo[:, 1]
        assert all((lum[nb[i][nb[i] >= 0]] > lum[i] + 0.1).any() for i in np.flatnonzero(drawn.ink))
        assert drawn.ink.sum() == 19


@pytest.mark.parametrize("style", ["lines", "poster"])
def test_trimming_a_drawing_keeps_a_blank_line_beside_its_outline(style):
    """A drawing's outline at the border of the trimmed grid keeps one blank
    line beside it, so it stays a boundary; the photo style trims to the ink."""
    pixels = np.full((120, 120, 3), 255, dtype=np.uint8)
    pixels[40:80, 40:80] = 0
    pixels[50:70, 50:70] = 255
    photo = rofl.make(pixels, width=24, style="photo")
    drawn = rofl.make(pixels, width=24, style=style)
    assert photo.stats.trimmed == (8, 8, 8, 8)
    assert drawn.stats.trimmed == (7, 7, 7, 7)
    grid = drawn.grid
    for border, inside in (
        (grid[0], grid[1]),
        (grid[-1], grid[-2]),
        (grid[:, 0], grid[:, 1]),
        (grid[:, -1], grid[:, -2]),
    ):
        assert not border.any() and inside.any()
    solved = solve(drawn.puzzle)
    assert solved.status == "solved" and (solved.grid == grid).all()


def test_cell_neighbours_and_picture_edges():
    from rofl.picture.measures import cell_neighbours, picture_edges

    nb = cell_neighbours((2, 3))
    assert nb.tolist()[4] == [1, -1, 3, 5]  # cell (1, 1): up, down (off), left, right
    assert (cell_neighbours((0,), side=3) >= 0).sum(axis=1).max() == 6
    light = np.full((10, 10), 90.0)
    light[:, 5:] = 30.0
    edges = picture_edges(light)
    assert edges[:, 4:6].any(axis=1).all() and not edges[:, :3].any() and not edges[:, 7:].any()


def test_bad_style_and_crop_are_refused():
    with pytest.raises(OptionError, match="style must be one of"):
        rofl.make(line_picture(), style="sketch")
    with pytest.raises(OptionError, match="crop must be one of"):
        rofl.make(line_picture(), crop="face")
    with pytest.raises(OptionError, match="photo style"):
        rofl.make(line_picture(), style="lines", threshold=100)


def test_crop_to_a_face():
    import skimage.data

    px = skimage.data.astronaut()  # 512 x 512, the face about x 170-260, y 70-180
    x0, y0, x1, y1 = subject_box(px)
    assert x0 < 170 and y0 < 80 and x1 > 260 and y1 > 180
    assert (x1 - x0) * (y1 - y0) < 0.6 * 512 * 512
    assert crop_to_subject(px, "none") is px


@pytest.mark.parametrize("shape", ["rect", "hex"])
def test_make_crops_to_the_subject_before_it_fits(shape):
    """``rofl.make(..., crop="auto")`` makes the puzzle of the picture cut to
    :func:`subject_box`, for either shape, and the puzzle stays unique."""
    import skimage.data

    px = skimage.data.astronaut()
    x0, y0, x1, y1 = subject_box(px)
    size = {"width": 24} if shape == "rect" else {"size": 8}
    cropped = rofl.make(px, shape=shape, crop="auto", **size)
    check_unique(cropped)
    by_hand = rofl.make(px[y0:y1, x0:x1], shape=shape, **size)
    assert (cropped.grid == by_hand.grid).all() and cropped.palette == by_hand.palette
    assert cropped.stats.style == by_hand.stats.style
    whole = rofl.make(px, shape=shape, **size)
    assert cropped.grid.shape != whole.grid.shape or (cropped.grid != whole.grid).any()


def test_crop_to_the_salient_part_without_a_face():
    px = np.full((300, 400, 3), 230, dtype=np.uint8)
    px[100:160, 250:330] = (30, 60, 160)
    x0, y0, x1, y1 = subject_box(px)
    assert x0 <= 250 and y0 <= 100 and x1 >= 330 and y1 >= 160
    assert (x1 - x0) * (y1 - y0) < 0.5 * 300 * 400
    flat = np.full((100, 100, 3), 128, dtype=np.uint8)
    assert subject_box(flat) == (0, 0, 100, 100)


def test_the_crop_looks_for_the_subject_in_what_shows(tmp_path):
    """Transparent pixels are composited onto the background before the
    subject is looked for, as the cells are: a face under alpha 0 is not
    found (its crop would be a blank box), a salient block under alpha 0
    is no subject, and a subject drawn on a transparent field is found."""
    import skimage.data

    px = skimage.data.astronaut()
    rgba = np.dstack([px, np.full(px.shape[:2], 255, np.uint8)])
    rgba[0:260, 120:330, 3] = 0  # her face and helmet, transparent
    x0, y0, x1, y1 = subject_box(rgba)
    hidden = (rgba[y0:y1, x0:x1, 3] == 0).mean()
    assert hidden < 0.5, (x0, y0, x1, y1)
    assert subject_box(px)[:2] < (170, 80)  # opaque, the face is found, as above
    result = rofl.make(rgba, width=30, crop="auto")
    check_unique(result)
    assert (result.grid == 0).mean() < 0.95  # not a blank box
    # on a field of the background's colour: a blue block hidden under alpha 0, a red one showing
    for background in ((255, 255, 255), (0, 0, 0)):
        field = np.full((300, 400, 4), (*background, 255), dtype=np.uint8)
        field[100:160, 40:120] = (60, 30, 160, 0)
        field[150:210, 260:340] = (200, 40, 40, 255)
        x0, y0, x1, y1 = subject_box(field, background=background)
        assert 120 < x0 <= 260 and y0 <= 150 and x1 >= 340 and y1 >= 210, (background, x0, y0, x1, y1)
    # a subject on a transparent field whose hidden colour is noise
    rng = np.random.default_rng(5)
    sticker = np.dstack([rng.integers(0, 256, (300, 400, 3), dtype=np.uint8), np.zeros((300, 400), np.uint8)])
    sticker[150:210, 260:340] = (30, 60, 160, 255)
    x0, y0, x1, y1 = subject_box(sticker)
    assert x0 <= 260 and y0 <= 150 and x1 >= 340 and y1 >= 210 and (x1 - x0) * (y1 - y0) < 0.5 * 300 * 400


def test_cli_style_and_crop(tmp_path):
    from PIL import Image

    src = tmp_path / "line.png"
    Image.fromarray(line_picture()).save(src)
    out = tmp_path / "line.rofl"
    result = run("make", src, "-o", out, "--style", "lines", "--crop", "auto", "-w", "30")
    assert result.exit_code == 0, result.output
    assert "style: lines" in result.output
    opened = rofl.open_puzzle(out)
    assert solve(opened.puzzle).status == "solved"
    auto = run("make", src, "-o", tmp_path / "auto.rofl", "-w", "40")
    # the measures hardly see a thin line at grid scale, so a blank grid would
    # score best; auto keeps a style that draws it
    assert "(auto: likeness " in auto.output and " 0 clues" not in auto.output
    usage_error_line(run("make", src, "-o", tmp_path / "x.rofl", "--style", "sketch"), "--style")
    usage_error_line(run("make", src, "-o", tmp_path / "x.rofl", "--crop", "face"), "--crop")
    usage_error_line(run("make", src, "-o", tmp_path / "x.rofl", "--style", "lines", "--threshold", "90"), "photo")


def test_batch_takes_the_style(tmp_path):
    from PIL import Image

    for n in range(2):
        Image.fromarray(line_picture(200, 100 + n)).save(tmp_path / f"p{n}.png")
    out = tmp_path / "out"
    result = run("make", tmp_path / "p0.png", tmp_path / "p1.png", "-o", f"{out}/", "--style", "lines", "-j", "1")
    assert result.exit_code == 0, result.output
    assert len(list(out.glob("*.rofl"))) == 2


def test_follow_edges_outlines_in_the_nearest_darker_colour():
    """A missed edge on a face is drawn in the dark colour nearest the
    cell's own, not in a blue that is only a shade darker than skin."""
    source = np.tile(np.array([62.0, 15.0, 20.0]), (10, 12, 1))  # skin
    source[:, :6] = (30.0, 10.0, 12.0)  # a dark brown frame: a step of 32 L*
    palette = np.array([[62.0, 15.0, 20.0], [50.0, 0.0, -45.0], [12.0, 3.0, -15.0]])  # skin, sky blue, navy
    out = follow_edges(np.zeros((10, 12), dtype=np.int64), source, palette)
    assert (out[:, 5] == 2).all() and (np.delete(out, 5, axis=1) == 0).all()


def test_polish_adds_few_specks(monkeypatch):
    """The polish puts a cell in a colour none of its neighbours has (a
    speck: a clue of 1 in its row and its column) only for a clear gain of
    SSIM, so the README's coffee in 3 colours keeps fewer clues of 1."""
    import rofl.picture.style as style
    from tests.places import REPO

    def made():
        res = rofl.make(REPO / "samples" / "coffee.jpg", width=45, colors=3, style="poster")
        g = res.quantised  # before refinement, after follow_edges
        pad = np.pad(g.astype(int), 1, constant_values=-1)
        company = (pad[:-2, 1:-1] == g) | (pad[2:, 1:-1] == g) | (pad[1:-1, :-2] == g) | (pad[1:-1, 2:] == g)
        return int((~company).sum()), res.stats.ones_share, res.stats.ssim

    specks, ones, ssim = made()
    monkeypatch.setattr(style, "POLISH_SPECK", 0.0)
    any_specks, any_ones, any_ssim = made()
    assert specks < any_specks and ones < any_ones
    assert ssim > any_ssim - 0.01


def test_lines_inks_an_edge_cell_whose_ink_cell_another_took():
    from rofl.picture.measures import unmatched_edges
    from rofl.picture.style import _thicken

    edges = np.zeros((5, 5), dtype=bool)
    edges[2, 1:4] = True
    score = np.full((5, 5), -1.0)
    score[1, 2] = 1.0  # one ink cell beside three edge cells: it shows one of them
    out = _thicken(score, edges, None)
    assert sorted(zip(*np.nonzero(out > 0), strict=True)) == [(1, 2), (2, 1), (2, 3)]
    assert unmatched_edges(edges, np.where(score > 0, 0.0, 100.0)).sum() == 2
    assert not unmatched_edges(edges, np.where(out > 0, 0.0, 100.0)).any()


@pytest.mark.parametrize("slope", [0.3, 1.0])
def test_follow_edges_shows_more_of_a_slanted_edge_on_a_hexagon(slope):
    from rofl.picture.hexfit import cell_centres
    from rofl.picture.measures import edge_agreement

    side = 8
    x, y = cell_centres(side)
    source = np.where(y < slope * x, 40.0, 70.0)
    quantised = (source < 55).astype(np.int64)
    out = follow_edges(quantised, grey_lab(source), grey_lab([75.0, 30.0]), side=side)
    levels = np.array([75.0, 30.0])
    before = edge_agreement(source, levels[quantised], side=side)
    after = edge_agreement(source, levels[out], side=side)
    assert after.recall > before.recall and after.f1 > before.f1


@pytest.mark.parametrize("seed", range(5))
def test_regions_of_a_rectangle_are_the_connected_components_of_its_colours(seed):
    """The regions follow_edges clears specks by: on a rectangle from scipy's
    labelling per colour, the same partition as the graph search over the
    cells' 4 neighbours (which a hexagon takes)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from rofl.picture.measures import cell_neighbours
    from rofl.picture.style import _regions

    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 12)), int(rng.integers(1, 12)))
    g = rng.integers(0, 3, size=shape).ravel()
    nb = cell_neighbours(shape)
    src, k = np.nonzero(nb >= 0)
    dst = nb[src, k]
    same = g[src] == g[dst]
    graph = coo_matrix((np.ones(same.sum()), (src[same], dst[same])), shape=(g.size, g.size))
    expected = connected_components(graph, directed=False)[1]
    got = _regions(g, nb, shape, None)
    assert set(got.tolist()) == set(range(got.max() + 1))  # numbered from 0
    pairs = set(zip(got.tolist(), expected.tolist(), strict=True))
    assert len(pairs) == len(set(got.tolist())) == len(set(expected.tolist()))


def test_wide_ink_grows_every_ink_cell_toward_the_darker_picture():
    """:func:`_widen` inks, beside each ink cell, its darkest paper
    neighbour: a one-cell line becomes two cells wide on the side where the
    picture is darker, and an ink cell with no paper beside it adds none."""
    from rofl.picture.style import _widen

    score = -np.ones((5, 6))
    score[2, 1:5] = 1.0  # a line one cell wide
    here = np.full((5, 6), 80.0)
    here[1] = 60.0  # the picture darker above the line ...
    here[3, 4] = 50.0  # ... but darkest below its last cell
    ink = _widen(score, here, None) > 0
    expected = score > 0
    expected[1, 1:4] = True
    expected[3, 4] = True
    assert (ink == expected).all()
    full = np.ones((3, 3))
    assert (_widen(full, np.zeros((3, 3)), None) == full).all()
    from rofl.picture.measures import cell_neighbours

    cells = len(Hexagon.of(3).coords)  # on a hexagon, of its 6 neighbours
    score = -np.ones(cells)
    score[0] = 1.0
    here = np.full(cells, 80.0)

    darkest = cell_neighbours((0,), side=3)[0][-1]
    here[darkest] = 10.0
    assert np.flatnonzero(_widen(score, here, 3) > 0).tolist() == sorted([0, int(darkest)])


def test_lines_draws_wide_ink_on_large_grids_only(monkeypatch):
    """In black and white, ``lines`` widens its ink (:func:`_widen`) on a
    grid of :data:`WIDE_CELLS` cells or more and leaves smaller grids as they
    were; in colour never."""
    from rofl.picture import style

    px = disc_picture()
    geometry = fit((400, 400), 60)
    plain = style_cells(px, geometry, "lines")
    colour = style_cells(px, geometry, "lines", colors=4)
    monkeypatch.setattr(style, "WIDE_CELLS", 60 * 60)
    wide = style_cells(px, geometry, "lines")
    here = 100.0 * style._lightness(plain.photo)
    assert (wide.ink == (style._widen(np.where(plain.ink, 1.0, -1.0), here, None) > 0)).all()
    assert wide.ink.sum() > plain.ink.sum()
    assert (style_cells(px, geometry, "lines", colors=4).ink == colour.ink).all()


@pytest.mark.slow
def test_a_large_drawing_with_wide_ink_makes_a_unique_puzzle():
    """At 200 cells a side ``lines`` draws wide ink (:func:`_widen`), and
    the made puzzle is line-solved, from its clues alone, to its grid."""
    size = 800
    y, x = np.mgrid[:size, :size]
    px = np.full((size, size, 3), 225, dtype=np.uint8)
    px[(x - 300) ** 2 + (y - 350) ** 2 < 180**2] = 120
    px[np.abs(y - 0.6 * x - 200) < 3] = 0  # a slanted line
    px[(x - 600) ** 2 + (y - 600) ** 2 < 90**2] = 40
    result = rofl.make(px, width=200, style="lines")
    check_unique(result)


@pytest.mark.parametrize("side", [None, 4])
@pytest.mark.parametrize("n_levels", [2, 4])
def test_boundary_changes_count_as_a_recount_does(side, n_levels):
    from rofl.picture.measures import cell_neighbours
    from rofl.picture.style import _boundary_changes

    rng = np.random.default_rng(n_levels + (side or 0))
    shape = (7, 9) if side is None else (3 * side * (side - 1) + 1,)
    nb = cell_neighbours(shape, side=side)
    levels = np.sort(rng.choice(np.arange(0.0, 100.0, 12.5), size=n_levels, replace=False))
    for _ in range(5):
        final = levels[rng.integers(n_levels, size=nb.shape[0])]  # ties between neighbours, as grids have
        near = rng.random(nb.shape[0]) < 0.4
        cells = np.sort(rng.choice(nb.shape[0], size=nb.shape[0] // 2, replace=False))
        got = _boundary_changes(final, levels, near, nb, cells)
        want = naive.boundary_changes(final, levels, near, nb, cells)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
