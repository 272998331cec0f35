"""The preview's web app (Starlette): one page, its script and style, the images, the state
as JSON and a stream of server-sent events.

Safe by construction: static files come from a fixed list shipped in the package, images
from the render cache by key; no request names a path on disk. Only GET (and HEAD) exist,
so nothing can be written through it. Only requests to the preview's own address are
answered (`hosts.HostGuard`), so a web page cannot read it by DNS rebinding.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from toolkit.preview.hosts import AllowedHosts, HostGuard
from toolkit.preview.live import Preview

STATIC = {  # URL name → (file in toolkit/preview/static, media type)
    "app.js": ("app.js", "text/javascript; charset=utf-8"),
    "style.css": ("style.css", "text/css; charset=utf-8"),
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self';"
        " connect-src 'self'; frame-ancestors 'none'"
    ),
}
PING_SECONDS = 1.0
STOP_POLL_SECONDS = 0.1  # how soon an image request hears that the preview stops


class StateResponse(JSONResponse):
    """JSON as Starlette writes it, a name read from the file system in bytes that are not
    UTF-8 (`icons/a\\xffb.svg`, held as a surrogate) written as its JSON escape: encoding it
    failed, and every request for the state answered 500 (probe 66-1)."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "backslashreplace")


def _static(name: str) -> bytes:
    return files("toolkit.preview").joinpath("static", name).read_bytes()


def make_app(preview: Preview, allowed: AllowedHosts) -> Starlette:
    """The app serving `preview` to requests for the `allowed` hosts; the caller runs the
    preview's worker and watcher."""

    async def index(request: Request) -> Response:
        body = _static("index.html")
        return Response(body, media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)

    async def static(request: Request) -> Response:
        entry = STATIC.get(request.path_params["name"])
        if entry is None:
            return Response("not found", status_code=404)
        return Response(_static(entry[0]), media_type=entry[1], headers=SECURITY_HEADERS)

    async def state(request: Request) -> Response:
        return StateResponse(preview.state(), headers={"Cache-Control": "no-store"})

    async def image(request: Request) -> Response:
        key = request.path_params["key"]
        # Drawing takes a few milliseconds to a second: off the event loop, in threads the
        # preview owns (a stop waits for none of them; see toolkit.preview.drawers)
        work = asyncio.wrap_future(preview.drawers.submit(preview.page, key))
        try:
            while not (await asyncio.wait({work}, timeout=STOP_POLL_SECONDS))[0]:
                if preview.stopping:  # the drawing may go on: its answer is not waited for
                    work.cancel()
                    return _stopping()
            png = work.result()
        except asyncio.CancelledError:  # a stopping server cancelled the request: no traceback
            return _stopping()
        if png is None:
            return Response("no such image", status_code=404)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def events(request: Request) -> Response:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def listener(data: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(inbox.put_nowait, data)

        preview.subscribe(listener)

        async def stream() -> AsyncIterator[str]:
            try:
                yield _event(preview.state())
                while not preview.stopping:
                    try:
                        data = await asyncio.wait_for(inbox.get(), PING_SECONDS)
                    except TimeoutError:
                        yield ": ping\n\n"  # also notices a closed tab
                        continue
                    while not inbox.empty():  # only the newest of a burst of states
                        data = inbox.get_nowait()
                    yield _event(data)
            finally:
                preview.unsubscribe(listener)

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/api/state", state, methods=["GET"]),
        Route("/img/{key:path}", image, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(HostGuard, allowed=allowed)])


def _stopping() -> Response:
    return Response("the preview is stopping", status_code=503)


def _event(data: dict[str, Any]) -> str:
    return f"event: state\nid: {data.get('revision', 0)}\ndata: {json.dumps(data)}\n\n"
