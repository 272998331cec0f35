"""Which `Host` and `Origin` the preview answers: its own addresses only.

A web page the user visits can make its own domain name resolve to 127.0.0.1 (DNS
rebinding); the browser then sends that page's requests to the preview with the page's name in
`Host` and lets it read the answers as same-origin: the game's state, its images, the event
stream. So the preview answers only a `Host` that names it: 127.0.0.1, localhost, ::1 or the
`--host` given, with its own port. Listening on every interface (`--host 0.0.0.0`), any IP
address and this machine's name are accepted too: other machines reach it by those, and no
DNS answer can rebind an IP address. A request whose `Origin` is another site is refused
as well (the page's own requests carry none, or its own).

An image needs no rebinding: any site's page could load `/img/<key>` in an `<img>` (a
browser sends no `Origin` with it) and learn from onload, onerror and the image's size which
card ids, languages and rulebook pages exist. So a request a browser marks as made by another
site's page (`Sec-Fetch-Site` other than same-origin or none) is refused, but for a link
followed to the page; and every answer says `Cross-Origin-Resource-Policy: same-origin`,
which browsers that send no `Sec-Fetch-Site` heed.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
HOST = re.compile(
    r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[^\[\]:/@\s]+))(?::(?P<port>[0-9]{1,5}))?\Z"
)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AllowedHosts:
    """The names a request's `Host` may give, and the port it must (None: any port)."""

    names: frozenset[str]
    port: int | None
    any_ip: bool = False

    @classmethod
    def for_server(cls, host: str, port: int | None) -> AllowedHosts:
        """The hosts of a preview listening on `host` (as `--host` gave it) and `port`."""
        given = host.strip().strip("[]").lower()
        names = {*LOCAL_NAMES, given}
        wildcard = given in WILDCARDS
        if wildcard:
            names.add(socket.gethostname().lower())
        return cls(frozenset(names - {""}), port, wildcard)

    def allows(self, header: str) -> bool:
        """Whether a `Host` header value (`name`, `name:port`, `[v6]:port`) names us."""
        found = HOST.match(header.strip())
        if found is None:
            return False
        name = (found["v6"] or found["name"]).lower()
        port = int(found["port"]) if found["port"] else 80
        if self.port is not None and port != self.port:
            return False
        return name in self.names or (self.any_ip and _is_ip(name))

    def allows_origin(self, origin: str) -> bool:
        """Whether an `Origin` header value is one of our own addresses."""
        parts = urlsplit(origin.strip())
        return parts.scheme == "http" and not parts.path and self.allows(parts.netloc)


OWN_SITES = ("same-origin", "none")  # `Sec-Fetch-Site` of the page's requests, a typed address
CORP = (b"cross-origin-resource-policy", b"same-origin")


TOP_LEVEL = ("document", "")  # `Sec-Fetch-Dest` of a link followed in a tab (or not said)


def from_another_site(headers: Headers) -> bool:
    """Whether a browser says another site's page made this request (a link followed to
    the page excepted: what it opens loads only its own data). A frame another site's
    page holds (`Sec-Fetch-Dest: iframe`, embed, object) is that page's request: it drew
    any card on request and its load time told which keys exist."""
    site = headers.get("sec-fetch-site")
    if site is None or site.strip().lower() in OWN_SITES:
        return False
    navigated = headers.get("sec-fetch-mode", "").strip().lower() == "navigate"
    return not navigated or headers.get("sec-fetch-dest", "").strip().lower() not in TOP_LEVEL


class HostGuard:
    """ASGI middleware: 421 for a `Host` that is not ours, 403 for another site's `Origin`
    or request; every answer marked for this origin only."""

    def __init__(self, app: Any, allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # the app has no websocket route: the router refuses
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        hosts = headers.getlist("host")
        origin = headers.get("origin")
        if len(hosts) != 1 or not self.allowed.allows(hosts[0]):
            refusal = PlainTextResponse(
                "this preview answers only at its own address (127.0.0.1 or localhost)",
                status_code=421,
            )
        elif (origin is not None and not self.allowed.allows_origin(origin)) or (
            from_another_site(headers)
        ):
            refusal = PlainTextResponse("requests from other sites are refused", status_code=403)
        else:
            await self.app(scope, receive, _same_origin_only(send))
            return
        await refusal(scope, receive, _same_origin_only(send))


def _same_origin_only(send: Any) -> Any:
    """`send` with the Cross-Origin-Resource-Policy header added to the response's head."""

    async def sender(message: Any) -> None:
        if message.get("type") == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), CORP]}
        await send(message)

    return sender
