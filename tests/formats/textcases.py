"""What the tests of the text formats share: the sample folder, the house and
flag pictures, a reader shortcut and hypothesis strategies."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.puzzle import Palette, Puzzle
from tests.places import CORPUS, DATA_DIR

DATA = DATA_DIR / "formats"
BW = Palette.black_white()
HOUSE = np.array(
    [
        [c == "X" for c in row]
        for row in ["...X...", "..XXX..", ".XXXXX.", "XX...XX", ".X.X.X.", ".X.X.X.", ".......", ".XXXXX."]
    ],
    dtype=np.uint8,
)
FLAG = np.array([[0, 2, 2, 0, 3, 3], [1, 2, 0, 0, 3, 0], [1, 1, 1, 3, 3, 0], [0, 0, 2, 2, 0, 1]], dtype=np.uint8)
FLAG_PALETTE = Palette(["#ffffff", "#000000", "#ff0000", "#0000ff"])


def read(module, data: bytes | str, where: str = "test.file"):
    """(puzzle, solution or None) through the reader a format module declares."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return module.FORMAT.read(data, where=where)


def bw_grids():
    """Black-and-white grids of 1 to 14 cells a side."""
    return st.tuples(st.integers(1, 14), st.integers(1, 14)).flatmap(
        lambda shape: arrays(np.uint8, shape, elements=st.integers(0, 1))
    )


def colour_puzzles():
    """(grid, palette): up to 8 colours, random (possibly repeated) RGB values."""
    rgb = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
    return st.integers(2, 8).flatmap(
        lambda k: st.tuples(
            st.tuples(st.integers(1, 12), st.integers(1, 12)).flatmap(
                lambda shape: arrays(np.uint8, shape, elements=st.integers(0, k - 1))
            ),
            st.lists(rgb, min_size=k, max_size=k).map(Palette),
        )
    )


#: A title, author or licence: printable text without surrounding blanks.
meta_text = (
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"), min_size=1, max_size=40
    )
    .map(str.strip)
    .filter(bool)
)


def house_puzzle():
    return Puzzle.from_grid(HOUSE, BW)


def corpus_files():
    """Every puzzle of the shared corpus (none when it is absent)."""
    if not CORPUS.is_dir():
        return []
    return sorted(CORPUS.glob("*/*.json"))
