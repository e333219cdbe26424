"""A batch's summary table: one row per input, written as CSV and JSON, read back to resume.

The JSON file holds the rows with their types (numbers, booleans, null)
and each row's ``key``, what an up-to-date output was made from; the CSV
file holds the same columns for a spreadsheet.  Both are written
atomically, so an interrupted batch leaves the previous summary or the
new one, never half of one.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Columns of ``rofl make``'s summary, in order.
MAKE_COLUMNS = (
    "picture",
    "output",
    "width",
    "height",
    "colours",
    "cells_changed",
    "changed_pct",
    "delta_e",
    "ssim",
    "sweeps",
    "grade",
    "difficulty",
    "difficulty_score",
    "seconds",
    "status",
    "error",
    "warnings",
    "key",
    "output_sha256",
)
#: Columns of ``rofl bench``'s table, in order.
BENCH_COLUMNS = (
    "file",
    "format",
    "width",
    "height",
    "colours",
    "line_solvable",
    "result",
    "seconds",
    "nodes",
    "grade",
    "difficulty",
    "status",
    "error",
    "key",
)


def csv_text(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """The rows as CSV with a header line (empty cells for missing values)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in columns})
    return out.getvalue()


def json_text(rows: Sequence[dict[str, Any]], columns: Sequence[str], **about: Any) -> str:
    """The rows as a JSON document ``{**about, "rows": [...]}``, every row with every column."""
    document = {**about, "rows": [{k: row.get(k) for k in columns} for row in rows]}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_table(path: str | Path, rows: Sequence[dict[str, Any]], columns: Sequence[str], **about: Any) -> None:
    """Write the rows atomically as CSV or JSON, as ``path``'s extension says."""
    from rofl._io import atomic_write

    text = json_text(rows, columns, **about) if Path(path).suffix.lower() == ".json" else csv_text(rows, columns)
    atomic_write(path, text.encode("utf-8"))


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a summary :func:`write_table` wrote (JSON or CSV); none
    when the file is missing or not such a summary (it is then rewritten).

    The file is untrusted text: a row keeps only the columns named by
    strings whose values are plain (text, numbers, booleans, null), so a
    deeply nested or odd value never reaches the code that compares and
    writes rows again.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    try:
        if Path(path).suffix.lower() != ".json":
            rows: Any = list(csv.DictReader(io.StringIO(text)))
        else:
            rows = json.loads(text).get("rows", [])
    # RecursionError: a deeply nested document; csv.Error: a NUL byte or an overlong field
    except (ValueError, AttributeError, RecursionError, csv.Error):
        return []
    if not isinstance(rows, list):
        return []
    return [
        {k: v for k, v in row.items() if isinstance(k, str) and (v is None or isinstance(v, _PLAIN))}
        for row in rows
        if isinstance(row, dict)
    ]


_PLAIN = (str, int, float, bool)


def check_table(path: str | Path, columns: Sequence[str], command: str) -> None:
    """Refuse, before any work, to replace a file at ``path`` that is not a
    table ``command`` wrote with these columns: a batch rewrites its own
    summary, never a puzzle, a picture or someone's spreadsheet that happens
    to have the name.

    Raises
    ------
    UsageError
        ``path`` exists and is something else (or cannot be read).
    """
    from rofl.errors import UsageError

    path = Path(path)
    if not path.exists():
        return
    if not _is_table(path, columns, command):
        msg = f"{path} exists and is not a table {command} wrote: writing it would destroy it; name another file"
        raise UsageError(msg)


def is_batch_table(path: str | Path) -> bool:
    """Whether ``path`` is a JSON table a batch wrote (``rofl make``'s
    ``summary.json``, ``rofl bench -o x.json``): what :func:`json_text`
    writes begins with ``{"command": "rofl ...``.  Reads the first bytes
    only, so that listing a folder of JSON puzzles stays cheap."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    return re.match(rb'\{\s*"command": "rofl [a-z]+"', head) is not None


#: A table is read whole to be resumed: larger than this, it is not one rofl wrote for a batch it can run.
_MAX_TABLE_BYTES = 256 * 1024 * 1024


def _is_table(path: Path, columns: Sequence[str], command: str) -> bool:
    try:
        size = path.stat().st_size
        if size == 0:  # nothing to lose
            return True
        if size > _MAX_TABLE_BYTES or not path.is_file():
            return False
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if path.suffix.lower() != ".json":
        # the header of a table this command wrote: its first columns (a later
        # version may add columns, and still rewrites its own older tables)
        return text.partition("\n")[0].split(",")[:2] == list(columns[:2])
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(document, dict) and document.get("command") == command and isinstance(document.get("rows"), list)
