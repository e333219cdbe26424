"""``rofl cache``: where rofl's compiled solver lives, its size; clear it or fill it ahead of time."""

from __future__ import annotations

import click

from rofl.cli._app import main
from rofl.cli._show import say


@main.command(short_help="Show, clear or fill the cache of rofl's compiled solver.")
@click.option("--clear", is_flag=True, help="Delete rofl's compiled code: the next solve compiles again.")
@click.option("--warm", is_flag=True, help="Compile everything now (a package or Docker image build step).")
def cache(clear: bool, warm: bool) -> None:
    """Show where rofl's compiled solver lives and its size; --clear or --warm it.

    rofl's solver is compiled for the machine it runs on by numba, once,
    the first time each part is needed, with a notice on stderr; this lists
    each part and, when it is not compiled yet, about how long compiling
    it takes.  The machine code is kept next to rofl's modules, or under
    NUMBA_CACHE_DIR when that is set (or when rofl's folder is read-only,
    in numba's folder in the user's cache).  --warm compiles all of it at
    once, so that no later command waits; --clear deletes it.  With both,
    it is compiled afresh.  When rofl was installed with a C compiler, line
    logic, refinement, the complete search and the difficulty grader were
    compiled then, into an extension: they need no cache (ROFL_NO_AOT=1
    ignores it); only hexagons, ? clues and their refinement are compiled
    on first use.
    """
    import time

    from rofl import kernels

    sets = kernels.SETS
    if clear:
        count, size = kernels.clear_cache(*sets)
        click.echo(f"cleared: {count} files, {_size(size)}")
    if warm:
        start = time.perf_counter()
        kernels.ready(*sets)  # what this command is for: compile before any work needs it
        click.echo(f"ready: compiled or loaded in {time.perf_counter() - start:.1f} s")
    total = 0
    for folder, files in kernels.cache_files(*sets).items():
        size = sum(p.stat().st_size for p in files)
        total += size
        say(f"{click.format_filename(folder)}: {len(files)} files, {_size(size)}")
    click.echo(f"total: {_size(total)}")
    aot, paths = kernels.aot_status()
    where = f" ({', '.join(map(click.format_filename, paths))})" if paths else ""
    click.echo(f"kernels compiled at install: {aot}{where}")
    for s in sets:
        if s.ahead_of_time():
            state = "compiled at install"
        elif kernels.all_cached(s):
            state = "compiled for this machine"
        else:
            state = f"not compiled (about {s.seconds:.0f} s of CPU when first needed)"
        click.echo(f"{s.name}: {state}")


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n / 2**10:.0f} kB"
