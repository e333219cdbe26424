"""The Pillow plugin: open solves, save encodes, other formats untouched, registration idempotent."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import rofl
from rofl.errors import FormatError, ImageError, UnsolvableError
from rofl.formats import rofl as codec
from rofl.picture import image_from_grid
from rofl.puzzle import Palette, Puzzle

HANDS_UP = np.array([[1, 0, 1, 0, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 1, 0]], np.uint8)
COLOURS = Palette(["#fafafa", "#101010", "#c02020"])


def test_open_solves_and_save_encodes(tmp_path):
    grid = HANDS_UP.copy()
    grid[1, 1:4] = 2
    path = tmp_path / "x.rofl"
    image_from_grid(grid, COLOURS).save(path, title="Hands", crc=True)
    assert codec.read(path).crc32 is not None
    with Image.open(path) as image:
        assert (image.format, image.mode, image.size) == ("ROFL", "P", (5, 5))
        assert image.get_format_mimetype() == "image/x-rofl"
        assert np.array_equal(np.asarray(image), grid)
        assert image.info["title"] == "Hands"
        assert image.getpalette()[:9] == [250, 250, 250, 16, 16, 16, 192, 32, 32]


def test_save_from_rgb_and_rgba(tmp_path):
    rgb = np.zeros((5, 5, 4), np.uint8)
    rgb[HANDS_UP == 1] = (0, 0, 255, 255)  # the rest fully transparent
    path = tmp_path / "t.rofl"
    Image.fromarray(rgb, "RGBA").save(path)
    puzzle = codec.load(path)
    assert puzzle == Puzzle.from_grid(HANDS_UP, Palette(["#ffffff", "#0000ff"]))
    Image.fromarray(rgb[..., :3], "RGB").convert("L").save(tmp_path / "l.rofl", background="#000000")
    assert codec.load(tmp_path / "l.rofl").palette[0] == (0, 0, 0)


def test_save_refuses_what_line_logic_cannot_decode(tmp_path):
    path = tmp_path / "amb.rofl"
    with pytest.raises(UnsolvableError, match="4 of 4 cells undetermined.*rofl make"):
        image_from_grid(np.eye(2, dtype=np.uint8), Palette.black_white()).save(path)
    assert not path.exists()
    noisy = np.random.default_rng(0).integers(0, 256, (10, 10, 3), dtype=np.uint8)
    with pytest.raises(ImageError, match="at most 64"):
        Image.fromarray(noisy, "RGB").save(tmp_path / "noisy.rofl")


def test_other_formats_are_untouched(tmp_path):
    png = tmp_path / "a.png"
    image_from_grid(HANDS_UP, Palette.black_white()).save(png)
    with Image.open(png) as image:
        assert image.format == "PNG"
    junk = tmp_path / "junk.rofl"
    junk.write_bytes(b"not a picture at all")
    with pytest.raises(Image.UnidentifiedImageError):
        Image.open(junk)


def test_broken_file_fails_in_load(tmp_path):
    data = codec.dumps(Puzzle.from_grid(HANDS_UP))
    path = tmp_path / "cut.rofl"
    path.write_bytes(data[:-3])
    with Image.open(path) as image:  # the header is fine
        assert image.size == (5, 5)
        with pytest.raises(FormatError, match=r"cut\.rofl: byte \d+: column"):
            image.load()
    path.write_bytes(data[:9])
    with pytest.raises(FormatError, match="palette"):
        Image.open(path)


def test_register_is_idempotent():
    before = (list(Image.ID), dict(Image.OPEN), dict(Image.EXTENSION), dict(Image.MIME))
    rofl.register()
    rofl.register()
    assert (list(Image.ID), dict(Image.OPEN), dict(Image.EXTENSION), dict(Image.MIME)) == before
    assert Image.ID.count("ROFL") == 1 and Image.MIME["ROFL"] == "image/x-rofl"


def test_import_rofl_registers_without_numba():
    code = (
        "import sys, rofl; from PIL import Image; "
        "assert Image.registered_extensions()['.rofl'] == 'ROFL'; "
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_broken_files_are_os_errors_as_pillow_expects(tmp_path):
    """Applications catch OSError around Image.open(...).load(); rofl's error is the cause."""
    from rofl.errors import RoflImageError

    data = codec.dumps(Puzzle.from_grid(HANDS_UP))
    path = tmp_path / "cut.rofl"
    path.write_bytes(data[:-3])
    with Image.open(path) as image, pytest.raises(OSError, match="cut.rofl") as info:
        image.load()
    assert isinstance(info.value, RoflImageError) and isinstance(info.value.__cause__, FormatError)
    path.write_bytes(data[:9])
    with pytest.raises(OSError, match="palette"):
        Image.open(path)
    ambiguous = tmp_path / "amb.rofl"
    ambiguous.write_bytes(codec.dumps(Puzzle.from_grid(np.eye(2, dtype=np.uint8))))
    with Image.open(ambiguous) as image, pytest.raises(OSError) as info:
        image.load()
    assert isinstance(info.value.__cause__, UnsolvableError)


