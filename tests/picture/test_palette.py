"""Distinct palettes: every two colours ``min_delta_e`` (ΔE2000) apart, or fewer colours.

The constraint must hold on every sample picture and on generated ones; a
picture without enough distinct colours gets fewer, and says so; an
impossible limit is refused; a palette the caller gives is used as given,
with a warning when two of its colours are close.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl import picture
from rofl.errors import OptionError
from rofl.picture import MAX_SPACING, MIN_DELTA_E, check_min_delta_e, closest_pair, quantise
from rofl.puzzle import Puzzle
from rofl.solver import solve
from tests.places import SAMPLES

PICTURES = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".jpg", ".png"))


def _cells(name: str, side: int = 40) -> np.ndarray:
    pixels = picture.load_pixels(SAMPLES / name)
    return picture.cell_colors(pixels, picture.fit(picture.picture_size(pixels), side, None, "fit"), (255, 255, 255))


def _assert_distinct(palette, limit: float) -> None:
    i, j, d = closest_pair(palette.to_array())
    assert d >= limit, f"colours {palette.hex()[i]} and {palette.hex()[j]} are ΔE2000 {d:.1f} apart"


@pytest.mark.parametrize("colors", [3, 4, 6])
@pytest.mark.parametrize("name", PICTURES)
def test_sample_palettes_are_distinct(name, colors):
    q = quantise(_cells(name), colors=colors)
    _assert_distinct(q.palette, MIN_DELTA_E)
    assert 2 <= len(q.palette) <= colors and q.asked == colors
    assert set(np.unique(q.grid)) == set(range(len(q.palette))), "every colour shows in the picture"


def test_the_limit_changes_what_it_should():
    # the example: camera at 6 colours had two greys ΔE2000 3.7 apart
    cells = _cells("camera.jpg")
    assert closest_pair(quantise(cells, colors=6, min_delta_e=0).palette.to_array())[2] < 5
    q = quantise(cells, colors=6)
    _assert_distinct(q.palette, 20)
    assert len(q.palette) >= 3, "a grey photo still has room for 3 greys 20 apart"


def test_constrained_palette_is_close_to_the_picture():
    # pushing centres apart or merging them costs accuracy, but not much where there is room
    cells = _cells("astronaut.jpg")
    free = quantise(cells, colors=4, min_delta_e=0)
    held = quantise(cells, colors=4)
    rows, cols = np.indices(free.grid.shape)
    err_free = free.cost[rows, cols, free.grid].mean()
    err_held = held.cost[rows, cols, held.grid].mean()
    assert err_held <= err_free + 1.0


def test_black_and_white_is_distinct():
    q = quantise(_cells("chelsea.jpg"), colors=2, min_delta_e=99)
    assert q.palette.hex() in (["#ffffff", "#000000"], ["#000000", "#ffffff"])


@pytest.mark.parametrize("background", ["#808080", "#102030", "white"])
def test_a_given_background_stays_and_keeps_its_distance(background):
    q = quantise(_cells("rocket.jpg"), colors=4, background=background)
    assert q.palette[0] == picture.parse_color(background)
    _assert_distinct(q.palette, MIN_DELTA_E)


def test_two_tones_asked_for_six_colours_give_two_and_say_so():
    two = np.zeros((30, 40, 3), dtype=np.uint8)
    two[:, :] = (200, 40, 40)
    two[8:22, 10:30] = (40, 40, 200)
    two[8:22, 10:12] = (45, 42, 195)  # a near twin of the blue: not a colour of its own
    res = rofl.make(two, colors=6)
    assert len(res.palette) == 2 and res.stats.colors_asked == 6
    line = res.stats.fewer_colours
    assert line == "colours: 2 of the 6 asked for; the picture holds no more that are ΔE2000 20 apart"
    assert res.stats.report().splitlines().count(line) == 1
    solved = solve(res.puzzle)
    assert solved.status == "solved" and (solved.grid == res.grid).all()


def test_enough_colours_say_nothing():
    res = rofl.make(SAMPLES / "coffee.jpg", width=45, colors=3)
    assert len(res.palette) == 3 and res.stats.fewer_colours is None
    assert "asked for" not in res.stats.report()


@pytest.mark.parametrize("value", [-1, -0.01, math.nan, math.inf, "20", None, True])
def test_a_value_that_is_no_distance_is_refused(value):
    with pytest.raises(OptionError, match="least ΔE2000"):
        check_min_delta_e(value)


@pytest.mark.parametrize(("colors", "value"), [(2, 100.5), (3, 80), (6, 50), (30, 20), (64, 14)])
def test_more_colours_than_can_be_that_far_apart_are_refused(colors, value):
    with pytest.raises(OptionError, match=f"{colors} colours cannot all be ΔE2000"):
        quantise(_cells("coffee.jpg", 12), colors=colors, min_delta_e=value)


def test_the_refusal_says_how_many_colours_would_do():
    with pytest.raises(OptionError, match="ask for 3 colours or fewer"):
        rofl.make(SAMPLES / "rocket.jpg", width=12, colors=6, min_delta_e=60)


def test_a_limit_that_can_be_met_is_met_at_its_largest():
    q = quantise(_cells("astronaut.jpg", 20), colors=3, min_delta_e=MAX_SPACING[1])
    _assert_distinct(q.palette, MAX_SPACING[1])


def test_spacing_table_is_what_the_code_says():
    assert picture.spacing_table() == MAX_SPACING


def test_a_given_palette_is_used_as_given_and_warned_about():
    given = ["#000000", "#ffffff", "#111111"]
    with pytest.warns(UserWarning, match=r"#000000 and #111111 differ by ΔE2000 \d+\.\d, less than 20"):
        q = quantise(_cells("rocket.jpg", 20), palette=",".join(given))
    assert sorted(q.palette.hex()) == sorted(given)


def test_a_distinct_given_palette_is_not_warned_about():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quantise(_cells("rocket.jpg", 20), palette="#000,#fff,#f00")
        quantise(_cells("rocket.jpg", 20), palette="#000,#111", min_delta_e=0)


def _pictures():
    """Small pictures of a few random colours, each a blob of cells, with a little noise."""

    @st.composite
    def build(draw):
        h, w = draw(st.integers(4, 14)), draw(st.integers(4, 14))
        n = draw(st.integers(1, 6))
        colours = draw(st.lists(st.tuples(*[st.floats(0, 1)] * 3), min_size=n, max_size=n))
        seed = draw(st.integers(0, 2**16))
        rng = np.random.default_rng(seed)
        labels = rng.integers(0, n, size=(h, w))
        cells = np.array(colours)[labels] + rng.normal(0, 0.01, (h, w, 3))
        return np.clip(cells, 0, 1)

    return build()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=_pictures(), colors=st.integers(3, 8), limit=st.sampled_from([10.0, 20.0, 30.0]))
def test_generated_palettes_are_distinct(cells, colors, limit):
    limit = min(limit, MAX_SPACING[colors - 2])
    q = quantise(cells, colors=colors, min_delta_e=limit)
    _assert_distinct(q.palette, limit)
    assert 2 <= len(q.palette) <= colors


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=_pictures(), colors=st.integers(3, 5))
def test_generated_puzzles_stay_unique_and_line_solvable(cells, colors):
    res = rofl.make((cells * 255).astype(np.uint8), colors=colors)
    _assert_distinct(res.palette, MIN_DELTA_E)
    solved = solve(Puzzle.from_grid(res.grid, res.palette))
    assert solved.status == "solved" and (solved.grid == res.grid).all()


def test_a_background_no_cell_is_near_gives_no_numpy_warning():
    # white takes none of the cat's cells: the projection divided 0 by 0 for it
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        q = quantise(_cells("chelsea.jpg"), colors=4, background="white")
    assert q.palette[0] == (255, 255, 255)


@given(st.lists(st.tuples(*[st.sampled_from([-1.5, 0.0, 2.0, 50.0])] * 3), min_size=1, max_size=40))
def test_distinct_rows_is_numpy_unique(rows):
    from rofl.picture.quantise import _distinct_rows

    pts = np.array(rows, dtype=np.float64)
    got, counts = _distinct_rows(pts)
    want, want_counts = np.unique(pts, axis=0, return_counts=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(counts, want_counts)
