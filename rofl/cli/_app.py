"""The ``rofl`` command group and its error handling.

Every expected failure is a :class:`rofl.RoflError` (or an ``OSError`` from
the file system); both become one ``Error: ...`` line on stderr and exit
status 1, never a traceback.
"""

from __future__ import annotations

import os
import sys

import click

from rofl import __version__
from rofl.cli._show import printable
from rofl.errors import RoflError


def _os_message(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return printable(f"{where}{exc.strerror or exc}")


class RoflGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except RoflError as exc:
            raise click.ClickException(printable(str(exc), keep="\n")) from None
        except BrokenPipeError:
            # the reader went away (`rofl solve x | head`): stop quietly, as
            # other Unix tools do, without a second error when Python flushes
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(141)
        except OSError as exc:
            raise click.ClickException(_os_message(exc)) from None
        except MemoryError:
            msg = "out of memory: the input is too large"
            raise click.ClickException(msg) from None


@click.group(cls=RoflGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rofl")
def main() -> None:
    """rofl: pictures into nonogram puzzles and back."""
    from rofl.solver._compile import set_notice

    # a fresh install's first solve compiles for seconds: say so first
    # (commands with --quiet silence it again)
    set_notice(_notice, default=True)


def _notice(message: str) -> None:
    click.echo(message, err=True)
