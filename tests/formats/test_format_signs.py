"""The formats registry recognises a file without importing every format module
(rofl.formats._SIGNS), exactly as the declarations in the modules say."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rofl.formats as formats
from rofl.formats import FORMATS, find_format
from rofl.formats._format import BOM_AND_SPACE
from tests.places import DATA_DIR, REPO, SAMPLES


def test_every_sign_is_its_formats_declaration():
    def declared(f):
        sniff = f.sniff.__name__ if f.sniff is not None else ""
        return (f.name, f.module, f.extensions, f.magic, f.starts, sniff, f.guess, f.write is not None)

    def sign(s):
        return (s.name, s.module, s.extensions, s.magic, s.starts, s.sniff, s.guess, s.written)

    assert [sign(s) for s in formats._SIGNS] == [declared(f) for f in FORMATS]
    for s, f in zip(formats._SIGNS, FORMATS, strict=True):
        assert s.format() is f
        if s.sniff:
            assert getattr(importlib.import_module(s.module), s.sniff) is f.sniff
    assert formats._MODULES == tuple(dict.fromkeys(f.module for f in FORMATS))
    assert sorted(formats._WRITTEN) == sorted(formats._writers())


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
