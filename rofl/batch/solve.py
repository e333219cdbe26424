"""Many puzzle files solved: :func:`solve_many`, the batch behind ``rofl bench``.

Every puzzle file is solved completely within a budget
(:func:`rofl.batch.tasks.solve_task`) and described by one row: format,
size, colours, whether line logic alone solves it, what the complete
solver proved (unique, multiple, none, or the budget ran out), time and
search nodes.  A table from an earlier run is reused: a file whose bytes
and budget match a row of it is not solved again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rofl.batch.make import find_inputs, refuse_inputs
from rofl.batch.run import Done, run_tasks
from rofl.batch.summary import BENCH_COLUMNS, check_table, is_batch_table, read_rows, write_table
from rofl.batch.tasks import FAILED, SKIPPED, SOLVED, solve_task

#: The budget of :func:`solve_many`, as ``benchmarks/search_corpus.py``'s.
DEFAULT_BUDGET = 10.0


#: Sheets carry their puzzle, but a folder's pictures are seldom sheets:
#: a folder's listing leaves these out (name a sheet to have it read).
SHEET_SUFFIXES = frozenset({".png", ".svg", ".pdf"})


def puzzle_files(sources: Iterable[str | os.PathLike]) -> list[Path]:
    """The puzzle files ``sources`` name (:func:`rofl.batch.make.find_inputs`):
    files as they are, and in folders and their subfolders the files with
    the extension of a format rofl reads, sheets and the JSON tables of
    batches aside (``rofl bench DIR/`` after ``rofl make ... -o DIR/``)."""
    from rofl.formats import FORMATS

    known = {ext for fmt in FORMATS for ext in fmt.extensions} - SHEET_SUFFIXES

    def accept(path: Path) -> bool:
        suffix = path.suffix.lower()
        return suffix in known and not (suffix == ".json" and is_batch_table(path))

    return find_inputs(sources, accept, "puzzle files", recursive=True)


def bench_inputs(sources: Iterable[str | os.PathLike], table: str | os.PathLike | None) -> list[Path]:
    """:func:`puzzle_files` less the ``table`` a run writes (it may sit in a
    folder it lists: a JSON table is no puzzle).

    Raises
    ------
    UsageError
        The table is a file named among ``sources`` (it would be read as a
        puzzle and replaced), or a file there that is not a table
        ``rofl bench`` wrote (:func:`rofl.batch.summary.check_table`).
    """
    from rofl._io import input_written
    from rofl.errors import UsageError

    paths = puzzle_files(sources)
    if table is None or not Path(table).exists():
        return paths
    found = input_written([s for s in sources if Path(s).is_file()], [("-o", table)])
    if found is not None:
        msg = f"-o {table} is the input {found[2]}: writing it would destroy what is read; name another file"
        raise UsageError(msg)
    check_table(table, BENCH_COLUMNS, "rofl bench")
    return [p for p in paths if not os.path.samefile(p, table)]


def solve_many(
    files: Iterable[str | os.PathLike],
    *,
    budget: float = DEFAULT_BUDGET,
    table: str | os.PathLike | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
) -> Iterator[dict[str, Any]]:
    """Solve every puzzle file; yield a row for each as it is done.

    Parameters
    ----------
    files : iterable of str or path
        Puzzle files, folders and glob patterns (:func:`puzzle_files`).
    budget : float
        Seconds of complete search per puzzle.
    table : str or path, optional
        A ``.csv`` or ``.json`` file to write the rows to when the batch
        ends or is interrupted; the rows of the one already there are
        reused for the files whose bytes and budget have not changed.
    jobs, scheduler, force
        As for :func:`rofl.batch.make.make_many`.

    Yields
    ------
    dict
        A row (:data:`rofl.batch.summary.BENCH_COLUMNS`) in the order the
        files finish; ``status`` ``"solved"``, ``"skipped"`` (the earlier
        table's row) or ``"failed"`` (``error`` says why).
    """
    import hashlib

    from rofl._io import check_writable, read_capped
    from rofl.formats import MAX_FILE_BYTES

    paths = bench_inputs(files, table)
    if table is not None:
        refuse_inputs(paths, [Path(table)])
        check_writable(Path(table).parent)  # before the solving, not at the table
    previous = {} if force or table is None else {str(r.get("file")): r for r in read_rows(table)}

    def prepare(i: int):
        name = str(paths[i])
        try:
            data = read_capped(paths[i], MAX_FILE_BYTES)
        except (OSError, ValueError) as exc:
            return Done({"file": name, "status": FAILED, "error": f"{name}: {getattr(exc, 'strerror', None) or exc}"})
        old = previous.get(name)
        key = hashlib.sha256(data + f"budget {budget!r}".encode()).hexdigest()
        if old is not None and old.get("status") in (SOLVED, SKIPPED) and old.get("key") == key:
            return Done({**old, "status": SKIPPED})
        return data, name, budget

    def lost(i: int, why: str):
        return {"file": str(paths[i]), "status": FAILED, "error": f"{paths[i]}: {why}"}

    rows: list[dict[str, Any] | None] = [None] * len(paths)
    try:
        for i, row in run_tasks(solve_task, len(paths), prepare, lost=lost, jobs=jobs, scheduler=scheduler):
            rows[i] = row
            yield row
    finally:
        if table is not None:
            # the rows of the files an interrupted batch did not reach are kept
            done = [r if r is not None else previous.get(str(p)) for r, p in zip(rows, paths, strict=True)]
            done = [r for r in done if r is not None]
            write_table(table, done, BENCH_COLUMNS, command="rofl bench", budget=budget)
