"""What the batch commands share: ``rofl make PICTURES... -o DIR/`` and ``rofl bench``.

One progress bar for the whole batch (done, failed, rate), the workers'
options, and the end: a line of counts, each failure on stderr, and exit
status 1 when anything failed.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from rofl._words import plural
from rofl.cli._show import printable, say


def jobs_option(f: Callable) -> Callable:
    """``-j/--jobs N`` and ``--scheduler ADDRESS``."""
    f = click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="Run the tasks on the Dask cluster of this scheduler (tcp://host:8786) instead of local "
        "processes; needs pip install 'rofl[dask]'.",
    )(f)
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(1, 1024),
        metavar="N",
        help="Worker processes (default: all cores; 1: none; a batch shorter than their start runs without them).",
    )(f)


def force_option(what: str) -> Callable:
    return click.option("--force", is_flag=True, help=f"Redo every {what}, even those up to date.")


#: ``rofl make``'s options for a batch, with their values when not given.
BATCH_DEFAULTS = {
    "jobs": None,
    "scheduler": None,
    "force": False,
    "book": None,
    "answers": False,
    "book_order": "pictures",
    "format": "rofl",
}
#: ``rofl make``'s options that write one picture's files, refused in a batch.
SINGLE_ONLY = {
    "preview": "--preview",
    "compare": "--compare",
    "sheet": "--sheet",
    "page": "--page",
    "gif": "--gif",
    "title": "--title",
    "threads": "--threads",
}
#: what a batch does instead of each of SINGLE_ONLY (by default: it writes a book)
_BATCH_INSTEAD = {
    "title": "a batch (-o DIR/) names each puzzle after its picture",
    "threads": "a batch (-o DIR/) makes a picture per core (-j/--jobs)",
}


def batch_options(f: Callable) -> Callable:
    """The options of ``rofl make`` for a batch of pictures."""
    f = jobs_option(f)
    f = force_option("puzzle")(f)
    f = click.option(
        "--answers", is_flag=True, help="With --book: pages with every puzzle's solution after the puzzles."
    )(f)
    f = click.option(
        "--book-order",
        type=click.Choice(["pictures", "difficulty"]),
        default="pictures",
        show_default=True,
        help="With --book: the puzzles in the pictures' order, or easiest first (rofl.grade).",
    )(f)
    f = click.option(
        "--book",
        type=click.Path(dir_okay=False),
        help="With -o DIR/: also write the batch's puzzle book, a PDF with a page per puzzle.",
    )(f)
    return click.option(
        "-f",
        "--format",
        metavar="EXT",
        default="rofl",
        show_default=True,
        help="With -o DIR/: the format of the puzzle files, by extension (rofl, json, xml, non, g, nin, notmine, ...).",
    )(f)


def refuse_batch_options(batch: dict[str, Any]) -> None:
    """A single picture to a file (``-o FILE``) takes none of the batch's options."""
    for name, value in batch.items():
        if value != BATCH_DEFAULTS[name]:
            option = "--" + name
            msg = f"{option} is for a batch: several pictures or a folder, written to a folder with -o DIR/"
            raise click.UsageError(msg)


def batch_target(output: str, batch: dict[str, Any]) -> str:
    """A file name in the batch's format (``x.json``), after checking ``-o DIR/`` and ``--format``."""
    from rofl.errors import RoflError
    from rofl.formats import writer_for

    if not Path(output).is_dir() and (Path(output).exists() or not output.endswith(("/", os.sep))):
        # a file name here is a slip (several pictures, one puzzle file): a new folder is asked for as DIR/
        msg = f"{output}: several pictures are written to a folder: name one, with a final / for a new one (DIR/)"
        raise click.BadParameter(msg, param_hint="'-o' / '--output'")
    target = "x." + batch["format"].lstrip(".").lower()
    try:
        writer_for(target)
    except RoflError as exc:
        raise click.BadParameter(str(exc).replace("x.", ".", 1), param_hint="'-f' / '--format'") from None
    return target


