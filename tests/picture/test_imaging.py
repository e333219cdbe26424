"""The image pipeline: loading every kind of picture, fitting, linear-light averaging, quantising."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rofl import picture
from rofl.errors import ImageError, OptionError

# ------------------------------------------------------------------ loading


def _save(img: Image.Image, path, **kw):
    img.save(path, **kw)
    return path


def test_rgb_jpeg(tmp_path):
    p = _save(Image.new("RGB", (7, 5), (200, 10, 30)), tmp_path / "a.jpg", quality=100)
    px = picture.load_pixels(p)
    assert px.shape == (5, 7, 3) and px.dtype == np.uint8
    assert np.abs(px.astype(int) - [200, 10, 30]).max() <= 3


def test_rgba_alpha_composited_onto_background(tmp_path):
    a = np.zeros((4, 4, 4), dtype=np.uint8)
    a[..., 0] = 255  # red, fully transparent
    p = _save(Image.fromarray(a, "RGBA"), tmp_path / "a.png")
    px = picture.load_pixels(p)
    assert px.shape == (4, 4, 4)
    g = picture.fit((4, 4), 1, 1)
    lin = picture.cell_colors(px, g, (0, 0, 255))
    assert np.allclose(lin[0, 0], [0, 0, 1])  # only the background shows
    lin = picture.cell_colors(px, g, (255, 255, 255))
    assert np.allclose(lin[0, 0], [1, 1, 1])


def test_half_transparent_composites_in_linear_light():
    a = np.zeros((1, 1, 4), dtype=np.uint8)
    a[..., 3] = 255 * 0 + 128  # black at ~50% opacity on white
    lin = picture.cell_colors(picture.load_pixels(a), picture.fit((1, 1)), (255, 255, 255))
    assert lin[0, 0, 0] == pytest.approx(1 - 128 / 255, abs=1e-3)


def test_palette_gif_with_transparency(tmp_path):
    img = Image.new("P", (6, 6), 0)
    img.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    img.paste(1, (0, 0, 3, 6))
    p = _save(img, tmp_path / "a.gif", transparency=0)
    px = picture.load_pixels(p)
    assert px.shape[2] == 4
    assert (px[:, :3, 3] == 255).all() and (px[:, 3:, 3] == 0).all()
    assert (px[:, :3, 0] == 255).all()


@pytest.mark.parametrize("mode", ["L", "LA", "1", "P", "CMYK", "RGBX"])
def test_other_modes(tmp_path, mode):
    img = Image.new("RGB", (8, 8), (255, 255, 255))
    img.paste((0, 0, 0), (0, 0, 4, 8))
    img = img.convert(mode)
    fmt = {"CMYK": "a.jpg", "RGBX": "a.tiff"}.get(mode, "a.png")
    p = _save(img, tmp_path / fmt)
    px = picture.load_pixels(p)
    assert px.shape[:2] == (8, 8)
    grey = px[..., :3].astype(int).mean(axis=2)
    assert grey[:, :3].max() < 40 and grey[:, 5:].min() > 215


def test_16_bit_grey_png(tmp_path):
    a = np.array([[0, 65535], [32768, 1000]], dtype=np.uint16)
    p = _save(Image.fromarray(a), tmp_path / "a.png")
    px = picture.load_pixels(p)
    assert px.dtype == np.uint16
    assert px[0, 0, 0] == 0 and px[0, 1, 0] == 65535 and px[1, 0, 0] == 32768 and px[1, 1, 0] == 1000


def test_32_bit_and_float_tiff(tmp_path):
    a = np.array([[0, 255]], dtype=np.int32)
    px = picture.load_pixels(_save(Image.fromarray(a, "I"), tmp_path / "i.tiff"))
    assert px[0, 0, 0] == 0 and px[0, 1, 0] == 65535
    f = np.array([[0.0, 1.0, 0.5]], dtype=np.float32)
    px = picture.load_pixels(_save(Image.fromarray(f, "F"), tmp_path / "f.tiff"))
    assert px[0, 0, 0] == 0 and px[0, 1, 0] == 65535 and abs(int(px[0, 2, 0]) - 32768) <= 1


def test_first_frame_of_animation(tmp_path):
    frames = [Image.new("RGB", (4, 4), c) for c in [(255, 0, 0), (0, 0, 255), (0, 255, 0)]]
    p = tmp_path / "a.gif"
    frames[0].save(p, save_all=True, append_images=frames[1:], duration=50)
    px = picture.load_pixels(p)
    assert tuple(px[0, 0, :3]) == (255, 0, 0)


def test_exif_orientation_applied(tmp_path):
    img = Image.new("RGB", (6, 3), (255, 255, 255))
    img.paste((0, 0, 0), (0, 0, 1, 3))  # black left column
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    p = _save(img, tmp_path / "a.jpg", exif=exif, quality=100)
    px = picture.load_pixels(p)
    assert px.shape[:2] == (6, 3)
    assert px[0, :, 0].mean() < 60 and px[-1, :, 0].mean() > 200  # the left column is now the top row


@pytest.mark.parametrize(
    ("array", "shape"),
    [
        (np.zeros((3, 4), dtype=bool), (3, 4, 3)),
        (np.zeros((3, 4, 2), dtype=np.uint8), (3, 4, 4)),
        (np.zeros((3, 4, 3), dtype=np.float64), (3, 4, 3)),
        (np.zeros((3, 4, 4), dtype=np.uint16), (3, 4, 4)),
        (np.zeros((3, 4), dtype=np.int64), (3, 4, 3)),
    ],
)
def test_arrays(array, shape):
    assert picture.load_pixels(array).shape == shape


@pytest.mark.parametrize(
    ("array", "words"),
    [
        (np.zeros((3, 4, 5)), "shape"),
        (np.zeros((0, 4)), "empty"),
        (np.full((2, 2), np.nan), "NaN"),
        (np.full((2, 2), 2.0), "[0, 1]"),
        (np.full((2, 2), -1, dtype=np.int32), "0-65535"),
        (np.zeros((2, 2), dtype=complex), "dtype"),
    ],
)
def test_bad_arrays(array, words):
    with pytest.raises(ImageError, match=words.replace("[", r"\[").replace("]", r"\]")):
        picture.load_pixels(array)


def _png_bytes(w=2, h=2):
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (1, 2, 3)).save(buf, format="PNG")
    return buf.getvalue()


def _png_with_size(w, h):
    data = bytearray(_png_bytes())
    ihdr = struct.pack(">II", w, h) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty file"),
        (b"hello, I am text\n", "not a picture"),
        (_png_bytes(40, 40)[:60], "cannot decode"),
        (_png_with_size(100000, 100000), "decompression bomb"),
        (_png_with_size(9000, 9000), "decompression bomb"),
    ],
)
def test_unreadable_files_raise_one_image_error(tmp_path, data, words):
    p = tmp_path / "bad.png"
    p.write_bytes(data)
    with pytest.raises(ImageError, match=words) as info:
        picture.load_pixels(p)
    assert str(p) in str(info.value) and "\n" not in str(info.value)


def test_truncated_jpeg(tmp_path):
    buf = io.BytesIO()
    rng = np.random.default_rng(1)
    Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)).save(buf, format="JPEG")
    p = tmp_path / "t.jpg"
    p.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(ImageError, match="cannot decode"):
        picture.load_pixels(p)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        picture.load_pixels(tmp_path / "nope.png")
    with pytest.raises(ImageError, match="directory"):
        picture.load_pixels(tmp_path)


# --------------------------------------------------------------- fit, scale


def test_fit_geometry():
    assert picture.fit((400, 200), 40).size == (40, 20)
    assert picture.fit((400, 200), height=10).size == (20, 10)
    assert picture.fit((20, 10)).size == (20, 10)  # small pictures: a cell per pixel
    assert picture.fit((800, 400)).size == (picture.DEFAULT_SIDE, picture.DEFAULT_SIDE // 2)
    g = picture.fit((400, 200), 30, 30, "fit")
    assert g.size == g.grid == (30, 15)
    g = picture.fit((400, 200), 30, 30, "crop")
    assert g.size == (30, 30) and g.box == (100.0, 0.0, 300.0, 200.0)
    g = picture.fit((400, 200), 30, 30, "pad")
    assert g.size == (30, 15) and g.grid == (30, 30) and g.offset == (0, 7)
    assert picture.fit((1, 5000), 10).size == (10, 1024)  # clamped to MAX_CELLS


@pytest.mark.parametrize(
    ("kw", "words"),
    [({"width": 0}, "width"), ({"height": 2000}, "height"), ({"width": 2.5}, "whole"), ({"mode": "zoom"}, "mode")],
)
def test_fit_bad(kw, words):
    with pytest.raises(OptionError, match=words):
        picture.fit((10, 10), **kw)


def _slow_cell_colors(pixels, g, bg):
    """Obviously correct area averaging: every pixel's overlap with every cell, in linear light."""
    lin = picture.srgb_to_linear(pixels[..., :3] / (255 if pixels.dtype == np.uint8 else 65535))
    if pixels.shape[2] == 4:
        a = pixels[..., 3:4] / (255 if pixels.dtype == np.uint8 else 65535)
        lin = lin * a + picture.srgb_to_linear(np.array(bg) / 255) * (1 - a)
    x0, y0, x1, y1 = g.box
    cw, ch = g.size
    out = np.zeros((ch, cw, 3))
    for j in range(ch):
        for i in range(cw):
            cy0, cy1 = y0 + (y1 - y0) * j / ch, y0 + (y1 - y0) * (j + 1) / ch
            cx0, cx1 = x0 + (x1 - x0) * i / cw, x0 + (x1 - x0) * (i + 1) / cw
            acc, tot = np.zeros(3), 0.0
            for y in range(pixels.shape[0]):
                oy = max(0.0, min(y + 1, cy1) - max(y, cy0))
                for x in range(pixels.shape[1]):
                    ox = max(0.0, min(x + 1, cx1) - max(x, cx0))
                    acc += oy * ox * lin[y, x]
                    tot += oy * ox
            out[j, i] = acc / tot
    grid = np.empty((g.grid[1], g.grid[0], 3))
    grid[:] = picture.srgb_to_linear(np.array(bg) / 255)
    grid[g.offset[1] : g.offset[1] + ch, g.offset[0] : g.offset[0] + cw] = out
    return grid


