"""The live preview: which saved file redraws what, last good images, the web app."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("watchfiles")

from starlette.testclient import TestClient  # noqa: E402

from toolkit.content.game import load_game  # noqa: E402
from toolkit.preview.app import make_app  # noqa: E402
from toolkit.preview.hosts import AllowedHosts  # noqa: E402
from toolkit.preview.live import Preview, forget_layouts  # noqa: E402
from toolkit.render.deps import snapshot  # noqa: E402

REPO = Path(__file__).parent.parent
LANGS = ("fr", "es", "en")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A private PLAYSET_HOME (layouts and fonts copied) holding a copy of Tokaido, so a
    test can save layouts as well as content."""
    root = tmp_path / "home"
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "content" / "tokaido", root / "content" / "tokaido")
    shutil.copytree(REPO / "schemas", root / "schemas")  # where the modelines point
    monkeypatch.setenv("PLAYSET_HOME", str(root))
    forget_layouts()
    yield root
    forget_layouts()


@pytest.fixture
def tokaido(home) -> Path:
    return home / "content" / "tokaido"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def redrawn_after(game_root: Path, change) -> set[str]:
    """The target keys a change to the files makes the preview draw again."""
    before = snapshot(load_game(game_root))
    change()
    forget_layouts()
    return {t.key for t in snapshot(load_game(game_root)).changed_since(before)}


CHUUBEI_FR = "piochez une carte Rencontre et appliquez-la."


# --- the dependency map ------------------------------------------------------------------


def test_one_cards_text_redraws_that_card_in_each_language(tokaido) -> None:
    decks = tokaido / "decks"
    found = redrawn_after(
        tokaido, lambda: edit(decks / "travellers.yaml", CHUUBEI_FR, "piochez deux cartes.")
    )
    faces = {f"card/travellers/chuubei/{lang}/front" for lang in LANGS}
    # The rulebook prints the card reference, so it is drawn again too; nothing else is.
    assert found == faces | {f"rulebook/{lang}" for lang in LANGS}


def test_a_shared_back_follows_the_first_card_only_if_it_prints_it(tokaido, home) -> None:
    deck = tokaido / "decks" / "travellers.yaml"
    found = redrawn_after(tokaido, lambda: edit(deck, "fr: Chuubei", "fr: Chubei"))
    assert not any(key.startswith("back/") for key in found)  # tk-back prints the deck only
    back = home / "content" / "tokaido" / "layouts" / "tk-back.yaml"
    edit(back, 'text: "{{ deck.name }}"', 'text: "{{ deck.name }} {{ card.name }}"')
    forget_layouts()
    found = redrawn_after(tokaido, lambda: edit(deck, "fr: Chubei", "fr: Chuubei"))
    assert {f"back/travellers/{lang}" for lang in LANGS} <= found
    assert not any(key.startswith("back/meals") for key in found)


def test_a_layout_redraws_the_decks_that_use_it(tokaido, home) -> None:
    layout = home / "content" / "tokaido" / "layouts" / "tk-meal.yaml"
    text = layout.read_text(encoding="utf-8")
    found = redrawn_after(tokaido, lambda: layout.write_text(text + "\n# a comment\n"))
    deck = next(f.model for f in load_game(tokaido).decks if f.model.id == "meals")
    meals = [card.id for card in deck.cards]
    assert found == {f"card/meals/{card}/{lang}/front" for card in meals for lang in LANGS}


def test_the_glossary_redraws_everything_that_prints_it(tokaido) -> None:
    glossary = tokaido / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    first = text.index("en: ", text.index("terms:"))
    changed = text[: first + 4] + "Changed " + text[first + 4 :]
    found = redrawn_after(tokaido, lambda: glossary.write_text(changed, encoding="utf-8"))
    kinds = {key.split("/")[0] for key in found}
    assert {f"board/road/{lang}" for lang in LANGS} <= found
    assert {f"rulebook/{lang}" for lang in LANGS} <= found
    # tk-meal prints glossary terms; the achievements' and hot springs' layouts do not.
    assert "card/meals/meal-dango/fr/front" in found
    assert not any(key.startswith(("card/achievements", "card/hot_springs")) for key in found)
    assert "back" not in kinds  # tk-back prints no term


