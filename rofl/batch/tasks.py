"""The tasks of a batch: pure functions from bytes to bytes and a result row.

A task takes the bytes of one picture or puzzle file, its name and the
options, and returns what the parent writes (the bytes of the puzzle file)
with one row of the summary table.  It reads and writes no file, keeps no
state between calls and gives the same bytes for the same input, so the
same task runs in a local process pool or on a Dask cluster whose workers
share no file system with the client, a task lost with its worker can be
run again, and the outputs are the same whatever the number of workers.

A failure is part of the result (the row's ``status`` is ``"failed"`` and
``error`` says why) rather than an exception, so that one broken picture
does not stop the batch.
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from dataclasses import asdict
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rofl.maker import MakeOptions

#: ``status`` of a row: the task ran and its output was written, the output
#: was already up to date, or the task (or writing its output) failed.
MADE, SKIPPED, FAILED = "made", "skipped", "failed"
SOLVED = "solved"


def options_key(options: MakeOptions, suffix: str, data: bytes) -> str:
    """What an output made from picture ``data`` with ``options`` in the
    format of ``suffix`` is recorded under: a SHA-256 of the picture bytes
    and the options (a rectangle's without ``shape`` and ``size``, so keys
    recorded before hexagons existed stay valid, and without ``difficulty``
    when none is asked for).  Two runs with equal options on the same
    picture bytes give the same puzzle, so the key says whether an output
    is up to date."""
    fields = {**asdict(options), "suffix": suffix}
    if options.shape == "rect" and options.size is None:
        del fields["shape"], fields["size"]
    if options.difficulty is None:
        del fields["difficulty"]
    text = json.dumps(fields, sort_keys=True)
    return hashlib.sha256(hashlib.sha256(data).digest() + text.encode()).hexdigest()


def _error(exc: BaseException) -> str:
    """One line for a row: the message of an expected failure, the type of an unexpected one."""
    from rofl.errors import RoflError

    text = str(exc).replace("\n", " ") or type(exc).__name__
    return text if isinstance(exc, RoflError | OSError) else f"{type(exc).__name__}: {text}"


def _named(message: str, name: str) -> str:
    """``message`` naming the file: the readers call bytes ``<bytes>``."""
    message = message.replace("<bytes>", name)
    return message if name in message else f"{name}: {message}"


def make_task(
    data: bytes, name: str, options: MakeOptions, suffix: str = ".rofl"
) -> tuple[bytes | None, dict[str, Any]]:
    """Make the puzzle of one picture.

    Parameters
    ----------
    data : bytes
        The picture file.
    name : str
        The picture's name: messages give it, and its stem is the title.
    options : rofl.maker.MakeOptions
    suffix : str
        The puzzle file's extension: its format.

    Returns
    -------
    (bytes or None, dict)
        The puzzle file in the format of ``suffix`` (None when the
        picture failed) and the row: ``picture``, ``width``, ``height``,
        ``colours``, ``cells_changed``, ``changed_pct``, ``delta_e``
        (mean ΔE2000 vs the picture), ``ssim`` (recognisability), ``sweeps``,
        ``grade``, ``difficulty`` and ``difficulty_score`` (:func:`rofl.grade`),
        ``seconds``, ``status``, ``error``, ``warnings``, ``key``; and
        ``caveat``, what the format loses of the puzzle (or None, see
        :func:`rofl.formats.caveat`), also in ``warnings``.
    """
    from rofl.formats import caveat, puzzle_bytes
    from rofl.maker import make
    from rofl.picture.load import decoding

    start = time.perf_counter()
    row: dict[str, Any] = {"picture": name, "key": options_key(options, suffix, data)}
    try:
        # a large picture is made by one worker at a time: its pixels stay in the result until it is done
        with warnings.catch_warnings(record=True) as caught, decoding(data):
            warnings.simplefilter("always", UserWarning)
            result = make(data, options, title=PurePath(name).stem, threads=1)  # the batch: a picture per core
            out = puzzle_bytes(f"out{suffix}", result.puzzle, result.grid)
            lost = caveat(f"out{suffix}", result.puzzle)  # what the format loses (colours), as rofl make warns
            s, puzzle = result.stats, result.puzzle
            del result  # and its picture, before another worker takes the lock
    except Exception as exc:  # noqa: BLE001 -- any failure becomes the picture's row
        row.update(status=FAILED, error=_named(_error(exc), name), seconds=round(time.perf_counter() - start, 3))
        return None, row
    row.update(
        width=s.width if s.side is None else None,  # a hexagon has no width and height: empty cells
        height=s.height if s.side is None else None,
        colours=s.colors,
        cells_changed=s.n_changed,
        changed_pct=round(s.changed_pct, 3),
        delta_e=round(s.mean_delta_e, 3),
        ssim=None if s.ssim is None else round(s.ssim, 4),
        sweeps=s.sweeps,
        **grade_columns(puzzle if s.difficulty is None else s.difficulty),
        seconds=round(time.perf_counter() - start, 3),
        status=MADE,
        error="",
        # the line saying a --difficulty was out of reach is a warning of the row
        warnings="; ".join([str(w.message) for w in caught] + [note for note in (s.difficulty_note, lost) if note]),
        caveat=lost,  # not a column: the batch prints it once (it is in the warnings too)
    )
    return out, row


def grade_columns(what: Any) -> dict[str, Any]:
    """``grade``, ``difficulty`` (its name) and ``difficulty_score`` of a row:
    :func:`rofl.grade` of a puzzle, or a grade already made; empty for a
    puzzle the grader does not take (``?`` groups)."""
    from rofl.solver.grade import Difficulty, grade_shown

    difficulty = what if isinstance(what, Difficulty) else grade_shown(what)[0]
    if difficulty is None:
        return {"grade": None, "difficulty": None, "difficulty_score": None}
    return {"grade": difficulty.grade, "difficulty": difficulty.name, "difficulty_score": difficulty.score}


#: A puzzle's ``result`` in a bench row, from what the complete solver proved.
RESULTS = ("unique", "multiple", "none", "budget")


def solve_task(data: bytes, name: str, budget: float) -> dict[str, Any]:
    """Solve one puzzle file completely within ``budget`` seconds (line logic and the search together).

    Returns
    -------
    dict
        The row: ``file``, ``format``, ``width``, ``height`` (none for a
        hexagonal puzzle), ``colours``,
        ``line_solvable`` (line logic alone finished it), ``result`` (one of
        :data:`RESULTS`: unique, several solutions, none, or the budget ran
        out), ``seconds`` (the solve, not the parsing), ``nodes`` (search
        nodes), ``status`` (``"solved"`` or ``"failed"``), ``error``, ``key``.
    """
    from rofl.formats import open_puzzle
    from rofl.solver.search import solve_complete

    row: dict[str, Any] = {"file": name, "key": hashlib.sha256(data + f"budget {budget!r}".encode()).hexdigest()}
    try:
        opened = open_puzzle(data, name=name)
        puzzle = opened.puzzle
        row.update(format=opened.format.name, colours=puzzle.n_colors)
        if puzzle.board.kind == "rectangle":  # a hexagon has no width and height: empty cells
            row.update(width=puzzle.width, height=puzzle.height)
        start = time.perf_counter()
        result = solve_complete(puzzle, time_budget=budget)
        seconds = time.perf_counter() - start
    except Exception as exc:  # noqa: BLE001 -- any failure becomes the file's row
        row.update(status=FAILED, error=_named(_error(exc), name))
        return row
    row.update(
        line_solvable=bool(result.line_solvable),
        result=str(result.status),
        seconds=round(seconds, 4),
        nodes=result.nodes,
        **grade_columns(puzzle),
        status=SOLVED,
        error="",
    )
    return row


def warm_up() -> None:
    """Load the compiled kernels of line logic, search and refinement from
    numba's cache (compiling them on a machine that has none), so that a
    worker's first task costs what the others do.  Run once per worker:
    the pool's initializer, or ``client.run(warm_up)`` on a Dask cluster.
    A second call in a process, or in a worker forked from one that ran it
    (the fork server's), returns at once."""
    global _warm
    if _warm:
        return
    import numpy as np

    from rofl.maker import make
    from rofl.palette import Palette
    from rofl.puzzle import Puzzle
    from rofl.solver.search import solve_complete

    # a 2x2 diagonal stalls line logic, so the search kernel loads too
    solve_complete(Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white()))
    # grey noise: refinement has cells to change, so every stage loads its kernels
    noise = np.random.default_rng(0).integers(0, 256, (24, 24), dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make(noise, width=24)
    _warm = True


#: Whether this process has loaded the kernels (:func:`warm_up`); a forked
#: worker inherits it.
_warm = False
