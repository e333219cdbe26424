"""``rofl make``: trimming blank margins, the likeness figure and its hint, the palette options."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PIL import Image

import rofl
from rofl.maker import RECOGNISABLE_SSIM
from rofl.solver import solve
from tests.clirun import run, usage_error_line
from tests.places import SAMPLES


def _solution(path) -> np.ndarray:
    solved = solve(rofl.open_puzzle(path).puzzle)
    assert solved.status == "solved", "unique and line-solvable"
    return solved.grid


@pytest.fixture(scope="module")
def margins(tmp_path_factory):
    """A black shape on white with margins of 6, 2, 9 and 3 cells (top, bottom, left, right) at 1 px per cell."""
    pixels = np.full((30, 40, 3), 255, dtype=np.uint8)
    pixels[6:28, 9:37] = 0
    pixels[10:20, 15:25] = 255
    pixels[6:9, 9:12] = 255  # a notch, so the shape is not a plain frame
    path = tmp_path_factory.mktemp("margins") / "margins.png"
    Image.fromarray(pixels).save(path)
    return path


def test_trim_drops_blank_border_rows_and_columns(margins, tmp_path):
    r = run("make", margins, "-o", tmp_path / "t.rofl")
    assert r.exit_code == 0, r.output
    assert "trimmed: 8 blank rows and 12 blank columns (top 6, bottom 2, left 9, right 3)" in r.output
    grid = _solution(tmp_path / "t.rofl")
    assert grid.shape == (22, 28)
    for edge in (grid[0], grid[-1], grid[:, 0], grid[:, -1]):
        assert edge.any(), "no blank border row or column is left"


def test_no_trim_keeps_the_margins(margins, tmp_path):
    r = run("make", margins, "-o", tmp_path / "n.rofl", "--no-trim")
    assert r.exit_code == 0, r.output
    assert "trimmed" not in r.output
    grid = _solution(tmp_path / "n.rofl")
    assert grid.shape == (30, 40)
    assert not grid[:6].any() and not grid[:, :9].any() and not grid[-2:].any() and not grid[:, -3:].any()


def test_trim_keeps_the_picture_in_place(margins):
    trimmed, whole = rofl.make(margins), rofl.make(margins, trim=False)
    assert trimmed.stats.trimmed == (6, 2, 9, 3)
    assert (whole.grid[6:28, 9:37] == trimmed.grid).all()
    assert (whole.cells[6:28, 9:37] == trimmed.cells).all()
    assert trimmed.source_image(2).shape == (44, 56, 3)
    assert (trimmed.source_image(2) == whole.source_image(2)[12:56, 18:74]).all()


def test_a_blank_picture_is_kept_whole():
    res = rofl.make(np.full((8, 10, 3), 255, dtype=np.uint8))
    assert res.grid.shape == (8, 10) and res.stats.trimmed == (0, 0, 0, 0)


def test_trim_is_deterministic(margins):
    a, b = rofl.make(margins, colors=3), rofl.make(margins, colors=3)
    assert (a.grid == b.grid).all() and a.palette == b.palette


def test_the_likeness_figure_is_in_the_stats(tmp_path):
    r = run("make", SAMPLES / "coffee.jpg", "-o", tmp_path / "c.rofl", "-w", 45, "-c", 3)
    assert r.exit_code == 0, r.output
    assert "likeness: SSIM 0." in r.output and "in lightness" in r.output and "; edge F1 0." in r.output
    assert "hint:" not in r.output, "a good sample gets no hint"
    ssim = rofl.make(SAMPLES / "coffee.jpg", width=45, colors=3).stats.ssim
    assert RECOGNISABLE_SSIM < ssim <= 1


def test_a_texture_gets_the_hint(tmp_path):
    noise = (np.random.default_rng(3).random((60, 60, 3)) * 255).astype(np.uint8)
    path = tmp_path / "noise.png"
    Image.fromarray(noise).save(path)
    r = run("make", path, "-o", tmp_path / "n.rofl", "-w", 30)
    assert r.exit_code == 0, r.output
    hints = [line for line in r.output.splitlines() if line.startswith("hint: the puzzle looks little like")]
    assert len(hints) == 1, r.output
    assert "more colours (-c 4)" in hints[0]  # more cells of noise measure no better than its outlines at 30
    shown, limit = map(float, re.search(r"SSIM ([0-9.]+) < ([0-9.]+)", hints[0]).groups())
    assert shown < limit  # the figure is printed precisely enough to be below the limit it is compared with
    assert run("make", path, "-o", tmp_path / "q.rofl", "-w", 30, "-q").output == ""


def test_a_tiny_grid_has_no_likeness_figure():
    res = rofl.make(np.eye(2, dtype=bool))
    assert res.stats.ssim is None and "SSIM" not in res.stats.report()
    assert res.stats.edge_f1 is not None  # edges mean something on any grid


@pytest.mark.parametrize("value", ["-1", "nan"])
def test_min_delta_e_that_is_no_distance_is_a_usage_error(tmp_path, value):
    usage_error_line(run("make", SAMPLES / "rocket.jpg", "-o", tmp_path / "r.rofl", "-c", 3, "--min-delta-e", value))


def test_min_delta_e_that_cannot_be_met_is_a_usage_error(tmp_path):
    r = run("make", SAMPLES / "rocket.jpg", "-o", tmp_path / "r.rofl", "-c", 6, "--min-delta-e", 60)
    usage_error_line(r, "6 colours cannot all be ΔE2000 60 apart", "ask for 3 colours or fewer")


def test_min_delta_e_zero_keeps_close_colours(tmp_path):
    r = run("make", SAMPLES / "camera.jpg", "-o", tmp_path / "c.rofl", "-c", 6, "--min-delta-e", 0, "-w", 20)
    assert r.exit_code == 0, r.output
    assert "asked for" not in r.output
    assert len(rofl.open_puzzle(tmp_path / "c.rofl").puzzle.palette) == 6


def test_fewer_colours_are_one_line(tmp_path):
    r = run("make", SAMPLES / "chelsea.jpg", "-o", tmp_path / "c.rofl", "-c", 6, "-w", 30)
    assert r.exit_code == 0, r.output
    lines = [line for line in r.output.splitlines() if "asked for" in line]
    assert lines == ["colours: 4 of the 6 asked for; the picture holds no more that are ΔE2000 20 apart"]


def test_a_close_given_palette_warns_in_one_line(tmp_path):
    r = run("make", SAMPLES / "rocket.jpg", "-o", tmp_path / "r.rofl", "-w", 20, "--palette", "#000,#fff,#111")
    assert r.exit_code == 0, r.output
    warned = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert len(warned) == 1 and "#000000 and #111111 differ by ΔE2000" in warned[0]
    assert sorted(rofl.open_puzzle(tmp_path / "r.rofl").puzzle.palette.hex()) == ["#000000", "#111111", "#ffffff"]


def test_a_border_line_refinement_blanks_is_trimmed_too():
    # at 30 cells refinement blanks the horse's one cell in its last row (the
    # photo style's grid; auto draws it in lines, with other margins)
    res = rofl.make(SAMPLES / "horse.png", width=30, style="photo")
    assert res.stats.trimmed == (2, 3, 2, 1)
    for edge in (res.grid[0], res.grid[-1], res.grid[:, 0], res.grid[:, -1]):
        assert edge.any()
    solved = solve(res.puzzle)
    assert solved.status == "solved" and (solved.grid == res.grid).all()
    assert res.source_image(1).shape[:2] == res.grid.shape
