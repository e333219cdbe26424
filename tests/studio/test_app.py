"""The studio's web application over plain HTTP (Starlette's test client, one worker per module).

What the browser tests cannot see cheaply: the token on every route and
method, the refusals of malformed requests (always an error JSON), the
upload limits, the previews against :func:`rofl.maker.make` called
directly, every download read back with :func:`rofl.formats.open_puzzle`,
and superseded work stopping.
"""

from __future__ import annotations

import io
import re
import threading
import time

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from rofl.errors import OptionError  # noqa: E402
from rofl.formats import FORMATS, open_puzzle  # noqa: E402
from rofl.maker import make  # noqa: E402
from rofl.solver import solve  # noqa: E402
from rofl.studio import app as studio_app  # noqa: E402
from rofl.studio.options import fields, make_options  # noqa: E402
from tests.studio.pictures import PHOTO, bomb, noise, not_a_picture  # noqa: E402

TOKEN = "t0k3n-for-tests"
LIMIT = 1_000_000  # bytes a test upload may have


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    with TestClient(studio_app.create_app(token=TOKEN, max_upload_bytes=LIMIT), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def photo(client) -> str:
    answer = client.post(f"/{TOKEN}/photos", files=[("photo", (PHOTO.name, PHOTO.read_bytes(), "image/jpeg"))])
    assert answer.status_code == 200, answer.text
    (entry,) = answer.json()["photos"]
    assert (entry["name"], entry["width"], entry["height"]) == ("chelsea.jpg", 320, 213)
    return entry["id"]


def preview(client, photo: str, **options) -> dict:
    answer = client.post(f"/{TOKEN}/preview", json={"photo": photo, "options": options})
    assert answer.status_code == 200, answer.text
    return answer.json()


def error_of(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    (message,) = answer.json().values()
    assert "Traceback" not in message
    return message


# ---------------------------------------------------------------- the token


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/options"),
        ("GET", f"/{TOKEN[:-1]}/options"),
        ("GET", f"/{TOKEN}x/options"),
        ("GET", f"/options?token={TOKEN}"),
        ("POST", "/preview"),
        ("POST", "/photos"),
    ],
)
def test_a_request_without_the_token_is_refused(client, method, path):
    message = error_of(client.request(method, path), 403)
    assert "token" in message


def test_the_page_and_options_with_the_token(client):
    page = client.get(f"/{TOKEN}/")
    assert page.status_code == 200 and "rofl studio" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    body = client.get(f"/{TOKEN}/options").json()
    assert [f["name"] for f in body["fields"]] == [f.name for f in fields()]
    assert {f["extension"] for f in body["formats"]} == {f.extension for f in FORMATS if f.write is not None}


# ---------------------------------------------------------------- the options form


def test_the_form_is_rofl_makes_options_that_make_takes():
    import dataclasses

    from rofl.cli.make import make as command
    from rofl.maker import MakeOptions

    taken = {f.name for f in dataclasses.fields(MakeOptions)} | {"title"}  # what make takes of rofl make's
    expected = [p.name for p in command.params if p.name in taken]
    assert [f.name for f in fields()] == expected
    by_name = {f.name: f for f in fields()}
    assert by_name["shape"].choices == ("rect", "hex") and by_name["shape"].default == "rect"
    assert (by_name["width"].kind, by_name["width"].low, by_name["width"].high) == ("int", 1, 1024)
    assert by_name["cleanup"].kind == "bool" and by_name["trim"].default is True
    assert by_name["width"].default is None  # the library's default: 40 on the longer side


def test_form_values_are_checked_as_the_command_line_checks_them():
    assert make_options({"width": "30", "colors": "4", "cleanup": True, "trim": "false", "palette": ""}) == (
        {"width": 30, "colors": 4, "cleanup": True, "trim": False},
        ["size"],
    )
    options, ignored = make_options({"shape": "hex", "size": 12, "width": 50, "dither": "ordered"})
    assert options == {"shape": "hex", "size": 12} and {"width", "height", "dither", "cleanup"} <= set(ignored)
    for form, words in [
        ({"width": "0"}, "--width: 0 is not in the range"),
        ({"colors": "many"}, "--colors: 'many' is not a valid integer"),
        ({"shape": "circle"}, "--shape: 'circle' is not one of"),
        ({"palette": "#zz"}, "--palette: palette colour 1"),
        ({"threshold": "nan"}, "--threshold"),
        ({"path": "/etc/passwd"}, "unknown option 'path'"),
        ({"width": [1]}, "--width: expected a value"),
    ]:
        with pytest.raises(OptionError) as caught:
            make_options(form)
        assert words in str(caught.value), (form, caught.value)


