"""`playset lsp`: the language server over stdio, for editors."""

from __future__ import annotations


def lsp() -> None:
    """Run the language server over stdin/stdout (for an editor's LSP client): findings as
    you type, completion of the game's names, hover, go to definition, quick fixes."""
    from toolkit.lsp.server import serve

    serve()
