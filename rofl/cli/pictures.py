"""``rofl decode``, ``rofl encode`` and ``rofl info``: puzzles as pictures and back (the ROFL
image format), and what a puzzle file holds."""

from __future__ import annotations

from pathlib import Path

import click

from rofl.cli._app import main
from rofl.cli._options import budget_option
from rofl.cli._show import say
from rofl.errors import ImageError, UsageError


def _pillow_format(path: Path) -> str:
    from PIL import Image

    Image.init()
    fmt = Image.registered_extensions().get(path.suffix.lower())
    if fmt is None or fmt not in Image.SAVE:
        msg = f"{path}: Pillow cannot write files with extension {path.suffix or '(none)'!r}"
        raise UsageError(msg)
    return fmt


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Picture to write (default: FILE.png).")
@click.option("--scale", type=click.IntRange(1, 64), default=1, show_default=True, help="Pixels per cell side.")
@budget_option("Seconds that line logic and the complete search may take together.")
@click.option("--first", is_flag=True, help="If the puzzle has several solutions, write the first one found anyway.")
def decode(file: str, output: str | None, scale: int, budget: float, first: bool) -> None:
    """Solve the ROFL file FILE and write its picture.

    FILE may also be any puzzle file, or a sheet rofl drew (PNG, SVG, PDF).

    Line logic first, then a complete search (probing and backtracking)
    within --budget seconds.  The output format follows the extension of
    OUTPUT (any format Pillow writes).  When the puzzle has no solution,
    several solutions (unless --first), or the search runs out of time, or
    the solved picture does not match the CRC-32 the file stores, nothing
    is written and the exit status is 1.
    """
    from rofl._io import atomic_open
    from rofl.cli._files import check_drawable, check_parent, refuse_overwrite
    from rofl.decode import check_crc, solve_picture
    from rofl.errors import AmbiguousError
    from rofl.formats import default_output, open_puzzle
    from rofl.picture.pixelart import check_pixels, image_from_grid

    out = Path(output) if output else default_output(file, ".png")
    if output is None and out == Path(file):
        msg = f"{file}: the picture would replace the sheet it is read from; name another file with -o"
        raise UsageError(msg)
    fmt = _pillow_format(out)
    check_parent(str(out))
    refuse_overwrite([file], [("-o", out)])
    opened = open_puzzle(file)
    check_drawable(opened, "decode", color_sets=True)
    puzzle, crc = opened.puzzle, opened.crc32
    check_pixels(puzzle.width * scale, puzzle.height * scale, f"{out} (--scale {scale})")
    try:
        grid = solve_picture(puzzle, crc32=crc, where=file, budget=budget)
    except AmbiguousError as exc:
        if not first:
            msg = f"{exc} (--first writes one of them anyway)"
            raise click.ClickException(msg) from None
        grid = exc.solutions[0]
        check_crc(grid, crc, f"{file}: ")
        say(f"warning: {exc}; writing the first solution found", err=True)
    image = image_from_grid(grid, puzzle.palette, scale=scale)
    try:
        with atomic_open(out, "wb") as f:
            image.save(f, format=fmt)
    except (OSError, ValueError, KeyError):
        # some formats (JPEG...) have no palette mode
        with atomic_open(out, "wb") as f:
            image.convert("RGB").save(f, format=fmt)
    # the picture's size in pixels, as for any picture; the cells too when a cell is more than a pixel
    cells = f" ({puzzle.width}x{puzzle.height} cells of {scale}x{scale} pixels)" if scale > 1 else ""
    say(f"{out}: {image.width}x{image.height}{cells}, {puzzle.n_colors} colours ({fmt})")


@main.command()
@click.argument("picture", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="ROFL file to write (default: PICTURE.rofl).")
@click.option("--background", metavar="COLOUR", help="Background colour #rrggbb (default: see `rofl info`).")
@click.option("--title", help="Title to store in the file.")
@click.option("--author", help="Author to store in the file.")
@click.option("--licence", "licence", help="Licence to store in the file.")
@click.option("--crc/--no-crc", default=False, show_default=True, help="Store a CRC-32 of the picture.")
@click.option(
    "--search",
    is_flag=True,
    help="Also store a picture line logic cannot reach if a complete search proves it the only solution.",
)
@budget_option("Seconds that line logic and that search may take together.")
def encode(
    picture: str,
    output: str | None,
    background: str | None,
    title: str | None,
    author: str | None,
    licence: str | None,
    crc: bool,
    search: bool,
    budget: float,
) -> None:
    """Store the pixel-art PICTURE (one pixel per cell) as a ROFL file.

    Every pixel is a cell; a picture may have at most 64 colours (the
    background included).  Transparent pixels are background.  The
    background is --background, else white when the picture has transparent
    pixels, else palette entry 0 of a palette picture, else the most
    frequent colour.  The file is written only when line logic alone solves
    the puzzle back to this picture; otherwise the command says how many
    cells stay undetermined and exits with status 1 (`rofl make` turns any
    picture into a solvable puzzle).  With --search, a picture that a
    complete search proves to be the puzzle's only solution is stored too
    (readers then need search to decode it).
    """
    from rofl._io import atomic_write
    from rofl.cli._files import check_parent, refuse_overwrite
    from rofl.encode import encode_grid
    from rofl.picture import grid_from_image, open_picture

    out = Path(output) if output else Path(picture).with_suffix(".rofl")
    if out.suffix.lower() != ".rofl":  # encode writes ROFL only, whatever the name says
        msg = f"{out}: encode writes ROFL files, named .rofl, not {out.suffix or '(no extension)'!r}"
        raise UsageError(msg)
    check_parent(str(out))
    refuse_overwrite([picture], [("-o", out)])
    with open_picture(picture) as image:
        try:
            grid, palette = grid_from_image(image, background=background)
        except ImageError as e:  # say which picture
            msg = f"{picture}: {e}"
            raise ImageError(msg) from None
    # an empty value is a value (spec R24: a `meta` value may be empty): only an absent option is left out
    meta = {k: v for k, v in (("title", title), ("author", author), ("licence", licence)) if v is not None}
    data = encode_grid(grid, palette, meta=meta, crc=crc, where=picture, search=search, budget=budget)
    atomic_write(out, data)
    form = "extended" if data[4] == 0 else "plain"
    say(f"{out}: {len(data)} bytes, {grid.shape[1]}x{grid.shape[0]}, {len(palette)} colours ({form} form)")


