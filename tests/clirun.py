"""Running the ``rofl`` command in tests, and what its errors must look like."""

from __future__ import annotations

from click.testing import CliRunner, Result

from rofl.cli import main


def run(*args, input: str | bytes | None = None) -> Result:
    """``rofl ARGS...`` in-process (arguments may be paths or numbers)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_error_line(result: Result, *words: str) -> str:
    """Assert that ``result`` is a failure reported as one ``Error: ...``
    line containing ``words`` (exit status 1, no traceback); return that line."""
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
