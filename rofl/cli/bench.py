"""``rofl bench``: solve many puzzle files completely and say what each one is."""

from __future__ import annotations

import click

from rofl.cli._app import main
from rofl.cli._batch import finish, force_option, jobs_option, run_with_bar
from rofl.cli._options import budget_option
from rofl.cli._show import say

#: The categories of the summary, from a row's result (as ``benchmarks/search_corpus.py`` prints them).
CATEGORIES = ("line-solvable", "search, unique", "several solutions", "no solution", "over budget", "failed")


def category(row: dict) -> str:
    """What the complete solver proved of a row's puzzle, as a category of the summary."""
    result = row.get("result")
    if row.get("status") == "failed" or result is None:
        return "failed"
    line = row.get("line_solvable")
    if result == "unique":
        return "line-solvable" if line in (True, "True") else "search, unique"
    return {"multiple": "several solutions", "none": "no solution"}.get(str(result), "over budget")


def _table_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from pathlib import Path

    if value is not None and Path(value).suffix.lower() not in (".csv", ".json"):
        msg = f"{value}: the table is written as .csv or .json"
        raise click.BadParameter(msg, ctx=ctx, param=param)
    return value


@main.command(short_help="Solve many puzzle files and tabulate what each one is.")
@click.argument("files", metavar="FILE_OR_DIR...", nargs=-1, required=True, type=click.Path())
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    callback=_table_name,
    help="Write a row per file to this table (.csv or .json); a table already there is reused for the "
    "files that have not changed.",
)
@budget_option("Seconds per puzzle for line logic and the search together; a puzzle not decided by then is 'budget'.")
@jobs_option
@force_option("file")
@click.option("--list", "listing", is_flag=True, help="Print each file's line, not only the summary.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--tournament",
    is_flag=True,
    help="Each FILE is a tournament file (TAAI/TCGA/ICGA, many puzzles): solve every puzzle in order in this "
    "process, one solution each, checked against the clues, and print the total time.",
)
@click.option(
    "--two", is_flag=True, help="With --tournament: look for a second solution too (tell unique from several)."
)
@click.option(
    "--answers",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="PATH",
    help="With --tournament (one FILE): write the answers to PATH in the tournaments' solution format.",
)
def bench(
    files: tuple[str, ...],
    output: str | None,
    budget: float,
    jobs: int | None,
    scheduler: str | None,
    force: bool,
    listing: bool,
    quiet: bool,
    tournament: bool,
    two: bool,
    answers: str | None,
) -> None:
    """Solve every puzzle in FILE_OR_DIR completely and tell what it is.

    FILE_OR_DIR is a puzzle file of any format rofl reads, a folder (every
    puzzle file in it and its subfolders, but PNG, SVG and PDF sheets: name
    those) or a pattern.  Each puzzle is
    solved by line logic, then by the complete search within --budget, on
    every core (-j) or a Dask cluster (--scheduler), and sorted by what was
    proved: line-solvable, unique after search, several solutions, no
    solution, or over the budget.  -o writes a row per file (format, size,
    colours, line-solvable, result, time, search nodes, grade and
    difficulty of rofl.grade) as CSV or JSON.  A
    file that cannot be read is a failed row, and the exit status is 1.

    --tournament runs each FILE as a nonogram tournament does: every puzzle
    in file order, one solution each (--two: two, to tell unique from
    several), --budget seconds each, every answer checked against the
    clues; it prints the puzzles solved and the total, median, p90 and
    slowest CPU time (--list: each puzzle's line), then the labels of the
    puzzles left unsolved: no solution, or not decided within --budget
    seconds of wall clock.  Exit status 1 when a puzzle is left unsolved;
    Ctrl-C prints the figures of the puzzles done.
    """
    if (two or answers) and not tournament:
        from rofl.errors import UsageError

        msg = f"{'--two' if two else '--answers'} goes with --tournament (a tournament file's puzzles)"
        raise UsageError(msg)
    if tournament:
        if jobs is not None or scheduler is not None:
            from rofl.errors import UsageError

            msg = "--tournament solves its puzzles in order in this process, on one core: no -j or --scheduler"
            raise UsageError(msg)
        _tournament(files, budget=budget, two=two, answers=answers, listing=listing, output=output)
        return
    from rofl.batch import solve_many
    from rofl.batch.solve import bench_inputs
    from rofl.cli._files import check_parent

    if output is not None:  # before the solving, not after
        check_parent(output)
    paths = bench_inputs(files, output)
    rows = solve_many(paths, budget=budget, table=output, jobs=jobs, scheduler=scheduler, force=force)
    rows = run_with_bar(rows, len(paths), "puzzle", quiet=quiet)
    order = {str(p): i for i, p in enumerate(paths)}
    rows.sort(key=lambda r: order.get(str(r.get("file")), len(order)))
    if listing:
        for row in rows:
            seconds = row.get("seconds")
            timing = "" if seconds in (None, "") else _fmt(float(seconds))
            grade = f"  {row['grade']}/5 {row['difficulty']}" if row.get("grade") not in (None, "") else ""
            say(f"{row['file']}  {category(row)}  {timing}  nodes {row.get('nodes') or 0}{grade}")
    _summary(rows, budget)
    _tournament_hint(rows)
    finish(rows, "puzzle file", f"table in {output}" if output else "no table written (-o)", quiet=False)