# ---------------------------------------------------------------- previews


def test_a_preview_is_what_rofl_make_makes(client, photo):
    shown = preview(client, photo, width=30, colors=3)
    direct = make(str(PHOTO), width=30, colors=3)
    opened = open_puzzle(client.get(f"/{TOKEN}/download/{shown['id']}/.rofl").content)
    assert opened.puzzle.rows == direct.puzzle.rows and opened.puzzle.cols == direct.puzzle.cols
    assert np.array_equal(solve(opened.puzzle).grid, direct.grid)
    # the report's lines but the timing
    assert shown["report"].splitlines()[:-1] == direct.stats.report().splitlines()[:-1]
    assert shown["line_solved"] is True
    assert (shown["width"], shown["height"], shown["colors"]) == (direct.stats.width, direct.stats.height, 3)
    assert shown["changed"] == direct.stats.n_changed and shown["ssim"] == pytest.approx(direct.stats.ssim)
    picture = client.get(f"/{TOKEN}/{shown['image']}")
    assert picture.headers["content-type"] == "image/png"
    from PIL import Image

    assert Image.open(io.BytesIO(picture.content)).width > 3 * 30  # three panels


def test_options_change_the_preview_and_a_repeat_comes_from_the_cache(client, photo):
    small = preview(client, photo, width=16)
    large = preview(client, photo, width=24, colors=4)
    assert (small["width"], small["colors"]) != (large["width"], large["colors"])
    assert large["width"] <= 24 and large["colors"] == 4
    assert preview(client, photo, width=16)["id"] == small["id"]


def test_a_poor_picture_gets_rofl_makes_hint(client, photo):
    shown = preview(client, photo, width=8)
    assert any(line.startswith("hint: the puzzle looks little like the picture") for line in shown["hints"])


def test_a_hexagon_ignores_the_rectangle_options(client, photo):
    shown = preview(client, photo, shape="hex", size=8, width=50, cleanup=True)
    assert shown["side"] == 8 and {"width", "cleanup"} <= set(shown["ignored"])
    assert open_puzzle(client.get(f"/{TOKEN}/download/{shown['id']}/.rofl").content).puzzle.board.side == 8
    error = error_of(client.get(f"/{TOKEN}/download/{shown['id']}/.non"), 400)
    assert "hexagonal" in error


@pytest.mark.slow
def test_a_newer_preview_supersedes_a_running_one(client, photo):
    answers: dict = {}
    big_number = client.get(f"/{TOKEN}/progress").json()["newest"] + 1
    big = threading.Thread(target=lambda: answers.update(preview(client, photo, width=120, colors=4, seed=7)))
    big.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the big one is refining
        state = client.get(f"/{TOKEN}/progress").json()
        if state["number"] == state["newest"] == big_number and state["stage"] == "refining":
            break
        time.sleep(0.05)
    small = preview(client, photo, width=12, seed=7)
    big.join()
    assert answers == {"superseded": True}
    assert small["width"] <= 12


def test_a_stale_job_stops_at_its_first_callback(monkeypatch):
    from rofl.studio import work

    class Value:
        value = 2

    monkeypatch.setattr(work, "_NEWEST", Value())
    with pytest.raises(work.Superseded):
        work.preview(1, PHOTO.read_bytes(), "chelsea.jpg", {"width": 20})


# ---------------------------------------------------------------- downloads


