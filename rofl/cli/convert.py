"""``rofl convert``: a puzzle file from one format into another."""

from __future__ import annotations

import click

from rofl.cli._app import main
from rofl.cli._options import budget_option
from rofl.cli._show import say


@main.command(short_help="Convert a puzzle file into another format.")
@click.argument("source", metavar="IN", type=click.Path())
@click.argument("target", metavar="OUT", type=click.Path())
@click.option("--force", is_flag=True, help="Allow OUT to be IN itself (rewrite the file in place).")
@budget_option("Seconds to check a stored CRC-32 when line logic alone cannot solve the puzzle.")
def convert(source: str, target: str, force: bool, budget: float) -> None:
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
      .mk       Olsak's plain format        black and white, clues only
      .cwd      QNonograms' format          black and white, clues only
      .sav      Tatham's Pattern saved game black and white, clues only
      .gno      Gnonograms puzzle           black and white, solution grid
      .pzl      Izaron's nonograms_solver   colour, clues only
      .clues    rofl clue text              colour, hexagons, '?' groups,
                                            clues only

    The solution (goal picture) travels along when IN has one and OUT can
    hold it; when IN has none, it is added if line logic finds it.  A
    CRC-32 of the picture that IN stores (ROFL, a sheet) is checked against
    the picture the clues define, and kept in a .rofl OUT, with IN's unknown
    chunks that are safe to copy (a warning names those dropped).  Title,
    author and licence/copyright travel where both formats have room for
    them.  A colour puzzle cannot be written to a black-and-white format
    (.nin, .mk, .cwd, .sav, .gno, .notmine): that is an error and OUT is left
    untouched.  A warning says when the program a format belongs to cannot
    open the puzzle (Gnonograms opens 5 to 54 rows and columns).  OUT may
    not be IN (a symlink or link to it included) unless --force is given.
    """

    from rofl.cli._files import check_parent, output_format, refuse_overwrite, write_puzzle_file
    from rofl.decode import check_crc, check_stored_crc
    from rofl.errors import BudgetError, FormatError, RoflError
    from rofl.formats import open_puzzle

    fmt = output_format(target)
    budget_given = budget
    check_parent(target)
    refuse_overwrite([source], [("OUT", target)], force=force)
    opened = open_puzzle(source)
    puzzle, solution = opened.puzzle, opened.solution
    keeps = fmt.keeps_solution(puzzle)
    derived = False
    unfinished = False  # line logic ran out of budget
    if solution is None and keeps and (fmt.picture or opened.crc32 is None):
        # Files of these formats usually carry the picture (or, for ROFL,
        # its CRC-32): add it when line logic finds it (then it is the
        # puzzle's only solution).
        from rofl.solver import solve

        try:
            result = solve(puzzle, budget=budget)
        except BudgetError:  # written without its picture
            unfinished = True
            budget = 1e-6  # line logic spent it all
        else:
            if result.status == "solved":
                check_crc(result.grid, opened.crc32, f"{opened.name}: ")
                solution, derived = result.grid, True
            budget = max(budget - result.seconds, 1e-6)  # line logic counts in the budget
    if not derived:
        check_stored_crc(opened, budget=budget)
    # unknown ancillary chunks of a ROFL file: a ROFL OUT keeps those safe to
    # copy (spec/ROFL.md section 4), and a warning names every one dropped
    unknown = opened.rofl.ancillary if opened.rofl is not None else ()
    kept_chunks = opened.rofl.safe_to_copy if opened.rofl is not None and fmt.name == "ROFL" else ()
    try:
        write_puzzle_file(target, puzzle, solution, crc32=opened.crc32, ancillary=kept_chunks)
    except RoflError as exc:  # the writers' messages do not name the file
        msg = f"cannot convert {source} to {target}: {exc}"
        raise FormatError(msg) from None
    dropped = [tag for tag, payload in unknown if (tag, payload) not in kept_chunks]
    if dropped:
        why = "not safe to copy" if fmt.name == "ROFL" else f"{fmt.extension} has no room for them"
        names = ", ".join(repr(tag) for tag in dropped)
        click.echo(f"warning: {target}: unknown ROFL chunks dropped ({why}): {names}", err=True)
    if not keeps:
        holds = "the solutions of black-and-white puzzles only" if fmt.keeps else "clues only"
        kept = f"solution not kept ({fmt.extension} holds {holds})"
    elif solution is None and (opened.crc32 is None or not fmt.keeps_crc()):
        found = f"does not finish within the {budget_given:g} s budget" if unfinished else "does not find one"
        kept = f"no solution in the input, and line logic {found}"
    elif derived:
        what = "solution" if fmt.picture else "CRC-32 of the solution"
        kept = f"{what} added (line logic finds it)"
    else:
        kept = fmt.keeps
    say(f"{target}: {puzzle.board.size_text()}, {puzzle.n_colors} colours, {kept}")
