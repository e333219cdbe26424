"""A tournament file run as a tournament runs it (``rofl bench --tournament``).

The computer-olympiad nonogram tournaments (TAAI, TCGA, ICGA) hand a
program one file of many puzzles (1000 of 25x25) and time the whole set:
every puzzle in order, any one solution each.  :func:`run_tournament` does
that in this process, on one core: each puzzle is solved by
:func:`rofl.solve_complete` with ``solutions=1`` (or 2, to tell unique from
several), timed in CPU seconds (the process's threads; a machine busy with
other work slows the wall clock, not this) and wall seconds, and its answer
is checked against the clues before it counts.  :func:`tournament_summary`
turns the rows into the figures a tournament reports.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rofl.errors import OptionError


@dataclass(frozen=True)
class TournamentRow:
    """One puzzle of a tournament run.

    Attributes
    ----------
    label : int
        The puzzle's ``$label`` in the file.
    status : str
        What :func:`rofl.solve_complete` reported: ``"found"`` (or
        ``"unique"`` / ``"multiple"``), ``"none"`` or ``"budget"``.
    answer : (H, W) uint8 array or None
        The solution handed in (checked against the clues), None when there
        is none.
    cpu_seconds, wall_seconds : float
        The solve's CPU time (:func:`rofl.solver.cpu_time`: the SAT solver's
        child processes included) and wall time.
    shape : (int, int)
        The puzzle's rows and columns.
    """

    label: int
    status: str
    answer: np.ndarray | None
    cpu_seconds: float
    wall_seconds: float
    shape: tuple[int, int]

    @property
    def solved(self) -> bool:
        return self.answer is not None


def read_tournament(path: str | os.PathLike) -> list[tuple[int, object]]:
    """The ``(label, puzzle)`` pairs of a tournament file, in file order, all built at once
    (:func:`iter_tournament` builds each as it is asked for).

    Raises
    ------
    FormatError
        The file is no TAAI tournament file (the message names the line).
    """
    return list(iter_tournament(path))


def iter_tournament(path: str | os.PathLike) -> Iterator[tuple[int, object]]:
    """The ``(label, puzzle)`` pairs of a tournament file, in file order,
    each puzzle built when it is reached (:func:`rofl.formats.taai.iter_all`):
    the whole file is read (at most :data:`rofl.formats.MAX_FILE_BYTES`) and
    checked when this is called, before any puzzle is solved.

    Raises
    ------
    FormatError
        The file is no TAAI tournament file (the message names the line).
    LimitError
        The file is larger than :data:`rofl.formats.MAX_FILE_BYTES`.
    """
    from rofl._io import read_capped
    from rofl.formats import MAX_FILE_BYTES, taai

    where = str(path)
    data = read_capped(path, MAX_FILE_BYTES)
    if not taai.looks_like(data):
        from rofl.errors import FormatError

        msg = f"{where}: not a tournament file (TAAI/TCGA/ICGA: '$1', its clue lines, then '$2'...)"
        raise FormatError(msg)
    return taai.iter_all(data, where=where)


def run_tournament(path: str | os.PathLike, *, budget: float = 10.0, solutions: int = 1) -> Iterator[TournamentRow]:
    """Solve every puzzle of the tournament file ``path`` in order, one at a time.

    Parameters
    ----------
    path : tournament file (``rofl.formats.taai``)
    budget : float
        Seconds of search per puzzle (as :func:`rofl.solve_complete`'s
        ``time_budget``); a puzzle not solved by then counts as unsolved.
    solutions : {1, 2}
        1: any one solution (a tournament's task).  2: also tell unique
        from several.

    Yields
    ------
    TournamentRow
        One per puzzle, in file order, as soon as it is solved.

    Raises
    ------
    OptionError
        A budget that is not positive, or ``solutions`` not 1 or 2.
    FormatError
        A malformed file, before any puzzle is solved; or, when it is
        reached, a puzzle whose rows and columns disagree (the only check
        left until a puzzle is built, :func:`rofl.formats.taai.iter_all`).
    RuntimeError
        An answer that does not satisfy its clues (a bug, never handed in).
    """
    from rofl.solver import cpu_time
    from rofl.solver.search import check_solutions, solve_complete

    if not budget > 0:
        msg = f"budget must be a positive number of seconds, not {budget!r}"
        raise OptionError(msg)
    check_solutions(solutions)
    for label, puzzle in iter_tournament(path):
        cpu, wall = cpu_time(), time.perf_counter()
        result = solve_complete(puzzle, time_budget=budget, solutions=solutions)
        cpu, wall = cpu_time() - cpu, time.perf_counter() - wall
        answer = result.solutions[0] if result.solutions and result.status != "budget" else None
        if answer is not None and not puzzle.is_solution(answer):
            msg = f"{Path(path).name} ${label}: the answer does not satisfy the clues"
            raise RuntimeError(msg)
        yield TournamentRow(label, str(result.status), answer, cpu, wall, (puzzle.height, puzzle.width))


def tournament_summary(rows: list[TournamentRow]) -> dict[str, float]:
    """The figures of a run: ``puzzles``, ``solved``, ``cpu_total``,
    ``wall_total`` and the ``median``, ``p90`` and ``max`` of the CPU seconds."""
    cpu = np.array([r.cpu_seconds for r in rows]) if rows else np.zeros(1)
    return {
        "puzzles": len(rows),
        "solved": sum(r.solved for r in rows),
        "cpu_total": float(cpu.sum()),
        "wall_total": float(sum(r.wall_seconds for r in rows)),
        "median": float(np.median(cpu)),
        "p90": float(np.percentile(cpu, 90)),
        "max": float(cpu.max()),
    }


def answers_text(rows: list[TournamentRow]) -> str:
    """The answers in the tournaments' solution format: ``$label``, then the
    grid's rows, cells ``0``/``1`` separated by tabs (an unsolved puzzle all 0)."""
    return "".join(answer_text(row) for row in rows)


def answer_text(row: TournamentRow) -> str:
    """One puzzle's part of :func:`answers_text`, built as one array (a
    2048 x 2048 answer took a second a cell at a time)."""
    grid = row.answer if row.answer is not None else np.zeros(row.shape, dtype=np.uint8)
    height, width = grid.shape
    text = np.full((height, 2 * width), ord("\t"), dtype=np.uint8)
    text[:, 0::2] = np.asarray(grid, dtype=np.uint8) + ord("0")
    text[:, -1] = ord("\n")
    return f"${row.label}\n" + text.tobytes().decode("ascii")


__all__ = [
    "TournamentRow",
    "answer_text",
    "answers_text",
    "iter_tournament",
    "read_tournament",
    "run_tournament",
    "tournament_summary",
]
