"""rofl beside nonosolve on the tournament sets, side by side (issue 45; prints figures; not a test).

nonosolve (hyouv/FastNonogramSolver, MIT; it links Kissat and CaDiCaL) is NOT
bundled with rofl: build it outside this repository (docs/benchmarks.md,
"rofl beside nonosolve", says how) and pass the binary with ``--nonosolve``.

Usage::

    python benchmarks/tournament.py --nonosolve PATH [--sets DIR] [--per-set 60 | --whole]
        [--set taai2020 --set tcga2015 ... | --all-sets] [--budget 10] [--mode first --mode two]
        [--save rows.jsonl] [--cache nonosolve.json] [--skip-nonosolve] [--batch] [--write-docs]
    python benchmarks/tournament.py --rerun-from rows.jsonl [--rerun-from more.jsonl] --over-nodes N
        [--set NAME ...] [--spot-check K] [--plan] [--save rerun.jsonl] [--write-docs]

The sample: ``--per-set`` puzzles of each ``--set`` (five by default),
evenly spread over its labels ($1, $17, $34... for 60 of 1000), as the
tournaments give them (the difficulty grows along a set).  ``--whole`` runs
every puzzle of each set, and ``--all-sets`` every set of ``--sets``, one
after another (``--whole --all-sets``: the 27 sets, 27,000 puzzles).

For each puzzle, in turn (the side that goes first alternates, so a machine
whose load changes slows both alike):

* rofl: ``rofl.solve_complete(puzzle, time_budget=..., cpu_budget=--budget,
  solutions=1 or 2)`` in this process, warm (compiled before the clock), its
  CPU time (``rofl.solver.cpu_time``: the process's threads and Kissat's
  child processes).  The CPU budget
  ends its search and its SAT solver (Kissat's calls are capped in conflicts
  to fit it), so a puzzle it cannot settle stops near ``--budget`` CPU
  seconds however loaded the machine.
* nonosolve: one process per puzzle (``-n 1`` or ``-n 2``, ``--timeout``,
  ``--json``), its CPU time from the kernel's accounting (``os.wait4``:
  user + system of the whole process, start-up included, about 2 ms).

The machine this runs on is shared (2 cores, other jobs): CPU time, not the
wall clock, is the figure.  Both are given a wall-clock budget of three
times ``--budget`` (``--wall``: another multiple, on a loaded machine); a
run that takes more than ``--budget`` CPU seconds counts as undecided
whatever it found.  Every grid either side returns is
checked against the clues: a grid that breaks them is reported as "wrong"
(never decided) and the run goes on, as it does past an exception in rofl
("error").  In mode ``two`` the two sides' verdicts (unique or several) must
agree where both decide.

Long runs are made cheap to redo and to resume:

* ``--save FILE`` appends each puzzle's row (both sides' figures, the rofl
  code it ran, the time and the load) to ``FILE`` (JSON lines) as soon as
  it is done.  Run again with the same ``--save``, the puzzles already in it
  are not run again: an interrupted run resumes, and a finished one only
  prints its report (and ``--write-docs`` writes it).  Rows measured with
  other rofl code (the last commit of ``rofl/``, or uncommitted changes in
  it) are refused: start another file.
* ``--cache FILE`` keeps nonosolve's per-puzzle figures (JSON), keyed by the
  binary (its SHA-256), the mode, the budget and the puzzle (set, label and
  clues).  They do not change with rofl's code, so a later run (a rofl-only
  rerun after a change to the solver) takes them from the cache instead of
  running nonosolve again; the report says how many it took and when they
  were measured.  Figures from the cache were measured at another time,
  under another load: nonosolve's side is then not interleaved with rofl's.

A change to the hard tail (the search past many nodes, the hand-over, the
SAT solver) leaves the other puzzles' figures as they were, so it need not
run 27,000 puzzles again.  ``--rerun-from ROWS`` (saved rows of earlier
runs, of any rofl code; a row of a later file replaces an earlier one of the
same puzzle) with ``--over-nodes N`` runs rofl again, with the code of this
checkout, only on the puzzles whose saved rofl row took more than ``N``
nodes, was handed to the SAT solver or was undecided, beside the saved
row's nonosolve figure (nonosolve is not run); ``--spot-check K`` re-runs
``K`` other puzzles a set too, whose node counts should not move.  The
report is of the combined rows and says so: how many puzzles were re-run
and with which rofl code, how many saved rows were reused and of which
code, the affected puzzles' figures before and after, and the per-set
table headed COMBINED (``--write-docs``: section ``tournament-combined``).
``--plan`` says what would be re-run and runs nothing; ``--save`` keeps the
re-run rows (each with ``rerun_of``: the saved row's rofl figures) and
resumes as above.  nonosolve's figures were then measured at another time,
under another load, and the rows reused ran older code: a combined table is
an estimate for the lead's end of a session, not a substitute for a whole
interleaved run.

The report gives, per mode, the whole run's figures, rofl's ten slowest
puzzles, and with several sets or ``--whole`` a table of one line per set:
each side's total, decided count, median / p90 / slowest, the puzzles past
the budget, and issue 45's goal for that set (first solution: rofl's total
at most nonosolve's, every puzzle decided within the budget, every answer
checked).  ``--write-docs`` writes the sample's report into section
``tournament-nonosolve`` of docs/benchmarks.md, and with ``--whole`` the
per-set tables into section ``tournament-sets`` (``--section NAME``:
another marked section).

``--batch`` also runs nonosolve's own batch mode (``--taai`` on the whole
run in one process, its default first-solution mode, or ``-n 2``) and
prints its total CPU time: nonosolve's start-up counted once.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SETS = next(
    (p for p in (REPO.parent / "shared" / "tournaments", Path("/work/shared/tournaments")) if p.is_dir()), None
)
#: Five sets from the three tournaments and across the years.
SAMPLE_SETS = ("taai2011", "tcga2014", "icga2017", "taai2020", "tcga2022")
sys.path.insert(0, str(REPO))

from rofl._io import atomic_write  # noqa: E402
from rofl.batch.tournament import read_tournament  # noqa: E402
from rofl.solver import cpu_time, solve_complete  # noqa: E402

MODES = {"first": 1, "two": 2}
#: New nonosolve figures written to the cache file at least this often.
CACHE_EVERY = 50


def _fail(message: str) -> None:
    sys.exit(f"tournament.py: {message}")


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _clue_line(clue) -> str:
    return "\t".join(str(n) for n, _ in clue) if clue else "0"


def taai_text(label: int, puzzle) -> str:
    """One puzzle in the tournaments' format (columns first, then rows), for nonosolve."""
    lines = [f"${label}"]
    lines += [_clue_line(puzzle.clue(puzzle.height + c)) for c in range(puzzle.width)]
    lines += [_clue_line(puzzle.clue(r)) for r in range(puzzle.height)]
    return "\n".join(lines) + "\n"