def make_batch(params: dict[str, Any], options: Any) -> None:
    """``rofl make PICTURES... -o DIR/``: :func:`rofl.batch.make_many` with
    ``options`` (a :class:`rofl.maker.MakeOptions`) under a progress bar,
    then the book; exit status 1 when a picture failed."""
    from rofl.batch import make_many, write_book
    from rofl.batch.make import SUMMARY, picture_files, refuse_inputs
    from rofl.errors import UsageError

    for name, option in SINGLE_ONLY.items():
        if params[name] is not None:
            instead = "a batch (-o DIR/) names each puzzle after its picture and makes a PDF of them all with --book"
            msg = f"{option} is for one picture; {_BATCH_INSTEAD.get(name, instead)}"
            raise UsageError(msg)
    book = params["book"]
    if book is None and (params["answers"] or params["letters"] or params["book_order"] != "pictures"):
        used = "--answers" if params["answers"] else "--letters" if params["letters"] else "--book-order"
        msg = f"{used} is for the --book of a batch"
        raise UsageError(msg)
    pictures = picture_files(params["images"])
    if book is not None and params["shape"] == "hex":
        msg = "a puzzle book holds rectangular puzzles; print a hexagonal puzzle with rofl sheet"
        raise UsageError(msg)
    if book is not None:
        from rofl.cli._files import check_parent

        if Path(book).suffix.lower() != ".pdf":
            msg = f"{book}: a puzzle book is a PDF (.pdf)"
            raise click.BadParameter(msg, param_hint="'--book'")
        check_parent(book)
        refuse_inputs(pictures, [Path(book)])
    folder = Path(params["output"])
    suffix = "." + params["format"].lstrip(".").lower()
    rows = make_many(
        pictures, folder, options, suffix=suffix, jobs=params["jobs"], scheduler=params["scheduler"],
        force=params["force"],
    )  # fmt: skip
    rows = run_with_bar(rows, len(pictures), "picture", quiet=params["quiet"])
    if not params["quiet"]:
        _print_caveats(rows)
    wrote = f"summary in {folder / SUMMARY}.csv and .json"
    if book is not None:
        order = {str(p): i for i, p in enumerate(pictures)}
        in_order = sorted(rows, key=lambda r: order.get(str(r.get("picture")), len(order)))
        if params["book_order"] == "difficulty":  # easiest first; a stable sort keeps the pictures' order in a grade
            in_order.sort(key=lambda r: (int(r.get("grade") or 6), float(r.get("difficulty_score") or 0.0)))
        n = write_book(
            in_order,
            book,
            answers=params["answers"],
            letters=params["letters"],
            difficulty=params["difficulty"] is not None or params["book_order"] == "difficulty",
        )
        wrote += f"; {book}: {n} puzzles" + (" and their solutions" if params["answers"] else "")
    finish(rows, "picture", wrote, quiet=params["quiet"])


def is_batch(images: tuple[str, ...], output: str) -> bool:
    """Whether ``rofl make`` has a batch to do: several pictures, a folder or
    a pattern of pictures, or an output folder (``-o DIR/``)."""
    if len(images) != 1 or output.endswith(("/", os.sep)) or Path(output).is_dir():
        return True
    image = images[0]
    return Path(image).is_dir() or (not Path(image).exists() and glob.has_magic(image))


def run_with_bar(rows: Iterator[dict[str, Any]], total: int, unit: str, *, quiet: bool) -> list[dict[str, Any]]:
    """Consume a batch's rows under one progress bar (on a terminal: in a log
    file a bar is noise); the rows, in the order they came."""
    import sys

    from tqdm import tqdm

    done: list[dict[str, Any]] = []
    failed = 0
    shown = not quiet and sys.stderr.isatty()
    try:
        with tqdm(total=total, unit=unit, disable=not shown, dynamic_ncols=True, delay=0.5) as bar:
            for row in rows:
                done.append(row)
                if row.get("status") == "failed":
                    failed += 1
                    bar.set_postfix(failed=failed, refresh=False)
                bar.update()
    except OSError:
        # the summary could not be written (a full disk): the inputs that
        # failed are still named, before the one error line
        _print_failures(done)
        raise
    return done


def _print_caveats(rows: list[dict[str, Any]]) -> None:
    """One warning line for each thing the format loses (``rofl make``'s
    warning for one puzzle), naming the first puzzle and counting the others."""
    outputs: dict[str, list[str]] = {}
    for row in rows:
        if row.get("caveat") and row.get("status") == "made":  # not a file that could not be written
            outputs.setdefault(row["caveat"], []).append(str(row.get("output")))
    for note, names in outputs.items():
        more = f" (and {plural(len(names) - 1, 'other puzzle')})" if len(names) > 1 else ""
        say(f"warning: {printable(names[0])}{more}: {note}", err=True)


def _print_failures(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        if row.get("status") == "failed":
            say(f"failed: {row.get('error')}", err=True)


def finish(rows: list[dict[str, Any]], what: str, wrote: str, *, quiet: bool) -> None:
    """The closing lines (``what``: one input, "picture"); exit status 1 when an input failed."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[str(row.get("status"))] = counts.get(str(row.get("status")), 0) + 1
    failures = [row for row in rows if row.get("status") == "failed"]
    _print_failures(failures)
    if not quiet:
        parts = ", ".join(f"{n} {status}" for status, n in counts.items())
        say(f"{plural(len(rows), what)}: {parts}; {wrote}")
    if failures:
        raise SystemExit(1)
