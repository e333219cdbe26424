"""``rofl solve``: solve a puzzle file completely and print the picture."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rofl.cli._app import main
from rofl.cli._options import budget_option

# exit statuses (also in the command's help and the README)
EXIT_UNIQUE = 0
EXIT_NONE = 2
EXIT_MULTIPLE = 3
EXIT_BUDGET = 4


@main.command()
# No dir_okay=False: click would report a directory as a usage error with exit
# status 2, which means "stalled" here; reading it gives one "Error:" line and 1.
@click.argument("file", type=click.Path())
@budget_option("Time allowed for the search when line logic stalls.")
@click.option("--line-only", is_flag=True, help="Line logic only, no search (the generator's notion of solvable).")
@click.option(
    "--engine",
    type=click.Choice(["search", "sat"]),
    default="search",
    show_default=True,
    help="What decides the puzzle: rofl's search after line logic, or the SAT engine, which reads the "
    "clues alone (needs python-sat: pip install 'rofl[sat]').",
)
@click.option(
    "--first",
    "first_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="PATH",
    help="Write the solution (the first of two when ambiguous) to PATH: a picture "
    "(.png, .gif, .bmp... one pixel per cell) or a puzzle file (.json, .rofl) holding it.",
)
@click.option(
    "--solutions",
    "solutions_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write every solution found to DIR/solution-1.png, DIR/solution-2.png (DIR is created).",
)
@click.option(
    "--color/--no-color",
    "use_color",
    default=None,
    help="Draw cells in their colours (default: when the output is a terminal).",
)
def solve(
    file: str,
    budget: float,
    line_only: bool,
    engine: str,
    first_path: str | None,
    solutions_dir: str | None,
    use_color: bool | None,
) -> None:
    """Solve FILE and print the picture and what was proved.

    Line logic runs first; when it stalls, probing and backtracking decide
    the puzzle: its one solution, two distinct solutions when it has
    several, or a proof that it has none.

    \b
    Exit status:
      0  unique solution (with --line-only: solved by line logic)
      2  no solution (with --line-only: line logic stalls or contradicts)
      3  more than one solution (two are printed)
      4  the budget ran out before an answer
      1  error (unreadable file, bad option)
    """
    from rofl.cli._files import refuse_overwrite
    from rofl.decode import check_crc
    from rofl.formats import open_puzzle

    refuse_overwrite([file], [("--first", first_path)])
    opened = open_puzzle(file)
    puzzle = opened.puzzle
    if use_color is None:
        use_color = sys.stdout.isatty()
    if line_only:
        _line_only(opened, use_color)
        return

    from rofl.render.terminal import grid_text
    from rofl.solver.search import solve_complete

    result = solve_complete(puzzle, time_budget=budget, engine=engine)
    if result.status == "unique":
        check_crc(result.grid, opened.crc32, f"{opened.name}: ")
    size = f"{puzzle.width}x{puzzle.height}, {puzzle.n_colors} colours"
    how = (
        "SAT engine"
        if engine == "sat"
        else "line logic alone"
        if result.line_solvable
        else f"search: {result.nodes} nodes, {result.probes} probes"
        if result.nodes
        else "line logic"
    )
    timing = f"{result.seconds * 1000:.0f} ms"
    if first_path is not None and result.solutions:
        _write_solution(Path(first_path), puzzle, result.solutions[0])
    if solutions_dir is not None and result.solutions:
        directory = Path(solutions_dir)
        directory.mkdir(parents=True, exist_ok=True)
        for i, grid in enumerate(result.solutions, 1):
            _write_solution(directory / f"solution-{i}.png", puzzle, grid)

    if result.status == "unique":
        click.echo(grid_text(result.grid, puzzle.palette, color=use_color))
        click.echo(f"unique: {size}; {how}; {timing}")
        return
    if result.status == "multiple":
        first, second = result.solutions[:2]
        click.echo("solution 1:")
        click.echo(grid_text(first, puzzle.palette, color=use_color))
        click.echo("solution 2:")
        click.echo(grid_text(second, puzzle.palette, color=use_color))
        differ = int((first != second).sum())
        click.echo(
            f"multiple: {size}; the clues have more than one solution (two shown, they differ in "
            f"{differ} cells); {how}; {timing}",
            err=True,
        )
        sys.exit(EXIT_MULTIPLE)
    if result.status == "none":
        click.echo(f"none: {size}; the clues have no solution ({how}); {timing}", err=True)
        sys.exit(EXIT_NONE)
    # budget: show what line logic knows
    partial = _partial(result.masks)
    click.echo(grid_text(partial, puzzle.palette, color=use_color))
    found = " (one solution found, not proved unique)" if result.solutions else ""
    click.echo(
        f"budget: no answer within {budget:g} s{found}; line logic leaves {int((partial < 0).sum())} of "
        f"{puzzle.width * puzzle.height} cells undetermined (shown as ?); {how}",
        err=True,
    )
    sys.exit(EXIT_BUDGET)


def _partial(masks):
    from rofl.solver.propagate import determined, masks_to_grid

    grid = masks_to_grid(masks).astype("int16")
    grid[~determined(masks)] = -1
    return grid


def _line_only(opened, use_color: bool) -> None:
    from rofl.decode import check_crc
    from rofl.render.terminal import grid_text
    from rofl.solver import solve as line_solve

    puzzle = opened.puzzle
    result = line_solve(puzzle)
    if result.status == "solved":
        check_crc(result.grid, opened.crc32, f"{opened.name}: ")
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
    sys.exit(EXIT_NONE)


def _write_solution(path: Path, puzzle, grid) -> None:
    """Write ``grid`` as a picture (one pixel per cell) or, for a puzzle extension, as a puzzle file."""
    from rofl.cli._files import write_puzzle_file
    from rofl.formats import is_puzzle_path

    if is_puzzle_path(path):
        write_puzzle_file(path, puzzle, grid)
        return
    import numpy as np
    from PIL import Image

    from rofl._io import atomic_open
    from rofl.errors import UsageError

    fmt = Image.registered_extensions().get(path.suffix.lower())
    if fmt is None:
        msg = f"{path}: unknown picture extension {path.suffix!r} (use .png, .gif, .bmp... or .json, .rofl)"
        raise UsageError(msg)
    rgb = puzzle.palette.to_array()[np.asarray(grid)]
    with atomic_open(path, "wb") as f:
        Image.fromarray(np.ascontiguousarray(rgb, dtype=np.uint8), "RGB").save(f, format=fmt)
