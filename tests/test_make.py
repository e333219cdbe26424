"""rofl.make end to end: every puzzle it makes is line-solved, from its clues alone, to its picture."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import rofl
from rofl.errors import OptionError
from rofl.puzzle import Puzzle
from rofl.solver import solve


def check_result(res):
    """The puzzle, re-derived from the final grid, is line-solved to exactly that grid."""
    assert res.grid.dtype == np.uint8 and res.grid.shape == (res.stats.height, res.stats.width)
    puzzle = Puzzle.from_grid(res.grid, res.palette)
    assert puzzle == res.puzzle
    solved = solve(puzzle)
    assert solved.status == "solved"
    assert (solved.grid == res.grid).all()
    # the statistics describe the same run
    assert (res.changed == (res.grid != res.quantised)).all()
    assert res.stats.n_changed == int(res.changed.sum())
    assert res.stats.changed_pct == pytest.approx(100 * res.changed.mean())
    assert res.stats.clues == res.puzzle.n_groups
    assert 0 <= res.stats.ones_share <= 1
    assert res.cost.shape == (*res.grid.shape, len(res.palette))
    return res


@pytest.fixture(scope="module")
def photos():
    import skimage.data

    return {name: getattr(skimage.data, name)() for name in ("astronaut", "camera", "coffee", "horse")}


@pytest.mark.parametrize("name", ["astronaut", "camera", "coffee", "horse"])
@pytest.mark.parametrize("colors", [2, 4])
def test_photos(photos, name, colors):
    res = check_result(rofl.make(photos[name], width=24, colors=colors, trim=False))
    assert res.stats.width == 24
    # fewer colours only when the picture lacks distinct ones (min_delta_e), and then the report says so
    assert len(res.palette) == colors or (len(res.palette) < colors and res.stats.fewer_colours)
    # a bound on quality, not only validity: 0-3 changed cells when measured
    # (c7de0f9, the photo style); the black-and-white styles' outlines one
    # cell wide take a few more (up to 7 of these 576 cells, 1.2%)
    assert res.stats.n_changed <= (5 if res.stats.style == "photo" or colors > 2 else 9), res.stats.n_changed


def test_a_dark_picture_in_black_and_white_counts_its_dark_cells():
    # Hubble's deep field is mostly black sky: its clues count the dark cells
    # (shading them draws the sky, not its negative), unless told otherwise.
    import skimage.data

    sky = skimage.data.hubble_deep_field()
    res = check_result(rofl.make(sky, width=24, colors=2, trim=False))
    assert res.palette.hex() == ["#ffffff", "#000000"]
    assert res.grid.mean() > 0.5  # most cells are filled: the sky
    told = check_result(rofl.make(sky, width=24, colors=2, trim=False, background="black"))
    assert told.palette.hex() == ["#000000", "#ffffff"]
    assert told.grid.mean() < 0.5


def test_file_source_gets_title(tmp_path, photos):
    from PIL import Image

    p = tmp_path / "cat picture.png"
    Image.fromarray(photos["coffee"]).save(p)
    res = check_result(rofl.make(p, width=16, height=16, mode="crop", colors=3, cleanup=True, trim=False))
    assert res.puzzle.meta["title"] == "cat picture"
    assert (res.stats.width, res.stats.height) == (16, 16)


def test_pad_and_dither(photos):
    with pytest.warns(UserWarning, match="dithering multiplies clues"):
        res = check_result(rofl.make(photos["camera"], width=20, height=12, mode="pad", dither="ordered", trim=False))
    assert (res.stats.width, res.stats.height) == (20, 12)
    with pytest.warns(UserWarning):
        check_result(rofl.make(photos["coffee"], width=12, colors=3, dither="floyd-steinberg"))


def _checker(h, w):
    return (np.indices((h, w)).sum(axis=0) % 2).astype(bool)


ADVERSARIAL = {
    "checkerboard": _checker(20, 20),
    "noise": np.random.default_rng(7).random((20, 20, 3)),
    "row": np.random.default_rng(8).random((1, 30)) > 0.5,
    "column": np.random.default_rng(9).random((30, 1)) > 0.5,
    "one colour": np.full((10, 10, 3), 0.3),
    "one cell": np.zeros((1, 1), dtype=np.uint8),
    "white cell": np.ones((1, 1)),
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
@pytest.mark.parametrize("colors", [2, 3])
def test_adversarial_inputs_terminate_with_valid_puzzles(name, colors):
    res = check_result(rofl.make(ADVERSARIAL[name], colors=colors, trim=False))
    assert res.grid.shape == ADVERSARIAL[name].shape[:2]


def test_make_is_deterministic(photos):
    a = rofl.make(photos["astronaut"], width=20, colors=4)
    b = rofl.make(photos["astronaut"], width=20, colors=4)
    assert a.puzzle == b.puzzle and a.palette == b.palette


def test_effort_is_checked():
    with pytest.raises(OptionError, match="effort must be"):
        rofl.make(np.zeros((4, 4, 3)), effort=float("nan"))


@pytest.mark.parametrize(("effort", "quick"), [(0, True), (0.5, False), (1, False), (2, False)])
def test_only_effort_0_refines_quick(effort, quick, monkeypatch):
    # effort 0 trades changed cells for time on a large grid (refine's quick;
    # refine ignores it on smaller grids), every other effort refines as before
    import rofl.refine

    seen = []
    plain = rofl.refine.refine

    def recording(grid, palette, **options):
        seen.append(options["quick"])
        return plain(grid, palette, **options)

    monkeypatch.setattr(rofl.refine, "refine", recording)
    pixels = np.random.default_rng(0).random((12, 12, 3))
    check_result(rofl.make(pixels, width=12, colors=2, effort=effort))
    assert seen == [quick]


def test_stats_report(photos):
    res = rofl.make(photos["horse"], width=20, trim=False, style="photo")  # photo's threshold is reported
    text = res.stats.report()
    assert "20x" in text and "changed:" in text and "ΔE2000" in text and "threshold" in text
    assert res.source_image(3).shape == (res.stats.height * 3, 20 * 3, 3)
    from dataclasses import replace

    one = replace(res.stats, n_changed=1, iterations=1, polish_rounds=1, relocated=1, sweeps=1, trimmed=(1, 0, 0, 1))
    text = one.report()
    assert "changed: 1 cell (" in text and "1 round, 1 repair attempt, 1 change moved," in text
    assert "by line logic in 1 sweep\n" in text and "trimmed: 1 blank row and 1 blank column (" in text
    two = replace(one, n_changed=2, iterations=2, polish_rounds=2, relocated=2, sweeps=2, trimmed=(1, 1, 1, 1))
    text = two.report()
    assert "changed: 2 cells (" in text and "2 rounds, 2 repair attempts, 2 changes moved," in text
    assert "by line logic in 2 sweeps\n" in text and "trimmed: 2 blank rows and 2 blank columns (" in text


@settings(deadline=None, max_examples=25)
@given(
    hnp.arrays(np.uint8, st.tuples(st.integers(1, 9), st.integers(1, 9), st.just(3))),
    st.integers(2, 4),
)
def test_any_small_picture(pixels, colors):
    check_result(rofl.make(pixels, colors=colors))


def test_rofl_make_stays_the_function_after_the_cli_loads():
    from rofl.cli import main

    main.get_command(None, "make")  # imports rofl.maker; a module named rofl/make.py would shadow the function

    assert callable(rofl.make) and rofl.make.__module__ == "rofl.maker"
