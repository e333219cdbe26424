"""File helpers shared by every writer: atomic writes and capped reads."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from rofl.errors import FormatError


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success rename it over ``path``.

    If the body raises, the temporary file is removed and ``path`` is left
    exactly as it was (absent or with its old content).
    """
    if mode not in ("wb", "w"):
        msg = f"atomic_open supports 'wb' and 'w', not {mode!r}"
        raise ValueError(msg)
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + rename)."""
    mode = "wb" if isinstance(data, bytes) else "w"
    with atomic_open(path, mode) as f:
        f.write(data)


def read_capped(path: str | os.PathLike[str], limit: int) -> bytes:
    """Read a whole file, refusing one larger than ``limit`` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        msg = f"{path}: larger than the {limit}-byte limit"
        raise FormatError(msg)
    return data
