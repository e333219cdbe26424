"""``rofl studio``: make puzzles from photos in the browser, with a live preview.

A local web application: :mod:`rofl.studio.app` (Starlette) serves the page
and its requests on 127.0.0.1 behind a random token, :mod:`rofl.studio.work`
makes each preview in a worker process with the library calls of ``rofl
make``, and :mod:`rofl.studio.options` derives the options form from ``rofl
make`` itself.  It needs the ``studio`` extra (``pip install 'rofl[studio]'``).
See ``docs/studio.md``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

#: The only address the studio listens on.
HOST = "127.0.0.1"


def missing_extra() -> str | None:
    """What is missing for the studio, or None."""
    import importlib.util

    for module, package in (("starlette", "starlette"), ("uvicorn", "uvicorn"), ("multipart", "python-multipart")):
        if importlib.util.find_spec(module) is None:
            return f"the studio needs {package}: pip install 'rofl[studio]'"
    return None


def serve(*, port: int = 0, open_browser: bool = True, announce: Callable[[str], None] = print) -> None:
    """Run the studio until interrupted.

    Parameters
    ----------
    port : int
        0 (default): a free port the system chooses.
    open_browser : bool
        Open the studio's URL in the default browser (:func:`webbrowser.open`).
    announce : callable(str)
        Told the URL (with its token) once the studio listens.
    """
    import webbrowser

    import uvicorn

    from rofl.studio.app import create_app

    app = create_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    url = f"http://{HOST}:{sock.getsockname()[1]}/{app.state.studio.token}/"
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)

    announce(f"rofl studio: {url}  (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(url)
    with sock:
        server.run(sockets=[sock])


from rofl._lazy import submodules  # noqa: E402 -- the rest of the package loads on first use

__getattr__ = submodules(__name__)
