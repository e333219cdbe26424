"""Benchmark results into ``docs/benchmarks.md``: each script owns marked sections.

A section is the text between ``<!-- begin NAME -->`` and ``<!-- end NAME -->``
in ``docs/benchmarks.md``.  A script run with ``--write-docs`` replaces the
sections it owns with its tables (:func:`write_section`), headed by a line that
says when, at which commit and by which command they were measured
(:func:`stamp`), so the figures in the docs are never edited by hand and
always say how to measure them again.  The text around the markers -- what
the figures mean -- is prose and is edited by hand.  A script that saves its
rows as it measures (an interrupted run resumes) takes :func:`report_options`,
reads them back with :func:`saved_rows` and ends with :func:`publish`.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- begin {name} -->", f"<!-- end {name} -->"


def replace_section(text: str, name: str, markdown: str) -> str:
    """``text`` with the body of section ``name`` replaced by ``markdown``.

    Raises
    ------
    KeyError
        When ``text`` lacks the section's two markers, in order, exactly once each.
    """
    begin, end = _markers(name)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        msg = f"{DOCS.name} has no section {name!r} (one {begin!r} followed by one {end!r})"
        raise KeyError(msg)
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    return f"{head}{begin}\n{markdown.strip()}\n{end}{tail}"


def sections(text: str) -> list[str]:
    """The names of the sections ``text`` marks, in order."""
    return re.findall(r"<!-- begin (\S+) -->", text)


def write_section(name: str, markdown: str, path: Path = DOCS) -> None:
    """Replace section ``name`` of ``path`` (``docs/benchmarks.md``) with ``markdown``.

    The file is replaced atomically (a temporary file in the same folder, then
    :func:`os.replace`), so an interrupted run or two scripts finishing at once
    never leave a half-written page; of two concurrent writers, the later one's
    view of the other sections wins.
    """
    text = replace_section(path.read_text(encoding="utf-8"), name, markdown)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"wrote section {name!r} of {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def write_report(name: str, lines: list[str]) -> None:
    """Replace section ``name`` with a report's ``lines``, headed by :func:`stamp`."""
    write_section(name, stamp() + "\n\n" + "\n".join(lines))


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def stamp(argv: list[str] | None = None) -> str:
    """The line that heads a section: the date, the commit and the command that measured it."""
    argv = sys.argv if argv is None else argv
    script = Path(argv[0])
    if script.is_absolute() and script.is_relative_to(ROOT):
        script = script.relative_to(ROOT)
    command = shlex.join(["python", str(script), *argv[1:]])
    day = datetime.datetime.now(datetime.UTC).date().isoformat()
    return f"*Measured {day} at commit `{_commit()}` on {os.cpu_count()} cores by `{command}`.*"


def report_options(parser, section: str) -> None:
    """The options of a script that saves its rows as it measures and reports
    them: ``--save`` (JSON lines; an interrupted run resumes), ``--report-only``,
    ``--write-docs`` and ``--section`` (by default ``section``)."""
    parser.add_argument("--save", type=Path, required=True)
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--write-docs", action="store_true", help="the report into a section of docs/benchmarks.md")
    parser.add_argument("--section", default=section, help="with --write-docs: the section")


def saved_rows(path: Path) -> list[dict]:
    """The rows saved in ``path`` (``--save``: JSON lines), none before the first run."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def publish(args, lines: list[str]) -> None:
    """Print a report's ``lines`` and, with ``--write-docs``, write them into section ``--section``."""
    print("\n".join(lines))
    if args.write_docs:
        write_report(args.section, lines)