#: Clue numbers up to which ``rofl info`` prints the Pattern game ID (a line
#: of about 3 characters per number).
MAX_GAME_ID_GROUPS = 10_000


@main.command(short_help="Describe a puzzle file: size, colours, clues, solvability.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--solve/--no-solve", "do_solve", default=True, show_default=True, help="Try to solve it.")
@budget_option("Seconds that line logic and the complete search may take together.")
def info(file: str, do_solve: bool, budget: float) -> None:
    """Describe the ROFL (or other puzzle) file FILE: size, colours, clues, metadata, solvability."""
    import numpy as np

    from rofl.cli._show import printable
    from rofl.decode import solve_picture
    from rofl.errors import BudgetError, FormatError, NotDecodedError, UnsolvableError
    from rofl.formats import open_puzzle

    opened = open_puzzle(file)
    puzzle, crc = opened.puzzle, opened.crc32
    board = puzzle.board
    n_cells = board.n_cells
    lines = [f"file: {printable(file)} ({opened.details})"]
    lines.append(f"size: {board.size_text()} ({n_cells} cells)")
    colours = puzzle.palette.hex()
    lines.append(f"colours: {len(colours)}: {colours[0]} (background) {' '.join(colours[1:])}".rstrip())
    counts = np.diff(puzzle.offsets)
    lengths = puzzle.lengths
    rows = int(np.count_nonzero(board.line_directions == 0))  # the first lines; they hold every filled cell once
    filled = int(lengths[: puzzle.offsets[rows]].sum())
    mean = f", mean length {lengths.mean():.2f}" if lengths.size else ""
    unknown = ""
    if puzzle.color_sets is not None:
        unknown = f", {int(np.count_nonzero(puzzle.color_sets))} of them '?' or a set of colours"
    each = ", ".join(
        f"{int(counts[board.line_directions == d].sum())} in {plural}" for d, (_, plural) in enumerate(board.directions)
    )
    lines.append(
        f"clues: {puzzle.n_groups} groups ({each}{unknown}), "
        f"at most {int(counts.max())} per line, {int((counts == 0).sum())} empty lines{mean}"
    )
    lines.append(f"filled cells: {filled} of {n_cells} ({100 * filled / n_cells:.1f}%)")
    for key, value in opened.metadata.items():
        lines.append(f"{printable(key)}: {printable(str(value))}")
    # Pattern's game IDs are rectangular
    if board.kind == "rectangle" and puzzle.n_colors == 2 and puzzle.n_groups <= MAX_GAME_ID_GROUPS:
        from rofl.formats.tatham import game_id

        lines.append(f"Pattern game ID: {game_id(puzzle)}")
    elif puzzle.n_colors == 2:
        # a 2048x2048 puzzle's ID is a 4 MB line that takes seconds to build
        lines.append(f"Pattern game ID: not shown ({puzzle.n_groups} clue numbers; a .sav file holds them)")
    if opened.rofl is not None and opened.rofl.skipped:
        lines.append(f"skipped chunks: {' '.join(opened.rofl.skipped)}")
    if crc is not None:
        lines.append(f"crc-32: {crc:08x}")
    if do_solve:
        from rofl.solver import solve

        try:
            line = solve(puzzle, budget=budget)
        except BudgetError as exc:
            lines += [f"line logic: {exc}", "picture: not decoded (line logic ran out of budget)"]
            click.echo("\n".join(lines))
            return
        line_seconds = line.seconds  # counts in the budget
        if line.status == "stalled":
            lines.append(f"line logic: stalls, {line.undetermined} of {n_cells} cells undetermined")
        else:
            lines.append(f"line logic: {line.status}")
        if line.status != "contradiction":
            from rofl.cli._show import difficulty_text

            lines.append(difficulty_text(puzzle))
        try:
            solve_picture(puzzle, crc32=crc, budget=budget, line=line, line_seconds=line_seconds)
            how = "by line logic" if line.status == "solved" else "by complete search (unique)"
            status = f"decodes {how}" + (", CRC-32 matches" if crc is not None else "")
        except (UnsolvableError, FormatError) as exc:
            # a search out of budget says nothing against the file (spec section 5)
            status = f"{'not decoded' if isinstance(exc, NotDecodedError) else 'not decodable'}: {exc}"
        lines.append(f"picture: {status}")
    click.echo("\n".join(lines))
