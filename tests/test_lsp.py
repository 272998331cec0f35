"""`playset lsp` driven as an editor drives it (pytest-lsp, over stdio): findings as the
designer types, completion of the game's names, hover, go to definition, a quick fix."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import REPO, copy_game

pytestmark = pytest.mark.asyncio
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "toolkit", "lsp"], server_env=ENV
    )
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def _findings(client: LanguageClient, uri: str, want, timeout: float = 60.0) -> list:
    """The file's published findings once `want(findings)` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        found = client.diagnostics.get(uri)
        if found is not None and want(list(found)):
            return list(found)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no such findings for {uri}: {client.diagnostics.get(uri)}")


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(
                uri, "yaml", 1, path.read_text(encoding="utf-8") if text is None else text
            )
        )
    )
    return uri


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)],
        )
    )


async def _complete(client: LanguageClient, uri: str, line: int, col: int) -> set[str]:
    found = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, col))
    )
    items = found.items if isinstance(found, lsp.CompletionList) else found or []
    return {i.label for i in items}


@pytest.mark.slow
async def test_an_editing_session(client: LanguageClient, tmp_path: Path):
    """One session on the largest bundled game, as an editor would run it: each edit is a
    check of the whole game (about 1 s on a quiet machine; the test runs ten of them, so it
    takes 15-60 s; starting one server per step would take longer)."""
    game = copy_game(REPO / "content" / "whisky-game", tmp_path / "whisky-game")
    bottles = game / "decks" / "bottles.yaml"
    source = bottles.read_text(encoding="utf-8")
    uri = _open(client, bottles)
    assert await _findings(client, uri, lambda f: f == []) == []  # the bundled deck is clean

    # a reference typo, unsaved: its R finding at the misspelt id
    typo = source.replace(
        "region: speyside, difficulty: easy}", "region: speysde, difficulty: easy}", 1
    )
    _change(client, uri, 2, typo)
    found_all = await _findings(client, uri, lambda f: any(d.code.startswith("R") for d in f))
    found = next(d for d in found_all if d.code.startswith("R"))
    line = typo.splitlines().index(next(x for x in typo.splitlines() if "speysde" in x))
    assert (found.range.start.line, found.range.start.character) == (
        line,
        typo.splitlines()[line].index("speysde"),
    )
    assert "did you mean 'speyside'" in found.message
    assert bottles.read_text(encoding="utf-8") == source  # the file on disk is untouched

    # the quick fix for it: the suggested id in its place
    fixes = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri), found.range, lsp.CodeActionContext([found])
        )
    )
    replace = next(a for a in fixes if a.title.startswith("Replace"))
    (edit,) = replace.edit.changes[uri]
    assert edit.new_text == "speyside"
    assert any(a.title.startswith("Ignore R") for a in fixes)
    _change(client, uri, 3, source)
    await _findings(client, uri, lambda f: f == [])

    # go to definition: a bottle's distillery is a space of the map
    row = source.splitlines().index(
        next(x for x in source.splitlines() if "distillery: glenlivet" in x)
    )
    col = source.splitlines()[row].index("glenlivet,") + 2
    place = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(row, col))
    )
    board = game / "boards" / "map.yaml"
    target = board.read_text(encoding="utf-8").splitlines().index("  - id: glenlivet")
    assert place.uri == board.resolve().as_uri() and place.range.start.line == target

    # completion: a card id in a layout's `when`, an icon after `icon:`
    token = game / "layouts" / "wg-token.yaml"
    layout = token.read_text(encoding="utf-8")
    lines = layout.splitlines()
    at = lines.index('    icon: "{{ card.resource }}"')
    lines[at] = "    icon: "
    lines.insert(at, "    when: \"card.id == 'tok")
    token_uri = _open(client, token, "\n".join(lines) + "\n")
    await _findings(client, token_uri, lambda f: True)
    ids = await _complete(client, token_uri, at, len(lines[at]))
    # the game's ids that start with the word typed (at most 100 an answer)
    assert {"token-water", "token-barley"} <= ids and all(i.startswith("tok") for i in ids)
    icons = await _complete(client, token_uri, at + 1, len("    icon: "))
    assert {"barrel", "bottle", "water"} <= icons

    # hover: a glossary term a rulebook prints
    rulebook = game / "rulebook" / "fr.md"
    text = rulebook.read_text(encoding="utf-8")
    book_uri = _open(client, rulebook)
    row = text.splitlines().index(next(x for x in text.splitlines() if "fifty-fifty" in x))
    hover = await client.text_document_hover_async(
        lsp.HoverParams(
            lsp.TextDocumentIdentifier(book_uri),
            lsp.Position(row, text.splitlines()[row].index("fifty-fifty") + 3),
        )
    )
    assert "fr: 50/50" in hover.contents.value and "en:" in hover.contents.value

    # the typography fix: a French exclamation mark without its space
    specials = game / "decks" / "specials.yaml"
    plain = specials.read_text(encoding="utf-8")
    broken = plain.replace("en couleur, puis répondez.", "en couleur, puis répondez!", 1)
    specials_uri = _open(client, specials, broken)
    found = await _findings(client, specials_uri, lambda f: any(d.code.startswith("T") for d in f))
    fixes = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(specials_uri),
            found[0].range,
            lsp.CodeActionContext(found),
        )
    )
    typography = next(a for a in fixes if a.title.startswith("Fix typography"))
    (edit,) = typography.edit.changes[specials_uri]
    assert edit.new_text == broken.replace("répondez!", "répondez\u202f!", 1)

    for each in (uri, token_uri, book_uri, specials_uri):
        client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(each))
        )
