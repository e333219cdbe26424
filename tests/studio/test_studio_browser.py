"""``rofl studio`` in a real browser: Playwright for Python driving the system Chromium.

One studio (uvicorn on 127.0.0.1, a free port, in a thread) and one
browser for the module.  A photo is chosen, the size and colours change
and so do the preview and its figures; every download is read back with
:func:`rofl.formats.open_puzzle`; bad uploads get their message; a request
without the token is refused.  Without Playwright or a Chromium the tests
skip (fail under ``ROFL_REQUIRE_BROWSER=1``), as the page's browser tests do.
"""

from __future__ import annotations

import io
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from rofl.formats import open_puzzle  # noqa: E402
from tests.render.test_page_browser import _chromium  # noqa: E402
from tests.studio.pictures import PHOTO, bomb, noise, not_a_picture  # noqa: E402

LIMIT = 1_000_000  # bytes an upload may have here


@pytest.fixture(scope="module")
def studio():
    """The studio's URL (with its token) and its root without the token."""
    import uvicorn

    from rofl.studio import HOST
    from rofl.studio.app import create_app

    app = create_app(max_upload_bytes=LIMIT)
    sock = socket.socket()
    sock.bind((HOST, 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    root = f"http://{HOST}:{sock.getsockname()[1]}"
    yield f"{root}/{app.state.studio.token}/", root
    server.should_exit = True
    thread.join(30)
    sock.close()


@pytest.fixture(scope="module")
def page(studio):
    path = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        # bypass_csp: the page forbids eval, which wait_for_function uses
        context = browser.new_context(accept_downloads=True, bypass_csp=True, viewport={"width": 1280, "height": 900})
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        tab.goto(studio[0])
        yield tab
        browser.close()


def figures(page) -> dict[str, str]:
    return {name: page.text_content(f"#{name}") for name in ("verdict", "size", "changed", "likeness")}


def wait_for_change(page, before: dict[str, str]) -> dict[str, str]:
    page.wait_for_function(
        "b => ['size', 'changed', 'likeness'].some(k => document.getElementById(k).textContent !== b[k])"
        " && document.getElementById('stage').textContent === 'ready'",
        arg=before,
    )
    return figures(page)


def test_a_request_without_the_token_is_refused(page, studio):
    _, root = studio
    answer = page.request.get(f"{root}/")
    assert answer.status == 403 and "token" in answer.json()["error"]
    answer = page.request.get(f"{root}/not-the-token/options")
    assert answer.status == 403


def test_the_empty_page_shows_what_to_do_and_nothing_broken(page, studio):
    """Before any photo: a clear empty state, no image without a picture
    (a broken-image placeholder), no empty figures or downloads."""
    fresh = page.context.new_page()
    fresh.goto(studio[0])
    fresh.wait_for_selector("#opt-width")
    assert fresh.is_visible("#empty") and "No photo yet" in fresh.text_content("#empty")
    broken = fresh.evaluate(
        "[...document.images].filter(i => i.offsetParent !== null && !(i.complete && i.naturalWidth > 0)).length"
    )
    assert broken == 0
    for hidden in ("#pictures", "#figures", "#downloads"):
        assert not fresh.is_visible(hidden), hidden
    fresh.close()


def test_a_photo_becomes_a_preview_that_follows_the_options(page):
    page.set_input_files("#file", str(PHOTO))
    page.wait_for_function("document.getElementById('stage').textContent === 'ready'")
    first = figures(page)
    assert first["verdict"] == "✔ unique and line-solvable"
    assert first["size"].startswith("40×") and first["size"].endswith("2 colours")
    image = page.get_attribute("#preview", "src")
    page.fill("#opt-width", "24")
    smaller = wait_for_change(page, first)
    assert smaller["size"].startswith("24×") and page.get_attribute("#preview", "src") != image
    page.fill("#opt-colors", "3")
    coloured = wait_for_change(page, smaller)
    assert coloured["size"].endswith("3 colours") and coloured["likeness"] != smaller["likeness"]
    assert "puzzle: 24x" in page.text_content("#report")
    assert page.evaluate("document.getElementById('preview').naturalWidth") > 3 * 24


def shown(page) -> None:
    """A preview on the page (under xdist this module's tests may run in several workers)."""
    if not page.text_content("#verdict"):
        page.set_input_files("#file", str(PHOTO))
    page.wait_for_function("document.getElementById('stage').textContent === 'ready'")


def test_every_download_reads_back(page):
    shown(page)
    page.fill("#opt-colors", "3")
    page.wait_for_function(
        "document.getElementById('stage').textContent === 'ready'"
        " && document.getElementById('size').textContent.endsWith('3 colours')"
    )
    rofl = open_puzzle(download(page, "#download"), name="x.rofl")
    extensions = page.eval_on_selector_all("#format option", "options => options.map(o => o.value)")
    assert ".rofl" in extensions and ".clues" in extensions and ".non" in extensions
    assert ".nin" not in extensions  # black and white only: the preview has 3 colours
    for extension in extensions:
        page.select_option("#format", extension)
        opened = open_puzzle(download(page, "#download"), name=f"x{extension}")
        assert (opened.puzzle.rows, opened.puzzle.cols) == (rofl.puzzle.rows, rofl.puzzle.cols), extension
    sheet = download(page, "#sheet")
    assert sheet.startswith(b"%PDF") and open_puzzle(sheet).puzzle.rows == rofl.puzzle.rows
    assert b"<html" in download(page, "#page")
    with page.context.expect_page() as popup:
        page.click("#play")
    popup.value.wait_for_load_state()
    assert popup.value.locator("table, svg, canvas").count() > 0
    popup.value.close()


def test_a_format_that_loses_the_colours_is_named_beside_the_download(page):
    shown(page)
    page.fill("#opt-colors", "2")
    page.fill("#opt-background", "black")
    page.wait_for_function(
        "document.getElementById('stage').textContent === 'ready'"
        " && document.getElementById('size').textContent.endsWith('2 colours')"
        " && [...document.getElementById('format').options].some(o => o.value === '.nin')"
    )
    # the figures above may still be the last preview's (the black background's is
    # on its way): the choice of format is kept when it comes, and so is its warning
    page.select_option("#format", ".nin")
    page.wait_for_function(
        "document.getElementById('caveat').textContent.startsWith('warning: the .nin format stores no colours')"
        " && document.getElementById('stage').textContent === 'ready'"
    )
    page.select_option("#format", ".rofl")
    assert page.text_content("#caveat") == "" and not page.is_visible("#caveat")
    page.fill("#opt-background", "")
    page.fill("#opt-colors", "")


def download(page, selector: str) -> bytes:
    with page.expect_download() as event:
        page.click(selector)
    with open(event.value.path(), "rb") as f:
        return f.read()


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("list.png", not_a_picture(), "list.png: not a picture in a format Pillow reads"),
        ("bomb.png", bomb(), "bomb.png: refused as a decompression bomb"),
        ("big.png", noise(LIMIT + 1), "the upload is larger than the"),
    ],
)
def test_a_bad_upload_gets_its_message(page, name, data, words):
    page.set_input_files("#file", files=[{"name": name, "mimeType": "image/png", "buffer": data}])
    page.wait_for_function("(words) => document.getElementById('error').textContent.includes(words)", arg=words)
    page.wait_for_timeout(500)  # a preview the last test's options asked for starts meanwhile
    assert words in page.text_content("#error")  # and leaves the upload's message alone


