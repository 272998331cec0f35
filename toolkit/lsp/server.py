"""The language server: documents in, diagnostics out; completion, hover, definition and
code actions from the last check of the document's game.

A change is checked after a short pause (the last of a burst of keystrokes wins); checks
run on one thread of their own, each with its game's lock, so a slow check never blocks
the editor's other requests, and a failure is logged, never the end of the session."""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from toolkit.diagnostics import Diagnostic, Severity
from toolkit.lsp import actions, names
from toolkit.lsp.debounce import Debouncer
from toolkit.lsp.mirror import Mirror
from toolkit.lsp.workspace import GameState, game_root, path_of

DEBOUNCE_SECONDS = 0.15
DOCS = "https://github.com/playset/playset/blob/main/docs/reference.md#rules"
log = logging.getLogger("playset.lsp")
SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
}


def uri_of(path: str) -> str:
    return Path(path).absolute().as_uri()


class _Refused:
    """A message whose params do not fit its method's types (a position of line -1): a
    request is answered with InvalidParams, a notification dropped, each said in one log
    line (pygls logged two tracebacks and left the request unanswered)."""

    jsonrpc = "2.0"

    def __init__(self, data: dict[str, Any], exc: Exception) -> None:
        self.id = data.get("id")
        self.method = str(data.get("method", ""))
        self.why = _first_line(exc)


def _first_line(exc: BaseException) -> str:
    """The innermost reason of a structuring error (cattrs nests them in groups)."""
    while True:
        inner = getattr(exc, "exceptions", None)
        if not inner:
            break
        exc = inner[0]
    if isinstance(exc, KeyError):
        return f"missing {exc}"
    text = str(exc).splitlines()
    return text[0] if text else type(exc).__name__


class _Protocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" not in data or "method" not in data or "error" in data:
            return super().structure_message(data)
        kind = self.get_message_type(data["method"])
        if kind is None:  # a method without a type of its own: pygls's generic message
            return super().structure_message(data)
        try:
            return self._converter.structure(data, kind)
        except Exception as exc:  # cattrs's validation errors, a missing key…
            return _Refused(data, exc)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, lsp.DidChangeTextDocumentNotification) and _ranged(message):
            log.warning(
                "refused %s: a change with a range, but the server takes whole documents",
                message.method,
            )
            return
        if not isinstance(message, _Refused):
            super().handle_message(message)
            return
        log.warning("refused %s: %s", message.method, message.why)
        if message.id is not None:  # a request: the editor waits for an answer
            error = lsp.ResponseError(
                code=lsp.ErrorCodes.InvalidParams, message=f"invalid params: {message.why}"
            )
            self._send_response(message.id, None, error)


def _ranged(message: lsp.DidChangeTextDocumentNotification) -> bool:
    """Whether a change of the message edits a range: the server asked for whole documents,
    and pygls would apply each ranged change as the whole text, wrongly."""
    return any(
        isinstance(change, lsp.TextDocumentContentChangePartial)
        for change in message.params.content_changes
    )


