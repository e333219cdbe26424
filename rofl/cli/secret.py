"""``rofl hide`` and ``rofl reveal``: a secret text as a puzzle and back."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rofl.cli._app import main
from rofl.cli._options import budget_option
from rofl.cli._show import say
from rofl.errors import FormatError, OptionError, UsageError

#: The title of the sheet of a hidden text.
SHEET_TITLE = "Solve me"


def _stdin_bytes() -> bytes:
    """All of standard input, refusing more than a puzzle file may hold."""
    from rofl.formats import MAX_FILE_BYTES

    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read(MAX_FILE_BYTES + 1) if stream is not None else sys.stdin.read(MAX_FILE_BYTES + 1).encode()
    if len(data) > MAX_FILE_BYTES:
        msg = f"standard input: larger than the {MAX_FILE_BYTES}-byte limit"
        raise FormatError(msg)
    return data


def _read_secret() -> str:
    """The secret from standard input, without its trailing newline.

    On a terminal the input is not echoed.
    """
    if sys.stdin.isatty():
        return click.prompt("Secret", hide_input=True, confirmation_prompt=True, prompt_suffix=": ")
    data = _stdin_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        msg = f"standard input is not UTF-8 text ({exc.reason} at byte {exc.start + 1})"
        raise UsageError(msg) from None
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


@main.command()
@click.argument("text", required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write the puzzle (.rofl, .json, .notmine, .xml, .non, .nin, .g).",
)
@click.option(
    "--sheet", type=click.Path(dir_okay=False), help="Write a printable sheet with the clues (.png, .pdf, .svg)."
)
@click.option("--cipher", is_flag=True, help="Print the NotMine cipher of the picture.")
@click.option(
    "--width",
    type=click.IntRange(1, None),
    help="Most characters on a line of the picture (default: the widest whose PDF sheet has cells of 4 mm "
    "or more on A4, else the one with the largest cells).",
)
def hide(text: str | None, output: str | None, sheet: str | None, cipher: bool, width: int | None) -> None:
    """Hide TEXT in a puzzle whose solution reads as TEXT.

    Without TEXT the secret is read from standard input (so it stays out of
    the shell history); a trailing newline is not part of it.  Printable
    ASCII and newlines only.  The text is wrapped into lines after its
    words; its spaces and newlines stay in the picture, so `rofl reveal`
    gives back the exact text.  This hides the text, it does not encrypt it:
    whoever solves the puzzle reads it.
    """
    from rofl.cli._files import check_parent, output_format, refuse_overwrite, write_puzzle_file
    from rofl.render.sheet import check_sheet_path
    from rofl.secret import check_text, check_width
    from rofl.secret import hide as hide_text

    if not (output or sheet or cipher):
        msg = "nothing to write: give -o FILE, --sheet FILE or --cipher"
        raise UsageError(msg)
    if output:
        output_format(output)
        check_parent(output)
    if sheet:
        check_sheet_path(sheet)
        check_parent(sheet)
    refuse_overwrite([], [("-o", output), ("--sheet", sheet)])
    if text is None:
        text = _read_secret()
    check_text(text)  # before anything is written
    if width is not None:
        check_width(width)
    puzzle, grid = hide_text(text, width or _page_width(text))
    sheet_data = None
    if sheet:
        from rofl.render.sheet import sheet_bytes

        sheet_data = sheet_bytes(puzzle, Path(sheet).suffix, title=SHEET_TITLE)
    from rofl._io import all_or_nothing, atomic_write

    with all_or_nothing():  # the puzzle and its sheet, or neither
        if output:
            write_puzzle_file(output, puzzle, grid, private=True)
        if sheet_data is not None:
            atomic_write(sheet, sheet_data, private=True)
    written = [path for path in (output, sheet) if path]
    if written:  # on stderr: standard output is the cipher's
        say(f"wrote {', '.join(written)} ({puzzle.board.size_text()} cells)", err=True)
    if cipher:
        from rofl.formats.notmine import Field, dumps

        click.echo(dumps(Field.from_picture(grid)))


def _page_width(text: str) -> int:
    """The widest line (in characters, at most :data:`rofl.secret.LINE_WIDTH`)
    at which ``text``'s page-filling PDF sheet has cells of at least
    :data:`rofl.render.pdf.PENCIL_CELL_MM`; else the width whose sheet has
    the largest cells (the wider of equals), trying narrower widths only
    while the cells do not shrink by a tenth."""
    from rofl.puzzle import Puzzle
    from rofl.render.pdf import PENCIL_CELL_MM, sheet_cell_mm
    from rofl.secret import LINE_WIDTH, text_grid, wrap

    best, seen = (0.0, LINE_WIDTH), set()
    for width in range(min(LINE_WIDTH, len(text)), 0, -1):
        lines = tuple(wrap(text, width))
        if lines in seen:  # a narrower width that wraps alike
            continue
        seen.add(lines)
        try:
            cell = sheet_cell_mm(Puzzle.from_grid(text_grid(text, width)), title=SHEET_TITLE)
        except OptionError:  # a sheet too large to lay out at all
            continue
        if cell >= PENCIL_CELL_MM:
            return width
        if cell < 0.9 * best[0]:
            break  # past the best: narrower still only grows taller (and long texts lay out slowly)
        best = max(best, (cell, width))
    return best[1]


def _load(source: str | None, budget: float):
    """The puzzle of a file path, a cipher string, or standard input (a stored
    CRC-32 checked), and the seconds the check took (part of ``budget``)."""
    from rofl.formats import find_format, notmine, open_puzzle

    if source is not None and source.lstrip().startswith(notmine.LEADER):
        # a cipher given as the argument: text, not a file
        puzzle = notmine.read_bytes(source, where="the cipher")[0]
        return puzzle, 0.0
    if source is not None and source != "-":
        opened = open_puzzle(source)
    else:
        data = _stdin_bytes()
        if find_format(data) is None:
            msg = (
                "standard input: not a puzzle (neither a NotMine cipher nor a ROFL, webpbn XML or JSON puzzle, "
                "nor a sheet rofl drew)"
            )
            raise FormatError(msg)
        opened = open_puzzle(data, name="standard input")
    from rofl.cli._files import check_drawable
    from rofl.decode import check_stored_crc

    check_drawable(opened, "reveal", color_sets=True)
    return opened.puzzle, check_stored_crc(opened, budget=budget)


@main.command()
@click.argument("source", required=False)
@budget_option("Seconds to check a stored CRC-32 when line logic alone cannot solve the puzzle.")
def reveal(source: str | None, budget: float) -> None:
    """Solve a hidden text and print it (followed by one newline).

    SOURCE is a puzzle file (.rofl, .json, .notmine, .xml, .non, ..., or a
    PNG, SVG or PDF sheet rofl drew) or a NotMine cipher string; without
    SOURCE (or with -) a cipher, a ROFL file or a sheet is read from
    standard input.
    """
    from rofl.secret import reveal as reveal_text

    puzzle, spent = _load(source, budget)
    # the CRC check and line logic share the budget
    sys.stdout.write(reveal_text(puzzle, budget=max(budget - spent, 1e-6)) + "\n")
    sys.stdout.flush()
