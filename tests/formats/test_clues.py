"""rofl's clue text (``.clues``): hexagons, rectangles, ``?`` groups; round
trips (hypothesis), the documented example, hostile files (one error naming
the line), and which formats hold hexagons and ``?`` (corpus JSON for ``?``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl import open_puzzle
from rofl.errors import FormatError, LimitError
from rofl.formats import clues, corpus, puzzle_bytes, write_puzzle
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette, Puzzle
from rofl.solver.search import solve_complete
from tests.places import REPO, SAMPLES

DOCS = REPO / "docs"

META = st.dictionaries(
    st.sampled_from(clues.META_KEYS),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=12)
    .map(lambda text: " ".join(text.split()))
    .filter(bool),
    max_size=3,
)


@st.composite
def puzzles(draw):
    """A hexagonal or rectangular puzzle of a random filling, some groups turned to ``?``."""
    n_colors = draw(st.integers(2, 6))
    palette = Palette([(7 * i, 255 - 9 * i, 3 * i) for i in range(n_colors)])
    meta = draw(META)
    if draw(st.booleans()):
        side = draw(st.integers(1, 5))
        cells = np.array(
            draw(
                st.lists(
                    st.integers(0, n_colors - 1), min_size=Hexagon.of(side).n_cells, max_size=Hexagon.of(side).n_cells
                )
            )
        )
        puzzle = HexPuzzle.from_cells(side, cells, palette, meta=meta)
    else:
        h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
        grid = np.array(draw(st.lists(st.integers(0, n_colors - 1), min_size=h * w, max_size=h * w))).reshape(h, w)
        puzzle = Puzzle.from_grid(grid, palette, meta=meta)
    if n_colors > 2:
        flags = draw(st.lists(st.booleans(), min_size=puzzle.n_groups, max_size=puzzle.n_groups))
        puzzle = puzzle.with_unknown_colors(flags)
    return puzzle


@settings(deadline=None, max_examples=200)
@given(puzzle=puzzles())
def test_round_trip(puzzle):
    text = clues.dumps(puzzle)
    back = clues.loads(text.encode())
    assert back == puzzle and type(back) is type(puzzle)
    assert dict(back.meta) == dict(puzzle.meta)
    assert clues.dumps(back) == text
    assert open_puzzle(text.encode(), name="x.txt").format is clues.FORMAT  # found by its first line


@settings(deadline=None, max_examples=100)
@given(puzzle=puzzles().filter(lambda p: isinstance(p, Puzzle)))
def test_corpus_json_carries_question_marks(puzzle):
    back, _ = corpus.loads(corpus.dumps(puzzle))
    assert back == puzzle


def test_colour_names_count_like_spreadsheet_columns():
    assert [clues.colour_name(i) for i in (1, 2, 26, 27, 52, 53, 63)] == ["a", "b", "z", "aa", "az", "ba", "bk"]
    palette = Palette([(i, i, i) for i in range(64)])
    puzzle = Puzzle(63, 1, palette, [[(1, c) for c in range(1, 64)]], [[(1, c)] for c in range(1, 64)])
    assert "1bk" in clues.dumps(puzzle) and clues.loads(clues.dumps(puzzle)) == puzzle


def test_the_documented_example():
    text = (DOCS / "formats.md").read_text(encoding="utf-8").split("```text\nrofl clues 1")[1].split("```")[0]
    puzzle = clues.loads(("rofl clues 1" + text).encode())
    assert isinstance(puzzle, HexPuzzle) and puzzle.side == 2 and puzzle.meta["title"] == "a small example"
    assert puzzle.rows == (((2, 1),), ((1, frozenset({1, 2})), (1, 1)), ((1, 2), (1, 1)))
    assert puzzle.falling[0] == ((2, 2),) and puzzle.rising[0] == ((1, 1), (1, 2))
    assert solve_complete(puzzle).status == "unique"


def test_black_and_white_clues_are_bare_lengths_and_a_set_is_joined_by_bars():
    puzzle = clues.loads(b"rofl clues 1\nrectangle 3 1\nrows\n1 1\ncolumns\n1\n0\n1\n")
    assert puzzle.palette == Palette.black_white() and puzzle.rows == (((1, 1), (1, 1)),)
    assert "rows\n1 1\ncolumns\n1\n0\n1\n" in clues.dumps(puzzle)
    palette = ["#ffffff", "#000000", "#ff0000", "#00ff00"]
    grid = np.array([[1, 0, 3]])
    sets = Puzzle(3, 1, palette, [[(1, {1, 3}), (1, 3)]], [[(1, 1)], [], [(1, 3)]])
    assert sets.is_solution(grid)
    assert "1a|c 1c" in clues.dumps(sets) and clues.loads(clues.dumps(sets)) == sets


def test_the_sample_solves():
    opened = open_puzzle(SAMPLES / "hex-flower.clues")
    assert isinstance(opened.puzzle, HexPuzzle) and opened.puzzle.has_color_sets
    assert opened.details.endswith("rofl clue text, not ROFL")


HEAD = "rofl clues 1\nhexagon 2\ncolours #ffffff #000000 #ff0000\n"
GOOD = HEAD + "rows\n1a\n1a\n1a\nfalling\n1a\n1a\n1a\nrising\n1a\n1a\n1a\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["starts with the line 'rofl clues 1'"]),
        ("rofl clues 2\n", ["line 1", "'rofl clues 1'"]),
        ("rofl clues 1\ntriangle 3\n", ["line 2", "'hexagon SIDE'"]),
        ("rofl clues 1\nhexagon 0\n", ["line 2", "from 1 to 512"]),
        ("rofl clues 1\nhexagon 513\n", ["line 2", "from 1 to 512"]),
        ("rofl clues 1\nhexagon " + "9" * 5000 + "\n", ["line 2", "too large"]),
        ("rofl clues 1\nrectangle 4096 4096\n", ["4096x4096", "at most"]),
        ("rofl clues 1\nhexagon 2\ncolours #ffffff #00000\n", ["line 3", "'#00000'", "#rrggbb"]),
        ("rofl clues 1\nhexagon 2\ncolours #ffffff\n", ["line 3", "2 to 64"]),
        ("rofl clues 1\nhexagon 2\nwidth 3\n", ["line 3", "expected a line starting"]),
        ("rofl clues 1\nhexagon 2\n", ["no 'rows' section"]),
        (HEAD + "rows\n1a\n1a\nfalling\n", ["line 7", "rows section needs 3 clue lines, found 2"]),
        (HEAD + "rows\n1a\n1a\n1a\nrising\n", ["line 8", "expected the 'falling' section"]),
        (HEAD + "rows\n1a\n1x\n", ["line 6", "colour 'x' of '1x'", "a to b"]),
        (HEAD + "rows\n1a\n0a\n", ["line 6", "length 0"]),
        (HEAD + "rows\n1a\n-1\n", ["line 6", "'-1' is not a group"]),
        (HEAD + "rows\n1a\n1" + "a" * 100 + "\n", ["line 6", "not in the palette"]),
        (HEAD + "rows\n1a\n" + "1" * 30 + "a\n", ["line 6", "too large"]),
        (GOOD + "rows\n", ["line 16", "text after the last section"]),
        (HEAD + "rows\n1a 1b 1a\n", ["line 5", "more than 2 groups for a line of 2 cells"]),
        (HEAD + "rows\n1a\n" + "1a " * 1_000_000 + "\n", ["line 6", "more than 3 groups for a line of 3 cells"]),
        ("rofl clues 1\nhexagon 2\ncolours" + " #000000" * 65 + "\n", ["line 3", "more than 64 colours"]),
        (GOOD.replace("falling\n1a", "falling\n3a"), ["falling diagonal 1", "clue needs 3 cells"]),
        (
            "rofl clues 1\nhexagon 2\nrows\n1?\n1\n1\nfalling\n1\n1\n1\nrising\n1\n1\n1\n",
            ["row 1, group 1", "only one"],
        ),
        ("rofl clues 1\nhexagon 2\n\x00", ["NUL"]),
    ],
)
def test_hostile_files_get_one_error_naming_the_line(text, words):
    with pytest.raises(FormatError) as caught:
        open_puzzle(text.encode(), name="bad.clues")
    message = str(caught.value)
    assert message.startswith("bad.clues: ") and "\n" not in message
    for word in words:
        assert word in message, message
    assert isinstance(caught.value, LimitError) == ("at most" in words[-1])


def test_many_lines_are_refused_before_splitting():
    with pytest.raises(LimitError):
        open_puzzle(b"rofl clues 1\n" + b"\n" * 300_000, name="big.clues")


def test_only_clues_holds_hexagons_and_clues_and_json_hold_question_marks(tmp_path):
    hexagon = HexPuzzle.from_cells(2, np.array([1, 0, 1, 2, 1, 0, 2]), ["#fff", "#000", "#f00"])
    for name in ("x.json", "x.non", "x.g", "x.pzl"):
        with pytest.raises(FormatError, match="cannot hold a hexagonal puzzle"):
            puzzle_bytes(name, hexagon)
    unknown = Puzzle.from_grid(np.array([[1, 2, 0]]), ["#fff", "#000", "#f00"]).with_unknown_colors(
        [True, False, False, False]
    )
    for name in ("x.xml", "x.non", "x.g", "x.pzl"):
        with pytest.raises(FormatError, match=r"several possible colours \('\?'\); .rofl, .json and .clues can"):
            puzzle_bytes(name, unknown)
    for name in ("x.json", "x.clues", "x.rofl"):
        write_puzzle(tmp_path / name, unknown)
        assert open_puzzle(tmp_path / name).puzzle == unknown
    write_puzzle(tmp_path / "h.clues", hexagon, np.array([1, 0, 1, 2, 1, 0, 2]))  # a solution that fits: dropped
    assert open_puzzle(tmp_path / "h.clues").puzzle == hexagon
    with pytest.raises(FormatError, match="does not match"):
        puzzle_bytes("x.clues", hexagon, np.zeros(7, dtype=np.uint8))


def _unknown_groups_file(side: int, n_colours: int) -> bytes:
    palette = " ".join(f"#{i * 1000:06x}" for i in range(n_colours))
    row = "1? " * (side // 2)
    return "\n".join(
        ["rofl clues 1", f"rectangle {side} {side}", f"colours {palette}", "rows", *[row] * side]
        + ["columns", *[row] * side, ""]
    ).encode()


def test_each_distinct_group_is_parsed_once(monkeypatch):
    # issue 40: '?' groups were parsed (and checked) one by one, about 40 us each
    import rofl.formats._text as text

    calls = []
    real = text.number
    monkeypatch.setattr(text, "number", lambda *a, **k: calls.append(a) or real(*a, **k))
    puzzle = clues.loads(_unknown_groups_file(40, 5))
    assert puzzle.n_groups == 80 * 20 and puzzle.has_color_sets
    assert len(calls) <= 3  # the sizes and the one distinct group, '1?'


@pytest.mark.timeout(60)
def test_a_megabyte_of_unknown_groups_reads_in_moments():
    # a generous guard, not a benchmark: 7.6 s of CPU before, 0.5 s after
    import time

    data = _unknown_groups_file(600, 64)
    assert len(data) > 1 << 20
    start = time.process_time()
    puzzle = clues.loads(data)
    assert time.process_time() - start < 4
    assert puzzle.n_groups == 1200 * 300 and puzzle.n_colors == 64
