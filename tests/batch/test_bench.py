"""``rofl bench`` and :func:`rofl.batch.solve_many`: categories, table, resumption, failures."""

from __future__ import annotations

import json
import runpy
import shutil

import pytest

from rofl.batch import solve_many
from rofl.cli.bench import category
from tests.clirun import run, usage_error_line
from tests.places import CORPUS, REPO, SAMPLES, needs_corpus


@pytest.fixture
def puzzles(tmp_path):
    """A folder of puzzle files: line-solvable, two solutions, a broken one, a picture that is no sheet."""
    folder = tmp_path / "puzzles"
    (folder / "deeper").mkdir(parents=True)
    shutil.copy(SAMPLES / "hands-up.json", folder)
    shutil.copy(SAMPLES / "two-ways.non", folder / "deeper")
    shutil.copy(SAMPLES / "rocket.rofl", folder)
    (folder / "broken.json").write_text('{"rows": [[1]]')
    shutil.copy(SAMPLES / "horse.png", folder)  # a picture, not a sheet: a folder's listing leaves it out
    return folder


def _rows(table):
    return {row["file"].rpartition("/")[2]: row for row in json.loads(table.read_text())["rows"]}


def test_bench_sorts_every_puzzle_and_writes_its_row(puzzles, tmp_path):
    table = tmp_path / "table.json"
    result = run("bench", puzzles, "-o", table, "-j", 1, "--budget", 5)
    assert result.exit_code == 1  # broken.json
    rows = _rows(table)
    assert set(rows) == {"hands-up.json", "two-ways.non", "rocket.rofl", "broken.json"}
    assert [category(rows[n]) for n in ("hands-up.json", "rocket.rofl", "two-ways.non", "broken.json")] == [
        "line-solvable",
        "line-solvable",
        "several solutions",
        "failed",
    ]
    hands = rows["hands-up.json"]
    assert hands["line_solvable"] is True and hands["result"] == "unique" and hands["nodes"] == 0
    assert hands["format"] and hands["width"] > 0 and hands["colours"] >= 2 and hands["seconds"] >= 0
    assert rows["two-ways.non"]["result"] == "multiple" and rows["two-ways.non"]["line_solvable"] is False
    assert "broken.json" in rows["broken.json"]["error"]
    assert "line-solvable" in result.output and "several solutions" in result.output


def test_bench_resumes_from_its_table_and_force_solves_again(puzzles, tmp_path):
    table = tmp_path / "table.csv"
    files = [puzzles / "hands-up.json", puzzles / "rocket.rofl"]
    assert run("bench", *files, "-o", table, "-j", 1, "-q").exit_code == 0
    again = run("bench", *files, "-o", table, "-j", 1)
    assert "2 skipped" in again.output and again.exit_code == 0
    other_budget = run("bench", *files, "-o", table, "-j", 1, "--budget", 3)
    assert "2 solved" in other_budget.output
    forced = run("bench", *files, "-o", table, "-j", 1, "--budget", 3, "--force")
    assert "2 solved" in forced.output
    usage_error_line(run("bench", *files, "-o", tmp_path / "table.txt"), ".csv or .json")


def test_solve_many_yields_a_row_per_file(puzzles):
    rows = list(solve_many([puzzles / "*.json"], budget=2, jobs=1))
    assert sorted(row["status"] for row in rows) == ["failed", "solved"]


@needs_corpus
@pytest.mark.slow
def test_bench_sorts_the_corpus_as_the_benchmark_does():
    """The categories of ``rofl bench`` are those ``benchmarks/search_corpus.py`` prints (one folder of it)."""
    folder = CORPUS / "nonny"
    benchmark = runpy.run_path(str(REPO / "benchmarks" / "search_corpus.py"))
    expected = {str(p): benchmark["_solve"]((str(p), 10.0))[1] for p in sorted(folder.glob("*.json"))}
    rows = list(solve_many([folder], budget=10.0, jobs=1))
    assert {row["file"]: category(row) for row in rows} == expected


def test_a_table_in_the_folder_benched_is_not_a_puzzle(puzzles):
    table = puzzles / "table.json"
    for _ in range(2):  # the second run lists the table too, and leaves it out
        result = run("bench", puzzles, "-o", table, "-j", 1, "-q")
        assert "4 puzzle files" in result.output


def test_bench_of_a_batchs_folder_leaves_its_summary_out(tmp_path):
    # issue 41: `rofl bench DIR/` after `rofl make ... -o DIR/` read summary.json as a puzzle and failed it
    out = tmp_path / "made"
    made = run("make", SAMPLES / "horse.png", SAMPLES / "rocket.jpg", "-o", f"{out}/", "-w", 12, "-j", 1, "-q")
    assert made.exit_code == 0, made.output
    assert (out / "summary.json").is_file()
    result = run("bench", out, "-o", tmp_path / "bench.json", "-j", 1, "-q")
    assert result.exit_code == 0, result.output
    rows = _rows(tmp_path / "bench.json")
    assert sorted(rows) == ["horse.rofl", "rocket.rofl"]
    assert {row["status"] for row in rows.values()} == {"solved"}
