"""Probe 46 M3/M5: the preview drew every board and every rulebook page in every language
in the background, at start and again after each save that changed them (a rulebook of
267 pages: 7.6 s; 10 boards of 400 spaces in 3 languages: 12.9 s). They are now drawn
on request as card faces are (session 56): a page asked for is drawn with a few of its
neighbours (the rulebook's pages around it, the boards of its language beside it), the
PDF they come from made once; a save marks the drawn pages stale and draws again, once
saves pause, only the ones the page asked for last. The tests count drawings, never
time."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_tips53 import FIXTURES, build_case
from toolkit.preview import live

BOARDS = ["map", "b1", "b2", "b3"]
PARAGRAPHS = 330  # about 30 pages


def _game(root: Path) -> Path:
    """The base fixture with four boards and a rulebook of ~30 pages in each language."""
    game = build_case(FIXTURES / "base", root)
    board = (game / "boards" / "map.yaml").read_text("utf-8")
    for name in BOARDS[1:]:
        (game / "boards" / f"{name}.yaml").write_text(
            board.replace("id: map", f"id: {name}", 1), "utf-8"
        )
    manifest = game / "game.yaml"
    listed = "".join(f"    - boards/{name}.yaml\n" for name in BOARDS[1:])
    text = manifest.read_text("utf-8").replace(
        "    - boards/map.yaml\n", "    - boards/map.yaml\n" + listed
    )
    text += "  rulebook:\n" + "".join(f"    {lang}: rulebook/{lang}.md\n" for lang in LANGS)
    manifest.write_text(text, "utf-8")
    (game / "rulebook").mkdir()
    for lang in LANGS:
        (game / "rulebook" / f"{lang}.md").write_text(
            f"# Rules {lang}\n\n{{% for i in range({PARAGRAPHS}) %}}"
            '{{ ("Lorem ipsum dolor sit amet %d consectetur adipiscing. " | format(i)) * 4 }}'
            "\n\n{% endfor %}\n",
            "utf-8",
        )
    return game


LANGS = ("fr", "es", "en")


class Drawn:
    """What is drawn from now on: the documents whose PDF is made, the document pages
    rasterised (`rulebook/fr/3`), and boards or rulebooks drawn whole (as before s57)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pdfs: list[str] = []
        self.pages: list[str] = []
        self.whole: list[str] = []
        real_targets = live.draw_targets
        real_pdf = getattr(live, "document_pdf", None)
        real_pages = getattr(live, "document_pages", None)

        def targets(game: Any, targets: list[Any]) -> Any:
            self.whole.extend(t.key for t in targets if t.kind != "face")
            return real_targets(game, targets)

        def pdf(game: Any, target: Any) -> Any:
            self.pdfs.append(target.key)
            assert real_pdf is not None
            return real_pdf(game, target)

        monkeypatch.setattr(live, "draw_targets", targets)
        monkeypatch.setattr(live, "document_pdf", pdf, raising=False)
        if real_pages is not None:
            monkeypatch.setattr(live, "document_pages", self._counted(real_pages))

    def _counted(self, real: Any) -> Any:
        def pages(pdf: bytes, kind: str, indexes: list[int]) -> Any:
            out = real(pdf, kind, indexes)
            self.pages.extend(f"{kind}:{i + 1}" for i in sorted(out))
            return out

        return pages

    def clear(self) -> None:
        del self.pdfs[:], self.pages[:], self.whole[:]