def test_every_format_downloads_and_reads_back(client, photo):
    shown = preview(client, photo, width=20)
    rofl_file = open_puzzle(client.get(f"/{TOKEN}/download/{shown['id']}/.rofl").content)
    for fmt in (f for f in FORMATS if f.write is not None):
        answer = client.get(f"/{TOKEN}/download/{shown['id']}/{fmt.extension}")
        assert answer.status_code == 200, (fmt.extension, answer.text)
        assert answer.headers["content-disposition"] == f'attachment; filename="chelsea{fmt.extension}"'
        opened = open_puzzle(answer.content, name=f"puzzle{fmt.extension}")
        if opened.solution is not None:
            assert np.array_equal(opened.solution, solve(rofl_file.puzzle).grid), fmt
        assert (opened.puzzle.rows, opened.puzzle.cols) == (rofl_file.puzzle.rows, rofl_file.puzzle.cols), fmt
    sheet = client.get(f"/{TOKEN}/download/{shown['id']}/sheet.pdf")
    assert sheet.content.startswith(b"%PDF")
    assert open_puzzle(sheet.content).puzzle.rows == rofl_file.puzzle.rows  # the sheet carries its puzzle
    page = client.get(f"/{TOKEN}/download/{shown['id']}/page")
    assert page.headers["content-disposition"].endswith('.html"') and "<html" in page.text
    assert client.get(f"/{TOKEN}/play/{shown['id']}").text == page.text


def test_a_batch_of_photos_becomes_a_book(client, photo):
    from tests.places import SAMPLES

    other = client.post(
        f"/{TOKEN}/photos", files=[("photo", ("coffee.jpg", (SAMPLES / "coffee.jpg").read_bytes(), "image/jpeg"))]
    ).json()["photos"][0]["id"]
    book = client.post(f"/{TOKEN}/book", json={"photos": [photo, other], "options": {"width": 15}})
    assert book.status_code == 200, book.text
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(book.content)).pages) == 2
    assert client.delete(f"/{TOKEN}/photos/{other}").json() == {"photos": 1}


# ---------------------------------------------------------------- refusals


def upload(client, name: str, data: bytes):
    return client.post(f"/{TOKEN}/photos", files=[("photo", (name, data, "image/png"))])


def test_bad_uploads_get_one_message_each(client):
    assert (
        error_of(upload(client, "list.png", not_a_picture()), 400) == "list.png: not a picture in a format Pillow reads"
    )
    assert "bomb" in error_of(upload(client, "bomb.png", bomb()), 400)
    cut = (PHOTO.parent / "rocket.rofl").read_bytes()[:40]
    assert (
        error_of(upload(client, "cut.rofl", cut), 400)
        == "cut.rofl: cannot decode the picture (byte 36: row 3: group count 4 needs 8 bytes but only 4 remain)"
    )
    assert (
        error_of(upload(client, "big.png", noise(LIMIT + 1)), 413)
        == "the upload is larger than the 0.953674 MiB allowed"
    )
    assert "no photo in the upload" in error_of(client.post(f"/{TOKEN}/photos", data={"x": "1"}), 400)
    assert "malformed upload" in error_of(
        client.post(f"/{TOKEN}/photos", content=b"--x\r\nnonsense", headers={"content-type": "multipart/form-data"}),
        400,
    )


