"""rofl make of hexagonal puzzles, from the library and the command line:
every puzzle is checked by the SAT engine (unique, with the stored solution)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import rofl
from rofl.errors import OptionError
from rofl.formats import open_puzzle
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.picture.hexfit import board_extent
from rofl.picture.measures import hex_lightness_ssim
from tests.clirun import run, usage_error_line
from tests.places import SAMPLES


def sat_unique(puzzle, cells) -> bool:
    got = rofl.solve_complete(puzzle, engine="sat", time_budget=60)
    return got.status == "unique" and bool((got.solutions[0].ravel() == np.asarray(cells)).all())


@pytest.mark.parametrize(
    ("picture", "colors", "side"), [("horse.png", 2, 8), ("rocket.jpg", 4, 10), ("camera.jpg", 3, 12)]
)
def test_make_hex_is_unique(picture, colors, side):
    result = rofl.make(SAMPLES / picture, shape="hex", size=side, colors=colors)
    assert isinstance(result.puzzle, HexPuzzle) and result.side == side
    n = Hexagon.of(side).n_cells
    assert result.grid.shape == result.quantised.shape == result.changed.shape == (n,)
    assert result.cells.shape == (n, 3) and result.cost.shape == (n, len(result.palette))
    assert rofl.solve(result.puzzle).status == "solved"
    assert sat_unique(result.puzzle, result.grid)
    s = result.stats
    assert s.side == side and s.n_changed == int(result.changed.sum())
    assert s.colors == len(result.palette) <= colors
    assert f"hexagon of side {side} ({n} cells)" in s.report()
    if colors > 2:
        assert s.palette_delta_e >= 20  # the distinct-palette rule, as for squares


def test_a_star_field_needs_changes_and_gets_them():
    """The hardest kind of photo for line logic (isolated dots): refinement
    changes cells, and the result is still unique and close to the picture."""
    import skimage.data

    # the photo style: its stars are single cells (poster, which auto picks, smooths them away); the
    # stars are the ink (the sky, which black and white makes the ink by default, needs no change here)
    result = rofl.make(skimage.data.hubble_deep_field(), shape="hex", size=14, style="photo", background="black")
    assert result.stats.n_changed > 0
    assert (result.changed == (result.grid != result.quantised)).all()
    assert sat_unique(result.puzzle, result.grid)
    assert result.stats.changed_pct < 10


def test_cells_follow_the_picture():
    """A picture dark on its left half: the cells left of the middle are ink,
    right of it blank (the board's own left and right)."""
    pixels = np.full((300, 400, 3), 255, dtype=np.uint8)
    pixels[:, :200] = 0
    result = rofl.make(pixels, shape="hex", size=6)
    board = Hexagon.of(6)
    x = board.coords[:, 0] + board.coords[:, 1] / 2
    ink = result.palette.to_array()[result.grid].sum(axis=1) == 0
    assert ink[x < -0.5].all() and not ink[x > 0.5].any()


def test_ssim_of_hexagons():
    rng = np.random.default_rng(0)
    light = rng.random(Hexagon.of(6).n_cells) * 100
    assert hex_lightness_ssim(light, light, 6) == pytest.approx(1.0)
    assert hex_lightness_ssim(light, 100 - light, 6) < 0
    assert hex_lightness_ssim(light[:7], light[:7], 2) is None


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"width": 20}, "width"),
        ({"mode": "pad"}, "mode='pad'"),
        ({"dither": "ordered"}, "dither"),
        ({"cleanup": True}, "cleanup"),
        ({"size": 0}, "side"),
        ({"size": 129}, "side"),
    ],
)
def test_options_a_hexagon_does_not_take(options, words):
    with pytest.raises(OptionError, match=words):
        rofl.make(SAMPLES / "horse.png", shape="hex", **options)


def test_shape_and_size_checks():
    with pytest.raises(OptionError, match="shape must be one of rect, hex"):
        rofl.make(SAMPLES / "horse.png", shape="triangle")
    with pytest.raises(OptionError, match="size is the side of a hexagon"):
        rofl.make(SAMPLES / "horse.png", size=10)


