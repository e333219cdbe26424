"""The grader (:func:`rofl.grade`) on real puzzles: the bundled samples and
corpus puzzles that need each technique keep their grade when transposed or
their colours renamed, the grade agrees with the solvability notes that
webpbn's survey puzzles carry (docs/difficulty.md, calibration), and lines
longer than the bit-set solver's 63 cells (which ``test_grade.py``'s small
grids never reach) end where line logic ends."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.formats import open_puzzle
from rofl.kernels import grade_codes as k
from rofl.solver.grade import Technique, run
from tests.places import CORPUS, SAMPLES, corpus_file, needs_corpus

#: Samples (two to six colours) and corpus puzzles whose hardest technique is
#: joining, whole line (jwilk 066, 034) or probing (Picmi 44, webpbn 27).
CORPUS_PUZZLES = (
    "jwilk-nonogram/jwilk-data066.json",
    "jwilk-nonogram/jwilk-data034.json",
    "number-loom/take_two.json",
    "kde-picmi/44-picmi.json",
    "webpbn-survey/webpbn-00027.json",
)


def _transposed(puzzle: rofl.Puzzle) -> rofl.Puzzle:
    return rofl.Puzzle(puzzle.height, puzzle.width, puzzle.palette, puzzle.cols, puzzle.rows)


def _renamed(puzzle: rofl.Puzzle) -> rofl.Puzzle:
    """The same puzzle with its inks listed in the reverse order (clues renumbered to match)."""
    colours = puzzle.palette.hex()
    inks = len(colours) - 1
    new = {old: inks + 1 - old for old in range(1, inks + 1)}
    palette = [colours[0], *reversed(colours[1:])]

    def lines(clues):
        return [[(length, new[colour]) for length, colour in line] for line in clues]

    return rofl.Puzzle(puzzle.width, puzzle.height, palette, lines(puzzle.rows), lines(puzzle.cols))


def _check_stable(puzzle: rofl.Puzzle) -> rofl.Difficulty:
    first = rofl.grade(puzzle)
    for other in (_transposed(puzzle), _renamed(puzzle), _renamed(_transposed(puzzle))):
        again = rofl.grade(other)
        if first.hardest < Technique.PROBING:
            assert again == first, (again, first)
        else:  # probing tries cells and colours in order: the grade holds, not every figure
            assert (again.grade, again.hardest) == (first.grade, first.hardest), (again, first)
    return first


@pytest.mark.parametrize("name", ["camera", "horse", "coffee", "rocket", "astronaut", "chelsea"])
def test_samples_keep_their_grade_transposed_and_renamed(name):
    puzzle = open_puzzle(SAMPLES / f"{name}.rofl").puzzle
    assert _renamed(_renamed(puzzle)) == puzzle and (_renamed(puzzle) != puzzle) == (puzzle.n_colors > 2)
    _check_stable(puzzle)


@needs_corpus
@pytest.mark.parametrize("name", CORPUS_PUZZLES)
def test_corpus_puzzles_keep_their_grade_transposed_and_renamed(name):
    found = _check_stable(open_puzzle(corpus_file(name)).puzzle)
    expected = {"jwilk-nonogram": Technique.WHOLE_LINE, "number-loom": Technique.JOINING}
    assert found.hardest == expected.get(name.split("/")[0], Technique.PROBING)


@needs_corpus
@pytest.mark.slow
def test_the_grade_agrees_with_webpbn_s_solvability_notes():
    """webpbn records for its survey puzzles whether they are line solvable,
    need lookahead, or have several solutions: line solvable puzzles need no
    probing, those needing lookahead need probing or guessing, several
    solutions need guessing (16 puzzles, 2 of them colour)."""
    seen = 0
    for path in sorted(CORPUS.glob("webpbn-survey*/*.json")):
        notes = json.loads(path.read_text(encoding="utf-8")).get("notes", "")
        found = rofl.grade(open_puzzle(path).puzzle)
        if "line/color solvable" in notes:
            assert found.hardest < Technique.PROBING, (path.name, found)
        elif "lookahead" in notes:
            assert found.hardest >= Technique.PROBING, (path.name, found)
        elif "more than one solution" in notes:
            assert found.needs_guessing and found.grade == 5, (path.name, found)
        else:
            continue
        seen += 1
    assert seen == 16


long_grids = st.tuples(st.integers(1, 3), st.integers(64, 130), st.integers(2, 3), st.integers(0, 2**32 - 1))


@settings(deadline=None, max_examples=40)
@given(long_grids)
def test_lines_longer_than_a_word_end_where_line_logic_ends(shape):
    """Rows of 64 to 130 cells (the general line solver, not the words):
    never a colour of the picture struck, and without probing the grader's
    masks are line logic's; transposed, the same grade."""
    height, width, colours, seed = shape
    rng = np.random.default_rng(seed)
    grid = (rng.random((height, width)) < 0.6) * rng.integers(1, colours, (height, width))
    palette = ["#ffffff", "#000000", "#ff0000"][:colours]
    puzzle = rofl.Puzzle.from_grid(grid.astype(np.uint8), palette)
    status, masks, *_ = run(puzzle, probe_work=-1)
    assert np.all(masks >> grid.astype(np.int64) & 1), "a colour of the picture was struck"
    line = rofl.solve(puzzle)
    assert np.array_equal(masks, line.masks)
    assert (status == k.SOLVED) == (line.status == "solved")
    first = rofl.grade(puzzle)
    again = rofl.grade(_transposed(puzzle))
    assert again.grade == first.grade and (first.hardest >= Technique.PROBING or again == first)


@needs_corpus
def test_the_corpus_s_longest_lines_end_where_line_logic_ends():
    """The two corpus puzzles with lines of more than 63 cells (75x50, 80x95)."""
    for name in ("mikix-nonogram-db/qnonograms-tiger.json", "webpbn-survey/faase.json"):
        opened = open_puzzle(corpus_file(name))
        _, masks, *_ = run(opened.puzzle, probe_work=-1)
        assert np.array_equal(masks, rofl.solve(opened.puzzle).masks)
        if opened.solution is not None:  # faase has several: none stored
            assert np.all(masks >> np.asarray(opened.solution).astype(np.int64) & 1)