def puzzle_key(name: str, label: int, puzzle) -> str:
    """The set, the label and a digest of the clues: a set file edited later misses the cache."""
    return f"{name}#{label}:{hashlib.sha256(taai_text(label, puzzle).encode()).hexdigest()[:16]}"


def binary_digest(exe: str) -> str:
    return hashlib.sha256(Path(exe).read_bytes()).hexdigest()[:16]


def rofl_code() -> str:
    """The rofl code a row was measured with: the last commit of ``rofl/``, ``-dirty`` if it has changes
    (of the checkout rofl is imported from)."""
    import rofl

    where = Path(rofl.__file__).resolve().parents[1]
    try:
        last = subprocess.run(["git", "log", "-1", "--format=%h", "--", "rofl"], cwd=where,
                              capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "rofl"], cwd=where,
                               capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return (last or "unknown") + ("-dirty" if dirty else "")


class NonosolveCache:
    """nonosolve's figures per puzzle in a JSON file (``--cache``), keyed by
    binary, mode, budget and puzzle; written atomically every
    ``CACHE_EVERY`` new figures and at :meth:`flush`."""

    def __init__(self, path: Path | None, digest: str):
        self.path, self.digest, self.new = path, digest, 0
        self.entries: dict[str, dict] = {}
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.entries = data["entries"]
            except (ValueError, KeyError, TypeError):
                _fail(f"{path} is no nonosolve cache of this script (JSON with 'entries')")

    def _key(self, want: int, budget: float, key: str) -> str:
        return f"{self.digest}/n{want}/b{budget:g}/{key}"

    def get(self, want: int, budget: float, key: str) -> dict | None:
        found = self.entries.get(self._key(want, budget, key))
        return None if found is None else {**found, "cached": True}

    def put(self, want: int, budget: float, key: str, run: dict) -> None:
        if self.path is None:
            return
        self.entries[self._key(want, budget, key)] = {**run, "measured": _now()}
        self.new += 1
        if self.new >= CACHE_EVERY:
            self.flush()

    def flush(self) -> None:
        if self.path is not None and self.new:
            atomic_write(self.path, json.dumps({"entries": self.entries}, indent=0))
            self.new = 0


def read_save(path: Path | None, code: str) -> dict[tuple, dict]:
    """The rows of an earlier run in ``--save`` (JSON lines), by (mode, budget, set, label)."""
    rows: dict[tuple, dict] = {}
    if path is None or not path.exists():
        return rows
    text = path.read_text(encoding="utf-8")
    if text.startswith("{\n"):  # one JSON object: the save of this script before its rows were lines
        _fail(f"{path} is a save of an earlier tournament.py (one JSON object, not rows): save to another file")
    if text and not text.endswith("\n"):  # a row cut off: the next one starts on a line of its own
        with path.open("a", encoding="utf-8") as f:
            f.write("\n")
    for where, row in _rows_in(path, text, "not a row, skipped (a run cut off while writing it?)"):
        if row.get("rofl_code") != code:
            _fail(f"{path} holds rows of rofl {row.get('rofl_code')}, this is rofl {code}: save to another file")
        rows[where] = row
    return rows


