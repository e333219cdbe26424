"""rofl's one reader of colour strings, :func:`rofl.palette.parse_color` (on ``PIL.ImageColor``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rofl import picture
from rofl.errors import OptionError, PuzzleError
from rofl.palette import Palette, parse_color


@pytest.mark.parametrize(
    ("value", "rgb"),
    [
        ("#ff8000", (255, 128, 0)),
        ("#F80", (255, 136, 0)),
        ("ff8000", (255, 128, 0)),  # bare hex digits, as rofl always read them
        ("f80", (255, 136, 0)),
        ("  White ", (255, 255, 255)),
        ("green", (0, 128, 0)),  # CSS green, as the old built-in names had it
        ("RebeccaPurple", (102, 51, 153)),
        ("rgb(1, 2, 3)", (1, 2, 3)),
        ("rgb(100%, 0%, 50%)", (255, 0, 128)),
        ("hsl(120, 100%, 25%)", (0, 128, 0)),
        ("#ff8000ff", (255, 128, 0)),  # alpha only when fully opaque
        ("#f80f", (255, 136, 0)),
        ("rgba(1, 2, 3, 255)", (1, 2, 3)),
        ((1, 2, 3), (1, 2, 3)),
        ([255, 0, 0], (255, 0, 0)),
    ],
)
def test_colour_strings_and_triples(value, rgb):
    assert parse_color(value) == rgb
    assert picture.parse_color(value) == rgb


@given(st.tuples(*[st.integers(0, 255)] * 3))
def test_hex_round_trip(rgb):
    text = "#{:02x}{:02x}{:02x}".format(*rgb)
    assert parse_color(text) == parse_color(text.upper()) == parse_color(text[1:]) == rgb
    assert Palette([text]).hex() == [text]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("#ggg", "background: '#ggg' is not a colour (#rrggbb, #rgb or a CSS colour name)"),
        ("#12345", "background: '#12345' is not a colour (#rrggbb, #rgb or a CSS colour name)"),
        ("bleu", "background: 'bleu' is not a colour (#rrggbb, #rgb or a CSS colour name)"),
        ("", "background: '' is not a colour (#rrggbb, #rgb or a CSS colour name)"),
        ("x" * 200, "is not a colour (#rrggbb, #rgb or a CSS colour name)"),
        ("#ff000080", "background: '#ff000080' is partly transparent (alpha 128); puzzle colours are opaque"),
        ("rgba(0, 0, 0, 0)", "background: 'rgba(0, 0, 0, 0)' is partly transparent (alpha 0)"),
        ("rgb(256, 0, 0)", "background: 'rgb(256, 0, 0)' has a component outside 0-255"),
        ("rgb(101%, 0%, 0%)", "has a component outside 0-255"),
        ((0, 0, 256), "background: (0, 0, 256) has a component outside 0-255"),
        ((1, 2), "background: (1, 2) is not a colour (three integers 0-255)"),
        (None, "background: None is not a colour (three integers 0-255)"),
    ],
)
def test_what_is_not_a_colour(value, message):
    """One reader: an option's colour (the default) and a palette's colour
    (``error=PuzzleError``, as :class:`Palette` reads them) fail alike."""
    assert picture.parse_color is parse_color
    with pytest.raises(PuzzleError) as in_a_puzzle:
        parse_color(value, "background", error=PuzzleError)
    with pytest.raises(OptionError) as as_an_option:
        parse_color(value, "background")
    with pytest.raises(PuzzleError) as in_a_palette:
        Palette(["#fff", value])
    assert str(in_a_palette.value).startswith("palette colour 1: ")
    for caught in (in_a_puzzle, as_an_option):
        assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_palette_reads_colour_names():
    palette = Palette(["white", "Black", "rgb(255, 0, 0)", "#00f"])
    assert palette.hex() == ["#ffffff", "#000000", "#ff0000", "#0000ff"]
    assert picture.parse_palette("white, navy ,#f00") == [(255, 255, 255), (0, 0, 128), (255, 0, 0)]
    with pytest.raises(OptionError, match="the palette names the same colour twice"):
        picture.parse_palette("white,#fff")
