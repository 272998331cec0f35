"""Ninth probe of issue 33, commands and servers: counters an engine keeps past the float
range, and the language server's exit code and its log of messages it cannot read."""

from __future__ import annotations

import subprocess
import sys

from tests.starter_games import engine_game as _game

APPLY = "        seat, game = self.seat, self.game\n"
TURNS = "        self.turns += 1\n"


def test_counters_past_the_float_range_are_findings_not_tracebacks(tmp_path, run_cli):
    # an event count (or turns, rounds, a card's plays) of 10**5000 was an OverflowError
    # traceback from the report's running totals; repr() of it was a ValueError too
    cases = {
        "events": "        self.events[0] = 10**5000\n",
        "turns": "        self.turns = 10**5000\n",
        "card_plays": "        self.card_plays[0][0] = 2**1100\n",
    }
    for name, line in cases.items():
        game = _game(tmp_path, old=TURNS, new=TURNS + line)
        result = run_cli("simulate", str(game), "-n", "3", "-p", "2")
        assert result.exit_code == 1, (name, result.output[-800:])
        assert "E004" in result.output and f"state.{name}" in result.output, name
        assert "too large" in result.output, (name, result.output[-800:])


def _message(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _lsp(data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "lsp"], input=data, capture_output=True, timeout=60
    )


INITIALIZE = _message(
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
)
SHUTDOWN = _message(b'{"jsonrpc":"2.0","id":2,"method":"shutdown"}')
EXIT = _message(b'{"jsonrpc":"2.0","method":"exit"}')


def test_the_language_server_exits_1_on_exit_without_shutdown():
    # the LSP specification: exit code 0 after a shutdown request, 1 otherwise (pygls's
    # SystemExit(1) was swallowed: always 0)
    # (0 after a shutdown: the next test's session ends so)
    assert _lsp(INITIALIZE + EXIT).returncode == 1


def test_a_message_the_server_cannot_read_is_one_log_line_and_the_next_is_read():
    # a body without its Content-Length glued the next message's header to it: that message
    # was lost too, and every one after it; JSON nested 100,000 deep, not JSON, or an id
    # that is a list logged a traceback each
    lost = b'{"jsonrpc":"2.0","id":5,"method":"shutdown"}'
    deep = _message(b"[" * 100_000 + b"]" * 100_000)
    noise = _message(b"\xff not json") + _message(b"[]")
    noise += _message(b'{"jsonrpc":"2.0","id":[1],"method":"shutdown"}')  # an id pygls cannot key
    done = _lsp(INITIALIZE + b"\r\n" + lost + deep + noise + SHUTDOWN + EXIT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert b'"id": 2, "jsonrpc": "2.0", "result": null' in done.stdout
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert 1 <= done.stderr.count(b"\n") <= 8, done.stderr


def test_another_sites_page_cannot_load_the_previews_images():
    # an <img> on any other site's page loaded /img/<key> (no Origin header on an image):
    # onload or onerror told which card ids, languages and rulebook pages exist, and
    # naturalWidth their size (shown in headless Chromium from another origin)
    from tests.test_hardening_cli import _client

    client = _client("127.0.0.1")
    for site in ("cross-site", "same-site"):
        for url in ("/api/state", "/events", "/img/card/cards/advance/en/front"):
            headers = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "no-cors"}
            response = client.get(url, headers=headers)
            assert response.status_code == 403, (site, url)
            assert "secret" not in response.text
    for site in ("same-origin", "none"):  # the page's own requests; an address typed
        response = client.get("/api/state", headers={"Sec-Fetch-Site": site})
        assert response.status_code == 200 and response.json()["secret"], site
    # a link from another site opens the page (which then loads only its own data)
    link = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    assert client.get("/", headers=link).status_code == 200
    # a browser that sends no Sec-Fetch-Site is told not to hand the answers to other sites
    response = client.get("/api/state")
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"


def test_a_relative_cache_folder_is_no_cache(tmp_path, monkeypatch):
    # XDG_CACHE_HOME=rel/dir (or PLAYSET_CACHE, or a relative HOME) put the cache under the
    # current folder: a game folder unpacked from an archive could bring its own signed
    # store (its key beside it) and `playset validate` in it ran that store's code (a
    # tampered dataclass-code entry ran os.system). The XDG specification: ignore it.
    from toolkit.usercache import SignedStore, cache_dir

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PLAYSET_CACHE", raising=False)
    for variable, value in (("XDG_CACHE_HOME", "rel/dir"), ("PLAYSET_CACHE", "here")):
        monkeypatch.setenv(variable, value)
        folder = cache_dir("code")
        assert folder is None or folder.is_absolute(), (variable, folder)
        assert SignedStore.open("code", 1024) is None or folder is not None
        monkeypatch.delenv(variable)
    monkeypatch.setenv("XDG_CACHE_HOME", "rel/dir")
    monkeypatch.setenv("HOME", "relhome")
    assert cache_dir("code") is None
    assert SignedStore.open("code", 1024) is None
    assert list(tmp_path.iterdir()) == []  # nothing made in the current folder


def test_an_open_document_that_names_a_folder_does_not_stop_every_check(tmp_path, run_cli):
    # didOpen of a folder's URI (the game folder, decks/) or of a path below a file put a
    # buffer the mirror could not write: every check of the game failed from then on, each
    # with a traceback in the log, until the client closed that "document"
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    assert run_cli("new", "demo", "--into", str(tmp_path), "--lang", "en").exit_code == 0
    game = tmp_path / "demo"
    state = GameState(Mirror(game))
    try:
        for rel in (".", "decks", "game.yaml/below"):
            state.mirror.set_buffer(rel, "x: 1\n")
        state.mirror.set_buffer("glossary.yaml", "terms: [")  # a real edit, still checked
        found = state.check()
        assert any(d.code.startswith("Y") for d in found[str(game / "glossary.yaml")])
    finally:
        state.mirror.close()
