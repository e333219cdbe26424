"""``rofl studio``: the browser studio (a thin command over :mod:`rofl.studio`)."""

from __future__ import annotations

import click

from rofl.cli._app import main


@main.command(short_help="Make puzzles from photos in the browser, with a live preview.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port on 127.0.0.1 (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Only print the URL; do not open a browser.")
def studio(port: int, no_browser: bool) -> None:
    """Start the studio: a local web page where a photo (or several) becomes a
    puzzle, with a preview that follows the options of ``rofl make``.

    It listens on 127.0.0.1 only, at a URL holding a random token that every
    request must carry, and runs until Ctrl-C.  Needs the studio extra:
    pip install 'rofl[studio]' (docs/studio.md).
    """
    from rofl.errors import UsageError
    from rofl.studio import missing_extra, serve

    missing = missing_extra()
    if missing:
        raise UsageError(missing)
    serve(port=port, open_browser=not no_browser, announce=lambda line: click.echo(line, err=True))
