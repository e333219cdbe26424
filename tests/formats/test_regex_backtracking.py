"""No regular expression over untrusted text backtracks catastrophically.

The SVG sniffing of sheets was a repetition of alternatives (``<!--.*?-->``
among them) that doubled its time with each leading comment: a 217-byte
``.non`` ran past a minute, and so did a webpbn XML with 26 comments
(issue 40).  It is now a linear scan, checked here against that old pattern
on short prologues, where the pattern is quick, and on the files that hung.
Every other pattern rofl applies to a file's text is run on inputs built to
make a backtracking matcher explode; each must finish within the time
limit (a guard against a hang, not a timing: they take milliseconds).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import RoflError
from rofl.formats import open_puzzle
from rofl.formats.sheets import is_svg, kind

#: The pattern the sniffing used to be, each item made atomic (the reference
#: on short inputs): a comment ends at its first ``-->`` as in XML, where the
#: old pattern backtracked into later ones, which is what made it exponential.
OLD_SVG_ROOT = re.compile(
    rb"(?:\s|(?><\?.*?\?>)|(?><!--.*?-->)|(?><!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>))*+<(?:[\w.-]+:)?svg[\s/>]", re.S
)

PIECES = [b" ", b"\n", b"<?xml version='1.0'?>", b"<!-- c -->", b"<!---->", b"<!-- - -- ->", b"<!DOCTYPE svg>"]
PIECES += [b"<!DOCTYPE svg [<!ENTITY a 'b'>] >", b"<!DOCTYPE x [ ] ]>", b"<svg ", b"<svg>", b"<s:svg/", b"<svgx>"]
PIECES += [b"<", b"?>", b"-->", b"]", b">", b"[", b"<!--", b"<?", b"<!DOCTYPE", b"x", b"\xef\xbb\xbf", b"\t"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8))
def test_the_scan_agrees_with_the_old_pattern(pieces):
    data = b"".join(pieces)
    assert is_svg(data) == (OLD_SVG_ROOT.match(data.removeprefix(b"\xef\xbb\xbf")[:4096]) is not None)


def test_svg_after_a_prologue_is_an_svg():
    head = b"\xef\xbb\xbf<?xml version='1.0'?>\n<!-- a -->\n<!DOCTYPE svg PUBLIC '-//W3C//DTD SVG 1.1//EN' [\n"
    head += b"<!ENTITY x ']'>\n] >\n"
    assert is_svg(head + b'<svg xmlns="http://www.w3.org/2000/svg"/>')
    assert is_svg(b"<svg:svg>") and not is_svg(b"<svgz>") and not is_svg(b"<!-- <svg> ")
    assert kind(b"<!---->" * 40 + b"<svg>") == "svg"


HANGS = {
    # 30 empty comments and an unclosed one: some 150 s before (doubling per comment)
    "comments.non": b"<!---->" * 30 + b"<!--\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n",
    # an ordinary webpbn file with comments before its root element, one of them long
    "comments.xml": b"<?xml version='1.0'?>\n"
    + b"<!-- a comment -->\n" * 26
    + b"<puzzleset><puzzle><clues type='rows'><line><count>1</count></line></clues>"
    + b"<clues type='columns'><line><count>1</count></line></clues></puzzle></puzzleset>",
    "doctype.non": b"<!DOCTYPE x [" + b"]" * 2000 + b" " * 2000,
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", HANGS)
def test_files_that_hung_are_read_or_refused(name):
    data = HANGS[name]
    assert not is_svg(data)
    try:
        open_puzzle(data, name=name)
    except RoflError:
        pass


def _patterns():
    """Every compiled pattern in rofl's readers, with an input built against it."""
    from rofl import _xml, palette
    from rofl.cli import _show
    from rofl.formats import _limits, _text, clues, non, notmine, olsak, pzl, rofl, taai, tatham

    long = 50_000
    return {
        "clues._GROUP": (clues._GROUP.fullmatch, "1" * long + "a|" * long + "|"),
        "clues._WORD": (lambda s: list(clues._WORD.finditer(s)), "x " * long),
        "notmine._HEADER": (notmine._HEADER.fullmatch, "NotMine{1,1," + "}" + " " * long + "}x" * long),
        "notmine._NOT_GLYPH": (notmine._NOT_GLYPH.search, "!" * long),
        "notmine._ESCAPE": (lambda s: notmine._ESCAPE.sub("", s), "\\" * long),
        "non._TOKEN": (non._TOKEN.fullmatch, "1" * long + "a" * long + ","),
        "non._RULE": (non._RULE.fullmatch, "1 " * long + "x"),
        "non._GOAL_LINE": (non._GOAL_LINE.fullmatch, "0 " * long + "x"),
        "non._SAVED_LINE": (non._SAVED_LINE.fullmatch, "? " * long + "x"),
        "non._SEPARATORS": (non._SEPARATORS.split, " ,:" * long + "x"),
        "_text.BW_SEPARATORS": (_text.BW_SEPARATORS.split, " ," * long + "x"),
        "_xml._NOT_XML": (lambda s: _xml._NOT_XML.sub("", s), "\x00" * long),
        "_text._XPM_HEX": (_text._XPM_HEX.fullmatch, "#" + "a" * long),
        "_text._GREY_LEVEL": (_text._GREY_LEVEL.fullmatch, "grey" + "1" * long),
        "olsak._BLOCK": (olsak._BLOCK.fullmatch, "1" * long + "ab"),
        "pzl._FIRST": (pzl._FIRST.match, " " * long),
        "taai._LABEL": (taai._LABEL.fullmatch, "$" + "x" * long + " "),
        "tatham._SIZE": (tatham._SIZE.fullmatch, "1" * long + "x" + "1" * long + "x"),
        "rofl.META_KEY": (rofl.META_KEY.fullmatch, "a" * long),
        "_limits._DECIMAL": (_limits._DECIMAL.fullmatch, "1" * long + "x"),
        "palette._BARE_HEX": (palette._BARE_HEX.fullmatch, "a" * long),
        "_show._CONTROL": (lambda s: _show._CONTROL.sub("", s), "\x1b" * long),
    }


PATTERNS = _patterns()


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", PATTERNS)
def test_no_pattern_backtracks_on_input_built_against_it(name):
    apply, text = PATTERNS[name]
    apply(text)
