"""A batch's summary read back to resume (:func:`rofl.batch.summary.read_rows`): untrusted text."""

from __future__ import annotations

import json

import pytest

from rofl.batch.summary import BENCH_COLUMNS, json_text, read_rows
from tests.clirun import run
from tests.places import SAMPLES


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("s.json", '{"rows": ' + "[" * 100_000 + "]" * 100_000 + "}"),  # issue 40: RecursionError
        ("s.json", '{"rows": [{"file": ' + "[" * 900 + "]" * 900 + "}]}"),  # parses, then fails to write again
        ("s.csv", "file,status\nx\0,solved\n"),  # csv.Error: a NUL byte
        ("s.csv", "file,status\n" + "x" * 200_000 + ",solved\n"),  # csv.Error: a field over the limit
        ("s.csv", "file,status\nx,solved,extra,more\n"),  # an extra field: the key None, a list value
    ],
)
def test_a_hostile_summary_reads_as_plain_rows_or_none(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    rows = read_rows(path)
    for row in rows:
        assert all(isinstance(k, str) for k in row)
        assert all(v is None or isinstance(v, (str, int, float, bool)) for v in row.values())
    json_text(rows, BENCH_COLUMNS)  # and they write again


def test_bench_over_a_deeply_nested_table_is_one_error_or_rewritten(tmp_path):
    # issue 40: a RecursionError; a document nested too deep is no table of rofl's
    table = tmp_path / "t.json"
    table.write_text('{"command": "rofl bench", "rows": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = run("bench", SAMPLES / "rocket.rofl", "-o", table)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.output.strip().splitlines()[-1].startswith("Error: ")
    # one that parses, with a value nested deep in a row: the value is dropped, the table rewritten
    table.write_text(json.dumps({"command": "rofl bench", "rows": [{"file": "x", "key": [[[[[[1]]]]]] * 3}]}))
    result = run("bench", SAMPLES / "rocket.rofl", "-o", table)
    assert result.exit_code == 0, result.output
    assert [row["status"] for row in json.loads(table.read_text())["rows"]] == ["solved"]
