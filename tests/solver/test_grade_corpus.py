"""The grader (:func:`rofl.grade`) on real puzzles: the bundled samples and
corpus puzzles that need each technique keep their grade when transposed or
their colours renamed, and the grade agrees with the solvability notes that
webpbn's survey puzzles carry (docs/difficulty.md, calibration)."""

from __future__ import annotations

import json

import pytest

import rofl
from rofl.formats import open_puzzle
from rofl.solver.grade import Technique
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
