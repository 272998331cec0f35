"""Only a local file's document is a file of the game (probe 35, M1). The server took any
URI's path as a local file: the `git:` old side of VS Code's diff view, an `http://…` page
or a share's `file://otherhost/…` replaced the unsaved text of the file open beside it
(an error typed there showed as clean), and closing it dropped that text for the file on
disk. Each document's text is kept by its URI: closing one never drops another's."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tests import test_lsp
from tests.conftest import FIXTURES, REPO
from toolkit.lsp.server import path_of

ENV = {**os.environ, "PYTHONPATH": str(REPO)}
client = test_lsp.client  # the fixture: a server started as an editor starts it
_findings = test_lsp._findings
UNSAVED = ("  fr: Jeu témoin\n", "  fr: Jeu témoin!\n")  # T010: no narrow space before '!'


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text))
    )


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


def _game(tmp_path: Path) -> tuple[Path, str, str]:
    """A game, its game.yaml's text on disk and the same text with an unsaved finding (one
    that leaves the game's other files checked)."""
    root = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", root)
    saved = (root / "game.yaml").read_text(encoding="utf-8")
    assert UNSAVED[0] in saved
    return root, saved, saved.replace(*UNSAVED, 1)


def _has_error(found: list) -> bool:
    return any(d.code == "T010" for d in found)


async def _after_a_check(client: LanguageClient, root: Path, nth: int) -> None:
    """Wait for a check of the game that started after every message sent so far (the nth
    such wait): the glossary given an error at a line of its own, seen there (the game's
    other files are published before it: each file that had findings comes first)."""
    glossary = (root / "glossary.yaml").as_uri()
    text = "\n" * (nth * 2) + "terms: [\n"
    if nth == 1:
        _open(client, glossary, text)
    else:
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=nth, uri=glossary),
                [lsp.TextDocumentContentChangeWholeDocument(text)],
            )
        )
    await _findings(client, glossary, lambda f: any(d.range.start.line >= nth * 2 for d in f))
    await asyncio.sleep(0.3)  # anything else that check published


@pytest.mark.parametrize(
    "uri",
    [
        "git:{path}?%7B%22ref%22%3A%22HEAD%22%7D",  # VS Code's diff view: the committed side
        "http://example.com{path}",
        "file://otherhost{path}",
        "vscode-remote://ssh-remote%2Bbox{path}",
    ],
)
def test_only_a_local_file_uri_is_a_file(uri):
    assert path_of(uri.format(path="/g/game.yaml")) is None


@pytest.mark.parametrize(
    "uri", ["file:///g/game.yaml", "file://localhost/g/game.yaml", "file://LOCALHOST/g/game.yaml"]
)
def test_a_local_file_uri_is_its_file(uri):
    assert path_of(uri) == Path("/g/game.yaml")


def test_a_uri_that_is_no_local_path_is_no_file():
    assert path_of("file:game.yaml") is None  # relative: to which folder?
    assert path_of("file:///g/a%00b.yaml") is None
    assert path_of("file://[x/g/game.yaml") is None  # no host urlparse can read
    assert path_of("file:///g/caf%C3%A9.yaml") == Path("/g/café.yaml")


@pytest.mark.asyncio
async def test_another_documents_text_never_replaces_the_files(
    client: LanguageClient, tmp_path: Path
):
    root, saved, unsaved = _game(tmp_path)
    path = (root / "game.yaml").as_posix()
    game_uri = (root / "game.yaml").as_uri()
    _open(client, game_uri, unsaved)
    assert _has_error(await _findings(client, game_uri, _has_error))

    others = [
        f"git:{path}?%7B%22ref%22%3A%22HEAD%22%7D",
        f"http://example.com{path}",
        f"file://otherhost{path}",
    ]
    for uri in others:
        _open(client, uri, saved)  # the committed text: no error
    where = lsp.TextDocumentIdentifier(others[0])
    at = lsp.Position(saved.splitlines().index("  min: 2"), 3)
    assert await client.text_document_hover_async(lsp.HoverParams(where, at)) is None
    assert await client.text_document_definition_async(lsp.DefinitionParams(where, at)) is None
    completion = await client.text_document_completion_async(lsp.CompletionParams(where, at))
    assert completion is not None and list(completion.items) == []
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(where, lsp.Range(at, at), lsp.CodeActionContext([]))
    )
    assert not actions
    await _after_a_check(client, root, 1)
    assert _has_error(client.diagnostics[game_uri])  # still the unsaved text's

    for uri in others:
        _close(client, uri)
    await _after_a_check(client, root, 2)
    assert _has_error(client.diagnostics[game_uri])  # the unsaved text was not dropped
    assert not set(others) & set(client.diagnostics)  # no findings for what is no file


@pytest.mark.asyncio
async def test_closing_one_document_of_a_file_leaves_the_others_text(
    client: LanguageClient, tmp_path: Path
):
    """Two local URIs of one file (`file:///…` and `file://localhost/…`): closing the second
    left the file on disk checked, with the first still open and unsaved."""
    root, _saved, unsaved = _game(tmp_path)
    game_uri = (root / "game.yaml").as_uri()
    _open(client, game_uri, unsaved)
    await _findings(client, game_uri, _has_error)
    also = game_uri.replace("file://", "file://localhost", 1)
    _open(client, also, unsaved)
    _close(client, also)
    await _after_a_check(client, root, 1)
    assert _has_error(client.diagnostics[game_uri])