@pytest.mark.parametrize(
    ("shape", "w", "h", "mode", "dtype"),
    [
        ((13, 17, 3), 5, None, "fit", np.uint8),
        ((13, 17, 4), 4, 6, "crop", np.uint8),
        ((9, 11, 3), 7, 7, "pad", np.uint16),
        ((5, 3, 3), 7, None, "fit", np.uint8),
        ((10, 1, 3), None, 3, "fit", np.uint8),
    ],
)
def test_cell_colors_match_slow_reference(shape, w, h, mode, dtype):
    rng = np.random.default_rng(sum(shape))
    top = 255 if dtype == np.uint8 else 65535
    pixels = rng.integers(0, top + 1, shape).astype(dtype)
    g = picture.fit((shape[1], shape[0]), w, h, mode)
    fast = picture.cell_colors(pixels, g, (10, 200, 30))
    slow = _slow_cell_colors(pixels, g, (10, 200, 30))
    np.testing.assert_allclose(fast, slow, atol=1e-5)


def test_averaging_is_in_linear_light():
    checker = np.indices((8, 8)).sum(axis=0) % 2 * 255
    lin = picture.cell_colors(picture.load_pixels(checker.astype(np.uint8)), picture.fit((8, 8), 1))
    grey = picture.linear_to_srgb(lin)[0, 0, 0] * 255
    assert 186 < grey < 189  # not 127.5: half the light of white is a light grey


