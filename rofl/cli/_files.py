"""Writing checks the commands share (they open files with :func:`rofl.formats.open_puzzle`)."""

from __future__ import annotations

from pathlib import Path

from rofl.cli._show import say


def write_puzzle_file(
    path,
    puzzle,
    solution=None,
    *,
    crc32: int | None = None,
    private: bool = False,
    quiet: bool = False,
    ancillary: tuple[tuple[str, bytes], ...] = (),
) -> None:
    """:func:`rofl.formats.write_puzzle`, then a warning on stderr (unless
    ``quiet``) when the program the format belongs to cannot open the puzzle."""

    from rofl.formats import caveat, write_puzzle

    write_puzzle(path, puzzle, solution, crc32=crc32, private=private, ancillary=ancillary)
    note = caveat(path, puzzle)
    if note and not quiet:
        say(f"warning: {path}: {note}", err=True)


def output_format(path: str):
    """The puzzle format an output named ``path`` is written in
    (:func:`rofl.formats.writer_for`); a name no writer takes is a bad
    argument, so a :class:`~rofl.errors.UsageError` (exit status 2)."""
    from rofl.errors import FormatError, UsageError
    from rofl.formats import writer_for

    try:
        return writer_for(path)
    except FormatError as exc:
        raise UsageError(str(exc)) from None


def check_parent(path: str) -> None:
    """Refuse to write ``path`` when its directory does not exist (before any work is done)."""
    from rofl.errors import UsageError

    parent = Path(path).parent
    if not parent.is_dir():
        what = "is a file, not a directory" if parent.exists() else "does not exist"
        msg = f"{path}: the directory {str(parent)!r} {what}"
        raise UsageError(msg)


def refuse_overwrite(inputs, outputs, *, force: bool = False) -> None:
    """Refuse, before any work, to write an output that is one of the inputs,
    or two outputs to one file.

    ``inputs`` are the files a command reads (``FILE#N`` names ``FILE``);
    ``outputs`` are ``(option, path or None)`` pairs.  Two names are the
    same file when :func:`os.path.samefile` says so (a symlink, a hard link,
    ``./x`` and ``x``, a puzzle of a book and the book), so no command
    replaces a picture, a sheet or a book it reads.  ``force=True`` (a
    command's ``--force``) allows an output that is an input where
    rewriting in place is meant.

    Raises
    ------
    UsageError
        An output that is an input, or two outputs to one file (the message
        names both options).
    """
    import os

    from rofl._io import input_written
    from rofl.errors import UsageError
    from rofl.formats import split_number

    written: dict[str, str] = {}
    for option, output in outputs:
        if output is None:
            continue
        # a file not there yet has no identity: its real path names it
        key = os.path.realpath(output)
        if key in written:
            msg = f"{option} {output} and {written[key]} name one file: one would replace the other; name another file"
            raise UsageError(msg)
        written[key] = f"{option} {output}"
    if force:
        return
    sources = [split_number(path)[0] for path in inputs if path is not None]
    found = input_written(sources, outputs)  # a missing input has its own error later
    if found is not None:
        option, output, source = found
        msg = f"{option} {output} is the input {source}: writing it would destroy what is read; name another file"
        raise UsageError(msg)


def check_drawable(opened, command: str, *, color_sets: bool = False, hexagon: bool = False) -> None:
    """Refuse, with one error naming the file, a puzzle ``rofl COMMAND``
    cannot take: a hexagonal one (every picture, sheet and page is a
    rectangular grid), and unless ``color_sets``, one with ``?`` groups
    (which a sheet or page would draw as background).  With ``hexagon`` a
    hexagonal puzzle passes (an SVG sheet or page draws it)."""
    from rofl.errors import FormatError

    if opened.puzzle.board.kind == "hexagon" and not hexagon:
        msg = f"{opened.name}: rofl {command} takes rectangular puzzles only; this one is hexagonal"
        msg += " (rofl solve, info and convert read it)"
        raise FormatError(msg)
    if opened.puzzle.has_color_sets and not color_sets:
        msg = f"{opened.name}: rofl {command} cannot draw groups of unknown colour ('?') yet"
        msg += " (rofl solve, info and convert read them)"
        raise FormatError(msg)
