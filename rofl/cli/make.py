"""``rofl make``: turn a picture into a uniquely solvable puzzle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from rofl.cli._app import main
from rofl.cli._batch import batch_options, batch_target, is_batch, make_batch, refuse_batch_options
from rofl.cli._files import check_parent, refuse_overwrite, write_puzzle_file
from rofl.cli._options import (
    FiniteRange,
    check_palette,
    checked_by,
    choice_option,
    files_argument,
    flag_option,
    output_option,
)
from rofl.cli._show import say


def _check_output(path: str) -> None:
    """Refuse an output extension no writer handles, or a missing directory, before doing any work."""
    from rofl.formats import writer_for

    _check_file(path, "'-o' / '--output'", writer_for)


def _check_png(path: str | None, hint: str) -> None:
    _check_file(path, hint, _picture_name)


def _picture_name(path: str) -> None:
    from pathlib import Path

    from PIL import Image

    from rofl.errors import UsageError

    Image.init()
    if Path(path).suffix.lower() not in Image.EXTENSION:
        msg = f"{path}: not a picture file name Pillow can write (use .png)"
        raise UsageError(msg)


def _check_sheet(path: str | None) -> None:
    from rofl.render.sheet import check_sheet_path

    _check_file(path, "'--sheet'", check_sheet_path)


def _check_page(path: str | None) -> None:
    from rofl.render.page import check_page_path

    _check_file(path, "'--page'", check_page_path)


def _check_gif(path: str | None) -> None:
    from rofl.render.animation import check_animation_path

    _check_file(path, "'--gif'", check_animation_path)


def _check_file(path: str | None, hint: str, check_name: Callable[[str], object]) -> None:
    """Refuse a missing directory or a name ``check_name`` refuses, before any work."""
    if path is None:
        return
    from rofl.errors import RoflError

    try:
        check_parent(path)
        check_name(path)
    except RoflError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _save(image, path: str) -> None:
    import io
    from pathlib import Path

    from PIL import Image

    from rofl._io import atomic_write

    buf = io.BytesIO()
    image.save(buf, format=Image.EXTENSION[Path(path).suffix.lower()])
    atomic_write(path, buf.getvalue())


@main.command(short_help="Turn pictures into unique, line-solvable puzzles.")
@files_argument("images", "PICTURE...")
@output_option(
    "Puzzle file to write (.rofl, .clues, .json, .xml, .non, .pzl, .g, .nin, .notmine, .mk, .cwd, .sav, "
    ".gno; black and white only from .nin on), or with several pictures the folder DIR/ to write them to."
)
@click.option(
    "-w", "--width", type=click.IntRange(1, 1024), help="Grid width in cells (default: 40 on the longer side)."
)
@click.option("-H", "--height", type=click.IntRange(1, 1024), help="Grid height in cells.")
@choice_option(
    "--mode",
    ("fit", "crop", "pad"),
    "With both --width and --height: fit the whole picture (a side may be shorter), crop the excess, "
    "or pad with background.",
)
@choice_option(
    "--shape",
    ("rect", "hex"),
    "rect: a grid of squares; hex: a hexagon of hexagonal cells, clues in three directions "
    "(the largest hexagon centred on the picture; -o .rofl or .clues).",
)
@click.option(
    "--size",
    type=click.IntRange(1, 128),
    help="With --shape hex: the hexagon's side in cells (default 15).",
)
@choice_option(
    "--style",
    ("auto", "photo", "lines", "poster"),
    "How the picture is drawn into cells: photo (area averages), lines (edge-aware ink drawing), poster "
    "(flat regions with dark outlines), auto (the one that keeps the picture's regions and edges best).",
)
@choice_option(
    "--crop",
    ("none", "auto"),
    "auto: cut the picture to its subject first (a face, else the salient part).",
)
@click.option(
    "-c", "--colors", type=click.IntRange(2, 64), default=None, help="2 = black and white (default); 3-64 = colour."
)
@click.option(
    "--palette",
    callback=checked_by(check_palette),
    help="Colours to use instead of an automatic palette, e.g. '#fff,#000,#f00'.",
)
@click.option(
    "--background",
    help="Background colour (palette index 0); default: the colour covering most cells "
    "(black and white: the lighter one, so the clues count the dark cells).",
)
@click.option(
    "--threshold", type=FiniteRange(0, 255), help="Black-and-white threshold, grey level 0-255 (default: Otsu)."
)
@choice_option("--dither", ("none", "ordered", "floyd-steinberg"), "Dithering (adds clues).")
@flag_option("--cleanup", "Repaint isolated single cells before refinement.")
@click.option(
    "--min-delta-e",
    type=float,
    default=20.0,
    show_default=True,
    help="Least ΔE2000 between any two colours of an automatic palette, background included (0 = no limit); "
    "a picture without that many distinct colours gets fewer. A --palette is used as given (with a warning).",
)
@click.option(
    "--trim/--no-trim",
    default=True,
    show_default=True,
    help="Leave out blank border rows and columns (all background) before refinement.",
)
@click.option(
    "--effort",
    type=FiniteRange(0, 1000),
    default=1.0,
    show_default=True,
    help="How hard to look for fewer changed cells after the first pass: local repair attempts per changed "
    "cell, from 1 on up to int(EFFORT) passes that move changes elsewhere, from 2 on also two nearby changes "
    "swapped for one (0 = the first pass only, and on grids of 20,000 to 100,000 cells a quicker one that "
    "changes more cells; more = slower, often fewer changes).",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Seed of that search: the same picture, options and seed always give the same puzzle.",
)
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard", "expert"]),
    help="Steer the puzzle toward this grade of rofl.grade: easier ones may change more cells (at most 2% in "
    "all), harder ones at most 0.5% beyond the fewest (docs/difficulty.md).",
)
@click.option("--title", help="Puzzle title (default: the picture's file name).")
@click.option("--preview", type=click.Path(dir_okay=False), help="Write the solution picture scaled up (PNG).")
@click.option(
    "--compare", type=click.Path(dir_okay=False), help="Write source, quantised and final grids side by side (PNG)."
)
@click.option(
    "--sheet", type=click.Path(dir_okay=False), help="Write a printable sheet of the puzzle (.png, .pdf, .svg)."
)
@flag_option(
    "--letters",
    "With --sheet, --book or --page: print each clue with its colour's letter (2a 3b); a page has them "
    "anyway when two colours are alike in grey or to colour-blind eyes.",
)
@click.option("--page", type=click.Path(dir_okay=False), help="Write an HTML page to solve the puzzle in a browser.")
@click.option(
    "--gif", type=click.Path(dir_okay=False), help="Write an animation of the puzzle being solved (.gif, .png, .webp)."
)
@click.option(
    "--unknown-colours",
    "unknown",
    type=click.FloatRange(0, 1),
    metavar="FRACTION",
    help="Give about this share of the groups as '?' (any ink colour), as many as line logic still solves; "
    "-o .rofl, .clues or .json.",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 256),
    help="Threads refinement of one large picture may use (default: the processors rofl may use, at most 4); "
    "the puzzle is the same with any number. A batch makes a picture per core (-j) instead.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar, warnings or report.")
@batch_options
def make(
    images: tuple[str, ...],
    output: str,
    width: int | None,
    height: int | None,
    mode: str,
    shape: str,
    size: int | None,
    style: str,
    crop: str,
    colors: int | None,
    palette: str | None,
    background: str | None,
    threshold: float | None,
    dither: str,
    cleanup: bool,
    min_delta_e: float,
    trim: bool,
    effort: float,
    seed: int,
    difficulty: str | None,
    title: str | None,
    preview: str | None,
    compare: str | None,
    sheet: str | None,
    letters: bool,
    page: str | None,
    gif: str | None,
    unknown: float | None,
    threads: int | None,
    quiet: bool,
    **batch: Any,
) -> None:
    """Turn PICTURE into a puzzle that line logic solves to exactly one picture.

    The picture is scaled by area averaging in linear light, quantised
    (Otsu threshold for black and white, k-means in CIELAB for colour), and
    refined: the fewest, least visible cells change until the line solver,
    reading only the clues, proves the puzzle unique.

    Several pictures, folders of pictures or patterns with -o DIR/ make a
    batch: a puzzle per picture in DIR/ on every core, with DIR/summary.csv
    and DIR/summary.json, and a puzzle book with --book (docs/batch.md).
    """
    from rofl.maker import MakeOptions, check_shape

    several = is_batch(images, output)
    options = MakeOptions(
        width=width, height=height, colors=colors or 2, palette=palette, background=background, threshold=threshold,
        mode=mode, dither=dither, cleanup=cleanup, min_delta_e=min_delta_e, trim=trim, effort=effort, seed=seed,
        shape=shape, size=size, style=style, crop=crop, difficulty=difficulty,
    )  # fmt: skip
    check_shape(options, _FLAGS)  # before any work: a usage error
    target = batch_target(output, batch) if several else output  # for a batch, a name of its format
    if shape == "hex":
        _check_hex_outputs(target, gif=gif)
    files = {"-o": output, "--preview": preview, "--compare": compare, "--sheet": sheet, "--page": page, "--gif": gif}
    if not several:
        refuse_batch_options(batch)
        _check_files(images[0], files)
    _check_colours(options, colors, target, several)
    if unknown is not None:
        _check_unknown(target, _colour_count(options, colors), several, difficulty, sheet=sheet, page=page, gif=gif)
    if several:
        return make_batch(click.get_current_context().params, options)

    result, puzzle = _make_one(
        images[0], options, title=title, unknown=unknown, page=page, quiet=quiet, threads=threads
    )
    _write_files(result, puzzle, files, letters=letters, graded=difficulty is not None, quiet=quiet)
    if not quiet:
        _report(result, puzzle, options, files, unknown=unknown, letters=letters)


def _check_files(image: str, files: dict[str, str | None]) -> None:
    """Refuse, before any work, an output name no writer takes, a missing folder, an output that is the input."""
    _check_output(files["-o"])
    _check_png(files["--preview"], "'--preview'")
    _check_png(files["--compare"], "'--compare'")
    _check_sheet(files["--sheet"])
    _check_page(files["--page"])
    _check_gif(files["--gif"])
    refuse_overwrite([image], list(files.items()))


def _colour_count(options: Any, colors: int | None) -> int:
    """How many colours the puzzle asks for: the --palette's, else -c (2 by default)."""
    if options.palette is None:
        return colors or 2
    from rofl.picture import parse_palette

    return len(parse_palette(options.palette))


