"""``rofl convert``: a puzzle file from one format into another."""

from __future__ import annotations

from pathlib import Path

import click

from rofl.cli._app import main

# What each writer does with a solution it is given (the README lists the same).
# .non keeps a goal for black-and-white puzzles only (Nonny's colour files have none).
_SOLUTION_KEPT = {
    ".json": "solution kept",
    ".xml": "solution kept (goal)",
    ".non": "solution kept (goal)",
    ".notmine": "solution kept",
    ".rofl": "solution kept as its CRC-32",
}


@main.command(short_help="Convert a puzzle file into another format.")
@click.argument("source", metavar="IN", type=click.Path())
@click.argument("target", metavar="OUT", type=click.Path())
def convert(source: str, target: str) -> None:
    """Convert the puzzle file IN into OUT, in the format OUT's extension names.

    \b
    Formats read (by content, then by extension) and written (by extension):
      .json     corpus JSON                 colour, solution
      .rofl     ROFL                        colour, CRC-32 of the solution
      .notmine  NotMine cipher              black and white, the picture
      .xml      webpbn XML (Jan Wolter)     colour, goal picture
      .non      Steve Simpson's format      colour (Nonny's extension), goal
                                            picture if black and white
      .nin      Jakub Wilk's format         black and white, clues only
      .g        Olsak's grid format         colour, clues only

    The solution (goal picture) travels along when IN has one and OUT can
    hold it; when IN has none, it is added if line logic finds it.  Title,
    author and licence/copyright travel where both formats have room for
    them.  A colour puzzle cannot be written to a black-and-white format
    (.nin, .notmine): that is an error and OUT is left untouched.
    """
    from rofl.errors import FormatError, RoflError
    from rofl.formats import read_puzzle, write_puzzle, writer_for

    writer_for(target)
    suffix = Path(target).suffix.lower()
    puzzle, solution = read_puzzle(source)
    keeps = suffix in _SOLUTION_KEPT and not (suffix == ".non" and puzzle.n_colors > 2)
    derived = False
    if solution is None and keeps and suffix != ".rofl":
        # Files of these formats usually carry the picture: add it when line
        # logic finds it (then it is the puzzle's only solution).
        from rofl.solver import solve

        result = solve(puzzle)
        if result.status == "solved":
            solution, derived = result.grid, True
    try:
        write_puzzle(target, puzzle, solution)
    except RoflError as exc:  # the writers' messages do not name the file
        msg = f"cannot convert {source} to {target}: {exc}"
        raise FormatError(msg) from None
    if not keeps:
        holds = "the goal of black-and-white puzzles only" if suffix == ".non" else "clues only"
        kept = f"solution not kept ({suffix} holds {holds})"
    elif solution is None:
        kept = "no solution in the input, and line logic does not find one"
    elif derived:
        kept = "solution added (line logic finds it)"
    else:
        kept = _SOLUTION_KEPT[suffix]
    click.echo(f"{target}: {puzzle.width}x{puzzle.height}, {puzzle.n_colors} colours, {kept}")
