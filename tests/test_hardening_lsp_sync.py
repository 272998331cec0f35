"""The language server takes whole documents and checks on one thread (probe61-1, -5): a
message of 8,000 ranged changes took pygls 11.5 s (each change re-split the whole document),
and every didOpen or didChange started a thread of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import REPO
from toolkit.lsp.debounce import Debouncer
from toolkit.lsp.server import make_server


def _message(obj: dict) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _replies(out: bytes) -> list[dict]:
    found, rest = [], out
    while rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        size = int(head.split(b"\r\n")[0].split(b":")[1])
        found.append(json.loads(rest[:size]))
        rest = rest[size:]
    return found


def _session(messages: list[dict]) -> tuple[list[dict], str]:
    stream = b"".join(_message(m) for m in messages)
    stream += _message({"jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": None})
    stream += _message({"jsonrpc": "2.0", "method": "exit", "params": None})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "lsp"],
        input=stream,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    return _replies(done.stdout), done.stderr.decode()


def test_the_server_asks_for_whole_documents_and_refuses_ranged_changes(tmp_path: Path) -> None:
    uri = (tmp_path / "notes.yaml").as_uri()
    ranged = {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "text": "x",
    }
    replies, log = _session(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "a"}
                },
            },
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": 2},
                    "contentChanges": [ranged] * 5_000,
                },
            },
        ]
    )
    capabilities = next(r for r in replies if r.get("id") == 1)["result"]["capabilities"]
    assert capabilities["textDocumentSync"]["change"] == 1  # Full
    assert log.count("refused textDocument/didChange") == 1, log[-2000:]
    assert "server takes whole documents" in log


def test_checks_are_scheduled_on_one_thread(monkeypatch) -> None:
    started: list[threading.Thread] = []
    real_start = threading.Thread.start

    def counted(self: threading.Thread) -> None:
        started.append(self)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    server = make_server()
    runs: list[object] = []
    monkeypatch.setattr(server, "check", runs.append)
    server.checks = Debouncer(server.check)
    games = [
        SimpleNamespace(mirror=SimpleNamespace(root=Path(f"/game{i % 3}"))) for i in range(300)
    ]
    try:
        for game in games:
            server.schedule(game, delay=60)  # type: ignore[arg-type]
        assert len(started) <= 1
        assert server.checks.pending() == 3  # one per game folder: the last of each burst
    finally:
        server.close()
    assert runs == []  # closed before any was due


def test_the_last_of_a_burst_runs_once_each_key_in_due_order() -> None:
    ran: list[str] = []
    done = threading.Event()

    def run(value: str) -> None:
        ran.append(value)
        if len(ran) == 2:
            done.set()

    debouncer = Debouncer(run)
    for nth in range(50):
        debouncer.schedule("a", f"a{nth}", 0.05)
    debouncer.schedule("b", "b", 0.01)
    assert done.wait(10)
    time.sleep(0.1)
    debouncer.close()
    assert ran == ["b", "a49"]


def test_requests_split_a_document_once_for_each_text(monkeypatch) -> None:
    # probe 63-3: a hover, a completion or a code action split the whole document at each
    # request (3,000 hovers on a 70,000-line document took 10.6 s)
    server = make_server()
    texts = {"file:///g/a.yaml": "a\nb\n"}

    class Workspace:
        @property
        def text_documents(self) -> dict[str, SimpleNamespace]:
            return {uri: SimpleNamespace(source=text) for uri, text in texts.items()}

    monkeypatch.setattr(type(server), "workspace", Workspace())
    first = server.lines_of("file:///g/a.yaml")
    assert first[1] == ["a", "b"]
    assert server.lines_of("file:///g/a.yaml")[1] is first[1]  # the same text: not again
    texts["file:///g/a.yaml"] = "a\nb\nc\n"
    assert server.lines_of("file:///g/a.yaml")[1] == ["a", "b", "c"]
    server.close()


def test_a_documents_typography_fix_is_worked_out_once_for_its_text(monkeypatch) -> None:
    from toolkit.lsp import actions

    worked: list[str] = []
    monkeypatch.setattr(actions, "_typography", lambda state, uri, text: worked.append(uri))
    state = SimpleNamespace(game=object())
    text = "x: 1\n"
    for _ in range(3):
        actions.actions(state, "file:///g/t.yaml", text, [])
    assert worked == ["file:///g/t.yaml"]
    state.game = object()  # the game checked again: its fixes may differ
    actions.actions(state, "file:///g/t.yaml", text, [])
    assert len(worked) == 2


def test_an_ignore_action_inserts_its_comment_and_a_request_is_answered_once_each(
    monkeypatch,
) -> None:
    # probe 64-1: each diagnostic a client sent made an "ignore" action holding the whole
    # line again: 1,500 requests of six diagnostics on a 900 kB line, 16 s and 1.6 GB out
    from lsprotocol import types as lsp

    from toolkit.lsp import actions

    monkeypatch.setattr(actions, "_typography", lambda state, uri, text: None)
    line = "name: " + "a" * 100_000
    where = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 5))
    sent = [lsp.Diagnostic(where, "x", code=f"T00{i % 3}") for i in range(300)]
    found = actions.actions(SimpleNamespace(game=None), "file:///g/d.yaml", line, sent)
    edits = [e for a in found for e in a.edit.changes["file:///g/d.yaml"]]
    assert len(found) == 3  # one a code: the same diagnostic asked again is answered once
    for edit in edits:
        assert edit.range.start.character == len(line) and len(edit.new_text) < 60, edit
    assert edits[0].new_text == "  # playset: ignore[T000] (why)"
    many = [lsp.Diagnostic(where, f"x{i}", code=f"T{i:03d}") for i in range(500)]
    answered = actions.actions(SimpleNamespace(game=None), "file:///g/d.yaml", line, many)
    assert len(answered) == actions.MAX_ASKED
    # probe 65-9: one code on one line is ignored by one action, whatever the messages
    same = [lsp.Diagnostic(where, f"x{i}", code="T001") for i in range(500)]
    answered = actions.actions(SimpleNamespace(game=None), "file:///g/d.yaml", line, same)
    assert [a.title for a in answered] == ["Ignore T001 on this line (write why)"]


def test_hover_finds_its_name_from_an_index_made_once_a_check() -> None:
    # probe 64-4: each hover walked every reference of the game, its file worked out again
    # for each (3,000 hovers on an 800-card game, 14 s)
    from toolkit.diagnostics import Span
    from toolkit.lsp import names

    looked: list[str] = []

    def doc(path: str) -> SimpleNamespace:
        return SimpleNamespace(
            path=path, span=lambda p: Span(p[0], 1, p[0], 9), key_span=lambda p: Span(p[0], 1)
        )

    def rel_of_mirrored(path: str) -> str:
        looked.append(path)
        return path

    cards, other = SimpleNamespace(doc=doc("d.yaml")), SimpleNamespace(doc=doc("e.yaml"))
    declared = [SimpleNamespace(file=cards, path=(2,), namespace="card", id="a")]
    refs = [
        SimpleNamespace(file=other, path=(i,), is_key=False, namespace="card", id="a")
        for i in range(1, 200)
    ]
    state = SimpleNamespace(
        facts=SimpleNamespace(refs=refs, declared=declared),
        mirror=SimpleNamespace(rel=lambda file: str(file), rel_of_mirrored=rel_of_mirrored),
    )
    ref, target = names.name_at(state, Path("e.yaml"), 4, 3)
    assert (ref, target) == (refs[4], declared[0])
    assert names.name_at(state, Path("d.yaml"), 1, 3) == (declared[0], declared[0])
    assert len(looked) == 2  # each file's name once, for both hovers
    # a second game hovered in between keeps each game's index (one index shared by the
    # games of a workspace was made again at each hover that changed game)
    other_state = SimpleNamespace(
        facts=SimpleNamespace(refs=[], declared=declared), mirror=state.mirror
    )
    for _ in range(3):
        assert names.name_at(other_state, Path("d.yaml"), 1, 3) == (declared[0], declared[0])
        assert names.name_at(state, Path("e.yaml"), 5, 3) == (refs[5], declared[0])
    assert len(looked) == 3


def test_completion_and_hover_read_the_line_near_the_cursor(monkeypatch) -> None:
    # probe 64-2/64-3: each request read the whole line before the cursor, or every list
    # line above it: k requests on a long line or list cost k times its length
    from toolkit.lsp import names

    line = "name: " + "a" * 500_000 + " rules.x"
    text, col = names.around(line, len(line))
    assert len(text) == names.WINDOW and text.endswith("rules.x") and col == names.WINDOW
    assert names.word_at(*names.around(line, 3)) == "name"
    read: list[int] = []

    class Lines(list):
        def __getitem__(self, index):
            read.append(index)
            return super().__getitem__(index)

    lines = Lines(["cards:", *["  - x"] * 10_000, "  - "])
    assert names._list_key(lines, len(lines) - 1, "  - ") is None  # past the lines it reads
    assert len(read) == names.MAX_LIST_LINES
    assert names._list_key(Lines(["cards:", "  - x", "  - "]), 2, "  - ") == "cards"


def test_a_large_game_answers_completions_that_start_with_the_word_typed() -> None:
    # each keystroke after `card:` answered every card id of the game: a 5,000-card game's
    # answer at each request
    from toolkit.lsp import names

    items = [names.Item(f"card-{i:05d}", "id", "card") for i in range(5_000)]
    line = "  - card: card-012"
    kept, cut = names.shown(items, [line], 0, len(line))
    assert cut and [i.label for i in kept] == [f"card-{i:05d}" for i in range(1_200, 1_300)]
    kept, cut = names.shown(items, ["card: "], 0, 6)
    assert cut and len(kept) == names.MAX_ITEMS
    assert names.shown(items[:10], [line], 0, len(line)) == (items[:10], False)
    rules = [names.Item(f"l{i}", "rule") for i in range(1_000)]  # those after `rules.` typed
    assert names.shown(rules, ["x: rules.l"], 0, 10) == (rules[: names.MAX_ITEMS], True)


def test_what_completions_read_from_the_game_is_made_once_a_check() -> None:
    # each completion walked the game's declarations, references, files and cards again
    from toolkit.diagnostics import Span
    from toolkit.lsp import names

    walked: list[str] = []

    class Declared(list):
        def __iter__(self):
            walked.append("declared")
            return super().__iter__()

    def span(path):
        return Span(3 * path[1] + 1, 3) if path[1] != 4 else Span(2, 3)

    cards = [{"id": f"c{i}", "params": {f"p{i}": 1}} for i in range(8)]
    doc = SimpleNamespace(path="d.yaml", get=lambda path: cards, span=span)
    loaded = SimpleNamespace(doc=doc)
    facts = SimpleNamespace(
        refs=[], declared=Declared(SimpleNamespace(namespace="card", id=c["id"]) for c in cards)
    )
    state = SimpleNamespace(
        facts=facts,
        game=SimpleNamespace(files=lambda: walked.append("files") or [loaded], root=Path(".")),
        mirror=SimpleNamespace(rel=lambda file: str(file), rel_of_mirrored=lambda path: path),
    )
    for _ in range(3):
        assert names._declared(state, "card") == [f"c{i}" for i in range(8)]
    # the last card in the file's order whose id is on the line or above (card 4's id is
    # written on line 2, above the others'), as the walk over every card found it
    for line in range(30):
        chosen = {}
        for index, card in enumerate(cards):
            if span(("cards", index, "id")).line - 1 <= line:
                chosen = card
        assert names._params_at(state, Path("d.yaml"), line) == sorted(chosen["params"]), line
    assert names._params_at(state, Path("d.yaml"), 1) == ["p4"]
    assert walked == ["declared", "files"]
    state.facts = SimpleNamespace(refs=[], declared=Declared())
    assert names._declared(state, "card") == [] and walked[-1] == "declared"


def test_a_hover_looks_only_at_the_names_near_it_on_its_line(monkeypatch) -> None:
    # probe 65-1: a route of 190,000 stops, 20 a line or all on one; each hover tried
    # every name of its file (165 ms a hover)
    from toolkit.diagnostics import Span
    from toolkit.lsp import names

    def span(path: tuple) -> Span:
        if path == ("block",):  # a declaration written over lines 1 to 3
            return Span(1, 1, 3, 5)
        return Span(1, 1 + 4 * path[0], 1, 3 + 4 * path[0])

    doc = SimpleNamespace(path="m.yaml", span=span, key_span=span)
    file = SimpleNamespace(doc=doc)
    refs = [
        SimpleNamespace(file=file, path=(i,), is_key=False, namespace="space", id=f"s{i % 2}")
        for i in range(20_000)
    ]
    declared = [SimpleNamespace(file=file, path=("block",), namespace="space", id="s0")]
    state = SimpleNamespace(
        facts=SimpleNamespace(refs=refs, declared=declared),
        mirror=SimpleNamespace(rel=lambda f: str(f), rel_of_mirrored=lambda p: p),
    )
    tried: list[Span] = []
    contains = names._contains
    monkeypatch.setattr(names, "_contains", lambda s, *at: tried.append(s) or contains(s, *at))
    assert names.name_at(state, Path("m.yaml"), 0, 4 * 15_000 + 1) == (refs[15_000], declared[0])
    assert names.name_at(state, Path("m.yaml"), 0, 4 * 15_000 + 3) == (declared[0], declared[0])
    assert names.name_at(state, Path("m.yaml"), 2, 3) == (declared[0], declared[0])
    assert names.name_at(state, Path("m.yaml"), 2, 9) is None
    assert names.name_at(state, Path("m.yaml"), 3, 0) is None
    assert len(tried) < 4 * (names.WINDOW // 4 + 2)


def test_a_replace_action_corrects_a_name_never_a_whole_line(monkeypatch) -> None:
    # probe 65-2: a client's "did you mean" diagnostic over a 500,000-character line put the
    # line in the title of each of a request's 64 replace actions (2.2 GB written)
    from lsprotocol import types as lsp

    from toolkit.lsp import actions

    monkeypatch.setattr(actions, "_typography", lambda state, uri, text: None)
    line = "region: speysid " + "a" * 500_000
    state, uri = SimpleNamespace(game=None), "file:///g/d.yaml"

    def asked(start: int, end: int, message: str = "did you mean 'speyside'?") -> list:
        where = lsp.Range(lsp.Position(0, start), lsp.Position(0, end))
        return actions.actions(state, uri, line, [lsp.Diagnostic(where, message)])

    (fix,) = asked(8, 15)
    assert fix.title == "Replace 'speysid' with 'speyside'"
    assert [a.title for a in asked(8, 8)] == [fix.title]
    assert asked(0, len(line)) == [] and asked(16, 16) == []
    assert asked(8, 15, "did you mean '" + "b" * 300 + "'?") == []


def test_a_request_reads_no_file_the_editor_has_not_opened(tmp_path, monkeypatch) -> None:
    # probe 65-3/65-4: a request on a document never opened read its path from disk (pygls's
    # fallback), a path spelled through the game folder (`game/decks/../../secret`) or a link
    # in it naming any file; /dev/zero filled the memory, a FIFO hung the server; and each
    # request read and split the file again
    from toolkit.scaffold.new import new_game

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    (game / "decks" / "notes.yaml").symlink_to(secret)
    server = make_server()
    read: list[str] = []

    class Workspace:
        text_documents: dict[str, SimpleNamespace] = {}

        def get_text_document(self, uri: str) -> SimpleNamespace:
            read.append(uri)
            return SimpleNamespace(source=Path(uri[len("file://") :]).read_text())

    monkeypatch.setattr(type(server), "workspace", Workspace())
    through = f"file://{game}/decks/../../secret.txt"
    linked = f"file://{game}/decks/notes.yaml"
    for uri in (through, linked, "file:///dev/zero", f"file://{game}/decks/cards.yaml"):
        assert server.lines_of(uri) == ("", [])
    assert read == []
    assert server.located(through) is None and server.located(linked) is None
    assert server.located(f"file://{game}/decks/cards.yaml") is None  # no document opened
    assert server.games == {}  # probe 67-11: no mirror made for a request
    assert server.located(f"file://{game}/decks/cards.yaml", opened=True) is not None
    assert server.located(f"file://{game}/decks/../game.yaml") is not None
    server.buffer(f"file://{game}/decks/cards.yaml")  # saved, not open: the check reads it
    assert read == [] and server.documents == {}
    server.close()


def test_a_content_length_of_thousands_of_digits_ends_the_session_in_one_line(
    monkeypatch, caplog
) -> None:
    # probe 65-6: Python reads no more than 4,300 digits as a number; pygls's reader ended
    # the session in a traceback
    import io
    import os

    from toolkit.lsp.server import serve

    read, write = os.pipe()
    os.write(write, b"Content-Length: " + b"9" * 5_000 + b"\r\n\r\n{}")
    os.close(write)
    with open(read, "rb") as stdin:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(stdin))
        monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO()))
        serve()
    said = [r.getMessage() for r in caplog.records]
    assert any("of 5000 digits is over" in s for s in said), said
    assert not any(r.exc_info for r in caplog.records)


def test_a_uri_of_a_path_no_file_has_names_no_file(tmp_path) -> None:
    # probe 65-7: a URI naming 40,000 folders held a list of its parents, each a copy of
    # the steps (5.5 GB from 80 kB); a step longer than a name may be raised OSError
    from toolkit.lsp.workspace import MAX_PATH_BYTES, game_root, path_of
    from toolkit.scaffold.new import new_game

    assert path_of("file:///g/" + "a/" * 40_000 + "x.yaml") is None
    assert path_of("file:///g/" + "a/" * (MAX_PATH_BYTES // 2 - 10) + "x") is not None
    new_game(tmp_path / "g", "g", ["en"])
    assert game_root(tmp_path / "g" / ("b" * 300) / "x.yaml") == tmp_path / "g"


def test_a_document_deeper_than_a_walk_goes_is_not_mirrored(tmp_path, monkeypatch) -> None:
    # probe 65-8: a document 2,000 folders deep was mirrored as those folders; removing the
    # mirror recursed once a folder and ended the server (and every later one) in a
    # RecursionError
    import inspect
    import os
    import sys
    import time

    from toolkit.fileio import MAX_DEPTH
    from toolkit.lsp import mirror as mirrors
    from toolkit.scaffold.new import new_game

    new_game(tmp_path / "g", "g", ["en"])
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    kept = mirrors.Mirror(tmp_path / "g")
    try:
        kept.set_buffer("a/" * MAX_DEPTH + "x.yaml", "a: 1\n")
        kept.set_buffer("decks/x.yaml", "a: 1\n")
        assert list(kept._buffers) == ["decks/x.yaml"]
    finally:
        kept.close()
    deep = tmp_path / f"{mirrors.PREFIX}deep"  # an earlier version's, left deep
    os.makedirs(deep / "/".join(["a"] * 300))
    past = time.time() - mirrors.UNLOCKED_GRACE_S - 60
    os.utime(deep, (past, past))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)  # 300 folders: past it
    try:
        removed = mirrors.remove_stale_mirrors(tmp_path)
    finally:
        sys.setrecursionlimit(limit)
    assert removed == [deep]


def test_the_ignore_comment_is_found_as_the_pattern_finds_it() -> None:
    # probe 65-9: the pattern was tried at each `#` of the line, for each diagnostic asked
    from hypothesis import example, given, settings
    from hypothesis import strategies as st

    from toolkit.lsp import actions

    parts = st.sampled_from(["#", " ", "\t", "playset:", "ignore[", "T001", ",", "]", "x", "# "])

    @settings(max_examples=500, deadline=None)
    @given(st.lists(parts, max_size=14).map("".join))
    @example("a: 1  # playset: ignore[T001, P002] (why)")
    @example("#playset:ignore[T001]# playset: ignore[P002]")
    def check(text: str) -> None:
        found, expected = actions.ignore_comment(text), actions.IGNORE.search(text)
        assert (found and found.span(1)) == (expected and expected.span(1))

    check()
    looked: list[int] = []

    class Line(str):
        def find(self, *args):  # type: ignore[override]
            looked.append(1)
            return super().find(*args)

    assert actions.ignore_comment(Line("#" * 500_000)) is None and len(looked) == 1


def test_a_files_typography_fixes_are_planned_once_a_check(monkeypatch) -> None:
    # probe 65-11: 33 documents asked in turn missed the 32 fixes kept, and each planned
    # the whole game's fixes again (~55 ms a request on an 800-card game)
    from toolkit.i18n import fix
    from toolkit.lsp import actions

    planned: list[object] = []
    monkeypatch.setattr(fix, "plan_fixes", lambda game, only, facts: planned.append(1) or [])
    state = SimpleNamespace(
        game=object(),
        facts=object(),
        mirror=SimpleNamespace(rel=lambda path: str(path), rel_of_mirrored=lambda p: str(p)),
    )
    uris = [f"file:///g/z{i}.yaml" for i in range(40)]
    for _ in range(3):
        for uri in uris:
            assert actions.actions(state, uri, "a: 1\n", []) == []
    assert len(planned) == len(uris)


def test_a_documents_lines_are_kept_once_whatever_the_uris_spelling(monkeypatch) -> None:
    # probe 65-12: the lines were kept under the URI as spelled: 300 spellings of one
    # 800 kB document, 2.2 GB
    server = make_server()
    document = SimpleNamespace(source="a\nb\n")

    class Workspace:
        text_documents = {"file:///g/a.yaml": document}

    monkeypatch.setattr(type(server), "workspace", Workspace())
    for spelling in ("file:///g/a.yaml", "file:///%67/a.yaml", "file:///g/%61.yaml"):
        assert server.lines_of(spelling)[1] == ["a", "b"]
    assert list(server.split) == ["file:///g/a.yaml"]
    server.close()


def test_a_rules_help_is_made_once_for_each_code(monkeypatch) -> None:
    # probe 65-13: each hover on a code in a `# playset:` comment globbed and sorted the
    # bundled example folders twice (~1.6 ms a hover)
    from toolkit.lsp import server
    from toolkit.ruledocs import examples

    server.rule_help.cache_clear()
    looked: list[int] = []
    real = examples.example_codes
    monkeypatch.setattr(examples, "example_codes", lambda: looked.append(1) or real())
    for _ in range(5):
        assert server.rule_help("T001").startswith("**T001**")
    assert len(looked) == 1
    server.rule_help.cache_clear()


def _state_of(game: Path):
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    return GameState(Mirror(game))


def test_an_icon_saved_after_a_check_is_seen_by_the_next(tmp_path, monkeypatch) -> None:
    # probe 65-14: the game's icons were kept for the server's life: an icon added on disk
    # stayed "missing" (P007) while validate was clean
    from toolkit.scaffold.new import new_game

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("Move {steps} spaces.", "Move {steps} :zap:."))
    state = _state_of(game)
    try:
        codes = [d.code for found in state.check().values() for d in found]
        assert "P007" in codes
        (game / "icons" / "zap.svg").write_bytes((game / "icons" / "token.svg").read_bytes())
        codes = [d.code for found in state.check().values() for d in found]
        assert "P007" not in codes, codes
    finally:
        state.mirror.close()


def test_an_open_document_is_written_once_and_a_lone_surrogate_checks(tmp_path, monkeypatch):
    # probe 65-16: each check wrote every open document again, its folders looked at step
    # by step; probe 65-15: a lone surrogate in one stopped every check of the game
    from toolkit.lsp.mirror import Mirror
    from toolkit.scaffold.new import new_game

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    state = _state_of(game)
    written: list[Path] = []
    real = Mirror._write
    monkeypatch.setattr(Mirror, "_write", lambda self, t, x: written.append(t) or real(self, t, x))
    try:
        state.mirror.set_buffer("notes.yaml", "a: \ud800\n")
        state.mirror.set_buffer("decks/more.yaml", "a: 1\n")
        for _ in range(3):
            state.check()
        assert len(written) == 2, written
        assert (state.mirror.path / "notes.yaml").read_text() == "a: ?\n"
        state.mirror.set_buffer("decks/more.yaml", "a: 2\n")
        state.check()
        assert len(written) == 3
    finally:
        state.mirror.close()


def test_names_of_one_span_are_indexed_once(monkeypatch) -> None:
    # probe 67-1: an alias carries its anchor's span: 14,000 aliases of a scalar written over
    # 14,000 lines were put on each line they cover (1.7 GB, 18 s for one hover)
    from toolkit.diagnostics import Span
    from toolkit.lsp import names

    anchor = Span(2, 3, 3_000, 4)
    doc = SimpleNamespace(path="m.yaml", span=lambda path: anchor, key_span=lambda path: anchor)
    file = SimpleNamespace(doc=doc)
    refs = [
        SimpleNamespace(file=file, path=(i,), is_key=False, namespace="space", id="s0")
        for i in range(3_000)
    ]
    state = SimpleNamespace(
        facts=SimpleNamespace(refs=refs, declared=[]),
        mirror=SimpleNamespace(rel=lambda f: str(f), rel_of_mirrored=lambda p: p),
    )
    lines, _ = names._by_file(state)["m.yaml"]
    assert sum(len(placed) + len(running) for _, placed, running in lines.values()) < 3_000
    assert names.name_at(state, Path("m.yaml"), 500, 0) == (refs[0], None)


def test_the_word_typed_is_read_after_a_namespaces_dot_from_the_end() -> None:
    # probe 67-2: `glossary.t1` was taken whole as the word typed, and no term starts with
    # it: past 200 terms, nothing was answered; probe 67-3: the word was searched with `$`,
    # a pattern tried at every start of a long run of letters
    from toolkit.lsp import names

    terms = [names.Item(f"t{i}", "term") for i in range(3_000)]
    shown, cut = names.shown(terms, ["x: {{ glossary.t29"], 0, 18)
    assert cut and len(shown) == min(111, names.MAX_ITEMS)
    assert all(i.label.startswith("t29") for i in shown)
    assert names.typed_word("a" * 990 + " card.id == 'c1-x") == "c1-x"
    assert names.typed_word("glossary['fifty-fif") == "fifty-fif"


def test_a_namespaces_completions_are_made_once_a_check() -> None:
    # probe 67-3: each request made an item of every id of the namespace
    from toolkit.lsp import names

    declared = [SimpleNamespace(namespace="card", id=f"c{i}") for i in range(500)]
    state = SimpleNamespace(
        game=SimpleNamespace(manifest=None), facts=SimpleNamespace(refs=[], declared=declared)
    )
    line = "x: {{ card.id == 'c4"
    first = names.completions(state, Path("r.md"), [line], 0, len(line))
    assert names.completions(state, Path("r.md"), [line], 0, len(line)) is first
    shown, cut = names.shown(first, [line], 0, len(line))
    assert cut and all(i.label.startswith("c4") for i in shown)
    assert len(shown) == min(111, names.MAX_ITEMS)


def test_a_game_with_no_document_open_is_let_go_after_its_check(tmp_path, monkeypatch) -> None:
    # probe 67-7: every game the server met was held for the session's life (six games of
    # a folder, 1.5 GB)
    from toolkit.scaffold.new import new_game

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    server = make_server()
    published: list[object] = []
    monkeypatch.setattr(type(server), "text_document_publish_diagnostics", published.append)
    try:
        state, _ = server.located((game / "decks" / "cards.yaml").as_uri(), opened=True)
        server.documents["file:///x"] = (state.mirror.root, "decks/cards.yaml")
        server.check(state)
        assert state.game is not None and state.facts is not None
        server.documents.clear()  # its last document closed
        server.check(state)
        assert state.game is None and state.facts is None and published
    finally:
        server.close()


def test_a_uri_with_a_lone_surrogate_names_no_file_without_an_error() -> None:
    # probe 67-10: the path's length was measured with a strict encode, which raised
    from toolkit.lsp.workspace import path_of

    assert path_of("file:///g/decks/\ud800.yaml") is None
    server = make_server()
    try:
        assert server.located("file:///g/decks/\ud800.yaml") is None
    finally:
        server.close()


def test_a_lines_suppression_comment_is_looked_for_once_for_many_codes(monkeypatch) -> None:
    # probe 67-9: 64 codes a request each looked through the whole line again
    from lsprotocol import types as lsp

    from toolkit.lsp import actions

    monkeypatch.setattr(actions, "_typography", lambda state, uri, text: None)
    looked: list[str] = []
    real = actions.ignore_comment
    monkeypatch.setattr(actions, "ignore_comment", lambda text: looked.append(text) or real(text))
    line = "a: 1  " + "# playset: " * 1_000
    where = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    sent = [lsp.Diagnostic(where, f"m{i}", code=f"T{i:03d}") for i in range(64)]
    state, uri = SimpleNamespace(game=None), "file:///g/z.yaml"
    for _ in range(5):
        assert len(actions.actions(state, uri, line, sent, [line])) == 64
    assert len(looked) == 1


def test_a_mirror_that_cannot_be_made_leaves_nothing_and_no_traceback(tmp_path, monkeypatch):
    # probe 67-11: past the descriptor limit the lock's open failed: a traceback answered
    # and the mirror's folder left in the temporary folder
    import errno
    import os

    from toolkit.scaffold.new import new_game

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    real = os.open

    def refused(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            raise OSError(errno.EMFILE, "Too many open files")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    server = make_server()
    try:
        assert server.located((game / "game.yaml").as_uri(), opened=True) is None
    finally:
        server.close()
    assert list((tmp_path / "tmp").iterdir()) == []