def test_a_broken_file_from_memory_goes_unnamed_for_its_caller_to_name(tmp_path):
    """``rofl make`` and the studio read uploads from memory and name the file
    themselves: the plugin's message has no ``<rofl>`` placeholder in it."""
    import io

    from rofl.picture import load_pixels

    data = codec.dumps(Puzzle.from_grid(HANDS_UP))[:-3]
    with Image.open(io.BytesIO(data)) as image, pytest.raises(OSError) as info:
        image.load()
    assert str(info.value).startswith("byte ") and "<rofl>" not in str(info.value)
    (tmp_path / "cut.rofl").write_bytes(data)
    with pytest.raises(ImageError) as info:
        load_pixels(tmp_path / "cut.rofl")
    assert str(info.value).startswith(f"{tmp_path / 'cut.rofl'}: cannot decode the picture (byte ")
    assert "<rofl>" not in str(info.value)


def test_the_plugin_has_a_cell_limit_and_a_budget(tmp_path, monkeypatch):
    from rofl import RoflImagePlugin
    from rofl.errors import BudgetError, LimitError

    path = tmp_path / "h.rofl"
    path.write_bytes(codec.dumps(Puzzle.from_grid(HANDS_UP)))
    monkeypatch.setattr(RoflImagePlugin, "MAX_CELLS", 24)
    with pytest.raises(OSError, match="MAX_CELLS is 24") as info:
        Image.open(path)
    assert isinstance(info.value.__cause__, LimitError)
    monkeypatch.setattr(RoflImagePlugin, "MAX_CELLS", 25)
    with Image.open(path) as image:
        image.load()
    assert RoflImagePlugin.BUDGET > 0
    calls = []

    def fake(puzzle, **kwargs):
        calls.append(kwargs["budget"])
        msg = "out of time"
        raise BudgetError(msg)

    monkeypatch.setattr("rofl.decode.solve_picture", fake)
    monkeypatch.setattr(RoflImagePlugin, "BUDGET", 0.5)
    with Image.open(path) as image, pytest.raises(OSError, match="out of time"):
        image.load()
    assert calls == [0.5]


def test_the_header_of_a_255_colour_version_2_rectangle_is_read_whole():
    """A version-2 rectangle has 12 bytes before its palette: the plugin reads
    all 765 bytes of a 255-colour palette and refuses the file for its colours
    (beyond this reader), not for a palette cut short (spec/ROFL.md 5.1)."""
    import io

    from rofl.errors import LimitError, RoflImageError

    data = b"ROFL\x00\x02\x02\x00\x01\x00\x01\xff" + bytes(3 * 255) + b"\x01\x01\x00"
    with pytest.raises(RoflImageError) as info:
        Image.open(io.BytesIO(data))
    assert isinstance(info.value.__cause__ or info.value, LimitError) or "at most 64" in str(info.value)
    assert "palette" not in str(info.value)


def test_save_keeps_an_empty_metadata_value(tmp_path):
    grid = np.array([[1, 0], [1, 1]], np.uint8)
    image = image_from_grid(grid, Palette.black_white())
    image.save(tmp_path / "p.rofl", title="Corner", author="")
    assert dict(codec.parse((tmp_path / "p.rofl").read_bytes()).puzzle.meta) == {"title": "Corner", "author": ""}
