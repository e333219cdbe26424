"""A count in words, the one way every layer says it (rofl._words)."""

from __future__ import annotations

from rofl._words import plural


def test_a_count_is_singular_for_one_only():
    assert [plural(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert plural(1, "blank row") == "1 blank row" and plural(3, "repair attempt") == "3 repair attempts"


def test_the_report_the_batch_and_the_reader_say_it_alike(tmp_path):
    import numpy as np
    import pytest

    from rofl.errors import FormatError
    from rofl.formats import rofl as codec
    from rofl.maker import make
    from tests.clirun import run
    from tests.places import SAMPLES

    ring = np.zeros((8, 8), np.uint8)
    ring[2:6, 2:6], ring[3:5, 3:5] = 255, 0
    report = make(ring).stats.report()
    assert "1 sweep" in report or " sweeps" in report
    data = (SAMPLES / "rocket.rofl").read_bytes()
    with pytest.raises(FormatError, match=r"1 byte after the 'IEND' chunk"):
        codec.parse(data + b"\0")
    with pytest.raises(FormatError, match=r"2 bytes after the 'IEND' chunk"):
        codec.parse(data + b"\0\0")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.rofl").write_bytes(data)
    result = run("bench", folder, "-o", tmp_path / "t.csv")
    assert result.exit_code == 0, result.output
    assert "1 puzzle file: 1 solved" in result.output
    (folder / "b.rofl").write_bytes(data)
    result = run("bench", folder, "-o", tmp_path / "t.csv")
    assert "2 puzzle files: 1 skipped, 1 solved" in result.output