# ----------------------------------------------------------------- quantise


def _lin(rgb8):
    return picture.srgb_to_linear(np.asarray(rgb8, dtype=np.float64) / 255)


def test_bw_otsu_and_cost():
    cells = np.zeros((4, 6, 3))
    cells[:, :2] = _lin([30, 30, 30])
    cells[:, 2:] = _lin([220, 220, 220])
    q = picture.quantise(cells)
    assert q.palette.hex() == ["#ffffff", "#000000"]
    assert (q.grid[:, :2] == 1).all() and (q.grid[:, 2:] == 0).all()
    assert 30 < q.threshold < 220
    # the right colour costs nothing, the wrong one the distance from the threshold
    assert (np.take_along_axis(q.cost, q.grid[..., None].astype(int), 2) == 0).all()
    assert (q.cost[:, :, 1][:, 2:] > 0).all() and (q.cost[:, :, 0][:, :2] > 0).all()


def test_bw_background_is_the_lighter_colour_unless_told():
    # a dark picture's clues count its dark cells: shading them draws it, not its negative
    cells = np.zeros((4, 6, 3))
    cells[:, :5] = _lin([10, 10, 10])
    cells[:, 5:] = _lin([250, 250, 250])
    q = picture.quantise(cells)
    assert q.palette.hex() == ["#ffffff", "#000000"] and (q.grid[:, :5] == 1).all()
    q = picture.quantise(cells, background="black")
    assert q.palette.hex() == ["#000000", "#ffffff"] and (q.grid[:, :5] == 0).all()
    q = picture.quantise(cells, palette="#003,#ffd")  # two colours of one's own: the lighter too
    assert q.palette.hex() == ["#ffffdd", "#000033"] and (q.grid[:, :5] == 1).all()