class PlaysetServer(LanguageServer):
    """A LanguageServer that keeps one GameState per game folder."""

    def __init__(self) -> None:
        # whole documents: each change the editor sends is the document's text (pygls applied
        # each ranged change by splitting and joining the whole document again, so one message
        # of 8,000 changes to a 10,000-line document took 11.5 s)
        super().__init__(
            "playset",
            "1",
            protocol_cls=_Protocol,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Full,
        )
        self.games: dict[Path, GameState] = {}
        self.locks: dict[Path, threading.Lock] = {}
        self.checks = Debouncer(self.check)
        # each open document of a game (by its URI as the workspace holds it, the last edited
        # last) → its game folder and file there: two documents of one file (file:///g/x and
        # file://localhost/g/x) each keep their text, and closing one leaves the other's
        self.documents: dict[str, tuple[Path, str]] = {}
        # the same, by file: its documents' URIs in edit order (a close looked through every
        # open document, so n opens then n closes cost n²: 16,000 took 14 s)
        self.by_place: dict[tuple[Path, str], dict[str, None]] = {}
        self.split: dict[str, tuple[str, list[str]]] = {}  # each document's text, in lines
        self.shut_down = False  # a shutdown request came: `exit` then ends with 0
        self.exit_code: int | None = None  # set by the exit notification

    def lines_of(self, uri: str) -> tuple[str, list[str]]:
        """An open document's text and its lines, split once for each text the editor sends
        (a hover, a completion or a code action split the whole text again at each request:
        3,000 hovers on a 70,000-line document took 10.6 s; probe 63-3). A document the
        editor has not opened has none: pygls read its path from disk at each request, any
        file a URI named (`…/game/decks/../../../secret`, a link, /dev/zero, a FIFO; probe
        65-3), and split it again each time (probe 65-4)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            self.split.pop(unquote(uri), None)
            return "", []
        source = document.source
        key = unquote(uri)  # one entry for every spelling of the URI (probe 65-12)
        kept = self.split.get(key)
        if kept is None or kept[0] is not source:
            kept = self.split[key] = (source, source.splitlines())
        return kept

    def state_for(self, uri: str) -> GameState | None:
        found = self.located(uri)
        return None if found is None else found[0]

    def located(self, uri: str, *, opened: bool = False) -> tuple[GameState, Path] | None:
        """The game of a local file's document and that file (None for any other document, or
        a file of no game: see `path_of`). A game's state (its mirror, a folder and a lock)
        is made for a document the editor `opened` only: a hover naming each of 2,000 game
        folders made 2,000 mirrors and ran out of file descriptors (probe 67-11)."""
        path = path_of(uri)
        try:  # the game of the file the path names, not of a folder it is spelled through
            real = None if path is None else path.resolve()
        except (OSError, RuntimeError):  # a loop of links
            return None
        root = None if real is None else game_root(real)
        if path is None or root is None:
            return None
        root = root.resolve()
        if root not in self.games:
            if not opened:
                return None
            try:
                mirror = Mirror(root)
            except OSError as exc:  # out of descriptors or room: this document goes unchecked
                log.warning("%s cannot be mirrored: %s", root, exc.strerror or exc)
                return None
            self.games[root] = GameState(mirror)
            self.locks[root] = threading.Lock()
        return self.games[root], path

    def buffer(self, uri: str) -> None:
        """Put an open document's text in its game's mirror, and check soon."""
        found = self.located(uri, opened=unquote(uri) in self.workspace.text_documents)
        if found is None:
            return
        state, path = found
        rel = state.mirror.rel(path)
        key = unquote(uri)  # as pygls's workspace keys its documents
        document = self.workspace.text_documents.get(key)
        if rel is not None and document is not None:  # a save of a file not open: its disk's
            self._forget(key)
            place = (state.mirror.root, rel)
            self.documents[key] = place
            self.by_place.setdefault(place, {})[key] = None
            state.mirror.set_buffer(rel, document.source)
        self.schedule(state)

    def unbuffer(self, uri: str) -> None:
        """A document closed: its file's text is that of another document of the file still
        open (the last edited), else the file's on disk again; check soon."""
        self.split.pop(unquote(uri), None)
        state = self.state_for(uri)
        if state is None:
            return
        place = self._forget(unquote(uri))
        if place is not None:
            others = self.by_place.get(place, {})
            last = next(reversed(others), None)
            open_ = None if last is None else self.workspace.text_documents.get(last)
            state.mirror.set_buffer(place[1], None if open_ is None else open_.source)
        self.schedule(state)

    def _forget(self, key: str) -> tuple[Path, str] | None:
        """Take a document out of both indexes; its file's place, if it was open."""
        place = self.documents.pop(key, None)
        if place is not None:
            others = self.by_place[place]
            del others[key]
            if not others:
                del self.by_place[place]
        return place

    def schedule(self, state: GameState, delay: float = DEBOUNCE_SECONDS) -> None:
        self.checks.schedule(state.mirror.root, state, delay)

    def check(self, state: GameState) -> None:
        """Check the game and publish every file's findings (none for a file fixed)."""
        with self.locks[state.mirror.root]:
            try:
                by_file = state.check()
            except Exception:  # a check that fails must not end the session
                log.exception("check of %s failed", state.mirror.root)
                return
            notices = state.mirror.notices()
            if not any(root == state.mirror.root for root, _ in self.documents.values()):
                state.release()  # no document of it open: its findings are published below
        for notice in notices:  # files the editor's copy of the game left out
            self.warn(f"{state.mirror.root}: {notice}")
        for root, rel in list(self.documents.values()):  # an open file is told it is clean
            if root == state.mirror.root:
                by_file.setdefault(str(root / rel), [])
        for path, found in by_file.items():
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(
                    uri=uri_of(path), diagnostics=[to_lsp(d) for d in found]
                )
            )
        del by_file
        # the game checked before this one, given back now that the editor has the findings:
        # left to Python's collector, its cycles (a layout's YAML nodes) waited for a full
        # collection, and the server grew ~7 MB at each edit of a 300 kB layout
        gc.collect()

    def warn(self, message: str) -> None:
        """Show the user a warning (window/showMessage), and log it."""
        log.warning("%s", message)
        try:
            self.window_show_message(
                lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message)
            )
        except Exception:  # no editor connected (a test), or it went away: logged above
            log.debug("could not show %r", message, exc_info=True)

    def close(self) -> None:
        self.checks.close()
        for state in self.games.values():
            state.mirror.close()


