"""What the commands' help says agrees with the library.

The command line restates the library's choice lists and file formats so that
``rofl --help`` starts without numpy (tests/test_startup.py); these tests keep
the two in step."""

from __future__ import annotations

import re

import pytest

from rofl.cli import main
from tests.clirun import run

MAKE = main.get_command(None, "make")


def _option(command, name: str):
    [param] = [p for p in command.params if name in p.opts]
    return param


@pytest.mark.parametrize(
    ("option", "choices"),
    [
        ("--mode", lambda: __import__("rofl.picture.fit", fromlist=["MODES"]).MODES),
        ("--shape", lambda: __import__("rofl.maker", fromlist=["SHAPES"]).SHAPES),
        ("--style", lambda: __import__("rofl.picture.style", fromlist=["STYLES"]).STYLES),
        ("--crop", lambda: __import__("rofl.picture.subject", fromlist=["CROPS"]).CROPS),
        ("--dither", lambda: __import__("rofl.picture.dither", fromlist=["DITHERS"]).DITHERS),
        ("--difficulty", lambda: tuple(__import__("rofl.solver.grade", fromlist=["GRADES"]).GRADES)),
    ],
)
def test_the_choices_of_rofl_make_are_the_librarys(option, choices):
    assert tuple(_option(MAKE, option).type.choices) == tuple(choices())


def _help(*command: str) -> str:
    return " ".join(run(*command, "--help").output.split())


def test_make_names_every_format_it_writes():
    # issue 41: -o left out .clues, and --unknown-colours said .clues or .json (.rofl holds '?' groups too)
    from rofl.formats import _writers

    listed = re.search(r"-o, --output PATH (.*?)-w, --width", _help("make")).group(1)
    for extension in _writers():
        assert re.search(rf"{re.escape(extension)}\b", listed), extension
    unknown = re.search(r"--unknown-colours FRACTION (.*?)-q, --quiet", _help("make")).group(1)
    for extension, fmt in _writers().items():
        assert (re.search(rf"{re.escape(extension)}\b", unknown) is not None) == fmt.color_sets, extension


def test_make_difficulty_states_steering_s_limits():
    """click prints help as written: ``%%`` showed as ``2%%``."""
    from rofl.refine.difficulty import EASY_LIMIT, HARD_EXTRA

    shown = re.search(r"--difficulty \[easy\|medium\|hard\|expert\] (.*?)--title", _help("make")).group(1)
    assert f"at most {EASY_LIMIT:.0%} in all" in shown and f"at most {HARD_EXTRA:.1%} beyond" in shown, shown
    names = main.list_commands(None)
    assert "make" in names and "sheet" in names
    for name in names:
        for param in main.get_command(None, name).params:
            assert "%%" not in (getattr(param, "help", None) or ""), (name, param.opts)