def test_a_chunked_upload_is_counted_too(client):
    def chunks():
        for _ in range(LIMIT // 65536 + 2):
            yield b"\0" * 65536

    answer = client.post(
        f"/{TOKEN}/photos", content=chunks(), headers={"content-type": "multipart/form-data; boundary=x"}
    )
    assert "larger than" in error_of(answer, 413)


def test_an_upload_past_the_room_left_is_refused_as_it_streams(client, monkeypatch):
    """An upload within the request limit that the studio has no room to
    hold is refused before the form is parsed, not read whole first (session
    10's audit: 200 MiB read into memory to be told the studio was full)."""
    held = client.app.state.studio.held_bytes()
    monkeypatch.setattr(studio_app, "MAX_HELD_BYTES", held + 100_000)
    read = []

    def never(name):
        read.append(name)
        return name

    monkeypatch.setattr(studio_app, "_display_name", never)  # called on each photo read whole
    message = f"the studio holds at most {(held + 100_000) / 2**20:g} MiB of photos; forget some first"
    assert error_of(upload(client, "big.png", noise(LIMIT // 2)), 413) == message
    assert read == []

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(8):
            yield b"\0" * 65536

    answer = client.post(
        f"/{TOKEN}/photos", content=chunks(), headers={"content-type": "multipart/form-data; boundary=x"}
    )
    assert error_of(answer, 413) == message and read == []


def test_the_number_of_photos_is_bounded(client, monkeypatch):
    monkeypatch.setattr(studio_app, "MAX_PHOTOS", len(client.app.state.studio.photos) + 1)
    files = [("photo", (f"p{i}.jpg", PHOTO.read_bytes(), "image/jpeg")) for i in range(2)]
    assert "at most" in error_of(client.post(f"/{TOKEN}/photos", files=files), 400)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "words"),
    [
        ("POST", "preview", {"content": b"{"}, 400, "not JSON"),
        ("POST", "preview", {"json": [1, 2]}, 400, "not a JSON object"),
        ("POST", "preview", {"json": {"photo": "nope"}}, 404, "no photo 'nope'"),
        ("POST", "preview", {"json": {"photo": None}}, 400, "names no photo"),
        ("POST", "preview", {"json": {}}, 400, "names no photo"),
        ("POST", "preview", {"json": {"photo": 3}}, 404, "no photo 3"),
        ("POST", "book", {"json": {"photos": "all"}}, 400, "list of photo ids"),
        ("GET", "download/nope/.rofl", {}, 404, "no preview"),
        ("GET", "previews/nope.png", {}, 404, "no preview"),
        ("GET", "photos/..%2F..%2Fetc%2Fpasswd.png", {}, 404, "Not Found"),
        ("GET", "nowhere", {}, 404, "Not Found"),
        ("PUT", "preview", {}, 405, "Method Not Allowed"),
        ("POST", "preview", {"content": b"x" * (studio_app.MAX_JSON_BYTES + 1)}, 413, "larger than"),
        # the hostile inputs of the audit in session 9
        ("POST", "preview", {"content": b"[" * 30_000 + b"]" * 30_000}, 400, "not JSON"),  # nested too deep
        ("POST", "preview", {"content": b"{}", "headers": {"content-length": "-5"}}, 400, "Content-Length"),
        ("POST", "book", {"json": {"photos": ["x"] * (studio_app.MAX_PHOTOS + 1)}}, 400, "at most 100 puzzles"),
    ],
)
def test_malformed_requests_get_an_error_json(client, method, path, kwargs, status, words):
    assert words in error_of(client.request(method, f"/{TOKEN}/{path}", **kwargs), status)


def test_bad_options_and_downloads(client, photo):
    answer = client.post(f"/{TOKEN}/preview", json={"photo": photo, "options": {"width": "-3"}})
    assert "--width" in error_of(answer, 400)
    answer = client.post(f"/{TOKEN}/preview", json={"photo": photo, "options": "width=3"})
    assert "must be a JSON object" in error_of(answer, 400)
    shown = preview(client, photo, width=16)
    assert "no download" in error_of(client.get(f"/{TOKEN}/download/{shown['id']}/sheet.exe"), 404)
    assert "cannot write puzzles with extension '.xyz'" in error_of(
        client.get(f"/{TOKEN}/download/{shown['id']}/.xyz"), 400
    )


def test_a_format_that_loses_the_colours_says_so(client, photo):
    """White on black (``--background black``) in a format without colours:
    the warning ``rofl make -o x.nin`` prints comes with the preview, for the
    page to show beside the format chosen."""
    shown = preview(client, photo, width=16, background="black")
    note = shown["caveats"][".nin"]
    assert note.startswith("the .nin format stores no colours: the puzzle's #ffffff cells on #000000")
    assert ".rofl" not in shown["caveats"] and ".xml" not in shown["caveats"]
    assert ".nin" not in preview(client, photo, width=16)["caveats"]
    hexagon = preview(client, photo, shape="hex", size=6, background="black")
    assert set(hexagon["caveats"]) <= {".rofl", ".clues"}


def test_the_difficulty_of_h42_is_an_option_of_its_own(client, photo):
    """Issue 42's ``difficulty`` came into the form with ``rofl make --difficulty``, with no list to update."""
    (field,) = [f for f in fields() if f.name == "difficulty"]
    assert field.choices == ("easy", "medium", "hard", "expert")
    shown = preview(client, photo, width=15, difficulty="easy")
    assert any(line.startswith("difficulty: ") for line in shown["report"].splitlines())
    sheet = client.get(f"/{TOKEN}/download/{shown['id']}/sheet.svg").text
    assert re.search(r">chelsea \((easy|medium|hard|expert), \d/5\)<", sheet)  # its grade, as rofl make's sheet
    error = client.post(f"/{TOKEN}/preview", json={"photo": photo, "options": {"shape": "hex", "difficulty": "easy"}})
    assert "hexagon" in error_of(error, 400)