def test_manual_threshold():
    cells = np.broadcast_to(_lin([100, 100, 100]), (2, 2, 3))
    assert (picture.quantise(cells, threshold=90).grid == 0).all()  # lighter than 90: white
    q = picture.quantise(cells, threshold=110, background="white")
    assert (q.grid == 1).all()
    assert q.threshold == pytest.approx(110, abs=0.01)


def test_colour_palette_is_deterministic_and_background_first():
    rng = np.random.default_rng(5)
    cells = rng.random((12, 12, 3))
    cells[:, :6] = _lin([250, 250, 240])
    a = picture.quantise(cells, colors=5)
    b = picture.quantise(cells, colors=5)
    assert a.palette == b.palette and (a.grid == b.grid).all()
    assert len(a.palette) == 5
    counts = np.bincount(a.grid.ravel(), minlength=5)
    assert counts[0] == counts.max()
    assert (a.cost.argmin(axis=2) == a.grid).all()


def test_fewer_distinct_colours_than_asked():
    cells = np.zeros((4, 4, 3))
    cells[:2] = _lin([255, 0, 0])
    q = picture.quantise(cells, colors=8)
    assert len(q.palette) == 2
    q = picture.quantise(np.zeros((3, 3, 3)), colors=4)  # one colour: a second is added
    assert len(q.palette) == 2 and (q.grid == 0).all()


def test_user_palette_and_fixed_background():
    cells = np.zeros((2, 3, 3))
    cells[:, 0] = _lin([250, 0, 0])
    cells[:, 1:] = _lin([0, 0, 250])
    q = picture.quantise(cells, palette="#fff,#f00,#00f")
    assert q.palette.hex() == ["#0000ff", "#ffffff", "#ff0000"]
    assert (q.grid[:, 0] == 2).all() and (q.grid[:, 1:] == 0).all()
    q = picture.quantise(cells, palette="#fff,#f00,#00f", background="#fff")
    assert q.palette.hex()[0] == "#ffffff"
    q = picture.quantise(cells, colors=3, background="#00ff00")
    assert q.palette.hex()[0] == "#00ff00"


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"colors": 1}, "2 to 64"),
        ({"colors": 65}, "2 to 64"),
        ({"palette": "#fff"}, "at least 2"),
        ({"palette": "#fff,#ggg"}, "not a colour"),
        ({"palette": "#fff,#ffffff"}, "twice"),
        ({"palette": "#fff,#000", "background": "#f00"}, "not one of"),
        ({"background": "red"}, "white or black"),
        ({"threshold": 300}, "0 to 255"),
        ({"colors": 3, "threshold": 100}, "black-and-white"),
        ({"dither": "random"}, "dither"),
    ],
)
def test_bad_quantise_options(kw, words):
    with pytest.raises(OptionError, match=words):
        picture.quantise(np.zeros((2, 2, 3)), **kw)


