"""The studio's options form, derived from ``rofl make`` itself.

Every option of the ``rofl make`` command whose name is also a parameter of
:func:`rofl.maker.make` becomes a field of the form, with the command's own
type (choices, bounds, flag), default and help.  There is no second list:
an option added to ``rofl make`` and :func:`~rofl.maker.make` (a style, a
difficulty) appears in the studio by itself, and a value from the browser
is checked by the same click types the command line uses.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass
from typing import Any

from rofl.errors import OptionError

#: Parameters of :func:`rofl.maker.make` that are not choices of the person:
#: the picture, the progress callbacks and the solver come from the studio.
_NOT_FIELDS = frozenset({"image", "solver"})


@dataclass(frozen=True)
class Field:
    """One option of the form.

    Attributes
    ----------
    name : str
        The keyword of :func:`rofl.maker.make`.
    flag : str
        The option of ``rofl make`` it comes from (``--width``).
    kind : {"choice", "int", "float", "bool", "text"}
    default : str, int, float, bool or None
        None: the library's default (the field is left empty).
    choices : list of str
    low, high : float or None
        Bounds of a number.
    help : str
    """

    name: str
    flag: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    help: str = ""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _command():
    from rofl.cli.make import make as command

    return command


@functools.cache
def fields() -> tuple[Field, ...]:
    """The form: the options of ``rofl make`` that :func:`rofl.maker.make` takes, in the command's order."""
    import dataclasses

    import click

    from rofl.maker import MakeOptions

    accepted = {f.name for f in dataclasses.fields(MakeOptions)} | {"title"}  # and make's title
    command = _command()
    ctx = click.Context(command)
    out = []
    for param in command.params:
        if not isinstance(param, click.Option) or param.name not in accepted - _NOT_FIELDS:
            continue
        kind, choices, low, high = _kind(param)
        default = param.get_default(ctx, call=False)
        if not isinstance(default, str | int | float | bool) or (
            isinstance(default, float) and not math.isfinite(default)
        ):
            default = None  # click's "unset", or a default it computes: the library's default
        out.append(
            Field(
                name=param.name,
                flag=max(param.opts, key=len),
                kind=kind,
                default=default,
                choices=choices,
                low=low,
                high=high,
                help=param.help or "",
            )
        )
    return tuple(out)


def _kind(param) -> tuple[str, tuple[str, ...], float | None, float | None]:
    import click

    t = param.type
    if param.is_flag:
        return "bool", (), None, None
    if isinstance(t, click.Choice):
        return "choice", tuple(str(c) for c in t.choices), None, None
    if isinstance(t, click.IntRange | click.FloatRange):
        return ("int" if isinstance(t, click.IntRange) else "float"), (), t.min, t.max
    if t is click.INT:
        return "int", (), None, None
    if t is click.FLOAT:
        return "float", (), None, None
    return "text", (), None, None


def make_options(form: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The keywords of :func:`rofl.maker.make` a form asks for, checked as ``rofl make`` checks them.

    Parameters
    ----------
    form : dict
        Field name -> the browser's value (a string, number, bool, or empty
        for the library's default).  Unknown names are refused.

    Returns
    -------
    options : dict
        Keywords for :func:`rofl.maker.make`.
    ignored : list of str
        Fields left out because the chosen shape does not take them (a
        hexagon takes no width, a rectangle no side): the studio greys them.

    Raises
    ------
    OptionError
        A value the command line would refuse, naming the option.
    """
    import click

    from rofl.maker import hex_refused

    by_name = {f.name: f for f in fields()}
    unknown = sorted(set(form) - set(by_name))
    if unknown:
        msg = f"unknown option {unknown[0]!r}"
        raise OptionError(msg)
    command = _command()
    ctx = click.Context(command)
    params = {p.name: p for p in command.params}
    options: dict[str, Any] = {}
    for name, value in form.items():
        if value is None or value == "":
            continue
        if by_name[name].kind != "bool" and not isinstance(value, str | int | float):
            msg = f"{by_name[name].flag}: expected a value, not {type(value).__name__}"
            raise OptionError(msg)
        param = params[name]
        try:
            if by_name[name].kind == "bool":
                options[name] = click.BOOL.convert(value, param, ctx)
            else:
                options[name] = param.type.convert(str(value), param, ctx)
        except click.BadParameter as exc:
            msg = f"{by_name[name].flag}: {exc.message}"
            raise OptionError(msg) from None
        if param.callback is not None:
            try:
                param.callback(ctx, param, options[name])
            except click.BadParameter as exc:
                msg = f"{by_name[name].flag}: {exc.message}"
                raise OptionError(msg) from None
    if options.get("shape", "rect") == "hex":
        # all that a hexagon refuses, whatever their values
        ignored = hex_refused(width=1, height=1, mode="pad", dither="ordered", cleanup=True)
    else:
        ignored = ["size"]
    for name in ignored:
        options.pop(name, None)
    if options.get("colors") is None:
        options.pop("colors", None)  # the library's 2 (or the palette's count)
    return options, ignored
