"""The formats registry recognises a file without importing every format module
(rofl.formats._format.SIGNS), and each module's declaration is its sign's."""

from __future__ import annotations

import functools
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rofl.formats as formats
from rofl.formats import FORMATS, find_format
from rofl.formats._format import BOM_AND_SPACE, SIGNS, Format, sign_of
from tests.places import DATA_DIR, REPO, SAMPLES


def test_every_sign_has_its_modules_declaration():
    assert [f.sign for f in FORMATS] == list(SIGNS)  # one declaration per sign, in table order
    for module in {s.module for s in SIGNS}:
        declared = importlib.import_module(module).FORMATS
        assert [f.sign for f in declared] == [s for s in SIGNS if s.module == module]
    for s, f in zip(SIGNS, FORMATS, strict=True):
        assert formats._declared(s) is f and f.sign is sign_of(f.name) is s
        assert (f.sniff is None) == (not s.sniff)
        if s.sniff:  # the sign names a function of its module
            assert callable(f.sniff) and f.sniff.__module__ == s.module and f.sniff.__name__ == s.sniff
    assert len({s.name for s in SIGNS}) == len(SIGNS)
    assert sorted(formats._WRITTEN) == sorted(formats._writers())


def _read(data, *, where):  # a reader of this module (a partial of it passes for one of a format's)
    raise AssertionError


def test_a_declaration_that_disagrees_with_its_sign_is_refused():
    with pytest.raises(ValueError, match="add its Sign"):
        Format("Nobody's .xyz", _read)
    with pytest.raises(ValueError, match="declared in tests.formats.test_format_signs, its sign says rofl.formats.non"):
        Format("Simpson .non", _read, lambda puzzle, solution=None: b"")
    fake = functools.partial(_read)
    fake.__module__ = "rofl.formats.non"
    with pytest.raises(ValueError, match="has no writer"):
        Format("Simpson .non", fake)
    fake.__module__ = "rofl.formats.sheets"
    with pytest.raises(ValueError, match="has a writer"):
        Format("PNG sheet", fake, lambda puzzle, solution=None: b"")
    assert Format("PNG sheet", fake).extensions == (".png",)


def _every_declaration(data: bytes, name: str):
    """The format the whole table picks (what find_format did before it read the signs)."""
    head = data.lstrip(BOM_AND_SPACE)[:16]
    suffix = Path(name).suffix.lower()
    found = (
        [f for f in FORMATS if f.magic and data.startswith(f.magic)]
        or [f for f in FORMATS if f.sniff is not None and f.sniff(data)]
        or [f for f in FORMATS if f.starts and head.startswith(f.starts)]
        or [f for f in FORMATS if suffix and suffix in f.extensions]
        or [f for f in FORMATS if f.guess and head.startswith(f.guess)]
    )
    return found[0] if found else None


FILES = sorted(p for p in [*DATA_DIR.rglob("*"), *SAMPLES.iterdir()] if p.is_file() and p.stat().st_size < 1 << 20)
NAMES = ("", "x.non", "x.json", "x.png", "x.svg", "x.g", "x.txt", "x.pzl", "x.rofl")


def test_find_format_picks_what_the_whole_table_picks():
    assert len(FILES) > 100  # every format's test files, hostile ones included, and the samples
    for path in FILES:
        data = path.read_bytes()
        for name in (path.name, *NAMES):
            assert find_format(data, name) is _every_declaration(data, name), (path, name)


@pytest.mark.parametrize(
    "data",
    [b"", b"{", b"  $1\n", b"3 #ff0000", b"<svg", b"<?xml version='1.0'?><svg/>", b"SAVEFILE:", b"ROFL", b"%PDF-"],
)
def test_find_format_on_bare_starts(data):
    for name in NAMES:
        assert find_format(data, name) is _every_declaration(data, name), (data, name)


def test_reading_a_text_puzzle_imports_its_format_only():
    code = (
        "import sys; from rofl.formats import open_puzzle, is_puzzle_path; "
        f"open_puzzle({str(DATA_DIR / 'formats' / 'house.nin')!r}); is_puzzle_path('x.rofl'); "
        "print(sorted(m for m in sys.modules if m.startswith('rofl.formats.') and '._' not in m))"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    # the sniffers of .pzl, SVG and TAAI look at every file without a magic number
    expected = ["rofl.formats.nin", "rofl.formats.pzl", "rofl.formats.sheets", "rofl.formats.taai"]
    assert out.stdout.strip() == str(expected)
