"""``rofl page``: a puzzle as a self-contained HTML page to solve in a browser."""

from __future__ import annotations

from pathlib import Path

import click

from rofl.cli._app import main
from rofl.cli._show import say


@main.command(short_help="Write an HTML page to solve a puzzle in a browser.")
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Page to write, .html or .htm (default: PUZZLE.html)."
)
@click.option("--title", help="Heading of the page (default: the puzzle's title, else its size).")
@click.option(
    "--letters/--no-letters",
    default=None,
    help="Print each colour clue with its colour's letter (2a 3b). Default: when two colours are alike in grey "
    "or under simulated colour blindness (Machado et al. 2009). The player can switch it in Options.",
)
@click.option("--difficulty", is_flag=True, help="Show the puzzle's grade (rofl.grade) under its size.")
def page(puzzle: str, output: str | None, title: str | None, letters: bool | None, difficulty: bool) -> None:
    """Write PUZZLE (any puzzle format rofl reads) as an HTML page to solve by hand.

    One file with everything inline: it works opened from disk, offline.
    Left button paints, right button marks a cell empty, drags draw straight
    lines; undo and redo, a check, a timer, and progress kept in the
    browser.  The page holds the clues, not the solution: it knows the grid
    is solved when every line has its clue.  Hexagonal puzzles (and their
    '?' groups) play too, on an SVG board laid out like their sheets.
    """
    from rofl._io import atomic_write
    from rofl.cli._files import check_drawable, check_parent, refuse_overwrite
    from rofl.decode import check_stored_crc
    from rofl.errors import LimitError
    from rofl.formats import default_output, open_puzzle
    from rofl.render.page import check_page_path, check_page_size, puzzle_page

    out = Path(output) if output else default_output(puzzle, ".html")
    check_page_path(out)
    check_parent(str(out))
    refuse_overwrite([puzzle], [("-o", out)])
    opened = open_puzzle(puzzle)
    hexagon = opened.puzzle.board.kind == "hexagon"
    # a hexagon's clues are drawn in SVG, '?' groups included; a rectangle's bands do not draw them yet
    check_drawable(opened, "page", hexagon=True, color_sets=hexagon)
    try:  # before the stored CRC is checked, which may solve it
        check_page_size(opened.puzzle)
    except LimitError as exc:
        msg = f"{opened.name}: {exc}"
        raise LimitError(msg) from None
    check_stored_crc(opened)
    loaded = opened.puzzle
    if difficulty:
        from rofl.cli._show import graded_or_warned

        graded_or_warned(loaded, opened.name)
    text = puzzle_page(loaded, title=title, letters=letters, difficulty=difficulty)
    atomic_write(out, text.encode("utf-8"))
    say(f"{out}: {loaded.board.size_text()}, {loaded.n_colors} colours, {len(text.encode('utf-8'))} bytes")
