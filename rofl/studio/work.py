"""What the studio's worker processes do: make a puzzle from a photo, or a book from several.

The server never makes a puzzle itself: it hands each job to a worker
process (:class:`concurrent.futures.ProcessPoolExecutor`) whose compiled
kernels :func:`start` has already loaded, so a preview costs the making and
nothing else.  A job is the call ``rofl make`` makes, :func:`rofl.maker.make`,
and its figures, hints, comparison picture and file are what ``rofl make``
prints and writes (``--compare``, ``-o .rofl``), by the same functions.

Superseded work stops: every preview has a number, and the newest number
sits in shared memory; the refinement's progress callbacks, called all
through a run, end a job whose number is no longer the newest with
:class:`Superseded`.  The same callbacks write the job's stage and progress
to shared memory, which the server reads for the page's progress bar.
"""

from __future__ import annotations

import io
import time
import warnings
from pathlib import PurePath
from typing import Any

import numpy as np

#: The stages a run reports, in the order of :func:`rofl.maker.make`'s callbacks.
STAGES = ("starting", "refining", "polishing", "checking changes", "moving changes", "book")

# Set in each worker by start(): the newest preview's number, and
# (job number, stage, done, total) of the running job.
_NEWEST: Any = None
_PROGRESS: Any = None


class Superseded(Exception):
    """A newer preview was asked for: this one's result would be thrown away."""


def start(newest, progress) -> None:
    """Initialise a worker: keep the shared values, load the kernels (one small puzzle)."""
    global _NEWEST, _PROGRESS
    _NEWEST, _PROGRESS = newest, progress
    from rofl import kernels
    from rofl.maker import make

    kernels.set_notice(None)
    ring = np.zeros((12, 12), np.uint8)
    ring[2:10, 2:10], ring[4:8, 4:8] = 255, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make(ring)


def title_of(name: str) -> str:
    """A photo's title: its file name without the extension (as ``rofl make`` does)."""
    return PurePath(name).stem or "photo"


class _Reporter:
    """The progress callbacks of one job: each records the stage and checks that the job is still wanted."""

    def __init__(self, number: int | None) -> None:
        self.number = number  # None: a job no newer preview cancels (a book)

    def check(self) -> None:
        if self.number is not None and _NEWEST is not None and _NEWEST.value != self.number:
            raise Superseded

    def show(self, stage: str, done: int, total: int) -> None:
        self.check()
        if _PROGRESS is not None and self.number is not None:
            with _PROGRESS.get_lock():
                _PROGRESS[:] = [self.number, STAGES.index(stage), done, total]

    def event(self, event) -> None:
        """:func:`rofl.maker.make`'s ``progress`` callback (a :class:`rofl.maker.MakeProgress`)."""
        self.show(event.stage, event.done, event.total)


def _make(photo: bytes, name: str, options: dict[str, Any], reporter: _Reporter):
    from rofl.maker import make

    options = dict(options)
    title = options.pop("title", None) or title_of(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        result = make(photo, title=title, progress=reporter.event, **options)
    return result, [str(w.message) for w in caught]


def preview(number: int, photo: bytes, name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Make the puzzle of one photo, as ``rofl make PHOTO -o x.rofl --compare x.png`` would.

    Parameters
    ----------
    number : int
        The preview's number; the job ends with :class:`Superseded` once a
        newer one is asked for.
    photo : bytes
        The photo's file.
    name : str
        Its file name (the puzzle's title unless the options give one).
    options : dict
        Keywords of :func:`rofl.maker.make` (:func:`rofl.studio.options.make_options`).

    Returns
    -------
    dict
        ``png`` (the comparison picture: the photo at the grid's size, the
        quantised and the final grid, changed cells outlined), ``rofl``
        (the puzzle's ROFL file), ``puzzle`` and ``grid`` (its solution), ``report`` (the lines ``rofl
        make`` prints), ``hints`` (its hint lines), ``warnings``,
        ``line_solved`` (line logic alone solves the puzzle, hence it is
        unique), ``caveats`` (extension -> what a download in that format
        loses, the warning ``rofl make -o`` prints), ``changed`` (cells), ``ssim``, ``width``, ``height``,
        ``colors``, ``seconds``.
    """
    from rofl.formats import FORMATS, caveat, puzzle_bytes
    from rofl.hints import changed_hint, likeness_hint
    from rofl.render.preview import compare_image
    from rofl.solver import solve

    reporter = _Reporter(number)
    reporter.show("starting", 0, 1)
    started = time.perf_counter()
    result, caught = _make(photo, name, options, reporter)
    reporter.check()
    buf = io.BytesIO()
    compare_image(result).save(buf, format="PNG")
    stats = result.stats
    made_with = _make_options(options)
    hints = [likeness_hint(result, made_with, more_colours="palette" not in options), changed_hint(stats, made_with)]
    return {
        "png": buf.getvalue(),
        "rofl": puzzle_bytes("puzzle.rofl", result.puzzle, result.grid),
        "puzzle": result.puzzle,
        "graded": options.get("difficulty") is not None,  # sheets then print the grade, as rofl make's do
        "grid": result.grid,
        "title": result.puzzle.meta.get("title", ""),
        "report": stats.report(),
        "hints": [line for line in hints if line is not None],
        "warnings": caught,
        "line_solved": solve(result.puzzle).status == "solved",
        "caveats": {  # of the formats the page offers for this puzzle
            f.extension: note
            for f in FORMATS
            if f.write is not None
            and (f.hexagon or result.puzzle.board.kind != "hexagon")
            and (f.colour or result.puzzle.n_colors <= 2)
            and (note := caveat(f"puzzle{f.extension}", result.puzzle))
        },
        "changed": stats.n_changed,
        "changed_pct": stats.changed_pct,
        "ssim": stats.ssim,
        "mean_delta_e": stats.mean_delta_e,
        "width": stats.width,
        "height": stats.height,
        "side": stats.side,
        "colors": stats.colors,
        "seconds": time.perf_counter() - started,
    }


def _make_options(options: dict[str, Any]) -> Any:
    """The :class:`rofl.maker.MakeOptions` of a job's options (what ``rofl make``'s hints weigh)."""
    from rofl.maker import MakeOptions

    return MakeOptions(**{name: value for name, value in options.items() if name != "title"})


def book(photos: list[tuple[bytes, str]], options: dict[str, Any], number: int) -> bytes:
    """A PDF puzzle book of several photos (a page each, as ``rofl sheet A B -o book.pdf``).

    Each photo becomes a puzzle with the same options, then
    :func:`rofl.render.pdf.puzzle_book` binds them.  ``number`` only labels
    the progress (a book is not cancelled by previews).
    """
    from rofl.render.pdf import puzzle_book

    puzzles = []
    for i, (photo, name) in enumerate(photos):
        if _PROGRESS is not None:
            with _PROGRESS.get_lock():
                _PROGRESS[:] = [number, STAGES.index("book"), i, len(photos)]
        result, _ = _make(photo, name, options, _Reporter(None))
        puzzles.append(result.puzzle)
    return puzzle_book(puzzles)