@pytest.mark.parametrize("dither", ["ordered", "floyd-steinberg"])
def test_dithering_mixes_a_mid_grey(dither):
    cells = np.zeros((16, 16, 3))
    cells[:, :8] = _lin([0, 0, 0])
    cells[:, 8:] = _lin([255, 255, 255])
    cells[4:12, 4:12] = _lin([128, 128, 128])
    plain = picture.quantise(cells, threshold=128, background="white")
    q = picture.quantise(cells, threshold=128, dither=dither, background="white")
    mid = q.grid[4:12, 4:12]
    assert 0.2 < mid.mean() < 0.8  # a mixture, not one colour
    assert len(np.unique(plain.grid[4:12, 4:12])) == 1


@pytest.mark.parametrize("dither", ["ordered", "floyd-steinberg"])
def test_colour_dithering(dither):
    cells = np.broadcast_to(_lin([128, 0, 128]), (8, 8, 3)).copy()
    q = picture.quantise(cells, palette="#f00,#00f,#fff", dither=dither)
    assert len(np.unique(q.grid)) >= 2


def test_remove_isolated():
    g = np.zeros((5, 5), dtype=np.uint8)
    g[2, 2] = 1  # isolated
    g[0, 0:2] = 2  # a pair: kept
    out = picture.remove_isolated(g)
    assert out[2, 2] == 0 and (out[0, 0:2] == 2).all()
    assert picture.remove_isolated(np.array([[1]]))[0, 0] == 1  # nothing to compare with
    cost = np.zeros((1, 3, 3))
    cost[0, 1] = [5, 9, 1]
    out = picture.remove_isolated(np.array([[0, 1, 2]]), cost)
    assert out[0, 1] == 2  # the neighbouring colour that suits the cell best


def _smooth_naive(grid):
    """One cell at a time: the colour at least 6 of its 8 neighbours share (beyond the edge, the nearest cell)."""
    h, w = grid.shape
    out = grid.copy()
    for r in range(h):
        for c in range(w):
            around = [
                grid[min(max(r + dr, 0), h - 1), min(max(c + dc, 0), w - 1)]
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if dr or dc
            ]
            values, counts = np.unique(around, return_counts=True)
            if counts.max() >= picture.cleanup.SMOOTH_NEIGHBOURS and values[counts.argmax()] != grid[r, c]:
                out[r, c] = values[counts.argmax()]
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_smooth_against_one_cell_at_a_time(h, w, k, seed):
    grid = np.random.default_rng(seed).integers(0, k, (h, w)).astype(np.uint8)
    out = picture.smooth(grid)
    assert out.dtype == np.uint8 and (out == _smooth_naive(grid)).all()
    assert (grid == np.random.default_rng(seed).integers(0, k, (h, w))).all()  # the input is left as it was


def test_smooth_evens_out_speckle_and_keeps_borders():
    g = np.zeros((6, 6), dtype=np.uint8)
    g[:, 3:] = 1  # two regions: the border between them stays
    g[1, 1] = 1  # a speck in the white region, two on the black one's edge
    g[4, 4] = 0
    out = picture.smooth(g)
    assert out[1, 1] == 0 and out[4, 4] == 1
    assert (out[:, :3] == 0).all() and (out[:, 3:] == 1).all()
    board = (np.indices((5, 6)).sum(axis=0) % 2).astype(np.uint8)  # no colour holds 6 of any cell's 8 neighbours
    assert (picture.smooth(board) == board).all()
    line = np.zeros((5, 6), dtype=np.uint8)
    line[:, 2] = 1  # a line one cell wide is evened out too (why make takes it only within the likeness margin)
    assert not picture.smooth(line).any()


