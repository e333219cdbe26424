"""``benchmarks/tournament.py``: whole sets one after another, nonosolve's
figures cached, a resumable ``--save``, the per-set table (with a stand-in
for nonosolve that brute-forces tiny puzzles; no timing is asserted)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import stat
import sys

import pytest

from tests.places import REPO

GRIDS = {
    "aaa": [[[1, 1, 1], [1, 0, 1], [1, 1, 1]], [[1, 1, 0], [0, 1, 1], [1, 0, 1]]],
    "bbb": [[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 1], [1, 1, 0], [1, 0, 0]], [[1, 1, 1], [0, 1, 0], [1, 1, 1]]],
}

# nonosolve's command line and --json answer, for square puzzles of a few cells
FAKE = """\
import itertools, json, os, sys
args = sys.argv[1:]
want, out, path = int(args[args.index("-n") + 1]), args[args.index("--json") + 1], args[-1]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(path + "\\n")
lines = [l.split() for l in open(path).read().split("\\n")[1:] if l]
n = len(lines) // 2
def runs(cells):
    return [len(g) for g in "".join(map(str, cells)).split("0") if g] or [0]
clues = [[int(x) for x in l] for l in lines]
found = []
for bits in itertools.product((0, 1), repeat=n * n):
    rows = [bits[r * n:(r + 1) * n] for r in range(n)]
    cols = [[rows[r][c] for r in range(n)] for c in range(n)]
    if [runs(c) for c in cols] + [runs(r) for r in rows] == clues:
        found.append("".join(map(str, bits)))
        if len(found) == want:
            break
if os.environ.get("FAKE_WRONG"):
    found = ["1" * (n * n)]
