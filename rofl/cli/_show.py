"""Text from files and command lines made safe to print.

A puzzle's metadata, a file name or an error message quoting either may
hold anything: terminal control sequences (``ESC ] ... BEL`` sets a
window title, ``ESC [ 2 J`` clears the screen), and lone surrogates (the
bytes of a command-line argument or file name that is not UTF-8, which no
encoder writes).  Everything the commands print of such text goes through
:func:`printable`, always, not only when the output is a terminal: a
``rofl info x.rofl > notes.txt`` read later with ``cat`` would inject the
same sequences.
"""

from __future__ import annotations

import re

import click

# C0 controls, DEL and C1 controls (what terminals act on), then lone
# surrogates.  Tab and newline are kept only where the caller says so.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}"


def printable(text: str, *, keep: str = "") -> str:
    """``text`` with control characters written as ``\\xNN`` escapes and lone
    surrogates (undecodable bytes) as U+FFFD; characters in ``keep``
    (``"\\n"`` for a message of several lines) are left as they are."""
    text = _SURROGATE.sub("\ufffd", text)
    return _CONTROL.sub(lambda m: m.group() if m.group() in keep else _escape(m), text)


def say(text: str, *, err: bool = False) -> None:
    """Print a line of the commands' own output (``click.echo``) through
    :func:`printable`: every line that may name a file, quote a file's text
    or an error goes out this way (a batch's ``failed:`` lines, ``bench
    --list``, ``wrote ...``, warnings); only a drawn grid, whose colour
    escapes are rofl's own, is echoed as it is."""
    click.echo(printable(text, keep="\n"), err=err)


def difficulty_text(puzzle) -> str:
    """The ``difficulty: ...`` line of ``rofl info`` and ``rofl solve`` (:func:`rofl.grade`)."""
    from rofl.solver.grade import grade_shown

    difficulty, why = grade_shown(puzzle)
    return f"difficulty: not graded ({why})" if difficulty is None else f"difficulty: {difficulty.summary()}"


def graded_or_warned(puzzle, name: str):
    """:func:`rofl.grade` of a puzzle whose grade a sheet, book or page was
    asked to show (or to be ordered by); None, with a warning line saying
    why, for a puzzle rofl does not grade (``?`` groups, no solution, huge):
    its sheet or page is written without one (a book puts it last)."""
    from rofl.solver.grade import grade_shown

    difficulty, why = grade_shown(puzzle)
    if difficulty is None:
        say(f"warning: {name}: not graded ({why}), so no grade is shown", err=True)
    return difficulty
