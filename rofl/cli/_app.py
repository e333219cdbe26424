"""The ``rofl`` command group and its error handling.

Every expected failure is a :class:`rofl.RoflError` (or an ``OSError`` from
the file system); both become one ``Error: ...`` line on stderr and exit
status 1, never a traceback.  The one exception is the rule for usage: an
:class:`~rofl.errors.OptionError` (a bad option or argument, whether click,
the command or the library found it, before or during the work) is a usage
error, exit status 2 after click's two-line usage hint, like a value click
refuses itself.  Ctrl-C is one ``Error: interrupted`` line and
status 130 (128 + SIGINT, as shells report a program killed by it);
SIGTERM ``Error: terminated`` and 143.

Each command lives in its own module, which registers it on :data:`main`;
the group loads it only when the command is run or listed (``rofl solve``
loads neither ``make`` nor the libraries its options name), as click's
lazily loaded groups do, from the table :mod:`rofl.cli` gives it
(:attr:`RoflGroup.lazy`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

from rofl import __version__
from rofl._lazy import after_import
from rofl.cli._show import printable
from rofl.errors import OptionError, RoflError, Terminated

#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (which :mod:`rofl.__main__` turns into an exception).
EXIT_TERMINATED = 143


def _os_message(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return printable(f"{where}{exc.strerror or exc}")


class RoflCommand(click.Command):
    """A command whose :class:`~rofl.errors.OptionError` is a usage error (status 2)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OptionError as exc:
            raise click.UsageError(printable(str(exc), keep="\n"), ctx=ctx) from None
        except click.ClickException as exc:  # a value click or a command refused quotes what was given
            exc.message = printable(exc.message, keep="\n")
            raise


class RoflGroup(click.Group):
    """The ``rofl`` group: its commands are loaded on first use (:attr:`lazy`, filled by :mod:`rofl.cli`)."""

    command_class = RoflCommand
    group_class = type  # subgroups are RoflGroups too

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: Command name -> a function that loads it (imports the module that registers it).
        self.lazy: dict[str, Callable[[], object]] = {}

    def list_commands(self, ctx: click.Context | None) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            # an unknown name loads them all: click suggests the nearest of every command
            for load in [self.lazy[cmd_name]] if cmd_name in self.lazy else list(self.lazy.values()):
                load()
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:  # click's own (an option's value) quote what was given
            exc.message = printable(exc.message, keep="\n")
            raise
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
        except KeyboardInterrupt as exc:
            # click would print "Aborted!" and exit 1, like a failure
            if isinstance(exc, Terminated):  # SIGTERM (rofl.__main__)
                click.echo("Error: terminated", err=True)
                ctx.exit(EXIT_TERMINATED)
            click.echo("Error: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except MemoryError:
            msg = "out of memory: the input is too large"
            raise click.ClickException(msg) from None


@click.group(cls=RoflGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rofl")
def main() -> None:
    """rofl: pictures into nonogram puzzles and back."""
    # a fresh install's first solve compiles for seconds: say so first
    # (commands with --quiet silence it again); installed when the kernels
    # load, so that a command's help or a usage error does not load them
    after_import("rofl.kernels", _install_notice)


def _install_notice() -> None:
    from rofl import kernels

    kernels.set_notice(_notice, default=True)


def _notice(message: str) -> None:
    click.echo(message, err=True)