def test_cli_make_hex_writes_the_puzzle_and_its_pictures(tmp_path):
    out, preview, compare, sheet, page = (tmp_path / n for n in ("h.rofl", "p.png", "c.png", "s.svg", "p.html"))
    result = run(
        "make", SAMPLES / "coffee.jpg", "--shape", "hex", "--size", "9", "-c", "3",
        "-o", out, "--preview", preview, "--compare", compare, "--sheet", sheet, "--page", page,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "puzzle: hexagon of side 9 (217 cells)" in result.output
    opened = open_puzzle(out)
    assert isinstance(opened.puzzle, HexPuzzle) and opened.puzzle.side == 9
    solution = rofl.solve(opened.puzzle).grid.ravel()  # a ROFL file stores the clues and a CRC-32
    assert sat_unique(opened.puzzle, solution)
    ew, eh = board_extent(9)
    with Image.open(preview) as im:
        assert im.size[0] == pytest.approx(im.size[1] * ew / eh, abs=2)
        # the middle cell's centre has the middle cell's colour
        colour = opened.puzzle.palette.to_array()[solution[Hexagon.of(9).cell(0, 0)]]
        assert im.convert("RGB").getpixel((im.size[0] // 2, im.size[1] // 2)) == tuple(colour)
    with Image.open(compare) as im:
        assert im.size[0] > 3 * im.size[1]  # three panels side by side
    assert "falling-clues" in sheet.read_text()
    assert '"shape":"hexagon"' in page.read_text()
    solved = run("solve", out)
    assert solved.exit_code == 0
    assert any(line.startswith("unique: ") for line in solved.output.splitlines()), solved.output


def test_cli_marks_changed_cells_in_the_comparison(tmp_path):
    import skimage.data

    picture = tmp_path / "stars.png"
    Image.fromarray(skimage.data.hubble_deep_field()).save(picture)
    result = run(
        "make", picture, "--shape", "hex", "--size", "14", "-o", tmp_path / "s.clues", "--compare", tmp_path / "c.png",
        "--style", "photo", "--background", "black",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    pixels = np.asarray(Image.open(tmp_path / "c.png").convert("RGB"))
    third = pixels[:, 2 * pixels.shape[1] // 3 :]
    assert ((third == (255, 0, 255)).all(axis=2)).any()  # magenta outlines on the final panel only
    assert not ((pixels[:, : pixels.shape[1] // 3] == (255, 0, 255)).all(axis=2)).any()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--shape", "hex", "-w", "20"], "-w/--width"),
        (["--shape", "hex", "--dither", "ordered"], "--dither"),
        (["--shape", "hex", "--cleanup"], "--cleanup"),
        (["--shape", "hex", "--mode", "pad"], "--mode pad"),
        (["--size", "10"], "--size is the side of a hexagon"),
        (["--shape", "hex", "--gif", "x.gif"], "--gif cannot show a hexagonal puzzle"),
        (["--shape", "hex", "--size", "200"], "200 is not in the range"),
    ],
)
def test_cli_refusals(tmp_path, args, words):
    usage_error_line(run("make", SAMPLES / "horse.png", "-o", tmp_path / "h.rofl", *args), words)
    assert not (tmp_path / "h.rofl").exists()


def test_cli_refuses_a_format_without_hexagons(tmp_path):
    usage_error_line(
        run("make", SAMPLES / "horse.png", "--shape", "hex", "-o", tmp_path / "h.non"),
        "cannot hold a hexagonal puzzle; use .rofl or .clues",
    )


def test_cli_batch_of_hexagons(tmp_path):
    out = tmp_path / "out"
    result = run(
        "make",
        SAMPLES / "horse.png",
        SAMPLES / "rocket.jpg",
        "--shape",
        "hex",
        "--size",
        "7",
        "-o",
        f"{out}/",
        "-j",
        "1",
    )
    assert result.exit_code == 0, result.output
    for name in ("horse", "rocket"):
        opened = open_puzzle(out / f"{name}.rofl")
        assert isinstance(opened.puzzle, HexPuzzle) and opened.puzzle.side == 7
    book = run("make", SAMPLES / "horse.png", "--shape", "hex", "-o", f"{out}/", "--book", tmp_path / "b.pdf")
    usage_error_line(book, "a puzzle book holds rectangular puzzles")
