"""The SAT side of a first solution's hand-over, on the tournament puzzles the search hands over (issue 45;
prints figures; not a test).

Usage::

    python benchmarks/sat_restarts.py --set tcga2013 [--set NAME ...] [--puzzle tcga2013#902 ...]
        --draws K [--cap 300000] --save draws.jsonl
    python benchmarks/sat_restarts.py --set tcga2017 [--puzzle ...] --real [--variant NAME ...]
        [--nonosolve PATH] [--budget 10] [--wall 6] [--repeat 1] --save real.jsonl

The puzzles: every puzzle of each ``--set`` that rofl's search hands over
to the SAT solver for a first solution (``search.HANDOVER_NODES_FIRST``),
found by running the search with the SAT side replaced by a recorder of the
root it would get (``self.probed``: what probing taught; no SAT time), and
each ``--puzzle SET#N`` likewise (the recorded root, or none when the search
settles it).

``--draws K``: Kissat (python-sat's, as ``rofl.solver.sat`` calls it) on the
first solution's formula from each recorded root (the encoding, the root's
unit clauses and its probe clauses, as ``solve_sat(want=1, start=root)``
builds them), once as built (seed 0) and on ``K - 1`` renamings (the
variables permuted, their signs flipped, the clauses shuffled:
``sat._renamed``), each capped at ``--cap`` conflicts; the CPU time of each
call (``time.process_time``), whether it found a solution (checked against
the clues) or ran out.  From these run lengths it simulates schedules of
calls (caps in conflicts at ``--rate`` a CPU second): one call as built;
Luby's schedule of renamed calls in units of ``u`` conflicts; geometric
schedules; a short call, then one to the end.  Each without a budget, and
within ``--budget`` less ``--search`` seconds, where rofl fits its calls to
the CPU left (the first at ``sat.KISSAT_CPU_RATE``, the next at
``sat.KISSAT_RATE_SHARE`` of the rate measured).  The ``i``-th call draws
the ``i``-th run (the draws taken in turn again past ``K``); puzzles whose
first call took at most ``--over`` CPU s have that one draw, which every
schedule's first call covers.

``--real``: the whole ``rofl.solve_complete(puzzle, time_budget=--wall x
--budget, cpu_budget=--budget, solutions=1)`` of each puzzle, once a
``--variant`` of ``rofl.solver.sat``'s settings (:data:`VARIANTS`:
``before``, one Kissat call of 100,000 conflicts then CaDiCaL's slices;
``fitted``, session 10's: the first call capped by the CPU budget only,
at :data:`rofl.solver.sat.KISSAT_CPU_RATE`'s floor, then Kissat on the
formula renamed; ``paced``, session 12's: the first call fitted at the pace
the process measured, a short call measuring it, the side's pace kept from
puzzle to puzzle as one tournament process keeps it), and nonosolve ``-n 1`` (a process a
puzzle, its CPU from ``os.wait4``) with ``--nonosolve``, in turn, the order
rotating from puzzle to puzzle; every grid checked against the clues; the
CPU time of each.

``--save`` keeps the rows (JSON lines; an interrupted run resumes, a
finished one only prints its report; ``--report-only`` runs no draws).
``--write-docs`` writes the report into section ``--section`` of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from tournament import DEFAULT_SETS, rofl_code, run_nonosolve, taai_text  # noqa: E402

from rofl.batch.tournament import read_tournament  # noqa: E402
from rofl.solver import cpu_time, sat, search  # noqa: E402
from rofl.solver.status import SearchStatus  # noqa: E402

#: ``rofl.solver.sat``'s settings of each ``--variant``.
VARIANTS = {
    # one Kissat call of 100,000 conflicts (or what the budget fits), then CaDiCaL's slices: main before this round
    "before": {"KISSAT_FIT_CPU": False, "KISSAT_RESTARTS": False, "KISSAT_CONFLICTS": 100_000},
    # as before, and the CPU budget unknown to rofl (the wall clock's only)
    "before-no-cpu-budget": {
        "KISSAT_FIT_CPU": False,
        "KISSAT_RESTARTS": False,
        "KISSAT_CONFLICTS": 100_000,
        "cpu_budget": False,
    },
    # session 10: the first call capped by the CPU budget only (at KISSAT_CPU_RATE's floor), then Kissat
    # on the formula renamed
    "fitted": {"KISSAT_FIT_CPU": True, "KISSAT_RESTARTS": True, "KISSAT_PACE_CONFLICTS": 0, "pace": False},
    # session 12: the same, the first call fitted at the pace this process measured (a short call measures it)
    "paced": {"KISSAT_FIT_CPU": True, "KISSAT_RESTARTS": True},
    # the first call of 25,000 or 100,000 conflicts, then the formula renamed, twice as many each time
    "geometric-25k": {"KISSAT_FIT_CPU": False, "KISSAT_RESTARTS": True, "KISSAT_CONFLICTS": 25_000},
    "geometric-100k": {"KISSAT_FIT_CPU": False, "KISSAT_RESTARTS": True, "KISSAT_CONFLICTS": 100_000},
}


#: The report's lines, printed as they come and written by ``--write-docs``.
OUT: list[str] = []


def say(line: str = "") -> None:
    print(line, flush=True)
    OUT.extend(line.split("\n"))


def _fail(message: str) -> None:
    sys.exit(f"sat_restarts.py: {message}")


def handover_roots(name: str, puzzles: list[tuple[int, object]]) -> dict[int, tuple[np.ndarray, float]]:
    """The root each puzzle's search hands over (first solution), with the search's CPU seconds to it, by label;
    the puzzles the search settles alone are left out."""
    roots: dict[int, tuple[np.ndarray, float]] = {}
    real = search._Restarts.hand_over
    current: list = []

    def record(self):
        roots[current[0]] = (self.probed.copy(), time.process_time() - current[1])
        return self.result(SearchStatus.BUDGET, [])

    search._Restarts.hand_over = record
    try:
        for label, puzzle in puzzles:
            current[:] = [label, time.process_time()]
            search.solve_complete(puzzle, time_budget=None, solutions=1)
    finally:
        search._Restarts.hand_over = real
    print(f"{name}: {len(roots)} of {len(puzzles)} handed over", file=sys.stderr)
    return roots


def first_formula(puzzle, root: np.ndarray) -> tuple[sat.Encoding, list[list[int]]]:
    """The formula ``solve_sat(want=1, start=root)`` gives Kissat."""
    encoding = sat.Encoding(puzzle)
    colours = np.arange(puzzle.n_colors, dtype=np.int64)
    ruled_out = (root.reshape(-1)[:, None] >> colours[None, :]) & 1 == 0
    clauses = encoding.clauses + [[-int(v)] for v in encoding.x[ruled_out]]
    return encoding, clauses + sat._probe_clauses(puzzle, root, encoding.x, None)


def kissat_run(puzzle, encoding, clauses, seed: int, cap: int) -> dict:
    """One Kissat call on the formula (seed 0) or a renaming of it, capped at ``cap`` conflicts."""
    from pysat.solvers import Solver

    formula, new = (clauses, None) if seed == 0 else sat._renamed(clauses, encoding.top, seed)
    cpu = time.process_time()
    with Solver(name=sat.KISSAT, bootstrap_with=formula) as solver:
        solver.conf_budget(cap)
        got = solver.solve_limited()
        model = solver.get_model() if got else None
    cpu = time.process_time() - cpu
    if got:
        value = np.zeros(encoding.top + 1, dtype=bool)
        m = np.asarray(model, dtype=np.int64)
        value[np.abs(m)] = m > 0
        if new is not None:
            value[1:] = value[np.abs(new[1:])] == (new[1:] > 0)
        grid = np.argmax(value[encoding.x], axis=1).astype(np.uint8).reshape(puzzle.height, puzzle.width)
        if not puzzle.is_solution(grid):
            _fail(f"a wrong grid from seed {seed}")
    return {"cpu": round(cpu, 4), "solved": got}


class Rows:
    """Saved rows (JSON lines), by key."""

    def __init__(self, path: Path | None, key) -> None:
        self.path, self.key, self.rows = path, key, {}
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.rows[key(row)] = row

    def add(self, row: dict) -> None:
        self.rows[self.key(row)] = row
        if self.path is not None:
            with self.path.open("a") as f:
                f.write(json.dumps(row) + "\n")


def _draw_key(row: dict) -> tuple:
    return row["set"], row["label"], row.get("solver", "kissat404"), row["seed"], row["cap"]


def draws(args, chosen: list[tuple[str, int, object, np.ndarray, float]]) -> None:
    rows = Rows(args.save, _draw_key)
    for name, label, puzzle, root, _ in [] if args.report_only else chosen:
        encoding, clauses = first_formula(puzzle, root)
        for seed in range(args.draws):
            key = (name, label, "kissat404", seed, args.cap)
            first = rows.rows.get((name, label, "kissat404", 0, args.cap))
            if seed and first is not None and first["solved"] is True and first["cpu"] <= args.over:
                break  # settled by any schedule's first call: no more draws
            if key not in rows.rows:
                run = kissat_run(puzzle, encoding, clauses, seed, args.cap)
                rows.add({"set": name, "label": label, "solver": "kissat404", "seed": seed, "cap": args.cap, **run})
    simulate(args, [(n, lab) for n, lab, *_ in chosen], rows.rows)


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def simulate(args, puzzles: list[tuple[str, int]], rows: dict) -> None:
    """Schedules of Kissat calls, simulated from the run lengths of the draws."""
    runs: dict[tuple, list[dict]] = {}
    for (name, label, solver, _seed, cap), row in sorted(rows.items()):
        if solver == "kissat404" and cap == args.cap and (name, label) in puzzles:
            runs.setdefault((name, label), []).append(row)
    # a puzzle with seed 0 only was settled by it within --over: every schedule below starts with a longer call
    runs = {
        k: v for k, v in runs.items() if len(v) >= args.draws or (v[0]["solved"] is True and v[0]["cpu"] <= args.over)
    }
    if not runs:
        _fail("no puzzle has its draws yet")
    slow = {k: v for k, v in runs.items() if len(v) > 1}
    say(
        f"\n{len(runs)} puzzles; the {len(slow)} whose call as built (seed 0) took over {args.over:g} CPU s or ran "
        f"out have {args.draws} draws (seed 0 and renamings), Kissat capped at {args.cap:,} conflicts; the "
        f"schedules' caps in conflicts at {args.rate:,} a CPU second (--rate)"
    )
    seed0 = [v[0]["cpu"] for v in runs.values()]
    say(
        f"seed 0 alone: {sum(seed0):.1f} CPU s, slowest {max(seed0):.2f}; "
        f"ran out: {sum(v[0]['solved'] is not True for v in runs.values())}"
    )
    per_draw = [sum(v[i]["cpu"] for v in slow.values()) for i in range(args.draws)]
    say(f"each draw alone on the {len(slow)}: " + ", ".join(f"{t:.1f}" for t in per_draw) + " CPU s")
    rate = args.rate

    def cost(v: list[dict], caps, budget: float | None) -> tuple[float, bool]:
        """CPU seconds to the first call that finds a solution, as rofl caps its calls: in ``budget`` (None: no
        limit), the first at sat.KISSAT_CPU_RATE, the next at sat.KISSAT_RATE_SHARE of the rate."""
        spent = 0.0
        for i, cap in enumerate(caps):
            run = v[i % len(v)]
            limit = cap / rate
            if budget is not None:
                limit = min(limit, (budget - spent) * (sat.KISSAT_CPU_RATE / rate if i == 0 else sat.KISSAT_RATE_SHARE))
                if limit * rate < sat.FIRST_SLICE:
                    return budget, False
            if run["solved"] is True and run["cpu"] <= limit:
                return spent + run["cpu"], True
            spent += min(limit, run["cpu"]) if run["solved"] is True else limit
            if spent > 60:
                break
        return spent, False

    def luby(unit: int, first: int | None = None):
        def caps():
            i = 1
            while True:
                yield (first if i == 1 and first else unit * _luby(i))
                i += 1

        return caps

    def geometric(unit: int, factor: float):
        def caps():
            c = float(unit)
            while True:
                yield int(c)
                c *= factor

        return caps

    schedules = {"one call (as built)": lambda: iter([10**9])}
    for unit in (25_000, 35_000, 50_000, 75_000, 100_000):
        schedules[f"Luby, unit {unit:,}"] = luby(unit)
    schedules["Luby, unit 25,000, the first call 100,000"] = luby(25_000, 100_000)
    for unit in (25_000, 50_000, 100_000):
        schedules[f"geometric x1.5 from {unit:,}"] = geometric(unit, 1.5)
        schedules[f"geometric x2 from {unit:,}"] = geometric(unit, 2.0)
        schedules[f"geometric x3 from {unit:,}"] = geometric(unit, 3.0)
    for unit in (10_000, 25_000, 50_000):
        schedules[f"{unit:,}, then one call to the end"] = geometric(unit, 10**5)
    sat_budget = args.budget - args.search
    say(
        f"\n| schedule (simulated, CPU s of Kissat's calls) | no budget: total | slowest | over {sat_budget:g} s | "
        f"in {sat_budget:g} s: total | slowest | not found |"
    )
    say("|---|---|---|---|---|---|---|")
    for title, caps in schedules.items():
        free = [cost(v, caps(), None)[0] for v in runs.values()]
        held = [cost(v, caps(), sat_budget) for v in runs.values()]
        say(
            f"| {title} | {sum(free):.1f} | {max(free):.2f} | {sum(t > sat_budget for t in free)} | "
            f"{sum(t for t, _ in held):.1f} | {max(t for t, _ in held):.2f} | {sum(not ok for _, ok in held)} |"
        )


def _real_key(row: dict) -> tuple:
    return row["set"], row["label"], row["variant"], row.get("repeat", 0)


def real(args, chosen: list[tuple[str, int, object, np.ndarray, float]]) -> None:
    from rofl.solver import solve_complete

    rows = Rows(args.save, _real_key)
    sides = list(args.variant) + (["nonosolve"] if args.nonosolve else [])
    folder = Path(tempfile.mkdtemp(prefix="sat-restarts-"))
    code = rofl_code()
    paces: dict[str, object] = {}
    for i, (name, label, puzzle, _, _) in enumerate(chosen):
        for repeat in range(args.repeat):
            turn = (i + repeat) % len(sides)
            for side in sides[turn:] + sides[:turn]:
                if (name, label, side, repeat) in rows.rows:
                    continue
                row = {"set": name, "label": label, "variant": side, "repeat": repeat, "load": os.getloadavg()[0]}
                if side == "nonosolve":
                    path = folder / f"{name}-{label}.txt"
                    path.write_text(taai_text(label, puzzle))
                    run = run_nonosolve(args.nonosolve, path, 1, args.budget, puzzle, args.wall * args.budget)
                    row.update(status=run["status"], cpu=run["cpu"], sat=0.0)
                else:
                    settings = dict(VARIANTS[side])
                    cpu_budget = args.budget if settings.pop("cpu_budget", True) else None
                    # a side that paces keeps its pace from puzzle to puzzle, as one tournament process would;
                    # the others never know one
                    pace = paces.setdefault(side, sat._Pace()) if settings.pop("pace", True) else sat._Pace()
                    settings["_PACE"] = pace
                    saved = {k: getattr(sat, k) for k in settings}
                    for k, v in settings.items():
                        setattr(sat, k, v)
                    try:
                        cpu = cpu_time()  # Kissat's child processes included
                        result = solve_complete(puzzle, time_budget=args.wall * args.budget, cpu_budget=cpu_budget,
                                                solutions=1)  # fmt: skip
                        cpu = cpu_time() - cpu
                    finally:
                        for k, v in saved.items():
                            setattr(sat, k, v)
                    ok = all(puzzle.is_solution(g) for g in result.solutions)
                    row.update(status=str(result.status) if ok else "wrong", cpu=cpu, sat=result.sat_seconds,
                               rofl_code=code)  # fmt: skip
                rows.add(row)
    report(args, [(n, lab) for n, lab, *_ in chosen], rows.rows, sides)


def report(args, puzzles: list[tuple[str, int]], rows: dict, sides: list[str]) -> None:
    say(
        f"\n{len(puzzles)} puzzles handed over (first solution), CPU s, budget {args.budget:g} CPU s "
        f"(wall {args.wall * args.budget:g} s), {args.repeat} run(s) each"
    )
    say(f"\n| side | total | median | slowest | over the budget or undecided | faster than `{sides[0]}` on |")
    say("|---|---|---|---|---|---|")
    for side in sides:
        times, missed, faster = [], 0, 0
        for name, label in puzzles:
            for repeat in range(args.repeat):
                row = rows.get((name, label, side, repeat))
                if row is None:
                    continue
                times.append(row["cpu"])
                missed += row["cpu"] > args.budget or row["status"] not in ("found", "unique")
                base = rows.get((name, label, sides[0], repeat))
                faster += base is not None and row["cpu"] < base["cpu"]
        if times:
            say(
                f"| {side} | {sum(times):.1f} | {statistics.median(times):.2f} | {max(times):.2f} | {missed} | "
                f"{faster} of {len(times)} |"
            )
    if len(puzzles) <= 12:
        say("\n| puzzle | " + " | ".join(sides) + " |")
        say("|---" * (len(sides) + 1) + "|")
        for name, label in puzzles:
            cells = []
            for side in sides:
                runs = [rows[(name, label, side, r)] for r in range(args.repeat) if (name, label, side, r) in rows]
                cells.append(", ".join(f"{r['cpu']:.2f} ({r['status']})" for r in runs))
            say(f"| {name}#{label} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--puzzle", action="append", default=[], help="SET#N")
    parser.add_argument("--draws", type=int, default=0)
    parser.add_argument("--cap", type=int, default=300_000)
    parser.add_argument("--over", type=float, default=1.5, help="draws past seed 0 for calls over this many CPU s")
    parser.add_argument("--rate", type=int, default=15_000, help="Kissat's conflicts a CPU second, for the caps")
    parser.add_argument("--search", type=float, default=0.5, help="CPU s of search before the hand-over (simulated)")
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--nonosolve")
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--wall", type=float, default=6.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--roots", type=Path, help="a folder keeping the recorded roots (NAME.npz)")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--report-only", action="store_true", help="run nothing: the report of the saved draws")
    parser.add_argument("--write-docs", action="store_true", help="the report into section --section of the docs")
    parser.add_argument("--section", default="sat-restarts")
    args = parser.parse_args(argv)
    if bool(args.draws) == args.real:
        _fail("give --draws K or --real")
    args.variant = args.variant or ["before", "fitted"]
    from rofl import kernels

    kernels.ready(kernels.SEARCH)
    wanted: dict[str, set[int] | None] = {name: None for name in args.set}
    for spec in args.puzzle:
        name, _, label = spec.partition("#")
        if wanted.get(name, set()) is not None:
            wanted.setdefault(name, set()).add(int(label))
    chosen = []
    for name, labels in wanted.items():
        puzzles = [(lab, p) for lab, p in read_tournament(args.sets / f"{name}.txt") if labels is None or lab in labels]
        keep = None if args.roots is None else args.roots / (name + ("" if labels is None else "-" + "-".join(
            map(str, sorted(labels)))) + ".npz")  # fmt: skip
        if keep is not None and keep.exists():
            saved = np.load(keep)
            roots = {int(k): (saved[k], 0.0) for k in saved.files}
        else:
            roots = handover_roots(name, puzzles)
            if keep is not None:
                keep.parent.mkdir(parents=True, exist_ok=True)
                np.savez_compressed(keep, **{str(k): v for k, (v, _) in roots.items()})
        chosen += [(name, lab, p, *roots[lab]) for lab, p in puzzles if lab in roots]
    if args.draws:
        draws(args, chosen)
    else:
        real(args, chosen)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section(args.section, "\n".join([stamp(), *OUT]))


if __name__ == "__main__":
    main()
