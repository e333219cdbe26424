"""Colours of a puzzle: :func:`parse_color`, rofl's one reader of colour
values, and :class:`Palette`, the colours of a puzzle (index 0 the background)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rofl._checks import whole as _integer
from rofl.errors import OptionError, PuzzleError, shown

#: The most colours (background included) a puzzle may have: the solver keeps
#: one bit per colour in a 64-bit mask per cell.
MAX_COLORS = 64
RGB = tuple[int, int, int]

# bare hex digits: read as "#..." (rofl has always accepted "ff0000"; Pillow does not)
_BARE_HEX = re.compile(r"[0-9a-fA-F]{3}|[0-9a-fA-F]{6}")


def parse_color(value: Any, where: str = "colour", *, error: type[Exception] = OptionError) -> RGB:
    """A colour as an ``(r, g, b)`` triple of 0-255 integers.

    rofl's one reader of colour strings: a palette, ``--background`` and
    ``--palette`` options, and pixel art's background all go through it.

    Parameters
    ----------
    value : str or sequence of 3 integers
        A string :func:`PIL.ImageColor.getrgb` reads (``#rgb``, ``#rrggbb``,
        a CSS colour name, ``rgb(...)``, ``hsl(...)``, ``hsv(...)``; case and
        surrounding spaces ignored) or 3 or 6 hex digits without ``#``; or
        an ``(r, g, b)`` triple.  A form with alpha (``#rgba``,
        ``#rrggbbaa``, ``rgba(...)``) is accepted only when fully opaque:
        puzzle colours have no transparency, and dropping a partial alpha
        would silently give another colour than the one asked for.
    where : str
        What the value is, for the message (``"background"``, ``"palette colour 2"``).
    error : exception class
        Raised for a value that is not a colour: :class:`~rofl.errors.OptionError`
        (a bad option, the default), :class:`PuzzleError` for a puzzle's
        palette (:class:`Palette` passes it).

    Raises
    ------
    error
        One line naming ``where`` and the value.
    """
    if isinstance(value, str):
        text = value.strip()
        if _BARE_HEX.fullmatch(text):
            text = "#" + text
        from PIL import ImageColor  # here, not at the top: the model imports no Pillow until a string comes

        try:
            rgb = ImageColor.getrgb(text)
        except ValueError:
            msg = f"{where}: {shown(value)} is not a colour (#rrggbb, #rgb or a CSS colour name)"
            raise error(msg) from None
        if len(rgb) == 4 and rgb[3] != 255:
            msg = f"{where}: {shown(value)} is partly transparent (alpha {rgb[3]}); puzzle colours are opaque"
            raise error(msg)
        r, g, b = rgb[:3]
    else:
        try:
            r, g, b = (_integer(c) for c in value)
        except (TypeError, ValueError):
            msg = f"{where}: {shown(value)} is not a colour (three integers 0-255)"
            raise error(msg) from None
    if not all(0 <= c <= 255 for c in (r, g, b)):  # also rgb(300, 0, 0), which Pillow passes through
        msg = f"{where}: {shown(value)} has a component outside 0-255"
        raise error(msg)
    return (r, g, b)


class Palette:
    """The colours of a puzzle; index 0 is the background.

    Parameters
    ----------
    colors : sequence of ``(r, g, b)`` tuples or colour strings
        (``"#rrggbb"``, ``"#rgb"``, CSS names...: see :func:`parse_color`).
        At least one and at most :data:`MAX_COLORS` colours.

    Raises
    ------
    PuzzleError
        Empty, too many colours, or a colour that is not one.
    """

    __slots__ = ("_colors",)

    def __init__(self, colors: Iterable[RGB | str | Sequence[int]]) -> None:
        parsed = tuple(parse_color(c, f"palette colour {i}", error=PuzzleError) for i, c in enumerate(colors))
        if not parsed:
            msg = "the palette is empty: it needs at least the background colour"
            raise PuzzleError(msg)
        if len(parsed) > MAX_COLORS:
            msg = f"the palette has {len(parsed)} colours; rofl supports at most {MAX_COLORS}"
            raise PuzzleError(msg)
        self._colors = parsed

    @classmethod
    def black_white(cls) -> Palette:
        """White background, black ink."""
        return cls([(255, 255, 255), (0, 0, 0)])

    @classmethod
    def from_array(cls, array: np.ndarray) -> Palette:
        """Build from an ``(N, 3)`` array of 0-255 values."""
        return cls([tuple(int(v) for v in row) for row in np.asarray(array).reshape(-1, 3)])

    @property
    def colors(self) -> tuple[RGB, ...]:
        return self._colors

    def to_array(self) -> np.ndarray:
        """The colours as an ``(N, 3)`` uint8 array."""
        return np.array(self._colors, dtype=np.uint8).reshape(-1, 3)

    def hex(self) -> list[str]:
        """The colours as ``"#rrggbb"`` strings."""
        return ["#{:02x}{:02x}{:02x}".format(*c) for c in self._colors]

    def __len__(self) -> int:
        return len(self._colors)

    def __iter__(self):
        return iter(self._colors)

    def __getitem__(self, index: int) -> RGB:
        return self._colors[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Palette) and self._colors == other._colors

    def __hash__(self) -> int:
        return hash(self._colors)

    def __repr__(self) -> str:
        return f"Palette({self.hex()!r})"


def as_palette(palette: Palette | Iterable[Any]) -> Palette:
    return palette if isinstance(palette, Palette) else Palette(palette)
