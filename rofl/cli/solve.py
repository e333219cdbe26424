"""``rofl solve``: solve a puzzle file and print the picture."""

from __future__ import annotations

import sys

import click

from rofl.cli._app import main


@main.command()
# No dir_okay=False: click would report a directory as a usage error with exit
# status 2, which means "stalled" here; reading it gives one "Error:" line and 1.
@click.argument("file", type=click.Path())
@click.option(
    "--color/--no-color",
    "use_color",
    default=None,
    help="Draw cells in their colours (default: when the output is a terminal).",
)
def solve(file: str, use_color: bool | None) -> None:
    """Solve FILE by line logic and print the picture and the status.

    Exit status: 0 when solved, 2 when line logic stalls or the clues
    contradict each other.
    """
    from rofl.formats import read_puzzle
    from rofl.render.terminal import grid_text
    from rofl.solver import solve as line_solve

    puzzle, _ = read_puzzle(file)
    result = line_solve(puzzle)
    if use_color is None:
        use_color = sys.stdout.isatty()
    if result.status != "contradiction":
        # color= stops click from stripping the escapes when --color is asked
        # for and the output is not a terminal
        click.echo(grid_text(result.partial_grid(), puzzle.palette, color=use_color), color=use_color)
    size = f"{puzzle.width}x{puzzle.height}"
    if result.status == "solved":
        click.echo(
            f"solved: {size}, {puzzle.n_colors} colours, {result.line_solves} line solves, {result.sweeps} sweeps"
        )
        return
    if result.status == "stalled":
        click.echo(
            f"stalled: line logic leaves {result.undetermined} of {puzzle.width * puzzle.height} cells "
            f"undetermined (shown as ?)",
            err=True,
        )
    else:
        line = puzzle.line_name(result.bad_line) if result.bad_line is not None else "a line"
        click.echo(f"contradiction: the clues have no solution ({line} cannot be filled)", err=True)
    sys.exit(2)
