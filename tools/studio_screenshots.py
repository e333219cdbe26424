"""Screenshots of ``rofl studio`` for docs/studio.md (a tool, not a test).

Starts the studio in this process (uvicorn on 127.0.0.1, a free port),
drives the system Chromium with Playwright: the coffee photo at the
defaults, then in 4 colours at 30 cells, then a hexagon; and a bad upload.
Writes ``docs/studio-*.png``.

Usage::

    python tools/studio_screenshots.py
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from rofl.studio import HOST
    from rofl.studio.app import create_app

    app = create_app()
    sock = socket.socket()
    sock.bind((HOST, 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://{HOST}:{sock.getsockname()[1]}/{app.state.studio.token}/"
    ready = "document.getElementById('stage').textContent === 'ready'"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
        page.set_default_timeout(120_000)
        page.goto(url)
        page.set_input_files("#file", [str(ROOT / "samples" / n) for n in ("coffee.jpg", "chelsea.jpg")])
        page.wait_for_function(ready)
        page.screenshot(path=ROOT / "docs" / "studio-default.png", full_page=True)
        page.fill("#opt-width", "30")
        page.fill("#opt-colors", "4")
        page.wait_for_function(f"{ready} && document.getElementById('size').textContent.startsWith('30')")
        page.wait_for_function(f"{ready} && document.getElementById('size').textContent.endsWith('4 colours')")
        page.screenshot(path=ROOT / "docs" / "studio-colour.png", full_page=True)
        page.select_option("#opt-shape", "hex")
        page.fill("#opt-size", "12")
        page.wait_for_function(f"{ready} && document.getElementById('size').textContent.startsWith('hexagon')")
        page.screenshot(path=ROOT / "docs" / "studio-hexagon.png", full_page=True)
        page.set_input_files("#file", files=[{"name": "notes.png", "mimeType": "image/png", "buffer": b"not a photo"}])
        page.wait_for_function("document.getElementById('error').textContent !== ''")
        page.screenshot(path=ROOT / "docs" / "studio-error.png", clip={"x": 0, "y": 0, "width": 1400, "height": 260})
        browser.close()
    server.should_exit = True
    thread.join(30)
    sock.close()
    print("wrote docs/studio-default.png, studio-colour.png, studio-hexagon.png, studio-error.png")


if __name__ == "__main__":
    main()
