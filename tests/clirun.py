"""Running the ``rofl`` command in tests, and what its errors must look like."""

from __future__ import annotations

from click.testing import CliRunner, Result

from rofl.cli import main


def run(*args, input: str | bytes | None = None) -> Result:
    """``rofl ARGS...`` in-process (arguments may be paths or numbers).

    An exception the command does not turn into an ``Error:`` line is a bug:
    it propagates with its traceback instead of hiding in ``result``.
    """
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


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


def usage_error_line(result: Result, *words: str) -> str:
    """Assert that ``result`` is a bad option or argument that click refused:
    exit status 2, its ``Usage:`` banner, then one ``Error: ...`` line (the
    last) containing ``words``, no traceback; return that line."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("Usage: "), result.output
    errors = [line for line in lines if line.startswith("Error: ")]
    assert errors == lines[-1:], result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[-1], lines[-1]
    return lines[-1]
