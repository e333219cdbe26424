"""Option types the commands share."""

from __future__ import annotations

import math

import click


class FiniteRange(click.FloatRange):
    """:class:`click.FloatRange` that also refuses NaN and infinity: ``nan``
    compares false with every bound, so a plain range accepts it (a budget of
    ``nan`` seconds, a threshold of ``nan``)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


#: Seconds of a budget: a finite number above 0.
SECONDS = FiniteRange(0, min_open=True)


def budget_option(help_text: str):
    """The ``--budget SECONDS`` option (10 s by default) of the commands that may search.

    One meaning everywhere: the seconds line logic and the search take
    together (:func:`rofl.solver.search.solve_complete`), not counting the
    one-off compiling of the solver."""
    return click.option("--budget", type=SECONDS, default=10.0, show_default=True, metavar="SECONDS", help=help_text)


def files_argument(name: str, metavar: str):
    """One or more file names (``PICTURE...``), kept as ``name``."""
    return click.argument(name, metavar=metavar, nargs=-1, required=True, type=click.Path())


def output_option(help_text: str, **extra):
    """The required ``-o`` / ``--output`` file name (``extra``: a callback that checks it)."""
    return click.option("-o", "--output", required=True, type=click.Path(), help=help_text, **extra)


def choice_option(name: str, choices: tuple[str, ...], help_text: str):
    """An option taking one of ``choices``, the first by default (shown in the help)."""
    return click.option(name, type=click.Choice(choices), default=choices[0], show_default=True, help=help_text)


def flag_option(name: str, help_text: str):
    """An on/off flag, off by default."""
    return click.option(name, is_flag=True, help=help_text)


def path_option(name: str, dest: str, kind: click.Path, metavar: str, help_text: str):
    """An optional file or folder name (``kind``), kept as ``dest``."""
    return click.option(name, dest, type=kind, default=None, metavar=metavar, help=help_text)


def number_option(name: str, bounds: tuple[int, int], default: int | None, metavar: str, help_text: str):
    """A whole number within ``bounds`` (both included); a ``default`` is shown in the help."""
    return click.option(
        name,
        type=click.IntRange(*bounds),
        default=default,
        show_default=default is not None,
        metavar=metavar,
        help=help_text,
    )


def checked_by(check):
    """A click callback that runs ``check(value)`` (a library check raising
    :class:`~rofl.errors.OptionError`) on an option given, so that a bad
    value is a usage error (status 2) before any work, like a value click
    refuses itself."""

    def callback(ctx: click.Context, param: click.Parameter, value):
        from rofl.errors import OptionError

        if value is None:
            return value
        try:
            check(value)
        except OptionError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
        return value

    return callback


def check_cell(cell: int) -> None:
    """A sheet's cell size: at least :data:`rofl.render.layout.MIN_CELL` pixels."""
    from rofl.errors import OptionError
    from rofl.render.layout import MIN_CELL

    if cell < MIN_CELL:
        msg = f"cell size {cell} px is too small to print clues (at least {MIN_CELL})"
        raise OptionError(msg)


def check_palette(text: str) -> None:
    """A ``--palette`` string: colours rofl reads, at least two."""
    from rofl.picture import parse_palette

    parse_palette(text)


def check_sheet_name(path: str) -> None:
    """A sheet's file name: an extension a sheet is written under."""
    from rofl.render.sheet import check_sheet_path

    check_sheet_path(path)
