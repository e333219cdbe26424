"""An output whose directory is missing (or is a file) is refused before any
work, the same way by every command: a usage error naming the directory,
not an ``errno`` message once the work is done."""

from __future__ import annotations

import pytest

from tests.clirun import run, usage_error_line
from tests.places import SAMPLES

HORSE = SAMPLES / "horse.rofl"

COMMANDS = [
    ("convert", str(HORSE), "{out}.non"),
    ("page", str(HORSE), "-o", "{out}.html"),
    ("decode", str(HORSE), "-o", "{out}.png"),
    ("encode", str(SAMPLES / "horse.png"), "-o", "{out}.rofl"),
    ("hide", "hello", "-o", "{out}.rofl"),
    ("hide", "hello", "--sheet", "{out}.png"),
    ("solve", str(HORSE), "--first", "{out}.png"),
    ("sheet", str(HORSE), "-o", "{out}.png"),
    ("make", str(SAMPLES / "horse.png"), "-o", "{out}.rofl"),
    ("bench", str(HORSE), "-o", "{out}.csv"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: f"{a[0]} {a[-2] if a[-2].startswith('-') else ''}")
@pytest.mark.parametrize("parent", ["missing", "file"])
def test_an_output_in_no_directory_is_refused_first(tmp_path, args, parent):
    where = tmp_path / "no"
    if parent == "file":
        where.write_text("a file")
    out = str(where / "x")
    line = usage_error_line(run(*(a.format(out=out) for a in args)), repr(str(where)))
    assert line.endswith("is a file, not a directory" if parent == "file" else "does not exist")
