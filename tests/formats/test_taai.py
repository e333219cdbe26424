"""Tournament files of the computer-olympiad contests (rofl.formats.taai) and
``FILE#N``, which names one puzzle of a file that holds several."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError
from rofl.formats import default_output, find_format, open_puzzle, read_puzzle, split_number, taai
from rofl.puzzle import Palette, Puzzle
from rofl.render.pdf import puzzle_book
from tests.clirun import one_error_line, run
from tests.places import CORPUS, no_corpus

TAAI = CORPUS / "taai-tournament"


def question(blocks: dict[int, Puzzle], sep: str = "\t") -> bytes:
    """A tournament file as the contests write it: the columns, then the rows."""
    out = []
    for label, puzzle in blocks.items():
        out.append(f"${label}")
        out += [sep.join(str(n) for n, _ in line) if line else "0" for line in (*puzzle.cols, *puzzle.rows)]
    return ("\n".join(out) + "\n").encode()


def answer(blocks: dict[int, np.ndarray]) -> bytes:
    out = []
    for label, grid in blocks.items():
        out.append(f"${label}")
        out += ["\t".join(str(int(v)) for v in row) for row in grid]
    return ("\n".join(out) + "\n").encode()


squares = st.integers(1, 8).flatmap(
    lambda n: st.lists(st.integers(0, 1), min_size=n * n, max_size=n * n).map(
        lambda cells: np.array(cells, dtype=np.uint8).reshape(n, n)
    )
)


@settings(max_examples=60, deadline=None)
@given(st.lists(squares, min_size=1, max_size=4), st.sampled_from(["\t", " ", ", "]))
def test_every_puzzle_of_a_file_reads_by_its_label(grids, sep):
    labels = (1, 250, 500, 1000)[: len(grids)]
    puzzles = {label: Puzzle.from_grid(g, Palette.black_white()) for label, g in zip(labels, grids, strict=True)}
    data = question(puzzles, sep)
    assert taai.labels(data) == list(puzzles)
    for label, puzzle in puzzles.items():
        opened = open_puzzle(data, name="q.txt", number=label)
        back, solution = opened.puzzle, opened.solution
        assert back.rows == puzzle.rows and back.cols == puzzle.cols and solution is None
        assert back.meta["id"] == str(label)
    answers = answer(dict(zip(puzzles, grids, strict=True)))
    for label, grid in zip(puzzles, grids, strict=True):
        opened = open_puzzle(answers, name="a.txt", number=label)
        back, solution = opened.puzzle, opened.solution
        assert (solution == grid).all() and back.is_solution(grid)
    if len(puzzles) == 1:
        assert open_puzzle(data, name="q.txt").puzzle.rows == puzzles[1].rows  # one puzzle: no number needed


def test_the_corpus_tournament_puzzles_read_back():
    if not TAAI.is_dir():
        no_corpus("taai-tournament/")
    files = sorted(TAAI.glob("*.json"))
    records = [json.loads(f.read_text()) for f in files[:30]]
    puzzles = {i: read_puzzle(f)[0] for i, f in enumerate(files[:30], 1)}
    data = question(puzzles)
    for i, record in enumerate(records, 1):
        back = open_puzzle(data, name="q.txt", number=i).puzzle
        assert [[n for n, _ in line] for line in back.rows] == [[n for n, _ in line] for line in record["rows"]]


def test_found_by_content_and_named():
    data = question({1: Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white())})
    assert find_format(b"\xef\xbb\xbf\n" + data, "x.dat") is taai.FORMAT
    assert not taai.looks_like(b"$ 1\n") and not taai.looks_like(b"$1x\n") and taai.looks_like(b"$12\r\n1")


ONE = question({1: Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())}).decode()
HOSTILE = [
    ("$1\n1\n1\n1\n", "3 lines"),
    ("$1\n1\n1\n1\n1\n$1\n1\n1\n1\n1\n", "second puzzle labelled $1 (line 1)"),
    ("junk\n$1\n1\n1\n", "unknown puzzle format"),  # not a tournament file at all
    ("$1\n", "puzzle $1 has no lines"),
    ("$1\n3\n1\n1\n1\n", "clue"),
    ("$1\n2\n1\n1\n1\n", "$1: colour 1: the rows hold 2 cells but the columns hold 3"),
    ("$1\n1 x\n1\n", "expected a block length"),
    ("$1\n99999999999\n1\n", "too large"),
    ("$0\n1\n1\n", "from 1 up"),
    ("$1\n1\n\x00\n", "NUL byte"),
    (ONE + ONE.replace("$1", "$2"), "2 puzzles in one file ($1, $2); name one as"),
]


@pytest.mark.parametrize(("text", "message"), HOSTILE)
def test_hostile_files_are_one_format_error(tmp_path, text, message):
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        read_puzzle(path)
    assert message in str(caught.value), str(caught.value)
    one_error_line(run("info", path), "t.txt")


def test_file_number_selects_and_reports(tmp_path):
    eye = Puzzle.from_grid(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=np.uint8), Palette.black_white())
    path = tmp_path / "q.txt"
    path.write_bytes(question({1: eye, 250: eye}))
    assert split_number(f"{path}#250") == (path, 250)
    assert split_number(path) == (path, None) and split_number(f"{path}#x") == (tmp_path / "q.txt#x", None)
    real = tmp_path / "odd#2"  # a file whose own name ends in #2 is that file
    real.write_bytes(question({1: eye}))
    assert split_number(real) == (real, None)
    assert default_output(f"{path}#250", ".png") == tmp_path / "q-250.png"
    info = run("info", f"{path}#250")
    assert info.exit_code == 0 and "TAAI tournament file" in info.output and "q.txt#250" in info.output
    one_error_line(run("info", f"{path}#7"), "q.txt#7", "no puzzle $7", "$1, $250")
    one_error_line(run("info", path), "2 puzzles in one file", "q.txt#N")
    assert run("page", f"{path}#1").exit_code == 0 and (tmp_path / "q-1.html").is_file()
    assert run("decode", f"{path}#250").exit_code == 0 and (tmp_path / "q-250.png").is_file()
    assert run("convert", f"{path}#250", tmp_path / "eye.non").exit_code == 0
    assert read_puzzle(tmp_path / "eye.non")[0].rows == eye.rows
    single = tmp_path / "eye.non"
    assert read_puzzle(f"{single}#1")[0].rows == eye.rows  # a one-puzzle file is its puzzle 1
    one_error_line(run("info", f"{single}#2"), "holds one puzzle")


def test_a_puzzle_book_reads_one_puzzle_at_a_time(tmp_path):
    a = Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white(), meta={"title": "eye"})
    b = Puzzle.from_grid(np.ones((2, 4), dtype=np.uint8), Palette.black_white())
    book = tmp_path / "book.pdf"
    book.write_bytes(puzzle_book([a, b]))
    for number, puzzle in ((1, a), (2, b)):
        back, _ = read_puzzle(f"{book}#{number}")
        assert back.rows == puzzle.rows and back.cols == puzzle.cols
    one_error_line(run("solve", f"{book}#3"), "book.pdf#3", "no puzzle 3", "1, 2")
    one_error_line(run("solve", book), "2 puzzles in one file (a puzzle book)", "book.pdf#N")
    assert run("sheet", f"{book}#2", "-o", tmp_path / "two.svg").exit_code == 0
    assert read_puzzle(tmp_path / "two.svg")[0].rows == b.rows
