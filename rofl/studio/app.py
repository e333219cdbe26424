"""The studio's web application (Starlette): the page, uploads, previews, downloads.

Safe by default:

- every request must carry the session's random token as the first part of
  its path (``/<token>/...``), compared in constant time; any other request
  gets 403 and an error JSON;
- uploads are bounded by rofl's resource policy for pictures
  (:data:`rofl.picture.load.MAX_FILE_BYTES` a request,
  :data:`rofl.picture.load.MAX_PIXELS` a picture, decompression bombs refused
  with one message) and by :data:`MAX_PHOTOS` photos and
  :data:`MAX_HELD_BYTES` held at once, each counted as the body streams
  in (413 with a message the page shows), never after it was read;
- photos and results are held in memory under server-chosen ids: nothing
  the browser sends names a file;
- a malformed request gets an error JSON (``{"error": "..."}``), never a
  traceback page.

The making runs in a worker process (:mod:`rofl.studio.work`); downloads
are rofl's own writers (:func:`rofl.formats.puzzle_bytes`,
:func:`rofl.render.sheet.sheet_bytes`, :func:`rofl.render.page.puzzle_page`)
applied to the previewed puzzle.
"""

from __future__ import annotations

import asyncio
import hmac
import io
import json
import multiprocessing
import re
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from rofl.studio import work

#: Most photos the studio holds at once (a book's worth).
MAX_PHOTOS = 100
#: Most bytes of photos the studio holds at once (one picture file's limit).
MAX_HELD_BYTES = 256 * 1024 * 1024
#: Worker processes making previews.  Two: a superseded preview stops at
#: its next progress callback, but the stages before refinement (loading,
#: styles, quantising) call none, so the newest preview starts at once in the
#: other worker instead of waiting for them.
PREVIEW_WORKERS = 2
#: Most previews kept for downloads (the oldest is dropped first).
KEPT_PREVIEWS = 64
#: Longest side of the photo shown beside the preview, in pixels.
THUMBNAIL = 480
#: Largest JSON body (options and photo ids).
MAX_JSON_BYTES = 64 * 1024
#: Bytes an upload's multipart framing (boundaries, part headers) may add to
#: its photos' when the studio's room for photos bounds the upload.
FORM_SLACK = 64 * 1024


@dataclass
class Photo:
    name: str
    data: bytes
    thumbnail: bytes
    size: tuple[int, int]


@dataclass
class Studio:
    """The state of one studio session."""

    token: str
    max_upload_bytes: int
    photos: dict[str, Photo] = field(default_factory=dict)
    previews: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    made: dict[str, str] = field(default_factory=dict)  # (photo, options) key -> preview id
    number: int = 0
    pool: ProcessPoolExecutor | None = None
    book_pool: ProcessPoolExecutor | None = None
    newest: Any = None
    progress: Any = None

    def held_bytes(self) -> int:
        return sum(len(p.data) for p in self.photos.values())


