"""The complete solver on every puzzle of the shared corpus.

A puzzle whose answer is unique must decode to the solution the corpus
gives; an ambiguous one must yield two distinct grids that both satisfy the
clues; none may be reported unsolvable (each has a solution).  Every answer must
be the one recorded in ``tests/data/search_corpus_answers.json`` (what the
search proved before its speed-ups, puzzle by puzzle): a change to the
search may make it faster, never change what it proves.  Every puzzle
gets a small time budget to keep the suite quick: those that run out are
counted and printed (``pytest -s``), not failed -- timing is the
benchmark's business (``benchmarks/search_corpus.py``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.places import CORPUS, DATA_DIR, needs_corpus

FOLDERS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []
# the 25x25 tournament puzzles are the slow ones; give each a little less
BUDGET = {"taai-tournament": 0.15}
DEFAULT_BUDGET = 1.0
#: "unique" or "multiple" for every corpus puzzle the search has decided, by path under the corpus
ANSWERS = json.loads((DATA_DIR / "search_corpus_answers.json").read_text())


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("folder", FOLDERS)
def test_corpus_folder(corpus, folder):
    from rofl.formats import read_puzzle
    from rofl.solver.search import solve_complete

    budget = BUDGET.get(folder, DEFAULT_BUDGET)
    tally = {"unique": 0, "multiple": 0, "budget": 0}
    for path in sorted((corpus / folder).glob("*.json")):
        puzzle, known = read_puzzle(path)
        result = solve_complete(puzzle, time_budget=budget)
        assert result.status != "none", f"{path.name}: reported unsolvable"
        tally[result.status] += 1
        if result.status != "budget":
            name = f"{folder}/{path.name}"
            assert result.status == ANSWERS.get(name, result.status), (
                f"{name}: {result.status}, recorded {ANSWERS[name]}"
            )
        for grid in result.solutions:
            assert puzzle.is_solution(grid), path.name
        if result.status == "unique":
            assert result.grid is not None
            if known is not None:
                assert np.array_equal(result.grid, known), f"{path.name}: not the corpus solution"
        elif result.status == "multiple":
            first, second = result.solutions
            assert not np.array_equal(first, second), path.name
        else:  # out of budget: any solution met on the way is still a real one
            assert len(result.solutions) <= 1
    print(f"\n{folder}: {tally} (budget {budget} s per puzzle)")
    assert tally["unique"] + tally["multiple"] > 0


def test_recorded_answers_name_corpus_puzzles(corpus):
    assert len(ANSWERS) >= 470
    assert set(ANSWERS.values()) == {"unique", "multiple"}
    missing = [name for name in ANSWERS if not (corpus / name).is_file()]
    assert not missing
