"""``rofl encode``, ``rofl decode`` and ``rofl info`` end to end."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from rofl.errors import UnsolvableError
from rofl.formats import rofl as codec
from rofl.picture import image_from_grid
from rofl.puzzle import Palette, Puzzle
from tests.clirun import run
from tests.places import REPO

VECTORS = REPO / "spec" / "vectors"
CROSS = np.zeros((8, 8), np.uint8)
CROSS[1:7, 2] = 1
CROSS[2, 1:7] = 2
CROSS[6, 3:6] = 3
PALETTE = Palette(["#ffffff", "#000000", "#d03030", "#3050d0"])


def rgb(path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


@pytest.mark.parametrize("mode", ["P", "RGB", "RGBA"])
def test_encode_decode_round_trip(tmp_path, mode):
    picture = tmp_path / "cross.png"
    image_from_grid(CROSS, PALETTE).convert(mode).save(picture)
    out = tmp_path / "cross.rofl"
    result = run("encode", picture, "-o", out, "--title", "Cross", "--crc")
    assert result.exit_code == 0, result.output
    assert "extended form" in result.output
    info = codec.read(out)
    assert info.puzzle.meta["title"] == "Cross" and info.crc32 is not None
    back = tmp_path / "back.png"
    result = run("decode", out, "-o", back)
    assert result.exit_code == 0, result.output
    assert np.array_equal(rgb(back), rgb(picture)[..., :3])


def test_decode_encode_gives_back_the_same_file(tmp_path):
    source = VECTORS / "colour-cross.rofl"
    png = tmp_path / "c.png"
    assert run("decode", source, "-o", png).exit_code == 0
    again = tmp_path / "c.rofl"
    assert run("encode", png, "-o", again).exit_code == 0
    assert again.read_bytes() == source.read_bytes()  # plain form, same palette order


def test_decode_first_writes_one_of_several_solutions(tmp_path):
    out = tmp_path / "x.png"
    result = run("decode", VECTORS / "ambiguous.rofl", "-o", out, "--first")
    assert result.exit_code == 0, result.output
    assert "writing the first solution found" in result.output
    with Image.open(out) as image:
        grid = np.asarray(image)
    # the 2x2 diagonal: either diagonal satisfies the clues
    assert grid.tolist() in ([[1, 0], [0, 1]], [[0, 1], [1, 0]])


@pytest.mark.parametrize("suffix", [".gif", ".bmp", ".jpg", ".webp", ".tiff"])
def test_decode_writes_any_pillow_format(tmp_path, suffix):
    out = tmp_path / f"x{suffix}"
    result = run("decode", VECTORS / "colour-cross.rofl", "-o", out, "--scale", 3)
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.size == (24, 24)
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_decode_refuses_and_writes_nothing(tmp_path):
    out = tmp_path / "x.png"
    result = run("decode", VECTORS / "ambiguous.rofl", "-o", out)
    assert result.exit_code == 1 and "several solutions (two of them differ in 4 cells)" in result.output
    result = run("decode", VECTORS / "crc-mismatch.rofl", "-o", out)
    assert result.exit_code == 1 and "CRC-32" in result.output
    result = run("decode", VECTORS / "truncated-clues.rofl", "-o", out)
    assert result.exit_code == 1 and "byte 35" in result.output
    result = run("decode", VECTORS / "bw-hands-up.rofl", "-o", tmp_path / "x.nope")
    assert result.exit_code == 2 and "cannot write" in result.output  # the output's name: a usage error
    assert not list(tmp_path.iterdir())
    assert "Traceback" not in result.output


def test_encode_refuses_undecodable_pictures(tmp_path):
    picture = tmp_path / "eye.png"
    image_from_grid(np.eye(4, dtype=np.uint8), Palette.black_white()).save(picture)
    result = run("encode", picture, "-o", tmp_path / "eye.rofl")
    assert result.exit_code == 1
    assert "cells undetermined" in result.output and "rofl make" in result.output
    assert not (tmp_path / "eye.rofl").exists()
    noisy = tmp_path / "noisy.png"
    Image.fromarray(np.random.default_rng(0).integers(0, 256, (9, 9, 3), dtype=np.uint8), "RGB").save(noisy)
    result = run("encode", noisy)
    assert result.exit_code == 1 and "at most 64" in result.output
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"no picture")
    result = run("encode", junk)
    assert result.exit_code == 1 and "not a picture" in result.output
    result = run("encode", tmp_path / "missing.png")
    assert result.exit_code == 1 and "missing.png" in result.output


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (lambda png: png[: len(png) // 2], "cannot decode the picture"),  # truncated
        (lambda png: b"", "empty file"),
    ],
    ids=["truncated", "empty"],
)
def test_encode_names_the_file_of_a_broken_picture(tmp_path, content, words):
    # rofl encode opens pictures with make's loader: one error line naming the file
    good = tmp_path / "good.png"
    grid = np.random.default_rng(1).integers(0, 2, (64, 64), dtype=np.uint8)
    image_from_grid(grid, Palette.black_white()).save(good)
    broken = tmp_path / "broken.png"
    broken.write_bytes(content(good.read_bytes()))
    result = run("encode", broken)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and "broken.png" in lines[0] and words in lines[0], result.output


def test_encode_background_option(tmp_path):
    picture = tmp_path / "p.png"
    image_from_grid(CROSS, PALETTE).convert("RGB").save(picture)
    out = tmp_path / "p.rofl"
    assert run("encode", picture, "-o", out).exit_code == 0
    assert codec.load(out).palette[0] == (255, 255, 255)  # the most frequent colour
    result = run("encode", picture, "-o", out, "--background", "#zz")
    assert result.exit_code == 2 and "not a colour" in result.output


@pytest.mark.parametrize("mode", ["1", "L", "RGB", "P"])
def test_encode_keeps_black_pixel_arts_own_background(tmp_path, mode):
    """Black-background pixel art (white on black): ``rofl encode`` keeps the
    picture's own colours and order (its most frequent colour, or palette
    entry 0, is the background: black here), unlike ``rofl make``, which
    puts the lighter colour first in black and white; ``decode`` gives the
    very pixels back."""
    grid = np.zeros((8, 8), np.uint8)
    grid[2:6, 3:5], grid[1, 1] = 1, 1
    picture = tmp_path / "sprite.png"
    image_from_grid(grid, Palette(["#000000", "#ffffff"])).convert(mode).save(picture)
    out, back = tmp_path / "sprite.rofl", tmp_path / "back.png"
    assert run("encode", picture, "-o", out).exit_code == 0
    puzzle = codec.load(out)
    assert puzzle.palette.colors == ((0, 0, 0), (255, 255, 255))
    assert sum(len(clue) for clue in puzzle.rows) == 5  # the clues are the white cells'
    assert run("decode", out, "-o", back).exit_code == 0
    assert np.array_equal(rgb(back), rgb(picture))
    assert run("encode", picture, "-o", out, "--background", "white").exit_code == 0
    assert codec.load(out).palette.colors == ((255, 255, 255), (0, 0, 0))
    assert run("decode", out, "-o", back).exit_code == 0
    assert np.array_equal(rgb(back), rgb(picture))


def test_info(tmp_path):
    result = run("info", VECTORS / "metadata.rofl")
    assert result.exit_code == 0, result.output
    for text in ("5x5 (25 cells)", "extended form, version 1", "title: Hands up", "line logic: solved"):
        assert text in result.output
    result = run("info", VECTORS / "crc.rofl")
    assert "CRC-32 matches" in result.output
    result = run("info", VECTORS / "ambiguous.rofl")
    assert result.exit_code == 0 and "not decodable" in result.output and "4 of 4" in result.output
    result = run("info", VECTORS / "zero-length.rofl")
    assert result.exit_code == 1 and "length 0" in result.output
    json_file = tmp_path / "p.json"
    from rofl.formats import write_puzzle

    write_puzzle(json_file, Puzzle.from_grid(CROSS, PALETTE))
    result = run("info", json_file)
    assert result.exit_code == 0 and "not ROFL" in result.output
    assert "Pattern game ID" not in result.output  # a colour puzzle


def test_info_gives_the_pattern_game_id_of_black_and_white_puzzles(tmp_path):
    from rofl.formats import tatham, write_puzzle

    grid = np.array([[0, 1, 1], [1, 0, 1]], dtype=np.uint8)
    path = tmp_path / "p.non"
    write_puzzle(path, Puzzle.from_grid(grid, Palette.black_white()))
    result = run("info", path, "--no-solve")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("Pattern game ID: "))
    assert line == "Pattern game ID: 3x2:1/1/2/2/1.1"
    assert tatham.parse_game_id(line.split(": ", 1)[1]) == Puzzle.from_grid(grid, Palette.black_white())


def test_encode_stores_a_search_only_picture_on_request(tmp_path):
    png = VECTORS / "needs-search.png"
    out = tmp_path / "s.rofl"
    result = run("encode", png, "-o", out)
    assert result.exit_code == 1 and "20 of 25 cells undetermined" in result.output and "--search" in result.output
    assert not out.exists()
    result = run("encode", png, "-o", out, "--search")
    assert result.exit_code == 0, result.output
    with Image.open(out) as image, Image.open(png) as expected:
        assert np.array_equal(np.asarray(image), np.asarray(expected))


def test_encode_search_refuses_an_ambiguous_picture(tmp_path):
    png = tmp_path / "diagonal.png"
    image_from_grid(np.eye(2, dtype=np.uint8), Palette.black_white()).save(png)
    result = run("encode", png, "-o", tmp_path / "d.rofl", "--search")
    assert result.exit_code == 1 and "several solutions (two differ in 4 cells)" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["diagonal.png"]


def test_pillow_save_with_search(tmp_path):
    with Image.open(VECTORS / "needs-search.png") as image:
        with pytest.raises(UnsolvableError):
            image.save(tmp_path / "a.rofl")
        assert not (tmp_path / "a.rofl").exists()  # Pillow removes the file it created
        image.save(tmp_path / "b.rofl", search=True)
    with Image.open(tmp_path / "b.rofl") as again, Image.open(VECTORS / "needs-search.png") as expected:
        assert np.array_equal(np.asarray(again), np.asarray(expected))


def test_info_reports_search(tmp_path):
    result = run("info", VECTORS / "needs-search.rofl")
    assert result.exit_code == 0
    assert "line logic: stalls, 20 of 25 cells undetermined" in result.output
    assert "picture: decodes by complete search (unique), CRC-32 matches" in result.output


def _noise_rgba() -> np.ndarray:
    pixels = np.random.default_rng(2).integers(0, 256, (16, 16, 4), dtype=np.uint8)
    pixels[..., 3] = 255  # opaque, but 256 colours
    return pixels


def _half_transparent_rgba() -> np.ndarray:
    pixels = np.zeros((4, 4, 4), np.uint8)
    pixels[..., 3] = 128
    return pixels


@pytest.mark.parametrize(
    ("pixels", "words"),
    [(_noise_rgba, "colours"), (_half_transparent_rgba, "partly transparent")],
    ids=["photo", "half-transparent"],
)
def test_encode_names_the_picture_that_is_not_pixel_art(tmp_path, pixels, words):
    picture = tmp_path / "photo.png"
    Image.fromarray(pixels(), "RGBA").save(picture)
    result = run("encode", picture)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and "photo.png" in lines[0] and words in lines[0], result.output


def test_info_leaves_out_a_game_id_of_megabytes(tmp_path):
    # a random 2048x2048 picture has about a million clue numbers: its ID
    # would be a 4 MB line, built in seconds outside any --budget
    from rofl.cli.pictures import MAX_GAME_ID_GROUPS
    from rofl.formats import write_puzzle

    side = 300
    grid = np.zeros((side, side), dtype=np.uint8)
    grid[:, ::2] = 1  # 150 groups in every row
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    assert puzzle.n_groups > MAX_GAME_ID_GROUPS
    write_puzzle(tmp_path / "p.non", puzzle)
    result = run("info", tmp_path / "p.non", "--no-solve")
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) < 200
    assert f"Pattern game ID: not shown ({puzzle.n_groups} clue numbers" in result.output


def test_decode_reports_the_size_of_the_picture_it_writes(tmp_path):
    # issue 41: --scale 8 reported the size in cells (27x20), not the picture's 216x160 pixels
    from tests.places import SAMPLES

    out = tmp_path / "horse.png"
    result = run("decode", SAMPLES / "horse.rofl", "-o", out, "--scale", 8)
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.size == (216, 160)
    assert result.output == f"{out}: 216x160 (27x20 cells of 8x8 pixels), 2 colours (PNG)\n"
    plain = run("decode", SAMPLES / "horse.rofl", "-o", out)
    assert plain.output == f"{out}: 27x20, 2 colours (PNG)\n"
