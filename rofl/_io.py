"""File helpers shared by every writer: atomic writes and capped reads."""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
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


# the temporary files an all_or_nothing() block holds back: (temporary, target)
_pending: contextvars.ContextVar[list[tuple[str, Path]] | None] = contextvars.ContextVar("pending", default=None)


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """Make the atomic writes of a block one: each :func:`atomic_open` in it
    writes its temporary file as usual, but the files are renamed into
    place only when the whole block ends without an error.  On an error
    (a full disk at the third of three outputs, Ctrl-C, SIGTERM) every
    temporary file is removed and no output is written: a command that
    writes a puzzle and its sheet writes both or neither (issue 40).

    A rename needs no space, so once every file is written the renames
    that follow do not fail for want of it.
    """
    if _pending.get() is not None:  # nested: the outer block decides
        yield
        return
    pending: list[tuple[str, Path]] = []
    token = _pending.set(pending)
    try:
        yield
    except BaseException:
        for tmp, _ in pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    finally:
        _pending.reset(token)
    for i, (tmp, path) in enumerate(pending):
        try:
            os.replace(tmp, path)
        except OSError as e:
            for rest, _ in pending[i:]:
                with contextlib.suppress(OSError):
                    os.unlink(rest)
            raise OSError(e.errno, e.strerror, str(path)) from None


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
    import tempfile  # here: reading a file, which every command does, needs none of it

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
        pending = _pending.get()
        if pending is not None:  # renamed when the all_or_nothing() block ends
            pending.append((tmp, path))
            return
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


def check_writable(directory: str | os.PathLike[str]) -> None:
    """Raise ``OSError`` (naming ``directory``) unless a file can be created
    and a few kilobytes written in it: a batch checks its output folder so,
    before minutes of work it could not save (a read-only or full disk)."""
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".rofl-probe.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(directory)) from None
    try:
        os.write(fd, bytes(4096))
        os.fsync(fd)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(directory)) from None
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def read_capped(path: str | os.PathLike[str], limit: int) -> bytes:
    """Read a whole file, refusing one larger than ``limit`` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        msg = f"{path}: larger than the {limit}-byte limit"
        raise LimitError(msg)
    return data


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # not there (yet), or a name no file can have
        return None
    return st.st_dev, st.st_ino


def input_written(inputs, outputs):
    """The first output that is one of the inputs, so that writing it would
    destroy what is read: ``(tag, output, input)``, or None.

    ``outputs`` are ``(tag, path or None)`` pairs (the tag names the output
    in a message: an option); two names are one file when they are the same
    file system entry under any name (a link, ``./x`` and ``x``).  A file not
    there yet is none of the inputs.  The one check of the commands
    (:func:`rofl.cli._files.refuse_overwrite`) and the batches
    (:func:`rofl.batch.make.refuse_inputs`, ``rofl bench -o``).
    """
    read: dict[tuple[int, int], object] = {}
    for path in inputs:
        identity = _identity(path)
        if identity is not None:
            read.setdefault(identity, path)
    for tag, output in outputs:
        source = None if output is None else read.get(_identity(output))
        if source is not None:
            return tag, output, source
    return None