def _check_colours(options: Any, colors: int | None, target: str, several: bool) -> None:
    """Refuse, before any work, a -c the --palette contradicts, colours the output format cannot hold, a
    --threshold for colours."""
    from pathlib import Path

    from rofl.formats import writer_for

    n_colors = _colour_count(options, colors)
    if options.palette is not None and colors is not None and n_colors != colors:
        msg = f"--colors {colors} contradicts the {n_colors} colours of --palette"
        raise click.UsageError(msg)
    if n_colors > 2 and not writer_for(target).colour:
        msg = f"the {Path(target).suffix.lower()} format holds black-and-white puzzles only, not {n_colors} colours"
        raise click.BadParameter(msg, param_hint="'-f' / '--format'" if several else "'-o' / '--output'")
    if options.threshold is not None and n_colors != 2:
        msg = f"--threshold only applies to black-and-white puzzles, not {n_colors} colours"
        raise click.UsageError(msg)


def _make_one(image: str, options: Any, *, title, unknown, page, quiet: bool, threads: int | None):
    """:func:`rofl.maker.make` with a progress bar and its warnings printed; the result and its puzzle
    (with '?' groups for --unknown-colours)."""
    import warnings

    from tqdm import tqdm

    from rofl.maker import make

    if quiet:
        from rofl import kernels

        kernels.set_notice(None)  # not even the one line saying that rofl compiles
    bars = _StageBars(tqdm, quiet)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            result = make(image, options, title=title, progress=bars.show, threads=threads)
        finally:
            bars.close()
    if not quiet:
        for w in caught:
            say(f"warning: {w.message}", err=True)
    puzzle = result.puzzle
    if page:  # before any file is written
        from rofl.render.page import check_page_size

        check_page_size(puzzle)
    if unknown is not None:
        from rofl.refine.unknown import unknown_colours

        puzzle = unknown_colours(puzzle, unknown, seed=options.seed)
    return result, puzzle