def _tournament(
    files: tuple[str, ...], *, budget: float, two: bool, answers: str | None, listing: bool, output: str | None
) -> None:
    import contextlib
    import sys

    from rofl._io import atomic_open
    from rofl.batch.tournament import answer_text, run_tournament
    from rofl.errors import OptionError, RoflError

    if output is not None:
        msg = "--tournament prints its figures; -o (a table of puzzle files) is not for it"
        raise OptionError(msg)
    if answers is not None and len(files) != 1:
        msg = "--answers takes the answers of one tournament file: name one FILE"
        raise OptionError(msg)
    from rofl.formats import split_number

    for name in files:
        if split_number(name)[1] is not None:
            msg = f"--tournament runs whole tournament files; {name} names one puzzle of one: rofl solve {name}"
            raise OptionError(msg)
    if answers is not None:  # before the minutes of solving, not after
        from rofl.cli._files import check_parent, refuse_overwrite

        refuse_overwrite(list(files), [("--answers", answers)])
        check_parent(answers)
    unsolved = 0
    for name in files:
        rows = []
        with contextlib.ExitStack() as stack:
            # the answers go to a temporary file as they come (a file of large puzzles
            # has hundreds of megabytes of them), renamed into place when all are in
            kept = None if answers is None else stack.enter_context(atomic_open(answers, "w"))
            try:
                for row in run_tournament(name, budget=budget, solutions=2 if two else 1):
                    if kept is not None:
                        kept.write(answer_text(row))
                    rows.append(row)
                    if listing:
                        say(f"${row.label}  {row.status}  {_fmt(row.cpu_seconds)}")
            except (KeyboardInterrupt, RoflError) as exc:  # the figures of the puzzles done, then the error
                if rows:
                    why = "interrupted" if isinstance(exc, KeyboardInterrupt) else "stopped"
                    _tournament_report(f"{name}: {why} after {len(rows)} puzzles", rows, budget)
                raise
        unsolved += _tournament_report(name, rows, budget)
    if unsolved:
        sys.exit(1)


def _tournament_report(title: str, rows: list, budget: float) -> int:
    """Print a tournament run's figures and the puzzles it left unsolved, by why; return how many."""
    from rofl.batch.tournament import tournament_summary

    figures = tournament_summary(rows)
    say(
        f"{title}: {figures['solved']} of {figures['puzzles']} solved; CPU {figures['cpu_total']:.2f} s in all "
        f"(wall {figures['wall_total']:.2f} s), median {_fmt(figures['median'])}, p90 {_fmt(figures['p90'])}, "
        f"slowest {_fmt(figures['max'])}"
    )
    left = [row for row in rows if not row.solved]
    for why, status in (
        ("no solution", "none"),
        (f"not decided within the {budget:g} s budget (wall clock)", "budget"),
    ):
        labels = [f"${row.label}" for row in left if row.status == status]
        if labels:
            say(f"  {why}: {' '.join(labels)}")
    return len(left)


def _tournament_hint(rows: list[dict]) -> None:
    """Name ``--tournament`` for a failed file that holds many puzzles in the tournaments' format
    (without it, ``rofl bench`` reads a file as one puzzle and asks which)."""
    from rofl.formats import taai

    for row in rows:
        if row.get("status") != "failed" or "puzzles in one file" not in str(row.get("error")):
            continue
        try:
            with open(row["file"], "rb") as f:
                head = f.read(64)
        except OSError:
            continue
        if taai.looks_like(head):
            say(f"  {row['file']} is a tournament file: rofl bench --tournament {row['file']} solves all its puzzles")


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _summary(rows: list[dict], budget: float) -> None:
    """Puzzles per category with the median, p90 and max time of their solves."""
    import numpy as np

    click.echo(f"{'category':20s} {'puzzles':>8s} {'median':>10s} {'p90':>10s} {'max':>10s}")
    for name in CATEGORIES:
        group = [r for r in rows if category(r) == name]
        if not group:
            continue
        times = np.array([float(r["seconds"]) for r in group if r.get("seconds") not in (None, "")])
        figures = (np.median(times), np.percentile(times, 90), times.max()) if times.size else ()
        click.echo(f"{name:20s} {len(group):8d} " + " ".join(f"{_fmt(t):>10s}" for t in figures))
    over = [r for r in rows if category(r) == "over budget"]
    for row in over:
        say(f"  over the {budget:g} s budget: {row['file']}")
