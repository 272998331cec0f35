"""`playset preview`: a local web page of a game's cards, board and rulebook, live."""

from __future__ import annotations

import signal
import sys
from typing import Annotated

import typer

from toolkit.cli.common import escape, game_folders, stderr, usage_error

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
PREVIEW_GAME_HELP = (
    "A bundled game's id or the path of a game folder (default: the game folder you are in)."
)


def preview(
    game: Annotated[str | None, typer.Argument(help=PREVIEW_GAME_HELP)] = None,
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8765,
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on (an IPv6 one as ::1 or [::1]); other machines can see "
            "the page if not local."
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve a live preview: every card front and back, the board and the rulebook, redrawn
    when a file is saved, with the diagnostics beside the cards. Ctrl-C stops it."""
    try:
        from toolkit.preview.serve import HostNotHere, PortInUse, address, bind, serve
    except ImportError as exc:  # the optional extra is not installed
        raise usage_error(f"the preview needs {exc.name}: pip install 'playset[preview]'") from None

    folders = game_folders([game] if game else None)
    if len(folders) != 1:
        names = ", ".join(folder.name for folder in folders)
        raise usage_error(f"name the game to preview (bundled: {names})")
    from toolkit.preview.store import no_cache_env

    try:  # the image store's reader, as validate and build read it (`maybe` was "on")
        no_cache_env()
    except ValueError as exc:
        raise usage_error(str(exc)) from None
    if not host.strip():  # the socket layer reads '' as every address: say it plainly
        raise usage_error("--host is empty; give 0.0.0.0 to listen on every address")
    if host.startswith("[") and host.endswith("]") and ":" in host:
        host = host[1:-1]  # an IPv6 address as URLs write it ([::1]): the socket wants ::1
    if not 0 <= port <= 65535:
        raise usage_error(f"--port must be between 0 and 65535, not {port}")
    try:
        sock = bind(host, port)
    except PortInUse as exc:
        hint = (
            "--host 127.0.0.1, or 0.0.0.0 for every address"
            if isinstance(exc, HostNotHere)
            else "--port 0"
        )
        stderr.print(f"[red]error:[/red] {escape(str(exc))} (try {hint})")
        raise typer.Exit(2) from None

    def ready(session: object) -> None:
        typer.echo(f"Preview of {folders[0]} at {address(sock)}  (Ctrl-C stops)", err=False)
        sys.stdout.flush()  # a program reading the address (--port 0) gets it now
        if host not in LOCAL_HOSTS:
            stderr.print(
                f"[yellow]warning:[/yellow] other machines can open the page ({escape(host)})"
            )

    stopped_by: int | None = None
    try:
        stopped_by = serve(folders[0], sock, ready, host)
    except KeyboardInterrupt:  # uvicorn already stopped cleanly
        stopped_by = signal.SIGINT
    typer.echo("preview stopped", err=True)
    if stopped_by:  # as every command stopped by Ctrl-C (130) or SIGTERM (143)
        raise typer.Exit(128 + int(stopped_by))