def _rows_in(path: Path, text: str, skipped: str, check=None):
    """``(where, row)`` of each line of ``text`` (JSON lines of ``path``) that is a row, ``where`` its
    (mode, budget, set, label); ``check(row)`` may raise too.  A line that is none is reported (``skipped``)."""
    for n, line in enumerate(text.splitlines(), 1):
        try:
            row = json.loads(line)
            where = (row["mode"], row["budget"], row["set"], row["label"])
            if check is not None:
                check(row)
        except (ValueError, KeyError, TypeError):
            print(f"tournament.py: {path}:{n}: {skipped}", file=sys.stderr)
            continue
        yield where, row


def run_nonosolve(exe: str, path: Path, want: int, budget: float, puzzle, clock: float) -> dict:
    """nonosolve on one puzzle file, given ``clock`` seconds of wall clock: its verdict, CPU seconds (wait4) and
    checked grids."""
    out = path.with_suffix(".json")
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [exe, "-n", str(want), "--timeout", str(clock), "-q", "--json", str(out), str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    verdict, grids = "error", []
    if out.exists():
        data = json.loads(out.read_text())
        verdict = {"UNIQUE": "unique", "MULTIPLE": "multiple", "FOUND": "found", "NONE": "none"}.get(
            data["status"], "budget"
        )
        for text in data["solutions"]:
            grid = np.frombuffer(text.encode(), dtype=np.uint8).reshape(puzzle.height, puzzle.width) - ord("0")
            if not puzzle.is_solution(grid):
                verdict = "wrong"
            grids.append(grid)
    return {"status": verdict, "cpu": cpu, "wall": wall, "solutions": len(grids)}


def run_rofl(puzzle, want: int, budget: float, clock: float) -> dict:
    """rofl on one puzzle, given ``clock`` seconds of wall clock and ``budget`` of CPU: its verdict, CPU seconds
    and checked grids."""
    cpu, wall = cpu_time(), time.perf_counter()
    try:
        result = solve_complete(puzzle, time_budget=clock, cpu_budget=budget, solutions=want)
    except Exception as e:  # noqa: BLE001 - reported per puzzle, the run goes on
        return {"status": "error", "cpu": cpu_time() - cpu, "wall": time.perf_counter() - wall,
                "solutions": 0, "sat": 0.0, "nodes": 0, "error": f"{type(e).__name__}: {e}"}  # fmt: skip
    cpu, wall = cpu_time() - cpu, time.perf_counter() - wall
    # solve_complete checks too: a second look costs nothing
    wrong = any(not puzzle.is_solution(grid) for grid in result.solutions)
    return {"status": "wrong" if wrong else str(result.status), "cpu": cpu, "wall": wall,
            "solutions": len(result.solutions), "sat": result.sat_seconds, "nodes": result.nodes}  # fmt: skip


def decided(run: dict, want: int, budget: float) -> bool:
    if run["cpu"] > budget or run["status"] in ("budget", "error", "wrong"):
        return False
    return run["status"] in (("found", "unique", "multiple") if want == 1 else ("unique", "multiple", "none"))


def sample(sets_dir: Path, names: list[str], per_set: int | None) -> list[tuple[str, int, object]]:
    """``per_set`` puzzles of each set, evenly spread over it (None: all of them, in order)."""
    chosen = []
    for name in names:
        path = sets_dir / f"{name}.txt"
        if not path.is_file():
            _fail(f"no tournament set {path}")
        puzzles = read_tournament(path)
        count = len(puzzles) if per_set is None else per_set
        step = len(puzzles) / count
        for i in range(count):
            label, puzzle = puzzles[min(len(puzzles) - 1, int(i * step))]
            chosen.append((name, label, puzzle))
    return chosen


def all_sets(sets_dir: Path) -> list[str]:
    names = sorted(p.stem for p in sets_dir.glob("*.txt"))
    if not names:
        _fail(f"no tournament sets (*.txt) in {sets_dir}")
    return names


def figures(times: list[float]) -> str:
    a = np.array(times)
    return f"{np.median(a):.3f} / {np.percentile(a, 90):.3f} / {a.max():.2f} s"


def say(out: list[str], *lines: str) -> None:
    """Print ``lines`` and keep them for ``--write-docs``."""
    text = "".join(lines)
    print(text, flush=True)
    out.append(text)


def _slow_line(row: dict) -> str:
    """One of rofl's slowest: the SAT solver's time only for a puzzle handed over, and named wall clock."""
    ours, theirs = row["rofl"], row["nonosolve"]
    sat = f", SAT {ours['sat']:.1f} s wall" if ours.get("sat", 0.0) > 0 else ""
    return (f"- {row['set']}#{row['label']}: rofl {ours['cpu']:.2f} s CPU ({ours['status']}{sat}), "
            f"nonosolve {theirs['cpu']:.2f} s ({theirs['status']})")  # fmt: skip


def _provenance(theirs: list[dict]) -> str:
    cached = [r for r in theirs if r.get("cached")]
    skipped = sum(r["status"] == "skipped" for r in theirs)
    parts = []
    if len(cached) + skipped < len(theirs):
        parts.append(f"{len(theirs) - len(cached) - skipped} measured in the run, interleaved with rofl")
    if cached:
        when = sorted(r.get("measured", "?") for r in cached)
        parts.append(f"{len(cached)} from the cache (measured {when[0][:16]} to {when[-1][:16]} UTC)")
    if skipped:
        parts.append(f"{skipped} not run (--skip-nonosolve; they read 0)")
    return "nonosolve's figures: " + "; ".join(parts) + "."


def report(mode: str, rows: list[dict], budget: float, out: list[str], provenance: str | None = None) -> None:
    """The run's figures, its wrong answers and errors, and rofl's ten slowest (``provenance``: where
    nonosolve's figures come from, when not from this run or its cache)."""
    want = MODES[mode]
    other = "nonosolve -n 1" if want == 1 else "nonosolve -n 2"
    ours = [r["rofl"] for r in rows]
    theirs = [r["nonosolve"] for r in rows]
    dr = sum(decided(r, want, budget) for r in ours)
    dn = sum(decided(r, want, budget) for r in theirs)
    say(out, f"\n**mode {mode} ({'first solution' if want == 1 else 'two solutions'}), {len(rows)} puzzles, "
          f"budget {budget:g} CPU s**")  # fmt: skip
    say(out, f"| | rofl `solve_complete(solutions={want})` | {other} |")
    say(out, "|---|---|---|")
    say(out, f"| decided within {budget:g} CPU s | {dr} | {dn} |")
    say(out, f"| median / p90 / slowest (CPU) | {figures([r['cpu'] for r in ours])} | "
          f"{figures([r['cpu'] for r in theirs])} |")  # fmt: skip
    say(out, f"| total CPU | {sum(r['cpu'] for r in ours):.1f} s | {sum(r['cpu'] for r in theirs):.1f} s |")
    ratio = [a["cpu"] / max(b["cpu"], 1e-4) for a, b in zip(ours, theirs, strict=True)]
    faster = sum(a["cpu"] < b["cpu"] for a, b in zip(ours, theirs, strict=True))
    say(out, f"\nPer puzzle, rofl's CPU over nonosolve's: median {statistics.median(ratio):.2f}; "
          f"rofl faster on {faster} of {len(rows)}. {provenance or _provenance(theirs)}")  # fmt: skip
    for side in ("rofl", "nonosolve"):
        bad = [r for r in rows if r[side]["status"] in ("wrong", "error")]
        if bad:
            say(out, f"\n{side}'s answers that failed the check or errors: {len(bad)}")
            for r in bad:
                say(out, f"- {r['set']}#{r['label']}: {r[side]['status']} {r[side].get('error', '')}".rstrip())
    if want == 2:
        differ = [
            f"{r['set']}#{r['label']}"
            for r in rows
            if decided(r["rofl"], 2, budget) and decided(r["nonosolve"], 2, budget)
            and r["rofl"]["status"] != r["nonosolve"]["status"]
        ]  # fmt: skip
        say(out, f"Verdicts that differ (both decided): {len(differ)} {' '.join(differ)}")
    slow = sorted(rows, key=lambda r: -r["rofl"]["cpu"])[:10]
    share = sum(r["rofl"]["cpu"] for r in slow)
    say(out, f"\nrofl's 10 slowest ({share:.1f} s of {sum(r['cpu'] for r in ours):.1f} s CPU):")
    for r in slow:
        say(out, _slow_line(r))


def goal(rows: list[dict], want: int, budget: float) -> str:
    """Issue 45's goal on one set: rofl's total at most nonosolve's, every puzzle decided and checked."""
    ours = sum(r["rofl"]["cpu"] for r in rows)
    theirs = sum(r["nonosolve"]["cpu"] for r in rows)
    missed = [r["rofl"] for r in rows if not decided(r["rofl"], want, budget)]
    if theirs == 0:
        return "no nonosolve figures"
    misses = [] if ours <= theirs else [f"total {ours / theirs:.2f}x"]
    # a run stopped by the wall clock (--wall times the budget) before the budget's CPU: the machine's load
    walled = sum(r["status"] == "budget" and r["cpu"] <= budget for r in missed)
    if len(missed) > walled:
        misses.append(f"{len(missed) - walled} undecided")
    if walled:
        misses.append(f"{walled} cut off by the wall clock")
    return "met" if not misses else "not met (" + ", ".join(misses) + ")"


def per_set(mode: str, rows: list[dict], budget: float, out: list[str], title: str = "") -> None:
    """One line per set, and one for them all: both sides' totals and figures, the puzzles rofl
    handed over to the SAT solver with both sides' CPU on them, and the goal's verdict."""
    want = MODES[mode]
    say(out, f"\n**{title}mode {mode}, per set (CPU s; budget {budget:g} s)**")
    spread = "median / p90 / slowest"
    head = ["set", "rofl total", "nonosolve total", "ratio", "decided (rofl / nonosolve)", f"rofl {spread}",
            f"nonosolve {spread}", f"rofl over {budget:g} s", "handed to SAT: puzzles, rofl / nonosolve CPU",
            "the rest: rofl / nonosolve CPU",
            "measured (UTC), load", "goal"]  # fmt: skip
    say(out, "| " + " | ".join(head) + " |")
    say(out, "|" + "---|" * len(head))
    names = list(dict.fromkeys(r["set"] for r in rows))
    for name in [*names, None] if len(names) > 1 else names:
        these = [r for r in rows if r["set"] == name or name is None]
        ours = [r["rofl"]["cpu"] for r in these]
        theirs = [r["nonosolve"]["cpu"] for r in these]
        over = sum(t > budget for t in ours)
        sat = [r for r in these if r["rofl"].get("sat", 0.0) > 0]
        sat_ours, sat_theirs = sum(r["rofl"]["cpu"] for r in sat), sum(r["nonosolve"]["cpu"] for r in sat)
        handed = f"{len(sat)}, {sat_ours:.1f} / {sat_theirs:.1f}"
        rest = f"{sum(ours) - sat_ours:.1f} / {sum(theirs) - sat_theirs:.1f}"
        loads = [r["load"] for r in these if "load" in r]
        load = f"{min(loads):.1f}-{max(loads):.1f}" if loads else "?"
        when = min(r.get("when", "?") for r in these)
        dr = sum(decided(r["rofl"], want, budget) for r in these)
        dn = sum(decided(r["nonosolve"], want, budget) for r in these)
        label = name or f"all {len(names)} sets"
        say(out, f"| {label} | {sum(ours):.1f} | {sum(theirs):.1f} | {sum(ours) / max(sum(theirs), 1e-9):.2f} | "
              f"{dr} / {dn} of {len(these)} | {figures(ours)} | {figures(theirs)} | {over} | "
              f"{handed} | {rest} | {when[:16].replace('T', ' ')}, {load} | "
              f"{goal(these, want, budget)} |")  # fmt: skip


def read_rows(paths: list[Path]) -> dict[tuple, dict]:
    """The rows of earlier runs (``--rerun-from``, of any rofl code), by (mode, budget, set, label); a row of
    a later file (or later in a file) replaces an earlier one of the same puzzle."""
    rows: dict[tuple, dict] = {}
    for path in paths:
        if not path.is_file():
            _fail(f"no saved rows {path}")
        rows.update(_rows_in(path, path.read_text(encoding="utf-8"), "not a row, skipped", _figures_in))
    return rows


def _figures_in(row: dict) -> None:
    """Raise unless ``row`` holds both sides' CPU and rofl's code (what a re-run reads of it)."""
    float(row["rofl"]["cpu"]) + float(row["nonosolve"]["cpu"])
    str(row["rofl_code"])


def affected(run: dict, want: int, budget: float, over_nodes: int) -> bool:
    """Whether a saved rofl figure is one a change to the hard tail may move: the search took more than
    ``over_nodes`` nodes (or did not say), handed the puzzle to the SAT solver, or did not decide it."""
    return run.get("nodes", over_nodes + 1) > over_nodes or run.get("sat", 0.0) > 0 or not decided(run, want, budget)


def _counts(values) -> str:
    return ", ".join(f"{n} of {value}" for value, n in sorted(collections.Counter(values).items()))


def _span(rows: list[dict]) -> str:
    when = sorted(r.get("when", "?") for r in rows)
    return f"{when[0][:16].replace('T', ' ')} to {when[-1][:16].replace('T', ' ')} UTC"


def rerun(args, names: list[str] | None, modes: list[str] | None, folder: Path, out: list[str],
          tables: list[str]) -> None:  # fmt: skip
    """``--rerun-from``: rofl again on the saved rows' affected puzzles (and ``--spot-check`` others per
    set), the other rows reused, and the report of the combined rows, labelled as such."""
    saved = read_rows(args.rerun_from)
    budget = args.budget
    found = [m for m in MODES if any(key[0] == m and key[1] == budget for key in saved)]
    for mode in modes or found or ["first"]:
        want = MODES[mode]
        these = [r for key, r in saved.items() if key[:2] == (mode, budget) and (names is None or key[2] in names)]
        if not these:
            _fail(f"no saved rows of mode {mode}, budget {budget:g}" + (f", sets {', '.join(names)}" if names else ""))
        order = {name: i for i, name in enumerate(dict.fromkeys(r["set"] for r in these))}
        these.sort(key=lambda r: (order[r["set"]], r["label"]))
        puzzles = {name: dict(read_tournament(args.sets / f"{name}.txt")) for name in order}
        for r in these:
            puzzle = puzzles[r["set"]].get(r["label"])
            if puzzle is None or r.get("key", puzzle_key(r["set"], r["label"], puzzle)) != puzzle_key(
                r["set"], r["label"], puzzle
            ):
                _fail(f"{r['set']}#{r['label']} of the saved rows is not in {args.sets} (or its clues changed)")
        hit = [r for r in these if affected(r["rofl"], want, budget, args.over_nodes)]
        pick = random.Random(0)
        spot = []
        for name in order:
            rest = [r for r in these if r["set"] == name and not affected(r["rofl"], want, budget, args.over_nodes)]
            spot += pick.sample(rest, min(args.spot_check, len(rest)))
        again = sorted(hit + spot, key=lambda r: (order[r["set"]], r["label"]))
        say(out, f"\n**COMBINED rows, mode {mode}, budget {budget:g} CPU s: {len(these)} puzzles of "
                 f"{len(order)} sets from {', '.join(map(str, args.rerun_from))}**")  # fmt: skip
        partial = [f"{name} ({sum(r['set'] == name for r in these)} of {len(puzzles[name])})" for name in order
                   if sum(r["set"] == name for r in these) < len(puzzles[name])]  # fmt: skip
        if partial:
            say(out, f"Sets not whole in the saved rows: {', '.join(partial)}.")
        say(out, f"- re-run with rofl {rofl_code()}: {len(hit)} puzzles the saved rows say are affected (rofl's "
                 f"search over {args.over_nodes} nodes, handed to the SAT solver, or undecided), and {len(spot)} "
                 f"spot checks ({args.spot_check} a set of the others); their saved rofl code: "
                 f"{_counts(r['rofl_code'] for r in again) or 'none'}")  # fmt: skip
        ran = {(r["set"], r["label"]) for r in again}
        kept = [r for r in these if (r["set"], r["label"]) not in ran]
        say(out, f"- reused from the saved rows, as they were: {len(kept)} puzzles "
                 f"({_counts(r['rofl_code'] for r in kept) or 'none'})")  # fmt: skip
        binaries = _counts(r.get("nonosolve_binary", "not recorded") for r in these)
        say(out, f"- nonosolve's figures: every one from the saved rows (binary {binaries}), measured {_span(these)}")
        if args.plan:
            for name in order:
                mine = [r for r in hit if r["set"] == name]
                say(out, f"  {name}: {len(mine)} to re-run (saved rofl {sum(r['rofl']['cpu'] for r in mine):.1f} s, "
                         f"nonosolve {sum(r['nonosolve']['cpu'] for r in mine):.1f} s)")  # fmt: skip
            continue
        chosen = [(r["set"], r["label"], puzzles[r["set"]][r["label"]]) for r in again]
        run = Run(args, None, chosen, {(mode, r["set"], r["label"]): r for r in again})
        new = {(r["set"], r["label"]): r for r in run.rows(mode, folder)}
        combined = [new.get((r["set"], r["label"]), r) for r in these]
        for what, group in (("affected", hit), ("spot checks", spot)):
            if not group:
                continue
            now = [new[r["set"], r["label"]] for r in group]
            handed = [sum(x["rofl"].get("sat", 0.0) > 0 for x in rows) for rows in (group, now)]
            done = [sum(decided(x["rofl"], want, budget) for x in rows) for rows in (group, now)]
            same = sum(a["rofl"].get("nodes") == b["rofl"].get("nodes") for a, b in zip(group, now, strict=True))
            say(out, f"- {what}, {len(group)} puzzles: rofl {sum(r['rofl']['cpu'] for r in group):.1f} s saved, "
                     f"{sum(r['rofl']['cpu'] for r in now):.1f} s now; nonosolve "
                     f"{sum(r['nonosolve']['cpu'] for r in group):.1f} s; handed to SAT {handed[0]} then {handed[1]}; "
                     f"decided {done[0]} then {done[1]}; same node count {same} of {len(group)}")  # fmt: skip
        origin = (f"nonosolve's figures: from the saved rows, measured {_span(these)}; rofl's: {len(again)} "
                  f"re-run now, {len(kept)} from the saved rows.")  # fmt: skip
        report(mode, combined, budget, out, provenance=origin)
        per_set(mode, combined, budget, tables, title=f"COMBINED ({len(again)} re-run with rofl {rofl_code()}, "
                f"{len(kept)} saved rows reused: {_counts(r['rofl_code'] for r in kept) or 'none'}), ")  # fmt: skip


def run_batch(exe: str, chosen, want: int, folder: Path, out: list[str]) -> None:
    text = "".join(taai_text(i + 1, puzzle) for i, (_, _, puzzle) in enumerate(chosen))
    path = folder / "sample.txt"
    path.write_text(text)
    proc = subprocess.Popen(
        [exe, "--taai", str(path), "-n", str(want), "-o", str(folder / "answers.txt")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _, _, usage = os.wait4(proc.pid, 0)
    said = proc.stdout.read().decode().strip()
    say(out, f"nonosolve's batch mode (-n {want}, one process, {len(chosen)} puzzles): "
          f"CPU {usage.ru_utime + usage.ru_stime:.1f} s; it says: {said}")  # fmt: skip


class Run:
    """One run's puzzles, both sides, the rows saved and the cache."""

    def __init__(self, args, exe: str | None, chosen, reruns: dict[tuple, dict] | None = None):
        self.args, self.exe, self.chosen = args, exe, chosen
        self.reruns = reruns or {}  # (set, label): the saved row a re-run takes nonosolve's figure from
        self.code = rofl_code()
        self.done = read_save(args.save, self.code)
        self.digest = "?" if exe is None else binary_digest(exe)
        self.cache = NonosolveCache(None if exe is None else args.cache, self.digest)
        self.warm = False

    def row(self, mode: str, i: int, name: str, label: int, puzzle, folder: Path, saved: dict | None = None) -> dict:
        """Both sides on one puzzle (``saved``: rofl alone, again, beside the saved row's nonosolve figure)."""
        want, budget = MODES[mode], self.args.budget
        key = puzzle_key(name, label, puzzle)
        row = {"mode": mode, "budget": budget, "set": name, "label": label, "key": key, "rofl_code": self.code,
               "when": _now(), "load": os.getloadavg()[0], "nonosolve_binary": self.digest,
               "wall": self.args.wall}  # fmt: skip
        if saved is not None:  # a re-run: nonosolve's figure, and rofl's, of the saved row
            row["nonosolve_binary"] = saved.get("nonosolve_binary", "?")
            row["rerun_of"] = {"rofl_code": saved["rofl_code"], "when": saved.get("when", "?"), "rofl": saved["rofl"]}
        theirs = saved["nonosolve"] if saved is not None else self.cache.get(want, budget, key)
        if theirs is None and self.args.skip_nonosolve:
            theirs = {"status": "skipped", "cpu": 0.0, "wall": 0.0, "solutions": 0}
        if not self.warm:  # compile (or load) every kernel before any clock
            solve_complete(puzzle, solutions=2)
            self.warm = True
        order = ("rofl", "nonosolve") if i % 2 == 0 else ("nonosolve", "rofl")
        for side in order:
            if side == "rofl":
                row["rofl"] = run_rofl(puzzle, want, budget, self.args.wall * budget)
            elif theirs is not None:
                row["nonosolve"] = theirs
            else:
                path = folder / f"{name}-{label}.txt"
                path.write_text(taai_text(label, puzzle))
                row["nonosolve"] = run_nonosolve(self.exe, path, want, budget, puzzle, self.args.wall * budget)
                self.cache.put(want, budget, key, row["nonosolve"])
        if self.args.save is not None:
            with self.args.save.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
        return row

    def rows(self, mode: str, folder: Path) -> list[dict]:
        rows = []
        for i, (name, label, puzzle) in enumerate(self.chosen):
            saved = self.done.get((mode, self.args.budget, name, label))
            row = saved or self.row(mode, i, name, label, puzzle, folder, self.reruns.get((mode, name, label)))
            rows.append(row)
            if saved is None:
                ours, theirs = row["rofl"], row["nonosolve"]
                print(f"  {mode} {i + 1}/{len(self.chosen)} {name}#{label}: rofl {ours['cpu']:.3f} s {ours['status']}, "
                      f"nonosolve {theirs['cpu']:.3f} s {theirs['status']}", file=sys.stderr, flush=True)  # fmt: skip
        return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nonosolve", help="the nonosolve binary (not with --rerun-from)")
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS)
    parser.add_argument("--set", dest="names", action="append")
    parser.add_argument("--all-sets", action="store_true", help="every set (*.txt) of --sets, one after another")
    parser.add_argument("--per-set", type=int, default=60)
    parser.add_argument("--whole", action="store_true", help="every puzzle of each set (not --per-set of them)")
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--wall", type=float, default=3.0,
                        help="the wall clock each side gets, in budgets (3: 30 s for 10 CPU s); more on a loaded "
                             "machine, where a puzzle can run out of wall clock before its CPU budget")  # fmt: skip
    parser.add_argument("--mode", dest="modes", action="append", choices=sorted(MODES))
    parser.add_argument("--batch", action="store_true")
    parser.add_argument("--save", type=Path, help="rows as JSON lines; rows already there are not run again")
    parser.add_argument("--cache", type=Path, help="nonosolve's figures per puzzle, reused by later runs")
    parser.add_argument("--write-docs", action="store_true",
                        help="write section tournament-nonosolve (with --whole: tournament-sets) of docs")  # fmt: skip
    parser.add_argument("--section", help="with --write-docs: the section of docs/benchmarks.md to write "
                        "(by default tournament-nonosolve, with --whole tournament-sets, with --rerun-from "
                        "tournament-combined)")  # fmt: skip
    parser.add_argument("--skip-nonosolve", action="store_true",
                        help="rofl only (nonosolve's figures from --cache, else they read 0)")  # fmt: skip
    parser.add_argument("--rerun-from", type=Path, action="append",
                        help="rows saved by earlier runs (JSON lines; later files win): rofl again on the puzzles "
                             "they say are affected, the rest reused, nonosolve's figures from the rows")  # fmt: skip
    parser.add_argument("--over-nodes", type=int,
                        help="with --rerun-from: affected are the puzzles whose saved rofl row took more than this "
                             "many nodes, was handed to the SAT solver or was undecided")  # fmt: skip
    parser.add_argument("--spot-check", type=int, default=0,
                        help="with --rerun-from: also re-run this many other puzzles a set (the same node count "
                             "says they were not affected)")  # fmt: skip
    parser.add_argument("--plan", action="store_true", help="with --rerun-from: say what would be re-run, run nothing")
    args = parser.parse_args(argv)
    if args.sets is None:
        _fail("no tournament sets found: pass --sets DIR")
    if args.wall < 1:
        _fail("--wall must be at least 1 (budgets of wall clock)")
    if args.rerun_from:
        return _main_rerun(args)
    if args.nonosolve is None:
        _fail("--nonosolve PATH is needed (or --rerun-from ROWS)")
    if args.over_nodes is not None or args.spot_check or args.plan:
        _fail("--over-nodes, --spot-check and --plan go with --rerun-from")
    if args.all_sets and args.names:
        _fail("--all-sets or --set, not both")
    if args.per_set < 1:
        _fail("--per-set must be at least 1")
    exe = str(Path(args.nonosolve).resolve())
    if not os.access(exe, os.X_OK):
        _fail(f"no nonosolve at {exe} (not bundled: see docs/benchmarks.md, 'rofl beside nonosolve')")
    names = all_sets(args.sets) if args.all_sets else args.names or list(SAMPLE_SETS)
    modes = args.modes or ["first", "two"]
    chosen = sample(args.sets, names, None if args.whole else args.per_set)
    what = "every puzzle" if args.whole else f"{args.per_set}"
    print(f"{len(chosen)} puzzles: {what} from each of {', '.join(names)}; nonosolve {exe}")
    run = Run(args, exe, chosen)
    out: list[str] = [f"{len(chosen)} puzzles: {what} from each of {', '.join(names)}."]
    tables: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        try:
            for mode in modes:
                rows = run.rows(mode, folder)
                report(mode, rows, args.budget, out)
                if args.whole or len(names) > 1:
                    per_set(mode, rows, args.budget, tables)
                if args.batch and not args.skip_nonosolve:
                    run_batch(exe, chosen, MODES[mode], folder, out)
        except KeyboardInterrupt:
            saved = f"; the puzzles done are in {args.save}: run again to resume" if args.save else ""
            _fail(f"interrupted{saved}")
        finally:
            run.cache.flush()
    if args.write_docs:
        _write_docs(args.section or ("tournament-sets" if args.whole else "tournament-nonosolve"), out + tables)


def _write_docs(section: str, lines: list[str]) -> None:
    from _docs import write_report

    write_report(section, lines)


def _main_rerun(args) -> None:
    """``main`` with ``--rerun-from``: rofl alone, beside the saved rows' nonosolve figures."""
    if args.over_nodes is None or args.over_nodes < 0:
        _fail("--rerun-from needs --over-nodes N (0 or more): the saved rows' puzzles over N nodes are run again")
    if args.spot_check < 0:
        _fail("--spot-check must be 0 or more")
    for given, option in ((args.nonosolve, "--nonosolve"), (args.cache, "--cache"), (args.batch, "--batch"),
                          (args.skip_nonosolve, "--skip-nonosolve"), (args.all_sets, "--all-sets"),
                          (args.whole, "--whole")):  # fmt: skip
        if given:
            _fail(f"--rerun-from takes the puzzles and nonosolve's figures from the saved rows: no {option}")
    out: list[str] = []
    tables: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            rerun(args, args.names, args.modes, Path(tmp), out, tables)
        except KeyboardInterrupt:
            saved = f"; the puzzles done are in {args.save}: run again to resume" if args.save else ""
            _fail(f"interrupted{saved}")
    if args.write_docs and not args.plan:
        _write_docs(args.section or "tournament-combined", out + tables)


if __name__ == "__main__":
    main()