def test_a_rulebook_source_redraws_that_rulebook_only(tokaido) -> None:
    source = tokaido / "rulebook" / "en.md"
    found = redrawn_after(
        tokaido, lambda: source.write_text(source.read_text() + "\nOne more line.\n")
    )
    assert found == {"rulebook/en"}


def test_saving_a_file_unchanged_redraws_nothing(tokaido) -> None:
    deck = tokaido / "decks" / "meals.yaml"
    assert redrawn_after(tokaido, lambda: deck.write_text(deck.read_text())) == set()


# --- the session: drawing, last good images, diagnostics -------------------------------


@pytest.fixture
def session(tokaido) -> Preview:
    preview = Preview(tokaido)
    preview.load()
    return preview


KEY = "card/travellers/chuubei/fr/front"


def test_a_saved_card_is_drawn_again_and_only_it_changes(session, tokaido) -> None:
    before = {lang: session.page(f"card/travellers/chuubei/{lang}/front") for lang in LANGS}
    other = session.page("card/travellers/hiroshige/fr/front")
    assert before["fr"].startswith(PNG)
    edit(tokaido / "decks" / "travellers.yaml", CHUUBEI_FR, "piochez deux cartes Rencontre.")
    changed = session.apply({tokaido / "decks" / "travellers.yaml"})
    assert changed == [KEY]  # es and en were drawn again and came out the same
    assert session.page(KEY) != before["fr"]
    assert session.page("card/travellers/chuubei/en/front") == before["en"]
    assert session.page("card/travellers/hiroshige/fr/front") == other
    assert session.cache.page(KEY).version == 2


def test_invalid_yaml_shows_its_diagnostic_and_keeps_the_last_good_image(session, tokaido) -> None:
    deck = tokaido / "decks" / "travellers.yaml"
    good = session.page(KEY)
    assert session.state()["placed"] == {}
    edit(deck, CHUUBEI_FR, "piochez: [une carte")  # saved half-way: not YAML any more
    assert session.apply({deck}) == []
    assert session.page(KEY) == good
    state = session.state()
    found = state["placed"]["card/travellers/chuubei"]
    assert [d["code"] for d in found] == ["Y001"]
    assert found[0]["where"].endswith(f"{found[0]['line']}:{found[0]['col']}")
    assert "travellers.yaml:" in found[0]["where"]
    assert state["counts"]["error"] == 1
    travellers = next(s for s in state["sections"] if s["id"] == "travellers")
    assert len(travellers["cards"]) == 10  # the deck is still shown, from its last good load
    edit(deck, "piochez: [une carte", "piochez deux cartes.")  # saved whole again
    assert KEY in session.apply({deck})
    assert session.page(KEY) != good
    after = session.state()["placed"].get("card/travellers/chuubei", [])
    assert "Y001" not in {d["code"] for d in after}  # a translation check may speak now


def test_a_schema_error_is_placed_beside_its_card(session, tokaido) -> None:
    deck = tokaido / "decks" / "meals.yaml"
    edit(deck, "    price: 2\n", "    price: two\n")
    session.apply({deck})
    placed = session.state()["placed"]
    assert [key for key in placed if key.startswith("card/")] == ["card/meals/meal-yakitori"]


def test_a_broken_layout_keeps_its_decks_images_and_says_why(session, home) -> None:
    key = "card/meals/meal-dango/fr/front"
    good = session.page(key)
    layout = home / "content" / "tokaido" / "layouts" / "tk-meal.yaml"
    layout.write_text(layout.read_text() + "\n  - kind: [broken\n")
    session.apply({layout})
    assert session.page(key) == good
    meals = next(s for s in session.state()["sections"] if s["id"] == "meals")
    assert "tk-meal" in meals["cards"][0]["front"]["fr"]["error"]
    placed = session.state()["placed"]
    assert any(d["file"].endswith("tk-meal.yaml") for d in placed["deck/meals"])


