"""Text as XML character data, for every module that writes XML (the webpbn
format's writer, the SVG sheets).

A title may come from any file, so it may hold characters XML 1.0 cannot
hold at all (control characters, surrogates, U+FFFE/U+FFFF):
:func:`xml_text` replaces them with U+FFFD and escapes the rest.
"""

from __future__ import annotations

import re

# Characters XML 1.0 cannot hold at all (control characters, surrogates,
# U+FFFE/U+FFFF); a title may come from any file.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: str) -> str:
    """``value`` as XML character data (webpbn files, SVG sheets): escaped,
    and with the characters XML cannot hold replaced by U+FFFD."""
    # imported here: xml.sax.saxutils imports urllib.request, a tenth of
    # the start-up of every command that reads a puzzle file
    from xml.sax.saxutils import escape

    return escape(_NOT_XML.sub("\ufffd", value))
