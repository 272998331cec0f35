"""The card reference check's content paths (toolkit.checks.card_reference._ContentPaths):
a deck's paths are made of its own texts alone, when asked for. After one card edit only
the edited deck is asked for (the others are read back): the values of the game's other
texts are not gone over."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.conftest import REPO
from toolkit.checks.card_reference import _ContentPaths
from toolkit.content.game import load_game
from toolkit.content.walk import collect


@dataclass
class _Text:
    file: object
    path: tuple[str | int, ...]
    values: dict[str, str]
    read: list[object] = field(default_factory=list)

    @property
    def value(self) -> dict[str, str]:
        self.read.append(self.file)
        return self.values


@dataclass
class _Facts:
    texts: list[_Text]


def test_a_deck_asked_for_goes_over_its_own_texts_alone():
    read: list[object] = []
    files = [object() for _ in range(3)]
    texts = [
        _Text(f, ("cards", i, "text"), {"en": "a", "fr": "b"}, read)
        for f in files
        for i in range(4)
    ]
    paths = _ContentPaths(_Facts(texts))  # type: ignore[arg-type]
    assert paths.of(files[1]) == {  # type: ignore[arg-type]
        ("cards", i, "text", lang) for i in range(4) for lang in ("en", "fr")
    }
    assert read == [files[1]] * 4
    assert paths.of(files[1]) is paths.of(files[1])  # type: ignore[arg-type]
    assert read == [files[1]] * 4  # made once
    assert paths.of(object()) == set()  # type: ignore[arg-type]


def test_every_deck_of_a_bundled_game_has_the_paths_of_its_texts():
    for name in ("whisky-game", "tokaido"):
        game = load_game(REPO / "content" / name)
        facts = collect(game)
        paths = _ContentPaths(facts)
        for loaded in game.decks:
            want = {
                (*text.path, lang)
                for text in facts.texts
                if text.file is loaded
                for lang in text.value
            }
            assert want and paths.of(loaded) == want, (name, loaded.rel)
