"""Writing checks the commands share (they open files with :func:`rofl.formats.open_puzzle`)."""

from __future__ import annotations

from pathlib import Path


def write_puzzle_file(
    path, puzzle, solution=None, *, crc32: int | None = None, private: bool = False, quiet: bool = False
) -> None:
    """:func:`rofl.formats.write_puzzle`, then a warning on stderr (unless
    ``quiet``) when the program the format belongs to cannot open the puzzle."""
    import click

    from rofl.formats import caveat, write_puzzle

    write_puzzle(path, puzzle, solution, crc32=crc32, private=private)
    note = caveat(path, puzzle)
    if note and not quiet:
        click.echo(f"warning: {path}: {note}", err=True)


def check_parent(path: str) -> None:
    """Refuse to write ``path`` when its directory does not exist (before any work is done)."""
    from rofl.errors import UsageError

    parent = Path(path).parent
    if not parent.is_dir():
        msg = f"{path}: the directory {str(parent)!r} does not exist"
        raise UsageError(msg)
