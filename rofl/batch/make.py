"""Many pictures into puzzles: :func:`make_many`, the batch behind ``rofl make PICTURES... -o DIR/``.

The parent finds the pictures (files, folders, glob patterns), reads each
one just before its task is handed out, skips the ones whose output is up
to date, and writes every puzzle file, the summary table and the puzzle
book itself; the workers only turn bytes into bytes
(:func:`rofl.batch.tasks.make_task`).

An output is up to date when the summary of the previous run in the same
folder (``summary.json``) records it with the same *key* (a hash of the
picture bytes and the options, :func:`rofl.batch.tasks.options_key`) and the file still
has the bytes that run wrote.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rofl.batch.run import Done, run_tasks
from rofl.batch.summary import MAKE_COLUMNS, check_table, read_rows, write_table
from rofl.batch.tasks import FAILED, MADE, SKIPPED, make_task, options_key

if TYPE_CHECKING:  # pragma: no cover
    from rofl.maker import MakeOptions

#: The summary of a batch, in its output folder: ``summary.csv`` and ``summary.json``.
SUMMARY = "summary"


def picture_suffixes() -> frozenset[str]:
    """Extensions of the pictures a folder's listing takes: those Pillow opens,
    less the puzzle formats (``.rofl`` is both a puzzle and, through rofl's
    plugin, a picture; puzzles are not remade into puzzles) and those rofl
    refuses (:data:`rofl.picture.load.REFUSED_FORMATS`)."""
    from PIL import Image

    from rofl.formats import is_puzzle_path
    from rofl.picture.load import readable_formats

    readable = set(readable_formats())  # no .eps or .ps: rofl never runs Ghostscript
    opened = {ext for ext, name in Image.registered_extensions().items() if name in readable}
    return frozenset(ext for ext in opened if not is_puzzle_path(f"x{ext}"))


def find_inputs(
    sources: Iterable[str | os.PathLike], accept: Callable[[Path], bool], what: str, *, recursive: bool = False
) -> list[Path]:
    """The files that ``sources`` name, in order, each once.

    A file is taken as it is (a broken one becomes a failed row later); a
    folder gives the files directly in it (``recursive``: and in its
    subfolders) that ``accept`` takes, sorted by name; a name that does not exist but holds ``*``, ``?`` or ``[`` is a
    glob pattern (for shells that do not expand it).

    Raises
    ------
    UsageError
        A source that is none of these, or no file at all.
    """
    from rofl.errors import UsageError

    sources = list(sources)
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            listing = path.rglob("*") if recursive else path.iterdir()
            found += sorted(p for p in listing if p.is_file() and accept(p))
        elif path.exists():
            found.append(path)
        elif glob.has_magic(str(source)):
            found += sorted(Path(p) for p in glob.glob(str(source)) if Path(p).is_file())
        else:  # a missing input is a file error (status 1), as for one picture
            raise FileNotFoundError(errno.ENOENT, "no such file or folder", str(source))
    unique = list({os.path.realpath(p): p for p in reversed(found)}.values())[::-1]
    if not unique:
        msg = f"no {what} in {', '.join(map(str, sources))}"
        raise UsageError(msg)
    return unique


def picture_files(sources: Iterable[str | os.PathLike]) -> list[Path]:
    """The pictures ``sources`` name (:func:`find_inputs`): files as they
    are, and in folders the files of :func:`picture_suffixes`."""
    suffixes = picture_suffixes()
    return find_inputs(sources, lambda p: p.suffix.lower() in suffixes, "pictures")


def refuse_inputs(inputs: Sequence[Path], outputs: Iterable[Path]) -> None:
    """Refuse, before any work, an output that is one of the inputs (the same
    file under any name: a link, ``./x`` and ``x``).

    Raises
    ------
    UsageError
    """
    from rofl._io import input_written
    from rofl.errors import UsageError

    found = input_written(inputs, ((None, output) for output in outputs))
    if found is not None:
        _, output, source = found
        msg = f"{output} is the input {source}: writing it would destroy what is read; name another folder"
        raise UsageError(msg)


def sha256_of(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, or None when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def make_outputs(pictures: Sequence[Path], folder: Path, suffix: str) -> list[Path]:
    """The puzzle file of each picture: its name with ``suffix``, in ``folder``.

    Raises
    ------
    UsageError
        Two pictures would give the same file (``a.png`` and ``a.jpg``), or
        one the summary's (``summary.png`` as ``.json``).
    """
    from rofl.errors import UsageError

    outputs = [folder / f"{p.stem}{suffix}" for p in pictures]
    tables = {f"{SUMMARY}.csv", f"{SUMMARY}.json"}
    for picture, output in zip(pictures, outputs, strict=True):
        # compared without case: on a case-insensitive disk Summary.json is the summary
        if output.name.lower() in tables:
            msg = f"{picture} would be written to {output}, the batch's summary: rename the picture"
            msg += " or choose another --format"
            raise UsageError(msg)
    seen: dict[Path, Path] = {}
    for picture, output in zip(pictures, outputs, strict=True):
        if output in seen:
            msg = f"{seen[output]} and {picture} would both be written to {output}: rename one"
            raise UsageError(msg)
        seen[output] = picture
    return outputs


def make_many(
    pictures: Iterable[str | os.PathLike],
    folder: str | os.PathLike,
    options: MakeOptions | None = None,
    *,
    suffix: str = ".rofl",
    jobs: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    protect: Iterable[str | os.PathLike] = (),
) -> Iterator[dict[str, Any]]:
    """Make the puzzle of every picture into ``folder``; yield a row for each as it is done.

    Parameters
    ----------
    pictures : iterable of str or path
        Picture files, folders of pictures and glob patterns
        (:func:`picture_files`).
    folder : str or path
        Where the puzzle files go (created if need be), each named after
        its picture with ``suffix``, with ``summary.csv`` and
        ``summary.json``, written when the batch ends or is interrupted.
    options : rofl.maker.MakeOptions, optional
        Those of :func:`rofl.make` (default: the defaults).
    suffix : str
        The extension of the puzzle files: their format.
    jobs : int, optional
        Worker processes (default: all cores; 1: this process).
    scheduler : str, optional
        A Dask scheduler's address: run the tasks on that cluster.
    force : bool
        Make every puzzle again, even the up-to-date ones.
    protect : iterable of str or path
        More files the batch must not write over (a font the caller reads).

    Yields
    ------
    dict
        A row of the summary (:data:`rofl.batch.summary.MAKE_COLUMNS`), in
        the order the pictures finish; ``status`` is ``"made"``,
        ``"skipped"`` (up to date) or ``"failed"`` (``error`` says why).

    Raises
    ------
    UsageError
        No pictures, two pictures for one output, an output that is an
        input, or a Dask scheduler out of reach; before any work.
    FormatError
        An output format no writer handles.
    """
    from rofl._io import check_writable, read_capped
    from rofl.formats import writer_for
    from rofl.maker import MakeOptions
    from rofl.picture.load import MAX_FILE_BYTES

    options = options or MakeOptions()
    writer_for(f"x{suffix}")
    paths = picture_files(pictures)
    folder = Path(folder)
    outputs = make_outputs(paths, folder, suffix)
    tables = [folder / f"{SUMMARY}.csv", folder / f"{SUMMARY}.json"]
    refuse_inputs([*paths, *map(Path, protect)], [*outputs, *tables])
    for table in tables:
        check_table(table, MAKE_COLUMNS, "rofl make")
    folder.mkdir(parents=True, exist_ok=True)
    check_writable(folder)  # a read-only or full disk fails now, not after every puzzle is made
    previous = {} if force else {Path(str(r.get("output"))).name: r for r in read_rows(tables[1])}

    def prepare(i: int):
        row = {"picture": str(paths[i]), "output": str(outputs[i])}
        try:
            data = read_capped(paths[i], MAX_FILE_BYTES)
        except (OSError, ValueError) as exc:
            return Done({**row, "status": FAILED, "error": f"{paths[i]}: {getattr(exc, 'strerror', None) or exc}"})
        old = previous.get(outputs[i].name)
        if (
            old is not None
            and old.get("status") in (MADE, SKIPPED)
            and old.get("key") == options_key(options, suffix, data)
            and old.get("output_sha256") is not None
            and old.get("output_sha256") == sha256_of(outputs[i])
        ):
            return Done({**old, **row, "status": SKIPPED})
        return data, str(paths[i]), options, suffix

    def lost(i: int, why: str):
        return None, {"picture": str(paths[i]), "status": FAILED, "error": f"{paths[i]}: {why}"}

    rows: list[dict[str, Any] | None] = [None] * len(paths)
    try:
        for i, result in run_tasks(make_task, len(paths), prepare, lost=lost, jobs=jobs, scheduler=scheduler):
            row = result if isinstance(result, dict) else _write(outputs[i], *result)
            rows[i] = row
            yield row
    finally:
        # an interrupted batch records what it finished, and keeps the earlier
        # rows of the pictures it did not reach, so the next run resumes from there
        done = [r if r is not None else previous.get(out.name) for r, out in zip(rows, outputs, strict=True)]
        done = [r for r in done if r is not None]
        about = {"command": "rofl make", "options": {**asdict(options), "suffix": suffix}}
        for table in tables:
            write_table(table, done, MAKE_COLUMNS, **about)


def _write(output: Path, data: bytes | None, row: dict[str, Any]) -> dict[str, Any]:
    """Write a task's puzzle file (atomically) and complete its row."""
    from rofl._io import atomic_write

    if data is None:
        return row
    try:
        atomic_write(output, data)
    except OSError as exc:
        return {**row, "status": FAILED, "error": f"{output}: {exc.strerror or exc}"}
    return {**row, "output": str(output), "output_sha256": hashlib.sha256(data).hexdigest()}


def write_book(
    rows: Iterable[dict[str, Any]],
    path: str | os.PathLike,
    *,
    answers: bool = False,
    letters: bool = False,
    difficulty: bool = False,
) -> int:
    """Write the PDF puzzle book of a batch's puzzles, in the rows' order
    (the failed pictures left out), with pages of answers if asked
    (``letters``: each clue with its colour's letter, as ``rofl sheet --letters``;
    ``difficulty``: each puzzle's grade after its title).

    Returns
    -------
    int
        The number of puzzles in the book.

    Raises
    ------
    UsageError
        No puzzle made.
    """
    from rofl._io import atomic_write
    from rofl.decode import solve_picture
    from rofl.errors import UsageError
    from rofl.formats import open_puzzle
    from rofl.render.pdf import puzzle_book

    puzzles, grids = [], []
    for row in rows:
        if row.get("status") == FAILED:
            continue
        opened = open_puzzle(str(row["output"]))
        puzzles.append(opened.puzzle)
        if answers:  # rofl make's puzzles store their picture, and line logic solves them anyway
            grid = opened.solution
            grids.append(grid if grid is not None else solve_picture(opened.puzzle, where=opened.name))
    if not puzzles:
        msg = f"{path}: no puzzle was made, so there is no book"
        raise UsageError(msg)
    book = puzzle_book(puzzles, answers=grids if answers else None, letters=letters, difficulty=difficulty)
    atomic_write(path, book)
    return len(puzzles)
