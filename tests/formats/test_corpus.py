"""The corpus JSON reader and writer (``rofl.formats.corpus``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError
from rofl.formats import read_puzzle, write_puzzle
from rofl.formats.corpus import dumps, loads
from rofl.puzzle import Palette, Puzzle

SOLVABLE = np.array([[1, 1, 0], [0, 1, 2], [2, 0, 2]], dtype=np.uint8)
PALETTE = Palette(["#ffffff", "#000000", "#ff0000"])


def _doc(**changes):
    p = Puzzle.from_grid(SOLVABLE, PALETTE)
    doc = json.loads(dumps(p, SOLVABLE))
    doc.update(changes)
    return doc


# -------------------------------------------------------------- corpus JSON


def test_round_trip():
    p = Puzzle.from_grid(SOLVABLE, PALETTE, meta={"title": "tiny", "author": "me"})
    text = dumps(p, SOLVABLE)
    q, solution = loads(text)
    assert q == p and dict(q.meta) == {"title": "tiny", "author": "me"}
    np.testing.assert_array_equal(solution, SOLVABLE)
    assert solution.dtype == np.uint8
    assert dumps(q, solution) == text
    q, solution = loads(dumps(p))
    assert q == p and solution is None


def test_defaults_and_letters():
    # no colours: black and white; solution digits go on with letters after 9
    doc = {"width": 2, "height": 1, "rows": [[[1, 1]]], "cols": [[[1, 1]], []], "solution": ["10"]}
    p, sol = loads(json.dumps(doc))
    assert p.palette == Palette.black_white() and sol.tolist() == [[1, 0]]
    colors = ["#000000"] + [f"#0000{i:02x}" for i in range(1, 12)]
    doc = {"width": 2, "height": 1, "colors": colors, "rows": [[[1, 10], [1, 11]]], "cols": [[[1, 10]], [[1, 11]]]}
    doc["solution"] = ["aB"]
    assert loads(json.dumps(doc))[1].tolist() == [[10, 11]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", r"^f\.json: not valid JSON \("),
        ("[1, 2]", r"^f\.json: a puzzle must be a JSON object$"),
        ("[" * 100000 + "]" * 100000, r"^f\.json: not valid JSON"),
        (json.dumps(_doc(width=None)), r"^f\.json: invalid puzzle \(width and height must be integers\)$"),
        (json.dumps(_doc(height="3")), r"^f\.json: invalid puzzle \(width and height must be integers\)$"),
        (json.dumps({"width": 1, "height": 1, "rows": [[]]}), r"^f\.json: missing field 'cols'$"),
        (json.dumps({"height": 1}), r"^f\.json: missing field 'width'$"),
        (json.dumps(_doc(rows=5)), r"^f\.json: invalid puzzle \(rows and cols must be lists of lists"),
        (json.dumps(_doc(cols=[[], 1, []])), r"^f\.json: invalid puzzle \(rows and cols must be lists of lists"),
        (json.dumps(_doc(colors=["#fff", "bleu"])), r"^f\.json: palette colour 1: 'bleu' is not a colour"),
        (json.dumps(_doc(rows=[[[1, 1]], [[1, 1], [1, 2]], [[1, 2], [1, 2]]])), r"^f\.json: colour 1: the rows hold 2"),
        (json.dumps(_doc(rows=[[[4, 1]], [], []])), r"^f\.json: row 1: clue needs 4 cells but the row has 3$"),
        (json.dumps(_doc(cols=[[[1, 3]], [], []])), r"^f\.json: column 1, group 1: colour 3 is outside the palette"),
        (json.dumps(_doc(solution=["110"])), r"^f\.json: solution must be 3 strings$"),
        (json.dumps(_doc(solution="110")), r"^f\.json: solution must be 3 strings$"),
        (json.dumps(_doc(solution=["110", "012", "20"])), r"^f\.json: solution row 3 must be a string of 3 digits$"),
        (json.dumps(_doc(solution=["110", "012", [2, 0, 2]])), r"^f\.json: solution row 3 must be a string"),
        (json.dumps(_doc(solution=["110", "0x2", "202"])), r"^f\.json: solution row 2, column 2: 'x' is not a"),
        (json.dumps(_doc(solution=["110", "013", "202"])), r"^f\.json: solution row 2, column 3: '3' is not a"),
    ],
)
def test_reader_errors(text, message):
    with pytest.raises(FormatError, match=message):
        loads(text, where="f.json")


def test_solution_must_satisfy_the_clues():
    with pytest.raises(FormatError, match=r"^f\.json: the solution does not match the clues \(row 1\)$"):
        loads(json.dumps(_doc(solution=["111", "012", "202"])), where="f.json")
    with pytest.raises(FormatError, match=r"^f\.json: the solution does not match the clues \(column 1\)$"):
        loads(json.dumps(_doc(solution=["011", "012", "202"])), where="f.json")  # same rows


def test_read_and_write_files(tmp_path):
    p = Puzzle.from_grid(SOLVABLE, PALETTE)
    path = tmp_path / "p.json"
    write_puzzle(path, p, SOLVABLE)
    q, sol = read_puzzle(path)
    assert q == p and np.array_equal(sol, SOLVABLE)
    # no extension: recognised by its opening brace
    other = tmp_path / "puzzle"
    other.write_bytes(path.read_bytes())
    assert read_puzzle(other)[0] == p
    bad = tmp_path / "p.txt"
    bad.write_text("hello")
    with pytest.raises(FormatError, match=r"p\.txt: unknown puzzle format"):
        read_puzzle(bad)
    with pytest.raises(FormatError, match=r"cannot write puzzles with extension '\.txt'"):
        write_puzzle(bad, p)
    assert bad.read_text() == "hello"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"width":1,"height":1,"rows":[[[Infinity,1]]],"cols":[[[1,1]]]}', r"row 1, group 1: \[inf, 1\] is not a"),
        ('{"width":1,"height":1,"rows":[[[1,1]]],"cols":[[[1,1]]],"colors":[[0,0,Infinity],"#000"]}', "not a colour"),
        ('{"width":1,"height":1,"rows":[[[1' + "0" * 30 + ',1]]],"cols":[[[1,1]]]}', "is out of range"),
        ('{"width":1,"height":1,"rows":[[[1.5,1]]],"cols":[[[1,1]]]}', r"\[1\.5, 1\] is not a \(length, colour\) pair"),
    ],
)
def test_reader_numbers_out_of_range(text, message):
    with pytest.raises(FormatError, match=message):
        loads(text, where="f.json")


# any JSON value in place of any part of a valid document: a FormatError or a valid puzzle, nothing else
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


def _paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from _paths(child, (*prefix, key))


_BASE = _doc(title="t")


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(list(_paths(_BASE))[1:]), _JSON)
def test_reader_hostile_values(path, value):
    doc = json.loads(json.dumps(_BASE))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    try:
        puzzle, solution = loads(json.dumps(doc), where="f.json")
    except FormatError as exc:
        assert str(exc).startswith("f.json: ")
    else:
        assert solution is None or puzzle.is_solution(solution)


def test_writer_refuses_what_the_reader_would_reject():
    p = Puzzle.from_grid(SOLVABLE, PALETTE)
    with pytest.raises(FormatError, match=r"^the solution has shape \(2, 3\), the puzzle is 3x3$"):
        dumps(p, SOLVABLE[:2])
    with pytest.raises(FormatError, match=r"^the solution does not match the clues$"):
        dumps(p, np.zeros((3, 3), dtype=np.uint8))
    many = Palette([(i, i, i) for i in range(40)])
    grid = np.arange(40, dtype=np.uint8).reshape(5, 8)
    with pytest.raises(FormatError, match=r"^corpus JSON writes solutions of at most 36 colours"):
        dumps(Puzzle.from_grid(grid, many), grid)
    # the puzzle alone is fine, and 36 colours with a solution too
    assert loads(dumps(Puzzle.from_grid(grid, many)))[0] == Puzzle.from_grid(grid, many)
    grid36 = np.arange(36, dtype=np.uint8).reshape(6, 6)
    p36 = Puzzle.from_grid(grid36, Palette(many.colors[:36]))
    assert np.array_equal(loads(dumps(p36, grid36))[1], grid36)


BASE = {"width": 2, "height": 1, "rows": [[[1, 1]]], "cols": [[[1, 1]], []]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows": [[[True, 1]]]}, "[True, 1] is not a (length, colour) pair"),
        ({"rows": [[[1, True]]]}, "colour True is not a palette index"),
        ({"width": True}, "size Truex1 is not two integers"),
        ({"colors": ["#ffffff", [True, 0, 0]]}, "[True, 0, 0] is not a colour"),
        ({"colors": ["#ffffff", "#000000", "#ff0000"], "rows": [[[1, [1, True]]]]}, "colour [1, True] is not"),
    ],
)
def test_json_true_is_no_number(change, message):
    # issue 40: bool is an int in Python, but JSON true is no length, colour or size
    with pytest.raises(FormatError) as err:
        loads(json.dumps({**BASE, **change}))
    assert message in str(err.value)


@pytest.mark.parametrize(
    "change",
    [
        {"rows": [[["x" * 10**6, 1]]]},
        {"rows": [[[1, "y" * 10**6]]]},
        {"colors": ["#ffffff", ["z" * 10**6]]},
        {"colors": ["#ffffff", "w" * 10**6]},
        {"rows": [[[[[[[[1] * 10**5]]]]], 1]]},
    ],
)
def test_json_errors_do_not_echo_a_long_value(change):
    # issue 40: a 10 MB line in the message
    with pytest.raises(FormatError) as err:
        loads(json.dumps({**BASE, **change}))
    assert len(str(err.value)) < 200, str(err.value)[:300]