def test_the_watcher_and_worker_redraw_a_saved_card(session, tokaido) -> None:
    from toolkit.preview.watcher import Watcher

    session.page(KEY)
    heard = threading.Event()
    session.subscribe(lambda state: heard.set() if state["last_update"] else None)
    watcher = Watcher([tokaido], session.notify)
    session.start()
    watcher.start()
    try:
        assert watcher.ready.wait(10)
        edit(tokaido / "decks" / "travellers.yaml", CHUUBEI_FR, "piochez deux cartes.")
        assert heard.wait(20)
        deadline = time.monotonic() + 20
        while session.cache.page(KEY).version < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.cache.page(KEY).version == 2
        assert session.last_update["files"][0].endswith("travellers.yaml")
    finally:
        watcher.stop()
        session.stop()


# --- the web app --------------------------------------------------------------------------


@pytest.fixture
def client(session):
    allowed = AllowedHosts.for_server("127.0.0.1", None)
    with TestClient(make_app(session, allowed), base_url="http://127.0.0.1:8765") as client:
        yield client


@pytest.fixture(scope="module")
def read_only_client(tmp_path_factory):
    """One app over one preview of a copy of Tokaido for the requests that must change and
    draw nothing (31 cases below): a copy, a loaded preview and an app for each cost ~0.3 s of
    CPU apiece. Each case still asserts its own refusal."""
    folder = tmp_path_factory.mktemp("read-only") / "tokaido"
    shutil.copytree(REPO / "content" / "tokaido", folder)
    preview = Preview(folder)
    preview.load()
    allowed = AllowedHosts.for_server("127.0.0.1", None)
    with TestClient(make_app(preview, allowed), base_url="http://127.0.0.1:8765") as client:
        yield client


def test_the_page_its_script_and_its_style(client) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "/static/app.js" in page.text and "/static/style.css" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert "EventSource" in client.get("/static/app.js").text
    assert client.get("/static/style.css").status_code == 200


def test_the_wheel_ships_the_page() -> None:
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["toolkit.preview"]
    package = REPO / "toolkit" / "preview"
    shipped = {p.name for pattern in patterns for p in package.glob(pattern)}
    assert {"index.html", "app.js", "style.css"} <= shipped


def test_the_state_lists_every_card_board_and_rulebook(client) -> None:
    state = client.get("/api/state").json()
    decks = [s for s in state["sections"] if s["kind"] == "deck"]
    assert sum(len(d["cards"]) for d in decks) == 76
    assert {s["kind"] for s in state["sections"]} == {"deck", "board", "rulebook"}
    assert state["game"]["languages"] == list(LANGS)


def test_images_are_served_from_the_render_cache(client) -> None:
    image = client.get(f"/img/{KEY}?v=1")
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png"
    assert image.content.startswith(PNG)
    assert client.get("/img/back/travellers/en").content.startswith(PNG)
    assert client.get("/img/rulebook/en/1").content.startswith(PNG)
    assert client.get("/img/board/road/es/1").content.startswith(PNG)
    assert client.get("/img/card/travellers/nobody/fr/front").status_code == 404
    assert client.get("/img/rulebook/en/999").status_code == 404
    # probe 48 L1: a Unicode digit, or thousands of digits, passed `isdigit` and `int()`
    # refused them: HTTP 500
    assert client.get("/img/rulebook/en/\u00b2").status_code == 404
    assert client.get("/img/rulebook/en/" + "1" * 5000).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/img/../../../../etc/passwd",
        "/img/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/img/..%2f..%2f..%2fgame.yaml",
        "/img//etc/passwd",
        "/img/decks/travellers.yaml",
        "/static/../live.py",
        "/static/..%2flive.py",
        "/static/%2e%2e%2f__init__.py",
        "/static/index.html/../../live.py",
        "/game.yaml",
        "/decks/travellers.yaml",
    ],
)
def test_no_request_reaches_a_file_by_its_path(read_only_client, url) -> None:
    response = read_only_client.get(url)
    assert response.status_code == 404
    assert b"kind: travellers" not in response.content
    assert b"import" not in response.content and b"root:" not in response.content


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("url", ["/", "/api/state", f"/img/{KEY}", "/events", "/static/app.js"])
def test_nothing_can_be_written(read_only_client, method, url) -> None:
    assert read_only_client.request(method, url).status_code == 405


