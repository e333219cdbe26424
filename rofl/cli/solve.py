"""``rofl solve``: solve a puzzle file completely and print the picture."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rofl.cli._app import main
from rofl.cli._options import budget_option, choice_option, flag_option, number_option, path_option
from rofl.cli._show import say

# exit statuses (also in the command's help, the README and docs/guide.md); 1 is an error
# and 2 a bad option or argument, as for every command, so none of the answers takes them
EXIT_UNIQUE = 0
EXIT_NONE = 5
EXIT_MULTIPLE = 3
EXIT_BUDGET = 4


@main.command()
# No dir_okay=False: click would report a directory as a usage error (status 2);
# reading it gives one "Error:" line and 1, as for any unreadable file.
@click.argument("file", type=click.Path())
@budget_option("Seconds that line logic and the search may take together.")
@click.option("--line-only", is_flag=True, help="Line logic only, no search (the generator's notion of solvable).")
@flag_option(
    "--first-only", "Stop at the first solution, as a tournament asks: it is shown as a solution, not proved unique."
)
@choice_option(
    "--engine",
    ("search", "sat"),
    "What decides the puzzle: rofl's search after line logic, or the SAT engine, which reads the clues alone.",
)
@path_option(
    "--first",
    "first_path",
    click.Path(dir_okay=False, writable=True),
    "PATH",
    "Write the solution (the first of two when ambiguous) to PATH: a picture (.png, .gif, .bmp... one pixel per "
    "cell; a hexagon's cells drawn as hexagons) or a puzzle file (.json, .rofl) holding it.",
)
@path_option(
    "--solutions",
    "solutions_dir",
    click.Path(file_okay=False),
    "DIR",
    "Write every solution found to DIR/solution-1.png, DIR/solution-2.png (DIR is created).",
)
@click.option(
    "--color/--no-color",
    "use_color",
    default=None,
    help="Draw cells in their colours (default: when the output is a terminal).",
)
@path_option(
    "--steps",
    "steps_dir",
    click.Path(),
    "DIR",
    "Write a picture of every step to DIR/step-0000.png, step-0001.png... (DIR is created; it must hold no step "
    "pictures yet). Rectangular puzzles only.",
)
@path_option(
    "--gif",
    "gif_path",
    click.Path(dir_okay=False),
    "FILE",
    "Write the steps as an animation: .gif, .png (APNG) or .webp by extension. Rectangular puzzles only.",
)
@choice_option(
    "--steps-per",
    ("line", "sweep"),
    "A frame per line solve, or per pass of line logic over the rows or the columns.",
)
@number_option("--max-frames", (2, 100_000), 300, "N", "At most this many frames; more steps share frames.")
@number_option("--delay", (1, 60_000), 100, "MS", "Frame delay.")
@number_option("--last-delay", (1, 600_000), 2000, "MS", "How long the last frame (the solution) shows.")
@number_option("--scale", (1, 256), None, "PX", "Cell side in pixels (default: fit).")
@number_option(
    "--max-size", (1, 65_535), 800, "PX", "Largest side of the grid in pixels (the label strip comes below)."
)
def solve(
    file: str,
    budget: float,
    line_only: bool,
    first_only: bool,
    engine: str,
    first_path: str | None,
    solutions_dir: str | None,
    use_color: bool | None,
    steps_dir: str | None,
    gif_path: str | None,
    steps_per: str,
    max_frames: int,
    delay: int,
    last_delay: int,
    scale: int | None,
    max_size: int,
) -> None:
    """Solve FILE and print the picture and what was proved.

    Line logic runs first; when it stalls, probing and backtracking decide
    the puzzle: its one solution, two distinct solutions when it has
    several, or a proof that it has none.

    --steps and --gif picture the solve step by step: the grid as known so
    far (open cells hatched), the line just solved outlined, and, for
    puzzles that need search, each probe, guess and backtrack, labelled.
    The last frame is the solution.  At most --max-frames frames are made
    (300 by default): a longer solve shares them out evenly.

    \b
    Exit status:
      0  unique solution (with --line-only: solved by line logic; with
         --first-only: a solution)
      3  more than one solution (two are printed)
      4  the budget ran out before an answer
      5  no solution (with --line-only: line logic stalls or contradicts)
      1  error (unreadable file, a picture that does not match the file's CRC-32)
      2  bad option or argument (after a "Usage:" hint), as for every command
    """
    from rofl.decode import check_crc
    from rofl.formats import open_puzzle
    from rofl.solver.search import solve_complete

    if line_only:  # each of these would be ignored: say so rather than drop it silently
        searched = (("--first-only", first_only), ("--engine sat", engine == "sat"),
                    ("--first", first_path), ("--solutions", solutions_dir))  # fmt: skip
        needs = [name for name, given in searched if given]
        if needs:
            msg = f"{' and '.join(needs)} {'needs' if len(needs) == 1 else 'need'} the search: drop --line-only"
            raise click.UsageError(msg)
    _check_outputs(file, first_path, solutions_dir, steps_dir, gif_path)
    opened = open_puzzle(file)
    puzzle = opened.puzzle
    if puzzle.board.kind == "hexagon":
        _check_hexagon(opened, first_path, solutions_dir, steps_dir, gif_path)
    if use_color is None:
        use_color = sys.stdout.isatty()
    pictured = steps_dir is not None or gif_path is not None
    drawing = dict(per=steps_per, max_frames=max_frames, delay=delay, last_delay=last_delay, scale=scale,
                   max_size=max_size)  # fmt: skip
    if line_only:
        if pictured:
            _picture_steps(puzzle, steps_dir, gif_path, search=False, budget=budget, **drawing)
        _line_only(opened, use_color, budget)
        return

    # line logic and the search share the budget; compiling is in neither
    result = solve_complete(puzzle, time_budget=budget, engine=engine, solutions=1 if first_only else 2)
    if result.status == "unique":
        check_crc(result.grid, opened.crc32, f"{opened.name}: ")
    if pictured:  # knowing the answer: the last frame of an ambiguous puzzle is one of its solutions
        _picture_steps(puzzle, steps_dir, gif_path, search=True, budget=budget, answer=result.status, **drawing)
    _write_solutions(puzzle, result.solutions, first_path, solutions_dir)
    status = _show_answer(puzzle, result, engine=engine, budget=budget, use_color=use_color)
    if status != EXIT_UNIQUE:
        sys.exit(status)


def _check_outputs(file: str, first_path, solutions_dir, steps_dir, gif_path) -> None:
    """Refuse, before the file is read, outputs that would replace the input or each other, a step
    folder that holds steps already, an animation rofl cannot write."""
    from rofl.cli._files import check_parent, refuse_overwrite

    written = [("--first", first_path), ("--gif", gif_path)]
    if solutions_dir is not None:  # at most two solutions are found (the second proves ambiguity)
        written += [("--solutions", str(Path(solutions_dir) / f"solution-{i}.png")) for i in (1, 2)]
    refuse_overwrite([file], written)
    if first_path is not None:
        check_parent(first_path)
    if steps_dir is not None:
        from rofl.render.animation import check_steps_folder

        check_steps_folder(steps_dir)
    if gif_path is not None:
        from rofl.render.animation import check_animation_path

        check_animation_path(gif_path)
        check_parent(gif_path)


def _check_hexagon(opened, first_path, solutions_dir, steps_dir, gif_path) -> None:
    """Refuse, before solving, what rofl cannot picture of a hexagonal puzzle."""
    from rofl.formats import is_puzzle_path

    _refuse_pictures(opened.name, steps_dir, gif_path)
    if solutions_dir is not None or (first_path is not None and not is_puzzle_path(first_path)):
        # a hexagon's picture draws every cell, as its sheet does: the same limit, before solving
        from rofl.render.hexlayout import check_hex_sheet

        check_hex_sheet(opened.puzzle, f"{opened.name}: a picture of a hexagon")


def _write_solutions(puzzle, solutions, first_path, solutions_dir) -> None:
    """``--first`` and ``--solutions``: every picture asked for, or none."""
    from rofl._io import all_or_nothing

    with all_or_nothing():
        if first_path is not None and solutions:
            _write_solution(Path(first_path), puzzle, solutions[0])
        if solutions_dir is not None and solutions:
            directory = Path(solutions_dir)
            directory.mkdir(parents=True, exist_ok=True)
            for i, grid in enumerate(solutions, 1):
                _write_solution(directory / f"solution-{i}.png", puzzle, grid)


def _how(result, engine: str) -> str:
    """What decided the puzzle, as the last line says it."""
    if engine == "sat":
        return "SAT engine"
    if result.line_solvable:
        return "line logic alone"
    if result.sat_seconds:
        return f"search: {result.nodes} nodes, {result.probes} probes, then the SAT solver {result.sat_seconds:.1f} s"
    if result.nodes:
        return f"search: {result.nodes} nodes, {result.probes} probes"
    return "line logic"


def _show_answer(puzzle, result, *, engine: str, budget: float, use_color: bool) -> int:
    """Print what the complete solver proved (:func:`rofl.solver.search.solve_complete`'s ``result``);
    return the exit status."""
    from rofl.cli._show import difficulty_text
    from rofl.render.terminal import puzzle_text

    size = f"{puzzle.board.size_text()}, {puzzle.n_colors} colours"
    how = _how(result, engine)
    timing = f"{result.seconds * 1000:.0f} ms"
    if result.status == "unique":
        click.echo(puzzle_text(puzzle, result.grid, color=use_color))
        click.echo(f"unique: {size}; {how}; {timing}")
        click.echo(difficulty_text(puzzle))
        return EXIT_UNIQUE
    if result.status == "found":  # --first-only: the first solution, uniqueness not asked
        click.echo(puzzle_text(puzzle, result.solutions[0], color=use_color))
        click.echo(f"a solution (not checked for others: --first-only): {size}; {how}; {timing}")
        return EXIT_UNIQUE
    if result.status == "multiple":
        first, second = result.solutions[:2]
        click.echo("solution 1:")
        click.echo(puzzle_text(puzzle, first, color=use_color))
        click.echo("solution 2:")
        click.echo(puzzle_text(puzzle, second, color=use_color))
        differ = int((first != second).sum())
        click.echo(
            f"multiple: {size}; the clues have more than one solution (two shown, they differ in "
            f"{differ} cells); {how}; {timing}",
            err=True,
        )
        click.echo(difficulty_text(puzzle))  # needs guessing: the top grade
        return EXIT_MULTIPLE
    if result.status == "none":
        click.echo(f"none: {size}; the clues have no solution ({how}); {timing}", err=True)
        return EXIT_NONE
    if result.line_stopped:  # nothing is known: no grid of question marks
        msg = f"budget: no answer: line logic did not finish within the {budget:g} s budget (try a larger --budget)"
        click.echo(msg, err=True)
        return EXIT_BUDGET
    # budget: show what line logic knows
    partial = _partial(result.masks)
    click.echo(puzzle_text(puzzle, partial, color=use_color))
    found = " (one solution found, not proved unique)" if result.solutions else ""
    click.echo(
        f"budget: no answer within {budget:g} s{found}; line logic leaves {int((partial < 0).sum())} of "
        f"{partial.size} cells undetermined (shown as ?); {how}",
        err=True,
    )
    return EXIT_BUDGET


def _picture_steps(puzzle, steps_dir, gif_path, *, search, budget, per, max_frames, answer=None, **drawing) -> None:
    """Trace the solve and write its frames (``--steps``, ``--gif``); say what was written on stderr.
    ``answer`` is what the complete solver proved (a ``SearchStatus``), when it ran."""
    from rofl._io import all_or_nothing
    from rofl.render.animation import Painter, Style, animate_solve, choose_cell, write_steps
    from rofl.solver.trace import trace_solve

    trace = trace_solve(puzzle, search=search, time_budget=budget)
    if trace.status != "solved":
        ends = f"where the trace stopped ({trace.status})"
    elif answer == "multiple":
        ends = "one of its solutions (the puzzle has more than one)"
    elif answer == "budget":
        ends = "a solution (not proved unique within the budget)"
    elif answer == "found":  # --first-only
        ends = "a solution (not checked for others: --first-only)"
    else:
        ends = "the solution"
    with all_or_nothing():  # every step picture and the animation, or none (a full disk)
        if steps_dir is not None:
            painter = Painter(puzzle, Style(choose_cell(puzzle, drawing["scale"], drawing["max_size"])))
            paths = write_steps(steps_dir, trace.frames(per, max_frames), painter)
        if gif_path is not None:
            count = animate_solve(puzzle, gif_path, trace=trace, per=per, max_frames=max_frames, **drawing)
    if steps_dir is not None:
        say(f"{steps_dir}: {len(paths)} step pictures, {len(trace.steps)} steps; the last is {ends}", err=True)
    if gif_path is not None:
        size = Path(gif_path).stat().st_size
        say(f"{gif_path}: {count} frames, {size // 1024 + 1} KB; the last is {ends}", err=True)


def _refuse_pictures(name: str, *outputs) -> None:
    """Refuse the options that picture the steps of a solve for a hexagonal puzzle: the step tracer
    (rofl.solver.trace) follows a rectangle's rows and columns."""
    from rofl.errors import OptionError

    chosen = [option for option, value in zip(("--steps", "--gif"), outputs, strict=True) if value]
    if chosen:
        options = " and ".join(chosen)
        msg = f"{name}: {options}: rofl pictures the steps of rectangular puzzles only; this one is hexagonal"
        raise OptionError(msg)


def _partial(masks):
    from rofl.solver.line_logic import determined, masks_to_grid

    grid = masks_to_grid(masks).astype("int16")
    grid[~determined(masks)] = -1
    return grid


def _line_only(opened, use_color: bool, budget: float) -> None:
    from rofl.cli._show import difficulty_text
    from rofl.decode import check_crc
    from rofl.errors import BudgetError
    from rofl.render.terminal import puzzle_text
    from rofl.solver import solve as line_solve

    puzzle = opened.puzzle
    try:  # --budget bounds line logic alone as it bounds it with the search (it once ran on unbounded)
        result = line_solve(puzzle, budget=budget)
    except BudgetError:
        msg = f"budget: no answer: line logic did not finish within the {budget:g} s budget (try a larger --budget)"
        click.echo(msg, err=True)
        sys.exit(EXIT_BUDGET)
    if result.status == "solved":
        check_crc(result.grid, opened.crc32, f"{opened.name}: ")
    if result.status != "contradiction":
        # color= stops click from stripping the escapes when --color is asked
        # for and the output is not a terminal
        click.echo(puzzle_text(puzzle, result.partial_grid(), color=use_color), color=use_color)
    size = puzzle.board.size_text()
    if result.status == "solved":
        click.echo(
            f"solved: {size}, {puzzle.n_colors} colours, {result.line_solves} line solves, {result.sweeps} sweeps"
        )
        click.echo(difficulty_text(puzzle))
        return
    if result.status == "stalled":
        click.echo(
            f"stalled: line logic leaves {result.undetermined} of {result.masks.size} cells undetermined (shown as ?)",
            err=True,
        )
        click.echo(difficulty_text(puzzle))  # expert (probing finishes it) or needs guessing
    else:
        line = puzzle.line_name(result.bad_line) if result.bad_line is not None else "a line"
        click.echo(f"contradiction: the clues have no solution ({line} cannot be filled)", err=True)
    sys.exit(EXIT_NONE)


def _write_solution(path: Path, puzzle, grid) -> None:
    """Write ``grid`` as a picture (one pixel per cell; a hexagon's cells as hexagons) or, for a puzzle
    extension, as a puzzle file."""
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
    if puzzle.board.kind == "hexagon":
        from rofl.render.preview import hex_solution_image

        image = hex_solution_image(np.asarray(grid), puzzle.palette, puzzle.board.side)
    else:
        rgb = puzzle.palette.to_array()[np.asarray(grid)]
        image = Image.fromarray(np.ascontiguousarray(rgb, dtype=np.uint8), "RGB")
    with atomic_open(path, "wb") as f:
        image.convert("RGB").save(f, format=fmt)
