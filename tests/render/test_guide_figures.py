"""The sizes docs/guide.md gives for hexagonal sheets and puzzle books are
the ones rofl prints (issue 41: the guide said a side-20 board printed
landscape at about 5 mm a cell, and the samples' book 26 kB)."""

from __future__ import annotations

import re

import pytest

from rofl.formats import read_puzzle
from tests.clirun import run
from tests.places import REPO, SAMPLES

GUIDE = " ".join((REPO / "docs" / "guide.md").read_text(encoding="utf-8").split())


def _said(pattern: str) -> re.Match[str]:
    found = re.search(pattern, GUIDE)
    assert found, f"docs/guide.md no longer says {pattern!r}"
    return found


def _check(puzzle, said: re.Match[str]) -> None:
    from rofl.render.pdf import hex_sheet_cell_mm

    mm, landscape = hex_sheet_cell_mm(puzzle)
    assert ("landscape" if landscape else "portrait") == said.group(1)
    assert f"{mm:.1f}" == said.group(2)


def test_the_flower_sheet_is_as_the_guide_says():
    said = _said(r"flower sample \(side 5\) prints (landscape|portrait) with cells ([\d.]+) mm across")
    _check(read_puzzle(SAMPLES / "hex-flower.clues")[0], said)


@pytest.mark.slow
def test_a_side_20_sheet_is_as_the_guide_says():
    import warnings

    import rofl

    said = _said(r"--size 20 -c 4` \(side 20\) (landscape|portrait) with cells ([\d.]+) mm across")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = rofl.make(SAMPLES / "astronaut.jpg", shape="hex", size=20, colors=4)
    _check(made.puzzle, said)


@pytest.mark.slow
def test_the_samples_book_is_as_the_guide_says(tmp_path):
    said = _said(r"writes the six samples and their answers on (\d+) pages \((\d+) kB\)")
    books = sorted(SAMPLES.glob("*.rofl"))
    book = tmp_path / "book.pdf"
    result = run("sheet", *books, "-o", book, "--answers")
    assert result.output == f"{book}: {len(books)} puzzles and their solutions, {said.group(1)} pages\n"
    assert round(book.stat().st_size / 1024) == int(said.group(2))