def _events(lines):
    """Parse server-sent events from a line iterator: yields each event's data."""
    data = []
    for line in lines:
        if line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and data:
            yield json.loads("\n".join(data))
            data = []


def test_a_saved_file_sends_an_event_with_the_new_image_version(client, session, tokaido) -> None:
    client.get(f"/img/{KEY}")
    with client.stream("GET", "/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = _events(stream.iter_lines())
        first = next(events)
        chuubei = _card(first, "travellers", "chuubei")
        assert chuubei["front"]["fr"]["version"] == 1
        edit(tokaido / "decks" / "travellers.yaml", CHUUBEI_FR, "piochez deux cartes.")
        session.apply({tokaido / "decks" / "travellers.yaml"})
        update = next(events)
        assert _card(update, "travellers", "chuubei")["front"]["fr"]["version"] == 2
        assert _card(update, "travellers", "hiroshige")["front"]["fr"]["version"] == 1  # as is
        assert update["last_update"]["changed"] == [KEY]
        session.stop_streams()  # the stream ends within a second, as on Ctrl-C
        rest = list(events)  # (the diagnostics' own event may still come first)
        assert all(state["revision"] > update["revision"] for state in rest)
    assert client.get(f"/img/{KEY}?v=2").content == session.page(KEY)


def _card(state, deck, card):
    section = next(s for s in state["sections"] if s.get("id") == deck)
    return next(c for c in section["cards"] if c["id"] == card)


# --- the command --------------------------------------------------------------------------


def test_preview_refuses_an_unknown_game(run_cli) -> None:
    result = run_cli("preview", "no-such-game")
    assert result.exit_code == 2
    assert "no bundled game or folder" in result.output


def test_preview_needs_a_game_outside_a_game_folder(run_cli, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("preview")
    assert result.exit_code == 2
    assert "name the game to preview" in result.output


def test_preview_says_when_its_port_is_taken(run_cli) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run_cli("preview", "tokaido", "--port", str(taken.getsockname()[1]))
    assert result.exit_code == 2
    assert "cannot listen on 127.0.0.1:" in result.output


def test_ctrl_c_stops_the_server_with_a_page_listening(tmp_path) -> None:
    """SIGINT ends uvicorn, the open event stream, the worker and the watcher: exit 0."""
    import signal
    import subprocess
    import sys
    import urllib.request

    game = tmp_path / "tokaido"
    shutil.copytree(REPO / "content" / "tokaido", game)
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "preview", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        address = line.split(" at ", 1)[1].split()[0]
        assert address.startswith("http://127.0.0.1:")
        stream = urllib.request.urlopen(address + "events", timeout=10)
        assert stream.readline().startswith(b"event: state")
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 130  # as every command stopped by Ctrl-C
        assert time.monotonic() - started < 10
        assert "preview stopped" in process.stderr.read()
        stream.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_watcher_ignores_what_build_writes() -> None:
    from watchfiles import Change

    from toolkit.preview.watcher import ContentFilter

    allowed = ContentFilter()
    assert allowed(Change.modified, "/g/decks/meals.yaml")
    assert allowed(Change.modified, "/g/rulebook/fr.md")
    assert not allowed(Change.modified, "/g/output/tokaido/fr/cards.png")
    assert not allowed(Change.modified, "/g/decks/.meals.yaml.swp")
    assert not allowed(Change.modified, "/g/decks/cards.pdf")


def test_the_header_names_the_game_folder_when_started_inside_it(tmp_path) -> None:
    from toolkit.preview.page import _folder_shown

    game = tmp_path / "lantern-keepers"
    assert _folder_shown(".", game) == "lantern-keepers/"
    assert _folder_shown("games/lantern-keepers", game) == "games/lantern-keepers"


_SLOW_DRAWING = """
import sys, time
import toolkit.preview.live as live

def _slow(self, targets):  # a drawing that takes long (a huge board label, probe 17b L11)
    time.sleep(60)
    return []

def _slow_pdf(game, target):  # a board's or rulebook's PDF, as slow
    time.sleep(60)
    return b""

live.Preview._draw = _slow
live.document_pdf = _slow_pdf
sys.argv = ["playset", "preview", *sys.argv[1:]]
from toolkit.cli import main
main()
"""


def _slow_preview() -> subprocess.Popen[str]:
    """The preview of tokaido, its drawings made slow (`_SLOW_DRAWING`), on a free port."""
    return subprocess.Popen(
        [sys.executable, "-c", _SLOW_DRAWING, "tokaido", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PLAYSET_NO_CACHE": "1"},
    )


@pytest.mark.parametrize("sig, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_stops_the_preview_while_it_draws(tmp_path, sig, code) -> None:
    """`kill` (what `timeout`, a service manager or a closed terminal send) and Ctrl-C stop
    the preview promptly even while a drawing is under way: it waited 5 s a thread."""
    import signal

    process = _slow_preview()
    try:
        line = process.stdout.readline()
        assert " at http://127.0.0.1:" in line
        time.sleep(0.5)  # the worker is in its first drawing
        started = time.monotonic()
        process.send_signal(getattr(signal, sig))
        assert process.wait(timeout=15) == code
        assert time.monotonic() - started < 4.5
        err = process.stderr.read()
        assert "preview stopped" in err
        assert "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("sig, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_stops_the_preview_while_images_asked_for_are_drawn(tmp_path, sig, code) -> None:
    """Images a page asked for are drawn off the event loop: their threads were the loop's
    default executor, which `asyncio.run` waits for, so a stop waited for every drawing
    asked for (22–30 s, a second Ctrl-C no help) and uvicorn printed a CancelledError
    traceback for each request (probe 19b M3). Now the answers are 503 and nothing waits."""
    import signal
    import urllib.error
    import urllib.request

    process = _slow_preview()
    answers: list[object] = []

    def ask(url: str) -> None:
        try:
            answers.append(urllib.request.urlopen(url, timeout=20).status)
        except urllib.error.HTTPError as exc:
            answers.append(exc.code)
        except OSError as exc:
            answers.append(exc)

    try:
        line = process.stdout.readline()
        address = line.split(" at ", 1)[1].split()[0]
        keys = ["card/travellers/chuubei/fr/front", "back/travellers/en", "rulebook/en/1"]
        keys += [f"card/travellers/chuubei/{lang}/front" for lang in ("en", "es")]
        askers = [threading.Thread(target=ask, args=(address + "img/" + k,)) for k in keys]
        for asker in askers:
            asker.start()
        time.sleep(1.0)  # every request is drawing, or waiting for the one that draws
        started = time.monotonic()
        process.send_signal(getattr(signal, sig))
        assert process.wait(timeout=15) == code
        assert time.monotonic() - started < 3.0
        err = process.stderr.read()
        assert "preview stopped" in err
        assert "Traceback" not in err and "CancelledError" not in err, err
        for asker in askers:
            asker.join(timeout=5)
        # each request in flight hears the stop as a 503, not a dropped connection (s51)
        assert answers == [503] * len(keys), answers
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
