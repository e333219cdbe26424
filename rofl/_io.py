"""File helpers shared by every writer: atomic writes and capped reads."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from rofl.errors import LimitError


def stamp_time() -> datetime:
    """The time a writer stamps into a file (a PDF's creation date, a
    Gnonograms file's date): now, or ``SOURCE_DATE_EPOCH`` when that is set
    (the reproducible-builds convention), so the file is byte for byte the same."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "wb", *, private: bool = False) -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success rename it over ``path``.

    If the body raises, the temporary file is removed and ``path`` is left
    exactly as it was (absent or with its old content); so does SIGTERM in
    the ``rofl`` command, which raises (:mod:`rofl.__main__`).  The new
    file gets the read/write/execute permissions of the regular file it
    replaces, never its setuid, setgid or sticky bits, and never those of
    a symbolic link's target (the link itself is replaced); else the usual
    ones for a new file (``0o666`` less the umask); ``private=True`` makes
    it ``0o600``.
    """
    if mode not in ("wb", "w"):
        msg = f"atomic_open supports 'wb' and 'w', not {mode!r}"
        raise ValueError(msg)
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as e:  # name the file the user asked for, not the temporary one
        raise OSError(e.errno, e.strerror, str(path)) from None
    try:
        if private:
            permissions = 0o600
        else:
            try:
                old = os.lstat(path)
            except OSError:
                old = None
            # rwx bits only: a rewritten file must not become setuid (issue 40)
            permissions = old.st_mode & 0o777 if old is not None and stat.S_ISREG(old.st_mode) else 0o666 & ~_umask()
        os.chmod(tmp, permissions)
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        try:
            os.replace(tmp, path)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(path)) from None
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename is None:
            # a full disk or a quota fails in write() or fsync(), which name
            # no file: name the one the user asked for
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes | str, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + rename); see :func:`atomic_open`."""
    mode = "wb" if isinstance(data, bytes) else "w"
    with atomic_open(path, mode, private=private) as f:
        f.write(data)


def read_capped(path: str | os.PathLike[str], limit: int) -> bytes:
    """Read a whole file, refusing one larger than ``limit`` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        msg = f"{path}: larger than the {limit}-byte limit"
        raise LimitError(msg)
    return data
