"""``rofl sheet``: a printable sheet of any puzzle, empty or with its solution."""

from __future__ import annotations

import click

from rofl.cli._app import main
from rofl.cli._files import check_parent, load_puzzle


@main.command()
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path())
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(),
    help="Sheet to write: .png, .pdf or .svg (the extension chooses).",
)
@click.option("--solution", is_flag=True, help="Fill the grid with the solution (solving the puzzle if need be).")
@click.option("--cell", type=int, metavar="PIXELS", help="Cell size (default: 26, 22 beyond 80 cells, 18 beyond 160).")
@click.option("--title", help="Title above the grid (default: the puzzle's title; '' for none).")
@click.option(
    "--budget",
    type=click.FloatRange(0, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="With --solution: seconds of complete search when line logic alone cannot finish.",
)
def sheet(puzzle_file: str, output: str, solution: bool, cell: int | None, title: str | None, budget: float) -> None:
    """Write a printable sheet of PUZZLE: the grid with its clues.

    PUZZLE is any puzzle file rofl reads (.rofl, .json, .xml, .non, .nin,
    .g, .notmine).  OUT's extension picks the format: PNG (96 dpi, or
    denser when a large puzzle needs it to fit the page), PDF (vector, one
    A4 page that also prints on Letter) or SVG (vector, sized in millimetres
    at the PNG's scale).

    With --solution the cells are filled with the solution: the one the
    file stores, else the one the solver proves (line logic, then a
    complete search within --budget).  A puzzle with several solutions, none,
    or none found in time is an error and nothing is written.
    """
    from rofl._io import atomic_write
    from rofl.render.sheet import check_sheet_path, sheet_bytes

    suffix = check_sheet_path(output)
    check_parent(output)
    puzzle, stored, crc, _, _ = load_puzzle(puzzle_file)
    grid = None
    if solution:
        if stored is not None:
            grid = stored  # the readers check that a stored solution fits the clues
        else:
            from rofl.decode import solve_picture

            grid = solve_picture(puzzle, crc32=crc, where=puzzle_file, budget=budget)
    data = sheet_bytes(puzzle, suffix, solution=grid, cell=cell, title=title)
    atomic_write(output, data)
    what = "solution sheet" if solution else "sheet"
    click.echo(f"{output}: {what} of a {puzzle.width}x{puzzle.height} puzzle, {puzzle.n_colors} colours")