def _preview(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[live.Preview, Path]:
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = _game(tmp_path / "g")
    preview = live.Preview(game)
    preview.load(check=True)
    return preview, game


def _documents(preview: live.Preview) -> dict[str, Any]:
    """Each document's pages in the state (their versions by language, None: not made)."""
    return {s["place"]: s["pages"] for s in preview.state()["sections"] if s["kind"] != "deck"}


def _versions(pages: list[int]) -> dict[int, int]:
    """The drawn pages (1-based) and their versions."""
    return {i + 1: v for i, v in enumerate(pages) if v}


def _settle(preview: live.Preview, seconds: float = 0.6) -> None:
    """Let the running preview's threads work until nothing is queued (at most 20 s), and
    `seconds` more."""
    deadline = time.monotonic() + 20
    while (preview._docs or preview._doc_lock.locked()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(seconds)
    deadline = time.monotonic() + 20
    while preview._doc_lock.locked() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_after_start_no_board_or_rulebook_page_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A started preview (worker and document thread running) draws no board and no
    rulebook page until the page asks for one (was: every board and rulebook of every
    language, one after the other); the state says each is not made yet, and nothing is
    pending."""
    drawn = Drawn(monkeypatch)
    preview, _ = _preview(tmp_path, monkeypatch)
    preview.start()
    try:
        _settle(preview)
        assert drawn.whole == [] and drawn.pdfs == [] and drawn.pages == []
        documents = _documents(preview)
        assert set(documents) == {*(f"board/{b}" for b in BOARDS), "rulebook"}
        assert all(v is None for pages in documents.values() for v in pages.values())
        assert preview.state()["pending"] == 0
    finally:
        preview.stop()


def test_a_rulebook_page_asked_for_is_drawn_with_its_nearest_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Page 10 asked for: its PDF is made once, and pages 9–12 drawn (4 in all, the one
    after first at the same distance); the page hears of every page (their sizes, versions
    0: not drawn). Page 11 is served as drawn; page 30 (the last) is drawn with the 3
    before it, from the same PDF. Other languages are not drawn (was: the whole rulebook
    drawn, every page)."""
    monkeypatch.setattr(live, "DOCUMENT_NEIGHBOURS", {"board": 2, "rulebook": 4}, raising=False)
    drawn = Drawn(monkeypatch)
    preview, _ = _preview(tmp_path, monkeypatch)
    assert preview.page("rulebook/fr/10") is not None
    assert drawn.pdfs == ["rulebook/fr"] and drawn.whole == []
    assert sorted(drawn.pages) == [f"rulebook:{i}" for i in (10, 11, 12, 9)]
    pages = _documents(preview)["rulebook"]
    count = len(pages["fr"])
    assert count >= 25, count
    assert _versions(pages["fr"]) == {9: 1, 10: 1, 11: 1, 12: 1}
    assert pages["es"] is None and pages["en"] is None
    sizes = next(s for s in preview.state()["sections"] if s["kind"] == "rulebook")["sizes"]
    assert len(sizes["fr"]) == count and tuple(sizes["fr"][0]) == (210.0, 297.0)  # A4
    drawn.clear()
    assert preview.page("rulebook/fr/11") is not None
    assert drawn.pages == []
    assert preview.page(f"rulebook/fr/{count}") is not None
    assert drawn.pdfs == []  # the PDF made for page 10
    assert sorted(drawn.pages) == sorted(f"rulebook:{count - i}" for i in range(4))
    assert preview.page(f"rulebook/fr/{count + 1}") is None


def test_a_board_asked_for_is_drawn_with_its_neighbour_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The third board asked for in French: it and the fourth (its nearest undrawn
    neighbour, after it first) are drawn, with DOCUMENT_NEIGHBOURS 2, and no other board
    nor language; then the second asks for the first (was: one board each, and every
    board of every language in the background)."""
    monkeypatch.setattr(live, "DOCUMENT_NEIGHBOURS", {"board": 2, "rulebook": 4}, raising=False)
    drawn = Drawn(monkeypatch)
    preview, _ = _preview(tmp_path, monkeypatch)
    assert preview.page("board/b2/fr/1") is not None
    assert sorted(drawn.pdfs) == ["board/b2/fr", "board/b3/fr"], drawn.pdfs
    documents = _documents(preview)
    assert [b for b in BOARDS if documents[f"board/{b}"]["fr"]] == ["b2", "b3"]
    assert all(documents[f"board/{b}"][lang] is None for b in BOARDS for lang in ("es", "en"))
    drawn.clear()
    assert preview.page("board/b1/fr/1") is not None
    assert sorted(drawn.pdfs) == ["board/b1/fr", "board/map/fr"]


def test_a_save_leaves_the_drawn_pages_stale_and_draws_again_those_asked_for_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Pages 1–6 of the French rulebook asked for, one at a time; its source saved (every
    page of text changes): the six are stale (their versions go up: the page asks for
    them when shown), the save itself draws nothing, and once saves pause the document
    thread draws again only the 3 asked for last (SAVE_PAGES), from one new PDF; the
    Spanish and English rulebooks, never asked for, are never drawn. Page 3 asked for
    again is drawn then, from that PDF (was: every rulebook the save changed drawn whole
    again)."""
    monkeypatch.setattr(live, "DOCUMENT_NEIGHBOURS", {"board": 1, "rulebook": 1}, raising=False)
    monkeypatch.setattr(live, "SAVE_PAGES", {"board": 1, "rulebook": 3}, raising=False)
    monkeypatch.setattr(live, "DOCUMENT_PAUSE", 0.0)
    drawn = Drawn(monkeypatch)
    preview, game = _preview(tmp_path, monkeypatch)
    for page in range(1, 7):
        assert preview.page(f"rulebook/fr/{page}") is not None
    before = _versions(_documents(preview)["rulebook"]["fr"])
    assert before == dict.fromkeys(range(1, 7), 1)
    drawn.clear()
    source = game / "rulebook" / "fr.md"
    source.write_text(source.read_text("utf-8").replace("Lorem ipsum", "LOREM IPSUM"), "utf-8")
    preview.apply({source})
    assert drawn.pdfs == [] and drawn.pages == [] and drawn.whole == []
    stale = {f"rulebook/fr/{i}" for i in range(1, 7)}
    assert preview.stale == stale
    assert _versions(_documents(preview)["rulebook"]["fr"]) == dict.fromkeys(range(1, 7), 2)
    assert preview.state()["pending"] == 3
    preview.start()
    try:
        _settle(preview)
        assert drawn.pdfs == ["rulebook/fr"] and drawn.whole == []
        assert sorted(drawn.pages) == ["rulebook:4", "rulebook:5", "rulebook:6"]
        assert preview.stale == {f"rulebook/fr/{i}" for i in range(1, 4)}
        assert preview.cache.page("rulebook/fr/1").version == 1  # type: ignore[union-attr]
        assert preview.cache.page("rulebook/fr/6").version == 2  # type: ignore[union-attr]
        assert preview.state()["pending"] == 0
        drawn.clear()
        assert preview.page("rulebook/fr/3") is not None  # its first page of text
        assert drawn.pdfs == [] and drawn.pages == ["rulebook:3"]  # the new PDF, kept
        assert preview.stale == {"rulebook/fr/1", "rulebook/fr/2"}  # cover and contents
        assert preview.cache.page("rulebook/fr/3").version == 2  # type: ignore[union-attr]
        documents = _documents(preview)
        assert documents["rulebook"]["es"] is None and documents["rulebook"]["en"] is None
    finally:
        preview.stop()


def test_a_second_start_serves_stored_pages_and_knows_the_page_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The image store keeps a document's page sizes, PDF and each page drawn: a second
    start shows the page count at once and serves a stored page without making the PDF;
    a page not stored is drawn from the stored PDF."""
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setattr(live, "DOCUMENT_NEIGHBOURS", {"board": 1, "rulebook": 1}, raising=False)
    game = _game(tmp_path / "g")
    first = live.Preview(game)
    first.load(check=False)
    png = first.page("rulebook/fr/3")
    assert png is not None
    count = len(_documents(first)["rulebook"]["fr"])
    drawn = Drawn(monkeypatch)
    second = live.Preview(game)
    second.load(check=False)
    pages = _documents(second)["rulebook"]["fr"]
    assert pages is not None and len(pages) == count
    assert second.page("rulebook/fr/3") == png
    assert drawn.pdfs == [] and drawn.pages == []
    assert second.page("rulebook/fr/4") is not None
    assert drawn.pdfs == [] and drawn.pages == ["rulebook:4"]
    shutil.rmtree(tmp_path / "cache")


def test_a_rulebook_that_fails_says_why_and_is_drawn_when_asked_for_once_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A rulebook whose template fails: asked for, no page and its reason in the state
    (its PDF tried once, not again by each request); once its source is fixed, the page
    shows it as not made yet and asking for its first page draws it (was: the request
    left a changed rulebook to the document thread, and served nothing)."""
    drawn = Drawn(monkeypatch)
    preview, game = _preview(tmp_path, monkeypatch)
    source = game / "rulebook" / "fr.md"
    text = source.read_text("utf-8")
    source.write_text(text.replace("# Rules fr", "# Rules {{ nowhere.nothing }}"), "utf-8")
    preview.apply({source})
    assert preview.page("rulebook/fr/1") is None
    assert preview.page("rulebook/fr/1") is None
    section = next(s for s in preview.state()["sections"] if s["kind"] == "rulebook")
    assert section["pages"]["fr"] == [] and section["errors"]["fr"]
    assert len(drawn.pdfs + drawn.whole) == 1  # tried once
    source.write_text(text, "utf-8")
    preview.apply({source})
    section = next(s for s in preview.state()["sections"] if s["kind"] == "rulebook")
    assert section["pages"]["fr"] is None and section["errors"]["fr"] is None
    assert preview.page("rulebook/fr/1") is not None
    section = next(s for s in preview.state()["sections"] if s["kind"] == "rulebook")
    assert len(section["pages"]["fr"]) >= 25 and section["errors"]["fr"] is None