status = "FOUND" if want == 1 else ("UNIQUE" if len(found) == 1 else "MULTIPLE")
json.dump({"status": status, "solutions": found}, open(out, "w"))
"""


def _runs(cells):
    return [len(g) for g in "".join(map(str, cells)).split("0") if g]


def _taai(label, grid):
    cols = [[row[c] for row in grid] for c in range(len(grid[0]))]
    return f"${label}\n" + "".join("\t".join(map(str, _runs(line))) + "\n" for line in cols + grid)


@pytest.fixture
def bench(monkeypatch):
    spec = importlib.util.spec_from_file_location("tournament_bench", REPO / "benchmarks" / "tournament.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "rofl_code", lambda: "abc1234")
    return module


@pytest.fixture
def sets(tmp_path):
    folder = tmp_path / "sets"
    folder.mkdir()
    for name, grids in GRIDS.items():
        (folder / f"{name}.txt").write_text("".join(_taai(i + 1, g) for i, g in enumerate(grids)))
    (folder / "README.md").write_text("not a set")
    return folder


@pytest.fixture
def fake(tmp_path, monkeypatch):
    exe = tmp_path / "nonosolve"
    exe.write_text(f"#!{sys.executable}\n{FAKE}")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    return exe, log


def _calls(log):
    return len(log.read_text().splitlines()) if log.exists() else 0


def _count_rofl(bench, monkeypatch):
    calls = []
    real = bench.run_rofl

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(bench, "run_rofl", counted)
    return calls


def test_whole_sets_one_after_another_with_a_table_per_set(bench, sets, fake, tmp_path, capsys):
    exe, log = fake
    save = tmp_path / "rows.jsonl"
    bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--all-sets", "--whole", "--mode", "first",
                "--save", str(save)])  # fmt: skip
    out = capsys.readouterr().out
    assert "5 puzzles: every puzzle from each of aaa, bbb" in out
    assert "| decided within 10 CPU s | 5 | 5 |" in out
    lines = [line for line in out.splitlines() if line.startswith(("| aaa |", "| bbb |", "| all 2 sets |"))]
    assert len(lines) == 3  # their goal's verdict depends on the times: test_the_goal_per_set
    assert "| 2 / 2 of 2 |" in lines[0] and "| 3 / 3 of 3 |" in lines[1] and "| 5 / 5 of 5 |" in lines[2]
    assert all("| 0, 0.0 / 0.0 |" in line for line in lines)  # none handed over to the SAT solver
    rows = [json.loads(line) for line in save.read_text().splitlines()]
    assert [(r["set"], r["label"]) for r in rows] == [("aaa", 1), ("aaa", 2), ("bbb", 1), ("bbb", 2), ("bbb", 3)]
    assert all(r["rofl_code"] == "abc1234" and r["rofl"]["status"] in ("found", "unique") for r in rows)
    assert _calls(log) == 5


def test_a_run_resumes_from_its_save_and_a_finished_one_only_reports(bench, sets, fake, tmp_path, monkeypatch, capsys):
    exe, log = fake
    save = tmp_path / "rows.jsonl"
    common = ["--nonosolve", str(exe), "--sets", str(sets), "--whole", "--mode", "first", "--save", str(save)]
    bench.main([*common, "--set", "aaa"])
    with save.open("a") as f:
        f.write('{"mode": "first", "bud')  # a run cut off while writing a row
    calls = _count_rofl(bench, monkeypatch)
    bench.main([*common, "--set", "aaa", "--set", "bbb"])
    assert len(calls) == 3 and _calls(log) == 2 + 3  # bbb's three only
    first = capsys.readouterr()
    assert "not a row, skipped" in first.err
    bench.main([*common, "--set", "aaa", "--set", "bbb"])
    again = capsys.readouterr().out
    assert len(calls) == 3 and _calls(log) == 5  # nothing run
    assert again.split("\n", 1)[1] in first.out  # the same report


def test_a_save_of_other_rofl_code_is_refused(bench, sets, fake, tmp_path, monkeypatch):
    exe, _ = fake
    save = tmp_path / "rows.jsonl"
    args = ["--nonosolve", str(exe), "--sets", str(sets), "--set", "aaa", "--whole", "--mode", "first", "--save",
            str(save)]  # fmt: skip
    bench.main(args)
    monkeypatch.setattr(bench, "rofl_code", lambda: "def5678-dirty")
    with pytest.raises(SystemExit, match="holds rows of rofl abc1234, this is rofl def5678-dirty"):
        bench.main(args)


def test_a_save_of_the_earlier_format_is_refused_untouched(bench, sets, fake, tmp_path):
    exe, _ = fake
    save = tmp_path / "old.json"
    save.write_text(json.dumps({"first": []}, indent=1))
    before = save.read_text()
    with pytest.raises(SystemExit, match="is a save of an earlier tournament.py"):
        bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--set", "aaa", "--save", str(save)])
    assert save.read_text() == before


def test_nonosolve_figures_come_from_the_cache_of_the_same_binary(bench, sets, fake, tmp_path, monkeypatch, capsys):
    exe, log = fake
    cache = tmp_path / "nonosolve.json"
    args = ["--sets", str(sets), "--set", "bbb", "--whole", "--mode", "first", "--mode", "two", "--cache", str(cache)]
    bench.main(["--nonosolve", str(exe), *args])
    assert _calls(log) == 6 and "6 measured in the run" in capsys.readouterr().out.replace("3 measured", "6 measured")
    entries = json.loads(cache.read_text())["entries"]
    assert len(entries) == 6 and all("measured" in e for e in entries.values())
    calls = _count_rofl(bench, monkeypatch)
    bench.main(["--nonosolve", str(exe), *args, "--skip-nonosolve"])  # a rofl-only rerun
    out = capsys.readouterr().out
    assert _calls(log) == 6 and len(calls) == 6
    assert out.count("3 from the cache (measured ") == 2 and "| decided within 10 CPU s | 3 | 3 |" in out
    assert "Verdicts that differ (both decided): 0" in out
    other = tmp_path / "nonosolve2"
    other.write_text(exe.read_text() + "# another build\n")
    other.chmod(exe.stat().st_mode)
    bench.main(["--nonosolve", str(other), *args])  # another binary: measured again
    assert _calls(log) == 12


def test_answers_that_fail_the_check_or_errors_are_reported_and_the_run_goes_on(
    bench, sets, fake, tmp_path, monkeypatch, capsys
):
    exe, _ = fake
    monkeypatch.setenv("FAKE_WRONG", "1")
    real = bench.solve_complete
    count = itertools.count()

    def flaky(puzzle, **kw):
        if next(count) == 2:  # the warm-up, then aaa#1, then aaa#2
            msg = "boom"
            raise RuntimeError(msg)
        return real(puzzle, **kw)

    monkeypatch.setattr(bench, "solve_complete", flaky)
    bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--set", "aaa", "--whole", "--mode", "first"])
    out = capsys.readouterr().out
    assert "rofl's answers that failed the check or errors: 1\n- aaa#2: error RuntimeError: boom" in out
    assert "nonosolve's answers that failed the check or errors: 2\n- aaa#1: wrong\n- aaa#2: wrong" in out
    assert "| decided within 10 CPU s | 1 | 0 |" in out


def test_the_slowest_lists_name_the_sat_time_only_when_handed_over(bench):
    theirs = {"status": "found", "cpu": 0.5}
    slow = bench._slow_line({"set": "s", "label": 1, "rofl": {"status": "found", "cpu": 2.0, "sat": 1.25},
                             "nonosolve": theirs})  # fmt: skip
    fast = bench._slow_line({"set": "s", "label": 2, "rofl": {"status": "found", "cpu": 0.5, "sat": 0.0},
                             "nonosolve": theirs})  # fmt: skip
    assert slow == "- s#1: rofl 2.00 s CPU (found, SAT 1.2 s wall), nonosolve 0.50 s (found)"
    assert fast == "- s#2: rofl 0.50 s CPU (found), nonosolve 0.50 s (found)"


def test_the_goal_per_set(bench):
    def row(ours, theirs, status="found"):
        return {"rofl": {"cpu": ours, "status": status}, "nonosolve": {"cpu": theirs, "status": "found"}}

    assert bench.goal([row(1.0, 2.0), row(3.0, 2.0)], 1, 10.0) == "met"
    assert bench.goal([row(1.0, 2.0), row(4.0, 2.0)], 1, 10.0) == "not met (total 1.25x)"
    assert bench.goal([row(0.5, 2.0), row(11.0, 20.0)], 1, 10.0) == "not met (1 undecided)"
    assert bench.goal([row(0.5, 2.0), row(1.0, 2.0, "wrong")], 1, 10.0) == "not met (1 undecided)"
    walled = [row(0.5, 2.0), row(1.0, 2.0, "wrong"), row(4.0, 9.0, "budget")]
    assert bench.goal(walled, 1, 10.0) == "not met (1 undecided, 1 cut off by the wall clock)"


def test_bad_options_are_refused(bench, sets, fake):
    exe, _ = fake
    with pytest.raises(SystemExit, match="--all-sets or --set"):
        bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--all-sets", "--set", "aaa"])
    with pytest.raises(SystemExit, match="no tournament set"):
        bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--set", "zzz"])
    with pytest.raises(SystemExit, match="--wall must be at least 1"):
        bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--set", "aaa", "--wall", "0.5"])


def test_the_wall_clock_is_a_multiple_of_the_budget(bench, sets, fake, tmp_path, monkeypatch):
    exe, _ = fake
    given = []
    real = bench.solve_complete

    def seen(puzzle, **kw):
        given.append(kw.get("time_budget"))
        return real(puzzle, **kw)

    monkeypatch.setattr(bench, "solve_complete", seen)
    save = tmp_path / "rows.jsonl"
    bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--set", "aaa", "--whole", "--mode", "first",
                "--budget", "2", "--wall", "7.5", "--save", str(save)])  # fmt: skip
    assert given == [None, 15.0, 15.0]  # the warm-up, then each puzzle
    assert all(json.loads(line)["wall"] == 7.5 for line in save.read_text().splitlines())


def _saved_run(bench, sets, exe, save, *more):
    bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--all-sets", "--whole", "--mode", "first",
                "--save", str(save), *more])  # fmt: skip
    return [json.loads(line) for line in save.read_text().splitlines()]


def _rewrite(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_saved_rows_record_what_a_rerun_needs(bench, sets, fake, tmp_path):
    exe, _ = fake
    rows = _saved_run(bench, sets, exe, tmp_path / "rows.jsonl")
    digest = bench.binary_digest(str(exe))
    puzzles = dict(bench.read_tournament(sets / "bbb.txt"))
    assert all(r["nonosolve_binary"] == digest and isinstance(r["rofl"]["nodes"], int) for r in rows)
    assert rows[2]["key"] == bench.puzzle_key("bbb", 1, puzzles[1])
    assert not any("rerun_of" in r for r in rows)


def test_a_rerun_runs_rofl_again_on_the_affected_puzzles_only(bench, sets, fake, tmp_path, monkeypatch, capsys):
    exe, log = fake
    first = tmp_path / "rows.jsonl"
    rows = _saved_run(bench, sets, exe, first)
    rows[0]["rofl"]["nodes"] = 50  # aaa#1: over 40 nodes
    rows[3]["rofl"]["sat"] = 1.5  # bbb#2: handed over
    rows[4]["rofl"]["cpu"] = 12.0  # bbb#3: over the budget
    _rewrite(first, rows)
    capsys.readouterr()
    monkeypatch.setattr(bench, "rofl_code", lambda: "def5678")
    calls = _count_rofl(bench, monkeypatch)
    save = tmp_path / "rerun.jsonl"
    args = ["--sets", str(sets), "--rerun-from", str(first), "--over-nodes", "40", "--save", str(save)]
    bench.main(args)
    out = capsys.readouterr().out
    assert [(c[0].width, c[1]) for c in calls] == [(3, 1)] * 3 and _calls(log) == 5  # nonosolve not run again
    assert "**COMBINED rows, mode first, budget 10 CPU s: 5 puzzles of 2 sets" in out
    assert "- re-run with rofl def5678: 3 puzzles the saved rows say are affected" in out
    assert "- reused from the saved rows, as they were: 2 puzzles (2 of abc1234)" in out
    assert "- affected, 3 puzzles:" in out and "handed to SAT 1 then 0; decided 2 then 3" in out
    assert "**COMBINED (3 re-run with rofl def5678, 2 saved rows reused: 2 of abc1234), mode first" in out
    assert "| all 2 sets |" in out and "| 5 / 5 of 5 |" in out
    again = [json.loads(line) for line in save.read_text().splitlines()]
    assert [(r["set"], r["label"]) for r in again] == [("aaa", 1), ("bbb", 2), ("bbb", 3)]
    assert all(r["rofl_code"] == "def5678" and r["rerun_of"]["rofl_code"] == "abc1234" for r in again)
    assert [r["nonosolve"] for r in again] == [rows[0]["nonosolve"], rows[3]["nonosolve"], rows[4]["nonosolve"]]
    assert again[2]["rerun_of"]["rofl"]["cpu"] == 12.0
    bench.main(args)  # resumed from its save: nothing run, the same report
    assert len(calls) == 3 and capsys.readouterr().out == out


def test_a_rerun_plans_spot_checks_and_takes_the_later_file(bench, sets, fake, tmp_path, monkeypatch, capsys):
    exe, _ = fake
    first = tmp_path / "rows.jsonl"
    rows = _saved_run(bench, sets, exe, first)
    later = tmp_path / "later.jsonl"
    _rewrite(later, [{**rows[1], "rofl_code": "fed4321", "rofl": {**rows[1]["rofl"], "nodes": 99}}])
    calls = _count_rofl(bench, monkeypatch)
    common = ["--sets", str(sets), "--rerun-from", str(first), "--rerun-from", str(later), "--over-nodes", "40"]
    capsys.readouterr()
    bench.main([*common, "--plan"])
    out = capsys.readouterr().out
    assert not calls and "aaa: 1 to re-run" in out and "bbb: 0 to re-run" in out
    assert "their saved rofl code: 1 of fed4321" in out
    bench.main([*common, "--spot-check", "1", "--set", "bbb"])
    out = capsys.readouterr().out
    assert len(calls) == 1 and "3 puzzles of 1 sets" in out and "0 puzzles the saved rows say" in out
    assert "- spot checks, 1 puzzles:" in out and "same node count 1 of 1" in out


def test_bad_rerun_options_are_refused(bench, sets, fake, tmp_path):
    exe, _ = fake
    first = tmp_path / "rows.jsonl"
    rows = _saved_run(bench, sets, exe, first)
    common = ["--sets", str(sets), "--rerun-from", str(first)]
    with pytest.raises(SystemExit, match="needs --over-nodes N"):
        bench.main(common)
    with pytest.raises(SystemExit, match="no --nonosolve"):
        bench.main([*common, "--over-nodes", "5", "--nonosolve", str(exe)])
    with pytest.raises(SystemExit, match="go with --rerun-from"):
        bench.main(["--nonosolve", str(exe), "--sets", str(sets), "--over-nodes", "5"])
    with pytest.raises(SystemExit, match="no saved rows of mode two"):
        bench.main([*common, "--over-nodes", "5", "--mode", "two"])
    with pytest.raises(SystemExit, match="no saved rows"):
        bench.main(["--sets", str(sets), "--rerun-from", str(tmp_path / "none.jsonl"), "--over-nodes", "5"])
    rows[0]["key"] = "aaa#1:0000"  # the set's file changed since
    _rewrite(first, rows)
    with pytest.raises(SystemExit, match="aaa#1 of the saved rows is not in"):
        bench.main([*common, "--over-nodes", "5"])


def test_the_per_set_table_splits_the_hand_overs_from_the_rest(bench):
    def row(name, ours, theirs, sat=0.0):
        ours = {"cpu": ours, "status": "found", "sat": sat}
        return {"set": name, "when": "2026-11-30T07:00:00+00:00", "load": 1.0, "rofl": ours,
                "nonosolve": {"cpu": theirs, "status": "found"}}  # fmt: skip

    out: list[str] = []
    rows = [row("a", 1.0, 2.0), row("a", 4.0, 1.5, sat=3.0), row("b", 0.5, 0.25)]
    bench.per_set("first", rows, 10.0, out, title="COMBINED (x), ")
    assert out[0] == "\n**COMBINED (x), mode first, per set (CPU s; budget 10 s)**"
    assert "the rest: rofl / nonosolve CPU" in out[1]
    assert out[3].startswith("| a | 5.0 | 3.5 | 1.43 | 2 / 2 of 2 |")
    assert "| 1, 4.0 / 1.5 | 1.0 / 2.0 | 2026-11-30 07:00, 1.0-1.0 | not met (total 1.43x) |" in out[3]
    assert "| 0, 0.0 / 0.0 | 0.5 / 0.2 |" in out[4]  # 0.25 rounds to even
    assert "| all 2 sets | 5.5 | 3.8 |" in out[5] and "| 1, 4.0 / 1.5 | 1.5 / 2.2 |" in out[5]