def to_lsp(d: Diagnostic) -> lsp.Diagnostic:
    start = lsp.Position(max(0, d.span.line - 1), max(0, d.span.col - 1))
    if d.span.end_line is not None and d.span.end_col is not None:
        end = lsp.Position(max(0, d.span.end_line - 1), max(0, d.span.end_col - 1))
    else:
        end = lsp.Position(start.line, start.character + 1)
    return lsp.Diagnostic(
        range=lsp.Range(start, end),
        message=d.message,
        severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Information),
        code=d.code,
        code_description=lsp.CodeDescription(href=f"{DOCS}-{d.code.lower()}"),
        source="playset",
    )


def make_server() -> PlaysetServer:
    server = PlaysetServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PlaysetServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.buffer(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PlaysetServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.buffer(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PlaysetServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.buffer(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PlaysetServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.unbuffer(params.text_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionOptions(trigger_characters=[":", "{", ".", " ", "["]),
    )
    def completion(ls: PlaysetServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        found = ls.located(params.text_document.uri)
        if found is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        state, path = found
        _, lines = ls.lines_of(params.text_document.uri)
        with ls.locks[state.mirror.root]:
            line, col = params.position.line, params.position.character
            items, cut = names.shown(
                names.completions(state, path, lines, line, col), lines, line, col
            )
        kinds = {
            "icon": lsp.CompletionItemKind.Constant,
            "layout": lsp.CompletionItemKind.File,
            "rule": lsp.CompletionItemKind.Property,
            "term": lsp.CompletionItemKind.Text,
            "placeholder": lsp.CompletionItemKind.Variable,
        }
        return lsp.CompletionList(
            is_incomplete=cut,  # the first only: asked again as more is typed
            items=[
                lsp.CompletionItem(
                    label=i.label,
                    kind=kinds.get(i.kind, lsp.CompletionItemKind.Reference),
                    detail=i.detail or i.kind,
                )
                for i in items
            ],
        )

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: PlaysetServer, params: lsp.HoverParams) -> lsp.Hover | None:
        located = ls.located(params.text_document.uri)
        if located is None:
            return None
        state, path = located
        _, lines = ls.lines_of(params.text_document.uri)
        line, col = params.position.line, params.position.character
        text, col = names.around(lines[line] if line < len(lines) else "", col)
        word = names.word_at(text, col)
        if "playset:" in text and _is_code(word):
            return _markdown(rule_help(word))
        with ls.locks[state.mirror.root]:
            term = names.term_at(state, text, col)
            if term is not None:
                return _markdown(term)
            found = names.name_at(state, path, line, params.position.character)
            if found is None or found[1] is None:
                return None
            return _markdown(names.describe(state, found[1]))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: PlaysetServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        found = ls.located(params.text_document.uri)
        if found is None:
            return None
        state, path = found
        with ls.locks[state.mirror.root]:
            place = names.definition(
                state,
                path,
                params.position.line,
                params.position.character,
            )
        if place is None:
            return None
        at = lsp.Position(max(0, place.span.line - 1), max(0, place.span.col - 1))
        return lsp.Location(uri=uri_of(place.file), range=lsp.Range(at, at))

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_action(ls: PlaysetServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        state = ls.state_for(params.text_document.uri)
        if state is None:
            return []
        source, lines = ls.lines_of(params.text_document.uri)
        with ls.locks[state.mirror.root]:
            return actions.actions(
                state, params.text_document.uri, source, params.context.diagnostics, lines
            )

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: PlaysetServer, params: Any) -> None:
        ls.shut_down = True
        ls.close()

    @server.feature(lsp.EXIT)
    def exit_(ls: PlaysetServer, params: Any) -> None:
        # the specification: 0 after a shutdown request, else 1 (pygls's own SystemExit(1)
        # ends in its start_io, which returns as if all went well)
        ls.exit_code = 0 if ls.shut_down else 1

    return server


def _is_code(word: str) -> bool:
    return len(word) == 4 and word[0].isupper() and word[1:].isdigit()


@functools.lru_cache(maxsize=1024)  # every code is 4 characters: at most 26 × 1,000 asked
def rule_help(code: str) -> str:
    """A rule's explanation, as `playset rules CODE` gives it: what it checks and why, and
    where its failing example reports it."""
    import importlib

    from toolkit.checks import iter_rules
    from toolkit.diagnostics import REGISTRY
    from toolkit.ruledocs.examples import example_codes, load_example

    for module in iter_rules():
        importlib.import_module(module)
    if code not in REGISTRY:
        return f"{code}: no such rule (see `playset rules`)"
    rule = REGISTRY.get(code)
    about = load_example(code).explain if code in example_codes() else ""
    head = f"**{rule.code}** {rule.name} ({rule.severity.value})\n\n{rule.summary}"
    return f"{head}\n\n{about}\n\n`playset rules {rule.code}` shows its examples.".strip()


def _markdown(text: str) -> lsp.Hover:
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""The largest message body read: a document of the largest file a check reads whole
(64 MB), escaped as JSON. pygls allocated whatever `Content-Length` said at once: 10¹¹
bytes was a MemoryError traceback and the end of the session."""
MAX_HEADER_BYTES = 64 * 1024
MAX_LENGTH_DIGITS = 12  # a Content-Length over MAX_MESSAGE_BYTES, read as such without int()


_CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")  # pygls's own pattern
_GLUED_LENGTH = re.compile(rb"Content-Length: \d+\r\n\Z")


class _BoundedInput:
    """The client's stream as pygls reads it, with each header line and body bounded: a
    body over MAX_MESSAGE_BYTES ends the session with one log line (the client's framing
    is broken: nothing after it can be read as messages)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._length = False  # a Content-Length of this message was handed on

    def readline(self) -> bytes:
        """The next header line pygls acts on: its first Content-Length, then the blank line
        ending the head. The lines pygls would skip are skipped here, in one call: it read
        each through its thread pool, ~0.4 ms a line (200,000 lines of 1.2 MB took 80 s)."""
        while True:
            line = self._stream.readline(MAX_HEADER_BYTES)
            if not line:
                return line
            length = None if self._length else _CONTENT_LENGTH.fullmatch(line)
            if length and len(length.group(1)) > MAX_LENGTH_DIGITS:
                # Python reads no more than 4,300 digits as a number: pygls ended the
                # session in a traceback (probe 65-6)
                log.error(
                    "a Content-Length of %d digits is over the %d-byte bound: the session ends",
                    len(length.group(1)),
                    MAX_MESSAGE_BYTES,
                )
                return b""
            if length:
                self._length = True
                return line
            glued = None if self._length else _GLUED_LENGTH.search(line)
            if glued:  # the header after a body sent without one: that body is skipped,
                # this message read (the whole line was skipped, and every message after it)
                log.warning("skipped %d bytes sent without a Content-Length", glued.start())
                self._length = True
                return line[glued.start() :]
            if self._length and not line.strip():
                self._length = False
                return line

    def read(self, size: int) -> bytes:
        if size > MAX_MESSAGE_BYTES:
            log.error(
                "a message of %d bytes is over the %d-byte bound: the session ends",
                size,
                MAX_MESSAGE_BYTES,
            )
            return b""
        return self._stream.read(size)


class _OneLine(logging.Filter):
    """pygls logs a message it cannot read (not JSON, JSON nested 100,000 deep, not a
    JSON-RPC message, an id that is a list) with a traceback of its own code: one line
    saying what was skipped, and why."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            exc = record.exc_info[1]
            why = _first_line(exc) if exc is not None else "unknown"
            said = record.getMessage()
            if said == "Unable to handle message":
                said = "skipped a message that cannot be read"
            record.msg, record.args = "%s: %s", (said, why)
            record.exc_info = record.exc_text = None
        return True


PYGLS_LOGS = ("pygls.server", "pygls.protocol.json_rpc")


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve over stdin and stdout until the client disconnects or sends `exit`; the exit
    code (1 for an `exit` without a shutdown request before it; 128 + the signal for Ctrl-C
    or SIGTERM, as every command: pygls swallowed Ctrl-C, exit 0, and SIGTERM killed the
    server with its mirror left in /tmp)."""
    server = make_server()
    quiet = _OneLine()
    for name in PYGLS_LOGS:
        logging.getLogger(name).addFilter(quiet)
    try:
        with _stopped_by_signals(server):
            server.start_io(_BoundedInput(stdin or sys.stdin.buffer), stdout)  # type: ignore[arg-type]
    finally:
        for name in PYGLS_LOGS:
            logging.getLogger(name).removeFilter(quiet)
        server.close()
    return server.exit_code or 0


@contextlib.contextmanager
def _stopped_by_signals(server: PlaysetServer) -> Iterator[None]:
    """Ctrl-C, SIGTERM or SIGHUP (the terminal closed; unless ignored, as `nohup` does): the
    mirrors removed, then exit 128 + the signal at once (pygls would wait for its reader
    thread, blocked on the editor's open stdin). SIGHUP's default left the mirror, with the
    editor's unsaved text, in the temporary folder."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        with contextlib.suppress(Exception):
            server.close()
        with contextlib.suppress(Exception):  # os._exit skips atexit, which removes them
            if pictures := sys.modules.get("toolkit.render.pictures"):
                pictures.discard()
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(128 + signum)  # no engine runs here: nothing guards os._exit

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    hup = getattr(signal, "SIGHUP", None)
    if hup is not None and signal.getsignal(hup) is not signal.SIG_IGN:
        previous[hup] = signal.getsignal(hup)
    for sig in previous:
        signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
