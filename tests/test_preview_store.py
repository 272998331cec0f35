"""The preview's drawings kept on disk: a second start serves them without drawing, an
edited card (or a changed file beside the content) is drawn again, a tampered entry is
never served."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from toolkit.preview import live  # noqa: E402
from toolkit.preview.live import Preview, forget_layouts  # noqa: E402

REPO = Path(__file__).parent.parent
KEY = "card/travellers/chuubei/fr/front"
OTHER = "card/travellers/hiroshige/fr/front"
CHUUBEI_FR = "piochez une carte Rencontre et appliquez-la."


@pytest.fixture
def tokaido(tmp_path, monkeypatch) -> Path:
    """A copy of Tokaido in a private PLAYSET_HOME, with its own cache folder."""
    root = tmp_path / "home"
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "content" / "tokaido", root / "content" / "tokaido")
    monkeypatch.setenv("PLAYSET_HOME", str(root))
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)  # conftest turns caches off
    forget_layouts()
    yield root / "content" / "tokaido"
    forget_layouts()


def count_draws(monkeypatch) -> list[str]:
    """The keys of every target actually drawn (not read from the store) from now on."""
    keys: list[str] = []
    real = live.draw_targets

    def counting(game, targets):
        keys.extend(t.key for t in targets)
        return real(game, targets)

    monkeypatch.setattr(live, "draw_targets", counting)
    return keys


def start(root: Path) -> Preview:
    preview = Preview(root)
    preview.load(check=False)
    return preview


def test_a_second_start_serves_the_stored_images_without_drawing(tokaido, monkeypatch) -> None:
    first = start(tokaido)
    before = {key: first.page(key) for key in (KEY, OTHER, "rulebook/fr/1")}
    drawn = count_draws(monkeypatch)
    second = start(tokaido)
    # before any request: the first language's stored pages are in memory already
    assert second.cache.has(second.snap.targets["rulebook/fr"])
    assert {key: second.page(key) for key in before} == before
    assert drawn == []


def test_an_edited_card_is_drawn_again_and_only_it(tokaido, monkeypatch) -> None:
    first = start(tokaido)
    before, other = first.page(KEY), first.page(OTHER)
    deck = tokaido / "decks" / "travellers.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace(CHUUBEI_FR, "piochez deux cartes.", 1), encoding="utf-8")
    drawn = count_draws(monkeypatch)
    second = start(tokaido)
    assert second.page(KEY) != before
    assert second.page(OTHER) == other
    assert drawn == [KEY]


def test_a_new_file_beside_the_content_draws_everything_again(tokaido, monkeypatch) -> None:
    start(tokaido).page(KEY)
    (tokaido / "art.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # art a layout may print
    drawn = count_draws(monkeypatch)
    start(tokaido).page(KEY)
    assert KEY in drawn


def test_a_tampered_entry_is_drawn_again(tokaido, monkeypatch) -> None:
    first = start(tokaido)
    good = first.page(KEY)
    assert first.store is not None
    for entry in first.store.folder.glob("*.pages"):
        data = bytearray(entry.read_bytes())
        data[-1] ^= 1
        entry.write_bytes(bytes(data))
    drawn = count_draws(monkeypatch)
    assert start(tokaido).page(KEY) == good
    assert KEY in drawn


def test_playset_no_cache_draws_everything(tokaido, monkeypatch) -> None:
    start(tokaido).page(KEY)
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    drawn = count_draws(monkeypatch)
    again = start(tokaido)
    assert again.store is None
    again.page(KEY)
    assert KEY in drawn


def test_prune_deletes_the_entries_used_longest_ago(tokaido) -> None:
    first = start(tokaido)
    first.page(KEY)  # the travellers deck in French: several entries
    store = first.store
    assert store is not None
    used = store.name(first.snap.targets[KEY], first.snap.fingerprints)
    others = sorted(p for p in store.folder.glob("*.pages") if p.name != used)
    assert len(others) > 2
    for age, entry in enumerate([store.folder / used, *others]):  # `used` the oldest
        os.utime(entry, ns=(age * 10**9, age * 10**9))
    assert store.get(used) is not None  # a hit: used now
    newest = others[-1]
    store.prune(limit=newest.stat().st_size + (store.folder / used).stat().st_size)
    assert sorted(p.name for p in store.folder.glob("*.pages")) == sorted([newest.name, used])


def count_checks(monkeypatch) -> list[str]:
    """The root of every game checked (not answered from the findings cache) from now on."""
    import toolkit.checks

    roots: list[str] = []
    real = toolkit.checks.run_checks

    def counting(game, *args, **kwargs):
        roots.append(str(game.root))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(toolkit.checks, "run_checks", counting)
    return roots


def test_a_second_start_takes_the_findings_kept_without_checking(tokaido, monkeypatch) -> None:
    first = Preview(tokaido)
    first.load(check=True)  # checks, and keeps what it found for the next start
    checked = count_checks(monkeypatch)
    second = Preview(tokaido)
    second.load(check=True)
    assert checked == []
    assert second.checked and second.diagnostics == first.diagnostics


def test_findings_are_not_taken_for_a_game_saved_since(tokaido, monkeypatch) -> None:
    Preview(tokaido).load(check=True)
    deck = tokaido / "decks" / "travellers.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace(CHUUBEI_FR, "", 1), encoding="utf-8")  # a blank text: T…
    checked = count_checks(monkeypatch)
    second = Preview(tokaido)
    second.load(check=True)
    assert checked == [str(tokaido)]
    codes = {d.code for d in second.diagnostics}
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    third = Preview(tokaido)
    third.load(check=True)
    assert {d.code for d in third.diagnostics} == codes  # as a check afresh finds them


def test_other_languages_wait_until_the_page_asked_for_its_first_view(tokaido) -> None:
    start(tokaido).page(KEY)  # drawn and stored: the next start is warm for it
    preview = start(tokaido)
    preview._first_documents.set()  # the first language's board and rulebook are drawn
    first = preview.first_lang
    spanish = next(t for t in preview.snap.targets.values() if t.lang != first)
    assert not preview._may_draw([spanish.key])  # the page has asked for nothing yet
    for target in list(preview.snap.targets.values()):
        if target.lang == first:
            preview._unserved.discard(target.key)  # as `page` does for each image asked for
    assert preview._may_draw([spanish.key])
    again = start(tokaido)
    again._first_documents.set()
    again._last_request -= live.PAGE_QUIET + 1  # no image asked for since: no page open
    assert again._may_draw([spanish.key])


def test_the_preview_serves_stored_images_without_the_drawing_libraries(tmp_path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from toolkit.content.game import bundled_games\n"
        "import toolkit.preview.serve, toolkit.preview.app, toolkit.preview.connections\n"
        "from toolkit.preview.live import Preview\n"
        "p = Preview(bundled_games()['muckle-stoater'])\n"
        "p.load(check=False)\n"
        "p.state()\n"
        "print(sorted({'reportlab', 'jinja2', 'pypdfium2', 'PIL', 'wsproto', 'websockets'}"
        " & {m.split('.')[0] for m in sys.modules}))\n"
    )
    env = {**os.environ, "PLAYSET_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"
