"""`playset lsp`: the language server over stdio, for editors."""

from __future__ import annotations


def lsp() -> None:
    """Run the language server over stdin/stdout (for an editor's LSP client): findings as
    you type, completion of the game's names, hover, go to definition, quick fixes."""
    import typer

    from toolkit.lsp.server import serve

    code = serve()
    if code:  # `exit` without a shutdown request first (the LSP specification's 1)
        raise typer.Exit(code)
