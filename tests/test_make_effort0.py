"""``rofl make --effort 0`` on a large grid (issue 45): ``style="auto"`` drops
the candidates that cannot catch up before following their edges, and the
likeness hint names its tries without measuring them.  Small pictures stand
in for large ones: ``LARGE_CELLS`` is lowered."""

from __future__ import annotations

import numpy as np
import pytest

import rofl
from rofl import hints, maker
from rofl.picture import style
from rofl.picture.fit import Geometry
from rofl.refine import passes
from rofl.solver import solve


@pytest.fixture
def large(monkeypatch):
    """Grids of more than 100 cells count as large (the quick regime's, and auto's at effort 0)."""
    monkeypatch.setattr(passes, "LARGE_CELLS", 100)


@pytest.fixture(scope="module")
def noise() -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, (60, 60, 3), dtype=np.uint8)


def _geometry(width: int, height: int) -> Geometry:
    return Geometry((0.0, 0.0, float(width), float(height)), (width, height), (width, height), (0, 0))


def test_auto_draws_the_quick_way_only_at_effort_0_on_a_rectangle_the_quick_regime_takes():
    assert maker._quick_styles(0, "rect", _geometry(200, 200))
    assert maker._quick_styles(0.0, "rect", _geometry(300, 300))  # 90,000 cells
    assert not maker._quick_styles(1, "rect", _geometry(200, 200))
    assert not maker._quick_styles(0.5, "rect", _geometry(200, 200))
    assert not maker._quick_styles(0, "rect", _geometry(100, 200))  # 20,000 cells: not large
    assert not maker._quick_styles(0, "rect", _geometry(400, 400))  # over QUICK_MOST_CELLS
    assert not maker._quick_styles(0, "hex", _geometry(200, 200))


def _styled(pixels: np.ndarray, *, quick: bool) -> maker._Styled:
    o = maker.MakeOptions(width=60)
    shape = maker._shape_of(o)
    geometry = shape.fit((pixels.shape[1], pixels.shape[0]))
    return maker._styled(
        pixels, geometry, "auto", (255, 255, 255), shape=shape, colors=2, palette=None, background=None,
        threshold=None, dither="none", min_delta_e=20.0, quick=quick,
    )  # fmt: skip


def test_quick_auto_keeps_the_same_drawing_and_follows_no_dropped_candidates_edges(noise, monkeypatch):
    followed = []
    original = style.follow_edges

    def counting(grid, *args, **kwargs):
        followed.append(np.asarray(grid).copy())
        return original(grid, *args, **kwargs)

    monkeypatch.setattr(style, "follow_edges", counting)
    plain = _styled(noise, quick=False)
    n_plain, followed[:] = len(followed), []
    quick = _styled(noise, quick=True)
    # the noise's poster (a median of noise, blank before following edges) is dropped unfollowed
    skipped = {name for name, why in quick.dropped if "not followed at --effort 0" in why}
    assert skipped == {"poster"}
    assert len(followed) == n_plain - 1
    # what auto keeps is the same drawing, cell for cell, with the same score
    assert (quick.style, quick.score) == (plain.style, plain.score)
    np.testing.assert_array_equal(quick.quantised.grid, plain.quantised.grid)
    # a dropped candidate's score is the one it had before following edges, and under the best
    before = dict(quick.scores)["poster"]
    assert before < dict(plain.scores)["poster"] and before < quick.score - maker.QUICK_FOLLOW_GAIN["poster"]


def test_quick_auto_follows_every_candidate_within_reach(noise, monkeypatch):
    # with no margin to spare nothing is skipped; with every gain allowed, the same as plain
    monkeypatch.setattr(maker, "QUICK_FOLLOW_GAIN", {"lines": 9.0, "poster": 9.0})
    quick, plain = _styled(noise, quick=True), _styled(noise, quick=False)
    assert (quick.scores, quick.dropped, quick.style) == (plain.scores, plain.dropped, plain.style)


def test_make_at_effort_0_on_a_large_grid_is_unique_and_line_solvable(noise, large):
    result = rofl.make(noise, width=60, colors=2, effort=0)
    assert result.stats.style == "lines"
    assert "poster" in dict(result.stats.style_dropped)
    check = solve(result.puzzle)
    assert check.status == "solved"
    np.testing.assert_array_equal(check.grid, result.grid)
    assert 0 < result.stats.n_changed < result.grid.size // 4


def test_the_likeness_hint_at_effort_0_on_a_large_grid_names_its_tries_unmeasured(noise, large, monkeypatch):
    def measured(*args, **kwargs):
        msg = "measured at effort 0 on a large grid"
        raise AssertionError(msg)

    made_with = maker.MakeOptions(width=60, effort=0)
    result = rofl.make(noise, made_with)
    monkeypatch.setattr(hints, "_measured", measured)
    text = hints.likeness_hint(result, made_with, more_colours=True)
    # the other styles auto measured are named with their figures; sizes and colours, unmeasured
    assert text is not None and text.startswith("hint: the puzzle looks little like the picture"), text
    assert "; try --style photo: 1.33 (SSIM + edge F1, measured before refinement); " in text
    assert text.endswith(
        "; more cells (-w 75) or more colours (-c 4) may score better (not measured at --effort 0 on a grid this large)"
    ), text


def test_the_likeness_hint_at_effort_1_still_measures_its_tries(noise, large, monkeypatch):
    calls = []
    real = hints._measured

    def measured(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    made_with = maker.MakeOptions(width=60)
    result = rofl.make(noise, made_with)
    monkeypatch.setattr(hints, "_measured", measured)
    text = hints.likeness_hint(result, made_with, more_colours=True)
    assert calls and "not measured" not in text
