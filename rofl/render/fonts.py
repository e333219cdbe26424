"""Fonts of the PNG and PDF sheets: the built-in ones, or a font file the user names.

A PDF sheet prints its text in Helvetica, which every PDF reader has, so
nothing is embedded; it covers Windows-1252 only.  A PNG sheet draws with
the small font Pillow ships (Aileron), which covers little more than
ASCII.  A title in another script (Greek, Cyrillic, CJK, ...) needs a font
that has its letters: :func:`load_font` reads a TrueType or OpenType file
(checked with fontTools, which fpdf2 uses too), the PDF embeds the part of
it that the page uses, and the PNG draws with it.  Characters the font
lacks are printed as :func:`shown` says; :func:`missing` names them, so
the command line can warn.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import struct
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rofl.errors import OptionError

#: Encoding of the PDF core fonts' text: Windows-1252 prints Latin-1 and the
#: typographic quotes, dashes and euro sign too.
CORE_ENCODING = "windows-1252"
#: Largest font file read (the biggest CJK fonts are around 20 MB).
MAX_FONT_BYTES = 64 * 1024 * 1024
#: Characters every sheet prints: the clue numbers.
DIGITS = "0123456789"
#: Tables a font file is checked by on loading: those the glyphs are drawn
#: and measured from, and those fpdf2 copies into the PDF.
DRAWN_TABLES = ("head", "hhea", "maxp", "cmap", "hmtx", "loca", "glyf", "post", "name", "OS/2")


@contextlib.contextmanager
def quiet_fonttools() -> Iterator[None]:
    """Silence fontTools' log while reading or subsetting a font: a damaged
    font makes it log each repair, and the user gets one clear error instead."""
    log = logging.getLogger("fontTools")  # its modules log through children of this one
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        log.setLevel(level)


@dataclass(frozen=True, eq=False)
class FontFile:
    """A TrueType or OpenType font read by :func:`load_font`.

    Attributes
    ----------
    path : str
        Where it was read from (fpdf2 embeds it from there).
    data : bytes
        The file (Pillow draws with these bytes).
    name : str
        Its full name, e.g. ``"DejaVu Sans"``.
    chars : frozenset of int
        The code points it has glyphs for.
    """

    path: str
    data: bytes = field(repr=False)
    name: str
    chars: frozenset[int] = field(repr=False)

    def covers(self, ch: str) -> bool:
        return ord(ch) in self.chars


def load_font(path: str | Path) -> FontFile:
    """Read and check a TrueType (``.ttf``) or OpenType (``.otf``) font file.

    Raises
    ------
    rofl.OptionError
        The file cannot be read, is not a single font that fontTools can
        parse (a ``.ttc`` collection, say), has no Unicode character map, or
        lacks the digits the clues are printed with.
    """
    from fontTools.ttLib import TTFont, TTLibError

    from rofl._io import read_capped

    path = str(path)
    data = read_capped(path, MAX_FONT_BYTES)
    try:
        with quiet_fonttools():
            font = TTFont(io.BytesIO(data), lazy=True)
            for tag in DRAWN_TABLES:  # what drawing and embedding read: damage shows here, not later
                if tag in font:
                    font[tag]
            cmap = font.getBestCmap()
            name = font["name"].getBestFullName() if "name" in font else None
    except TTLibError:
        msg = f"{path}: not a TrueType or OpenType font file"
        raise OptionError(msg) from None
    except Exception as exc:  # noqa: BLE001 - fontTools raises many kinds on a damaged file
        msg = f"{path}: a damaged font file ({reason(exc)})"
        raise OptionError(msg) from None
    if not cmap:
        msg = f"{path}: the font has no Unicode character map"
        raise OptionError(msg)
    chars = frozenset(cmap)
    lacking = [d for d in DIGITS if ord(d) not in chars]
    if lacking:
        msg = f"{path}: the font has no digit {', '.join(lacking)}, which clue numbers need"
        raise OptionError(msg)
    return FontFile(path, data, name or Path(path).stem, chars)


def reason(exc: Exception) -> str:
    """What went wrong inside a font library, for an error message."""
    text = str(exc).strip()
    if not text:
        return type(exc).__name__
    return text if isinstance(exc, (OSError, ValueError, struct.error)) else f"{type(exc).__name__}: {text}"


def core_covers(ch: str) -> bool:
    """Whether Helvetica, unembedded, prints ``ch`` (Windows-1252)."""
    try:
        ch.encode(CORE_ENCODING)
    except UnicodeEncodeError:
        return False
    return True


@functools.cache
def _pillow_chars() -> frozenset[int]:
    from fontTools.ttLib import TTFont
    from PIL import ImageFont

    data = getattr(ImageFont.load_default(size=10), "font_bytes", None)
    if data is None:  # pragma: no cover - Pillow without FreeType: the bitmap font, ASCII
        return frozenset(range(32, 127))
    return frozenset(TTFont(io.BytesIO(data)).getBestCmap())


def pillow_covers(ch: str) -> bool:
    """Whether Pillow's built-in font (Aileron, a small character set) has ``ch``."""
    return ord(ch) in _pillow_chars()


def sheet_covers(suffix: str, font: FontFile | None) -> Callable[[str], bool]:
    """Which characters a ``.png`` or ``.pdf`` sheet prints as they are:
    those of ``font``, else of the built-in font (Helvetica in a PDF,
    Pillow's in a PNG)."""
    if font is not None:
        return font.covers
    return core_covers if suffix == ".pdf" else pillow_covers


#: Plain stand-ins for typographic characters a small font may lack.
PLAIN = {"\u2013": "-", "\u2014": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "..."}


def shown(text: str, covers) -> str:
    """``text`` as a font that has the characters ``covers(ch)`` prints it:
    a letter the font lacks by its base letter (``"ő"`` -> ``"o"``), a
    compatibility character by its plain form (``"ﬁ"`` -> ``"fi"``), a
    dash or curly quote by a plain one, anything else (a script the font
    lacks, control characters) by ``"?"``."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            out.append("?")
            continue
        for candidate in (ch, unicodedata.normalize("NFKD", ch), PLAIN.get(ch, "")):
            kept = "".join(c for c in candidate if not unicodedata.combining(c))
            if kept and all(covers(c) for c in kept):
                out.append(kept)
                break
        else:
            out.append("?")
    return "".join(out)


def missing(text: str, covers) -> str:
    """The distinct characters of ``text`` that :func:`shown` does not print
    as they are, in order of first appearance."""
    seen = []
    for ch in text:
        if ch not in seen and shown(ch, covers) != ch:
            seen.append(ch)
    return "".join(seen)


def pil_font(size: int, font: FontFile | None = None):
    """Pillow's font of ``size`` pixels: ``font``, else its default (the raster sheets')."""
    import io

    from PIL import ImageFont

    if font is not None:
        try:
            return ImageFont.truetype(io.BytesIO(font.data), size=size)
        except OSError as exc:
            from rofl.errors import OptionError

            msg = f"{font.path}: Pillow cannot draw with this font ({exc})"
            raise OptionError(msg) from None
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()