def _write_files(result: Any, puzzle: Any, files: dict[str, str | None], *, letters, graded, quiet) -> None:
    """The puzzle and every picture of it, or none of them (a full disk at --sheet)."""
    from pathlib import Path

    from rofl._io import all_or_nothing, atomic_write

    preview, compare, sheet, page, gif = (files[k] for k in ("--preview", "--compare", "--sheet", "--page", "--gif"))
    with all_or_nothing():
        write_puzzle_file(files["-o"], puzzle, result.grid, quiet=quiet)
        if preview:
            from rofl.render.preview import hex_solution_image, solution_image

            if result.puzzle.board.kind == "rectangle":
                _save(solution_image(result.grid, result.palette), preview)
            else:
                _save(hex_solution_image(result.grid, result.palette, result.side), preview)
        if compare:
            from rofl.render.preview import compare_image

            _save(compare_image(result), compare)
        if sheet:
            from rofl.render.sheet import sheet_bytes

            atomic_write(sheet, sheet_bytes(result.puzzle, Path(sheet).suffix, letters=letters, difficulty=graded))
        if page:
            from rofl.render.page import puzzle_page

            # --letters: letters on the page too; else the page decides (colours alike in grey or to colour-blind eyes)
            text = puzzle_page(result.puzzle, letters=True if letters else None, difficulty=graded)
            atomic_write(page, text.encode("utf-8"))
        if gif:
            from rofl.render.animation import animate_solve

            animate_solve(result.puzzle, gif)