def test_a_preview_leaves_an_upload_error_alone(page):
    """A failed upload's message stays while a preview of the chosen photo
    runs and ends (a preview used to clear every error as it started)."""
    page.set_input_files("#file", str(PHOTO))
    page.wait_for_function("document.getElementById('stage').textContent === 'ready'")
    page.set_input_files("#file", files=[{"name": "list.png", "mimeType": "image/png", "buffer": not_a_picture()}])
    page.wait_for_function("document.getElementById('error').textContent.includes('list.png')")
    page.fill("#opt-colors", "3")
    page.wait_for_function(
        "document.getElementById('stage').textContent === 'ready'"
        " && document.getElementById('size').textContent.endsWith('3 colours')"
    )
    assert "list.png: not a picture" in page.text_content("#error")
    page.fill("#opt-colors", "")


def test_photos_become_a_book(page):
    from pypdf import PdfReader

    before = page.locator("#photos li").count()
    files = [{"name": f"{n}.jpg", "mimeType": "image/jpeg", "buffer": PHOTO.read_bytes()} for n in ("one", "two")]
    page.set_input_files("#file", files=files)
    page.wait_for_function(f"document.querySelectorAll('#photos li').length === {before + 2}")
    for tick in page.locator("#photos li input").all()[:before]:
        tick.uncheck()
    page.fill("#opt-width", "15")
    book = download(page, "#book")
    assert len(PdfReader(io.BytesIO(book)).pages) == 2
