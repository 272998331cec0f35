"""Probe 44 (Low): the preview saw a saved PNG or SVG but not a JPEG, GIF or WebP picture,
nor a font, though cards print those pictures and layouts the game's fonts: replacing one
left the page showing the old one until another file was saved."""

from __future__ import annotations

import pytest
from watchfiles import Change

from toolkit.preview.watcher import ContentFilter


@pytest.mark.parametrize(
    "path",
    [
        "/g/pics/a.jpg",
        "/g/pics/a.JPEG",
        "/g/pics/a.gif",
        "/g/pics/a.webp",
        "/g/fonts/Inter-Regular.ttf",
        "/g/fonts/Inter-Bold.OTF",
        "/g/pics/a.png",
        "/g/icons/a.svg",
    ],
)
def test_the_watcher_sees_saved_pictures_and_fonts(path: str) -> None:
    assert ContentFilter()(Change.modified, path)
    assert ContentFilter()(Change.added, path)


def test_the_watcher_still_ignores_what_build_writes_and_other_files() -> None:
    allowed = ContentFilter()
    assert not allowed(Change.modified, "/g/output/game/fr/cards.jpg")
    assert not allowed(Change.modified, "/g/fonts/readme.txt")
    assert not allowed(Change.modified, "/g/pics/a.pdf")