# ---------------------------------------------------------- hostile input


def _seed_files():
    rng = np.random.default_rng(3)
    img = Image.fromarray(rng.integers(0, 255, (9, 11, 3), dtype=np.uint8))
    out = []
    for fmt, extra in [("PNG", {}), ("JPEG", {}), ("GIF", {}), ("BMP", {}), ("TIFF", {}), ("WEBP", {})]:
        buf = io.BytesIO()
        try:
            img.save(buf, format=fmt, **extra)
        except (KeyError, OSError):  # a codec this Pillow lacks
            continue
        out.append(buf.getvalue())
    return out


SEEDS = _seed_files()


@pytest.mark.timeout(60)
@settings(deadline=None, max_examples=150)
@given(st.data())
def test_mutated_files_give_an_array_or_one_image_error(data):
    seed = data.draw(st.sampled_from(SEEDS))
    buf = bytearray(seed)
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.integers(0, 2))
        pos = data.draw(st.integers(0, len(buf) - 1))
        if op == 0:
            buf[pos] = data.draw(st.integers(0, 255))
        elif op == 1:
            del buf[pos : pos + data.draw(st.integers(1, 16))]
        else:
            buf[pos:pos] = data.draw(st.binary(min_size=1, max_size=16))
        if not buf:
            buf = bytearray(b"\0")
    try:
        px = picture.load_pixels(bytes(buf))
    except ImageError as exc:
        assert "\n" not in str(exc)
    else:
        assert px.ndim == 3 and px.shape[2] in (3, 4) and px.dtype in (np.uint8, np.uint16)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("#fff", (255, 255, 255)), (" White ", (255, 255, 255)), ("00ff00", (0, 255, 0)), ((1, 2, 3), (1, 2, 3))],
)
def test_parse_color(value, expected):
    assert picture.parse_color(value) == expected


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("#ggg", "#rrggbb, #rgb or a CSS colour name"),
        ("+12345", "is not a colour"),
        ((1, 2), "is not a colour"),
        ((1, 2, 300), "outside 0-255"),
        ((float("inf"), 0, 0), "is not a colour"),
        (None, "is not a colour"),
    ],
)
def test_parse_color_refuses_with_an_option_error(value, words):
    with pytest.raises(OptionError, match=words.replace("+", r"\+")):
        picture.parse_color(value, "--background")


LOOP_EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{ } loop\n"


@pytest.mark.parametrize(
    "data",
    [LOOP_EPS, b"%!PS\n{ } loop\n", b"\x04%!PS-Adobe-3.0\n", b"\xc5\xd0\xd3\xc6" + bytes(26) + LOOP_EPS],
)
def test_postscript_is_refused_without_running_ghostscript(tmp_path, monkeypatch, data):
    # issue 40: `rofl make loop.eps` ran Ghostscript forever (its stderr leaked)
    import subprocess

    def no_program(*args, **kwargs):
        msg = f"ran {args[0]!r}"
        raise AssertionError(msg)

    monkeypatch.setattr(subprocess, "Popen", no_program)
    monkeypatch.setattr(subprocess, "check_call", no_program)
    path = tmp_path / "loop.eps"
    path.write_bytes(data)
    with pytest.raises(ImageError, match="an EPS or PostScript file; rofl does not read them"):
        picture.load_pixels(path)
    with pytest.raises(ImageError):
        picture.load_pixels(data[:3] + b"x" + data[4:])  # not PostScript after all: nothing reads it


def test_a_batch_lists_no_postscript(tmp_path):
    from rofl.batch.make import picture_files, picture_suffixes

    assert ".eps" not in picture_suffixes() and ".ps" not in picture_suffixes()
    assert ".png" in picture_suffixes()
    (tmp_path / "a.eps").write_bytes(LOOP_EPS)
    (tmp_path / "b.ps").write_bytes(LOOP_EPS)
    Image.new("L", (4, 4)).save(tmp_path / "c.png")
    assert [p.name for p in picture_files([tmp_path])] == ["c.png"]
