"""Bad options: the library raises OptionError, the command line reports it as one ``Error:`` line."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import rofl
from rofl import picture
from rofl.errors import OptionError, RoflError, UsageError
from rofl.render.page import check_page_path
from rofl.secret import check_text
from tests.clirun import run, usage_error_line

# One black pixel on white: enough picture for every option check.
PIXELS = np.array([[0, 255], [255, 255]], dtype=np.uint8)


def test_option_error_is_a_rofl_error_and_a_value_error():
    assert issubclass(OptionError, RoflError) and issubclass(OptionError, ValueError)
    # the command line's own checks are option errors too: one `except` catches both
    assert issubclass(UsageError, OptionError)
    assert rofl.OptionError is OptionError


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"width": 0}, "width must be between 1 and 1024 cells, not 0"),
        ({"height": 2.5}, "height must be a whole number of cells"),
        ({"mode": "stretch"}, "unknown fit mode 'stretch'"),
        ({"dither": "random"}, "unknown dither 'random'"),
        ({"palette": "#fff,#nothex"}, "palette colour 2: '#nothex' is not a colour"),
        ({"palette": "#fff"}, "a palette needs at least 2 colours"),
        ({"background": "chartreuse"}, "for a black-and-white puzzle the background must be white or black"),
        ({"background": "#ff000080"}, "background: '#ff000080' is partly transparent (alpha 128)"),
        ({"colors": 65}, "colors must be a whole number from 2 to 64"),
        ({"threshold": -1}, "threshold must be a grey level from 0 to 255"),
        ({"effort": float("nan")}, "effort must be between 0 and 1000"),
    ],
)
def test_make_refuses_bad_options_with_an_option_error(options, words):
    with pytest.raises(OptionError) as caught:
        rofl.make(PIXELS, **options)
    assert type(caught.value) is OptionError  # the library's error, not the command line's
    assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: picture.fit((10, 10), width=2000), "between 1 and 1024"),
        (lambda: picture.quantise(np.zeros((2, 2, 3)), dither="blue noise"), "unknown dither"),
        (lambda: picture.grid_from_image(Image.new("RGB", (2, 2)), background="nope"), "'nope' is not a colour"),
        (lambda: check_text("é"), "cannot be hidden"),
        (lambda: check_page_path("page.txt"), "a page is written as .html or .htm"),
    ],
)
def test_other_library_calls_raise_option_errors(call, words):
    with pytest.raises(OptionError, match=words) as caught:
        call()
    assert type(caught.value) is OptionError


@pytest.fixture
def png(tmp_path):
    path = tmp_path / "dot.png"
    Image.fromarray(PIXELS).save(path)
    return path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["make", "{png}", "-o", "{out}.rofl", "--background", "zzz"], "background: 'zzz' is not a colour"),
        (
            ["encode", "{png}", "-o", "{out}.rofl", "--background", "rgb(0, 0, 300)"],
            "background: 'rgb(0, 0, 300)' has a component outside 0-255",
        ),
        (["hide", "é", "-o", "{out}.rofl"], "character 1 of the secret"),
    ],
)
def test_the_command_line_reports_an_option_error_as_a_usage_error(png, tmp_path, args, message):
    # the one rule: a bad option is exit status 2 after the usage hint, whether
    # click, the command or the library found it
    argv = [a.format(png=png, out=tmp_path / "out") for a in args]
    assert usage_error_line(run(*argv)).startswith(f"Error: {message}")
    assert not list(tmp_path.glob("out*"))