class RequestError(Exception):
    """A request the studio refuses: its message goes back as ``{"error": ...}``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def create_app(*, token: str | None = None, max_upload_bytes: int | None = None, warm: bool = True):
    """The studio's ASGI application.

    Parameters
    ----------
    token : str, optional
        The secret every request's path starts with; default a fresh random one.
    max_upload_bytes : int, optional
        Largest upload request; default :data:`rofl.picture.load.MAX_FILE_BYTES`.
    warm : bool
        Start the worker process and load its kernels when the app starts.

    Returns
    -------
    starlette.applications.Starlette
        ``app.state.studio`` is the :class:`Studio`.
    """
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import Route

    from rofl.errors import RoflError
    from rofl.picture.load import MAX_FILE_BYTES

    studio = Studio(token=token or secrets.token_urlsafe(24), max_upload_bytes=max_upload_bytes or MAX_FILE_BYTES)

    @asynccontextmanager
    async def lifespan(app):
        ctx = multiprocessing.get_context("spawn")
        studio.newest = ctx.Value("q", 0)
        studio.progress = ctx.Array("q", 4)
        _restart(studio)
        if warm:
            for _ in range(PREVIEW_WORKERS):
                studio.pool.submit(time.sleep, 0.5)  # starts the workers, which load the kernels
        try:
            yield
        finally:
            for pool in (studio.pool, studio.book_pool):
                if pool is not None:
                    _stop(pool)

    routes = [
        Route("/{token}/", _page, methods=["GET"]),
        Route("/{token}/options", _options, methods=["GET"]),
        Route("/{token}/photos", _upload, methods=["POST"]),
        Route("/{token}/photos/{photo}.png", _thumbnail, methods=["GET"]),
        Route("/{token}/photos/{photo}", _forget, methods=["DELETE"]),
        Route("/{token}/preview", _preview, methods=["POST"]),
        Route("/{token}/progress", _progress, methods=["GET"]),
        Route("/{token}/previews/{preview}.png", _preview_png, methods=["GET"]),
        Route("/{token}/download/{preview}/{what}", _download, methods=["GET"]),
        Route("/{token}/play/{preview}", _play, methods=["GET"]),
        Route("/{token}/book", _book, methods=["POST"]),
    ]

    async def refused(request, exc: Exception):
        from starlette.responses import JSONResponse

        if isinstance(exc, RequestError):
            return JSONResponse({"error": str(exc)}, exc.status)
        if isinstance(exc, RoflError):
            return JSONResponse({"error": str(exc)}, 400)
        if isinstance(exc, HTTPException):
            return JSONResponse({"error": exc.detail}, exc.status_code)
        return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, 500)

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={Exception: refused, HTTPException: refused, RequestError: refused, RoflError: refused},
    )
    app.state.studio = studio
    return _Guard(app, studio)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down now: running jobs are not waited for."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


class _Guard:
    """ASGI middleware: the token on every request, and the size of every body.

    A request whose path does not start with ``/<token>/`` gets 403 before
    any routing; a body longer than the studio allows ends the request
    with 413, whether or not it declared its length."""

    def __init__(self, app, studio: Studio) -> None:
        self.app = app
        self.studio = studio
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self.app(scope, receive, send)
        if scope["type"] != "http":
            return await _error(send, 403, "only HTTP requests")
        given = scope.get("path", "").split("/")[1] if scope.get("path", "").startswith("/") else ""
        if not hmac.compare_digest(given.encode(), self.studio.token.encode()):
            return await _error(send, 403, "this request does not carry the studio's token (open the URL it printed)")
        limit, refusal = self._limit(scope)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and not length.isdigit():
            shown = length[:40].decode("latin-1")
            return await _error(send, 400, f"the request's Content-Length is not a number of bytes: {shown!r}")
        if length is not None and int(length) > limit:
            return await _error(send, 413, refusal)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise RequestError(refusal, 413)
            return message

        await self.app(scope, counted, send)

    def _limit(self, scope) -> tuple[int, str]:
        """The most bytes the request's body may have, and the message past them.

        An upload of photos may bring no more than the studio has room to
        hold (:data:`MAX_HELD_BYTES`, less the photos it holds, plus the
        form's own framing): refused as it streams, rather than read whole
        and then refused (session 10's audit: 200 MiB read into memory to be
        told the studio was full)."""
        if not scope["path"].endswith("/photos"):
            return MAX_JSON_BYTES, _too_large(MAX_JSON_BYTES)
        room = MAX_HELD_BYTES - self.studio.held_bytes() + FORM_SLACK
        if room < self.studio.max_upload_bytes:
            return room, _held_full()
        return self.studio.max_upload_bytes, _too_large(self.studio.max_upload_bytes)


def _held_full() -> str:
    return f"the studio holds at most {MAX_HELD_BYTES / 2**20:g} MiB of photos; forget some first"


def _too_large(limit: int) -> str:
    return f"the upload is larger than the {limit / 2**20:g} MiB allowed"


async def _error(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _studio(request) -> Studio:
    return request.app.state.studio


async def _json(request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        msg = "the request's body is not JSON"
        raise RequestError(msg) from None
    if not isinstance(body, dict):
        msg = "the request's body is not a JSON object"
        raise RequestError(msg)
    return body


# ---------------------------------------------------------------- the page


async def _page(request):
    from starlette.responses import HTMLResponse

    html = resources.files("rofl.studio").joinpath("studio.html").read_text(encoding="utf-8")
    headers = {"Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; style-src 'self' "
               "'unsafe-inline'; script-src 'self' 'unsafe-inline'", "Cache-Control": "no-store",
               "Referrer-Policy": "no-referrer"}  # fmt: skip
    return HTMLResponse(html, headers=headers)


async def _options(request):
    from starlette.responses import JSONResponse

    from rofl.formats import FORMATS
    from rofl.picture.load import MAX_PIXELS
    from rofl.studio.options import fields

    writers = [
        {"extension": f.extension, "name": f.name, "colour": f.colour, "hexagon": f.hexagon}
        for f in FORMATS
        if f.write is not None
    ]
    studio = _studio(request)
    limits = {"bytes": studio.max_upload_bytes, "pixels": MAX_PIXELS, "photos": MAX_PHOTOS}
    return JSONResponse({"fields": [f.as_json() for f in fields()], "formats": writers, "limits": limits})


# ---------------------------------------------------------------- photos


async def _upload(request):
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import UploadFile
    from starlette.responses import JSONResponse

    studio = _studio(request)
    room = MAX_PHOTOS - len(studio.photos)
    full = f"the studio holds at most {MAX_PHOTOS} photos; forget some first"
    try:
        form = await request.form(max_files=max(room, 1), max_fields=10)
    except RequestError:
        raise
    except Exception as exc:  # python-multipart's and Starlette's refusals of a malformed form
        detail = str(getattr(exc, "detail", exc))
        raise RequestError(full if detail.startswith("Too many files") else f"malformed upload: {detail}") from None
    files = [f for f in form.getlist("photo") if isinstance(f, UploadFile)]
    if not files:
        msg = "no photo in the upload (a multipart form with 'photo' files)"
        raise RequestError(msg)
    if len(files) > room:
        raise RequestError(full)
    uploads = [(_display_name(f.filename), await f.read()) for f in files]
    await form.close()
    if studio.held_bytes() + sum(len(d) for _, d in uploads) > MAX_HELD_BYTES:  # within the form's slack
        raise RequestError(_held_full(), 413)
    photos = [await run_in_threadpool(_checked_photo, name, data) for name, data in uploads]
    ids = []
    for photo in photos:
        key = secrets.token_hex(8)
        studio.photos[key] = photo
        ids.append({"id": key, "name": photo.name, "width": photo.size[0], "height": photo.size[1]})
    return JSONResponse({"photos": ids})


def _display_name(name: str | None) -> str:
    """A file name from the browser, only ever shown or used as a title: its last part, printable."""
    name = re.split(r"[\\/]", name or "")[-1]
    name = "".join(ch for ch in name if ch.isprintable())[:120]
    return name or "photo"


def _checked_photo(name: str, data: bytes) -> Photo:
    """Read a photo as ``rofl make`` will (the same limits), or one error naming it."""
    from PIL import Image

    from rofl.errors import ImageError
    from rofl.picture import load_pixels

    try:
        pixels = load_pixels(data)
    except ImageError as exc:
        raise RequestError(str(exc).replace("<bytes>", name, 1)) from None
    if pixels.dtype != "uint8":
        pixels = (pixels >> 8).astype("uint8")
    image = Image.fromarray(pixels)
    image.thumbnail((THUMBNAIL, THUMBNAIL))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return Photo(name, data, buf.getvalue(), (pixels.shape[1], pixels.shape[0]))


def _photo(studio: Studio, key: Any) -> Photo:
    if key is None:
        msg = "the request names no photo (its 'photo' field)"
        raise RequestError(msg)
    if not isinstance(key, str) or key not in studio.photos:
        msg = f"no photo {key!r} (upload it first)"
        raise RequestError(msg, 404)
    return studio.photos[key]


async def _thumbnail(request):
    from starlette.responses import Response

    photo = _photo(_studio(request), request.path_params["photo"])
    return Response(photo.thumbnail, media_type="image/png")


async def _forget(request):
    from starlette.responses import JSONResponse

    studio = _studio(request)
    _photo(studio, request.path_params["photo"])
    del studio.photos[request.path_params["photo"]]
    return JSONResponse({"photos": len(studio.photos)})


# ---------------------------------------------------------------- previews


def _options_of(body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    from rofl.studio.options import make_options

    form = body.get("options", {})
    if not isinstance(form, dict):
        msg = "'options' must be a JSON object"
        raise RequestError(msg)
    return make_options(form)


async def _preview(request):
    """Make the puzzle of a photo with the options; a newer request supersedes this one."""
    from starlette.responses import JSONResponse

    studio = _studio(request)
    body = await _json(request)
    key = body.get("photo")
    photo = _photo(studio, key)
    options, ignored = _options_of(body)
    made_key = json.dumps([key, options], sort_keys=True)
    studio.number += 1
    number = studio.number
    studio.newest.value = number
    known = studio.made.get(made_key)
    if known in studio.previews:
        return JSONResponse(_public(known, studio.previews[known], ignored))
    future = studio.pool.submit(work.preview, number, photo.data, photo.name, options)
    try:
        result = await asyncio.wrap_future(future)
    except work.Superseded:
        return JSONResponse({"superseded": True})
    except Exception as exc:
        from concurrent.futures.process import BrokenProcessPool

        if isinstance(exc, BrokenProcessPool):
            _restart(studio)
            msg = "the worker process died (out of memory?); try a smaller puzzle"
            raise RequestError(msg, 500) from None
        raise
    preview_id = secrets.token_hex(8)
    studio.previews[preview_id] = result
    studio.made[made_key] = preview_id
    while len(studio.previews) > KEPT_PREVIEWS:
        studio.previews.popitem(last=False)
    if number != studio.number:
        return JSONResponse({"superseded": True})
    return JSONResponse(_public(preview_id, result, ignored))


def _restart(studio: Studio) -> None:
    """A new pool of preview workers (spawned: no copy of the server's threads and event loop)."""
    ctx = multiprocessing.get_context("spawn")
    studio.pool = ProcessPoolExecutor(
        PREVIEW_WORKERS, ctx, initializer=work.start, initargs=(studio.newest, studio.progress)
    )


def _public(preview_id: str, result: dict[str, Any], ignored: list[str]) -> dict[str, Any]:
    shown = {k: v for k, v in result.items() if k not in ("png", "rofl", "puzzle", "grid", "graded")}
    return {"id": preview_id, "image": f"previews/{preview_id}.png", "ignored": ignored, **shown}


async def _progress(request):
    from starlette.responses import JSONResponse

    studio = _studio(request)
    number, stage, done, total = list(studio.progress) if studio.progress is not None else (0, 0, 0, 0)
    return JSONResponse(
        {"number": number, "newest": studio.number, "stage": work.STAGES[stage], "done": done, "total": total}
    )


def _kept(studio: Studio, preview_id: str) -> dict[str, Any]:
    if preview_id not in studio.previews:
        msg = f"no preview {preview_id!r} (make it again)"
        raise RequestError(msg, 404)
    return studio.previews[preview_id]


async def _preview_png(request):
    from starlette.responses import Response

    result = _kept(_studio(request), request.path_params["preview"])
    return Response(result["png"], media_type="image/png")


# ---------------------------------------------------------------- downloads

#: Downloads besides the puzzle formats: name -> (file extension, media type).
DRAWINGS = {"sheet.pdf": (".pdf", "application/pdf"), "sheet.png": (".png", "image/png"),
            "sheet.svg": (".svg", "image/svg+xml"), "page": (".html", "text/html")}  # fmt: skip


def _file_bytes(result: dict[str, Any], what: str) -> tuple[bytes, str, str]:
    """``(bytes, extension, media type)`` of a download: a puzzle format by its
    extension (``.rofl``), a sheet or the HTML page."""
    from rofl.formats import puzzle_bytes

    puzzle = result["puzzle"]
    if what in DRAWINGS:
        suffix, media = DRAWINGS[what]
        if what == "page":
            from rofl.render.page import puzzle_page

            return puzzle_page(puzzle).encode("utf-8"), suffix, media
        from rofl.render.sheet import sheet_bytes

        return sheet_bytes(puzzle, suffix, difficulty=result.get("graded", False)), suffix, media
    if not re.fullmatch(r"\.[a-z0-9]{1,10}", what):
        msg = f"no download {what!r}"
        raise RequestError(msg, 404)
    if what == ".rofl":
        return result["rofl"], what, "application/octet-stream"
    return puzzle_bytes(f"puzzle{what}", puzzle, result["grid"]), what, "application/octet-stream"


def _attachment(title: str, suffix: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", title).strip("-.") or "puzzle"
    return f'attachment; filename="{stem[:80]}{suffix}"'


async def _download(request):
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import Response

    result = _kept(_studio(request), request.path_params["preview"])
    data, suffix, media = await run_in_threadpool(_file_bytes, result, request.path_params["what"])
    return Response(data, media_type=media, headers={"Content-Disposition": _attachment(result["title"], suffix)})


async def _play(request):
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse

    result = _kept(_studio(request), request.path_params["preview"])
    data, _, _ = await run_in_threadpool(_file_bytes, result, "page")
    return HTMLResponse(data.decode("utf-8"))


async def _book(request):
    """A PDF book of the chosen photos' puzzles, made with the same options, in a worker of its own."""
    from starlette.responses import Response

    studio = _studio(request)
    body = await _json(request)
    keys = body.get("photos")
    if not isinstance(keys, list) or not keys:
        msg = "'photos' must be a list of photo ids"
        raise RequestError(msg)
    if len(keys) > MAX_PHOTOS:  # an id may come twice, but a book is no bigger than the photos held
        msg = f"a book holds at most {MAX_PHOTOS} puzzles, not {len(keys)}"
        raise RequestError(msg)
    photos = [_photo(studio, key) for key in keys]
    options, _ = _options_of(body)
    if studio.book_pool is None:
        ctx = multiprocessing.get_context("spawn")
        studio.book_pool = ProcessPoolExecutor(
            1, ctx, initializer=work.start, initargs=(studio.newest, studio.progress)
        )
    future = studio.book_pool.submit(work.book, [(p.data, p.name) for p in photos], options, -1)
    data = await asyncio.wrap_future(future)
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": _attachment("book", ".pdf")})