def _report(result: Any, puzzle: Any, options: Any, files: dict[str, str | None], *, unknown, letters) -> None:
    """What rofl make prints after writing: the report, the '?' groups, the files, the hints."""
    from rofl.formats import writer_for
    from rofl.hints import make_hints

    click.echo(result.stats.report())
    if unknown is not None:
        hidden = 0 if puzzle.color_sets is None else sum(map(bool, puzzle.color_sets.tolist()))
        click.echo(
            f"unknown colours: {hidden} of {puzzle.n_groups} groups given as '?' "
            f"(asked {unknown:.0%}; line logic still solves the puzzle)"
        )
    say(f"wrote {', '.join(str(path) for path in files.values() if path)}")
    more_colours = options.palette is None and writer_for(files["-o"]).colour
    for line in make_hints(result, options, more_colours=more_colours, letters=letters):
        click.echo(line, err=True)


#: rofl make's flags for the options rofl.maker.check_shape names.
_FLAGS = {
    "hex": "--shape hex", "size": "--size", "width": "-w/--width", "height": "-H/--height", "mode": "--mode pad",
    "dither": "--dither", "cleanup": "--cleanup",
}  # fmt: skip


def _check_hex_outputs(target: str, **drawn: str | None) -> None:
    """Refuse an output format or a drawing a hexagonal puzzle cannot have."""
    from pathlib import Path

    from rofl.formats import hexagon_extensions, writer_for

    if not writer_for(target).hexagon:
        msg = (
            f"the {Path(target).suffix.lower()} format cannot hold a hexagonal puzzle; "
            f"use {' or '.join(hexagon_extensions())}"
        )
        raise click.BadParameter(msg, param_hint="'-o' / '--output'")
    for option, path in drawn.items():
        if path is not None:
            msg = f"--{option} cannot show a hexagonal puzzle yet; leave it out with --shape hex"
            raise click.UsageError(msg)


def _check_unknown(target: str, n_colors: int, several: bool, difficulty: str | None, **drawn: str | None) -> None:
    """Refuse, before any work, what ``--unknown-colours`` cannot make."""
    from rofl.formats import writer_for

    if several:
        msg = "--unknown-colours makes one puzzle at a time, not a batch"
        raise click.UsageError(msg)
    if difficulty is not None:  # the grade reached would be of the puzzle before its '?' groups
        msg = (
            "--difficulty aims for a grade of rofl.grade, which does not grade '?' groups: leave out --unknown-colours"
        )
        raise click.UsageError(msg)
    if n_colors <= 2:
        msg = "--unknown-colours needs two ink colours or more (-c 3): with one, '?' says nothing"
        raise click.UsageError(msg)
    if not writer_for(target).color_sets:
        msg = f"the {writer_for(target).extension} format cannot hold '?' groups; use .clues, .json or .rofl"
        raise click.BadParameter(msg, param_hint="'-o' / '--output'")
    for option, path in drawn.items():
        if path is not None:
            msg = f"--{option} cannot draw '?' groups yet; leave it out with --unknown-colours"
            raise click.UsageError(msg)


class _StageBars:
    """One progress bar at a time, for the stage refinement is in (shown only
    on runs longer than a second; none with ``--quiet``)."""

    def __init__(self, tqdm, quiet: bool) -> None:
        self.tqdm = tqdm
        self.quiet = quiet
        self.bar = None
        self.stage = None

    def show(self, event) -> None:
        """:func:`rofl.maker.make`'s ``progress`` callback (a :class:`rofl.maker.MakeProgress`)."""
        stage, unit, done, total = event.stage, event.unit, event.done, event.total
        if self.quiet or (stage == "refining" and self.stage not in (None, "refining")):
            return  # the refinement's closing call, after the later stages
        if stage != self.stage:
            self.close()
            self.stage = stage
            # disable=None: no bar unless stderr is a terminal, so a log or a pipe
            # gets the report lines without carriage-return debris.
            self.bar = self.tqdm(total=total, desc=stage, unit=unit, delay=1.0, leave=False, disable=None)
        elif done < self.bar.n or total != self.bar.total:
            self.bar.reset(total=total)  # a new pass of the same stage
        if done > self.bar.n:
            self.bar.update(done - self.bar.n)  # update(), unlike refresh(), honours the delay

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
