"""The hot paths of `validate` and `build` take their short cuts without changing a result:
each test here fails when its short cut is gone, and checks the answer stays Jinja's own."""

from __future__ import annotations

from typing import Any

from toolkit.render.context import View
from toolkit.render.jinja_cache import CachedSandbox


class _Counting(View):
    """A View that counts its attribute lookups (Jinja's slow path goes through them)."""

    looked_up: list[str] = []

    def __getattr__(self, name: str) -> Any:
        _Counting.looked_up.append(name)
        return super().__getattr__(name)


def _render(source: str, **context: Any) -> str:
    sandbox = CachedSandbox(keep_trailing_newline=False, immutable=True)
    return sandbox.render(sandbox.template(source, "test"), context)


def test_a_views_item_is_read_without_the_attribute_probe() -> None:
    _Counting.looked_up.clear()
    card = _Counting(name="Sprint", text="Move 2")
    assert _render("{{ card.name }}/{{ card.text }}", card=card) == "Sprint/Move 2"
    assert _Counting.looked_up == []


def test_the_short_cut_answers_as_jinja_does() -> None:
    card = View(name="Sprint", items="own", _secret="x")
    glossary = {"meal": "repas", "keys": "k"}
    assert _render("{{ g.meal }} {{ card.name }}", g=glossary, card=card) == "repas Sprint"
    # a dict method wins over an item of that name, as in Jinja; a mutating one is refused
    assert _render("{{ card.items is callable }}", card=card) == "True"
    assert _render("{{ g.keys is callable }}", g=glossary) == "True"
    assert _render("{{ card.pop is defined }}", card=card) == "False"
    # a name starting with '_' stays unreadable; a missing one is undefined
    assert _render("{{ card._secret is defined }}", card=card) == "False"
    assert _render("{{ card.cost is defined }}", card=card) == "False"
    # str.format read from an item stays the sandbox's bounded format
    assert _render("{{ v.f(1, 2) }}", v=View(f="{0}-{1}".format)) == "1-2"


def test_question_cards_read_the_games_fonts_once_per_face_and_language(monkeypatch) -> None:
    """The print-fit check of a question bank makes one print job per face and language,
    not one per question: each job reads the game's fonts folder."""
    from toolkit.checks import printfit
    from toolkit.content.game import bundled_games, load_game
    from toolkit.content.walk import collect
    from toolkit.render import printjob

    game = load_game(bundled_games()["whisky-game"])
    facts = collect(game)
    once = printfit._Once(
        facts,
        printfit._content_lacks(facts, printjob.game_fonts(game).face(None)),
        printfit.icon_set(game.root),
    )
    calls: list[object] = []
    real = printjob.game_fonts

    def counting(of: Any) -> Any:
        calls.append(of)
        return real(of)

    monkeypatch.setattr(printjob, "game_fonts", counting)
    stop = printfit._Stop(printfit.FitBudget())
    assert list(printfit._question_fit(game, once, {}, stop)) == []
    faces, languages = 2, len(game.manifest.languages)
    assert 0 < len(calls) <= faces * languages * len(game.questions)


def test_rulebook_paragraphs_share_one_hyphenation_dictionary(monkeypatch) -> None:
    """reportlab given a language name makes a pyphen.Pyphen per paragraph it wraps; the
    rulebook's styles hand it one hyphenator, which splits words as pyphen does."""
    import pyphen
    from reportlab.platypus import Paragraph

    from toolkit.render.markdown_flow import make_sheet

    made: list[str] = []
    real = pyphen.Pyphen.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(str(kwargs.get("lang")))
        real(self, *args, **kwargs)

    monkeypatch.setattr(pyphen.Pyphen, "__init__", counting)
    body = make_sheet("fr")["body"]
    word = "anticonstitutionnellement"
    for _ in range(5):
        Paragraph(f"Les distilleries {word} {word}", body).wrap(60, 500)
    assert len(made) <= 1
    assert list(body.hyphenationLang(word)) == list(pyphen.Pyphen(lang="fr").iterate(word))


def test_a_plain_scalars_tag_is_resolved_once_per_distinct_text(monkeypatch, tmp_path) -> None:
    """YAML 1.2 gives a plain scalar the same tag wherever its text appears: worked out once,
    with the very types ruamel's own resolution gives."""
    from ruamel.yaml.resolver import VersionedResolver

    from toolkit.content.source import parse_document

    seen: list[str] = []
    real = VersionedResolver.resolve

    def counting(self: Any, kind: Any, value: Any, implicit: Any) -> Any:
        seen.append(value)
        return real(self, kind, value, implicit)

    monkeypatch.setattr(VersionedResolver, "resolve", counting)
    lines = [f"- {{n: {i % 3}, ok: yes, on: true, f: 1.5, z: null, o: 0o7}}" for i in range(50)]
    doc, found = parse_document(tmp_path / "x.yaml", "x.yaml", "\n".join(lines).encode())
    assert found == [] and doc is not None
    assert doc.data[7] == {"n": 1, "ok": "yes", "on": True, "f": 1.5, "z": None, "o": 7}
    texts = [v for v in seen if v not in ("", None)]
    assert len(texts) == len(set(texts))  # no text resolved twice


def test_placeholder_parity_reads_a_cards_parameters_only_when_a_text_uses_one(
    monkeypatch,
) -> None:
    """Parity of placeholders needs the card's parameters only for a text with a
    `{placeholder}` in some language: the others never walk the card."""
    from toolkit.checks.translation import parity, views
    from toolkit.content import templating
    from toolkit.content.game import bundled_games, load_game
    from toolkit.content.walk import collect

    game = load_game(bundled_games()["whisky-game"])
    texts = views(game, collect(game))
    using = [v for v in texts if any(templating.placeholders(t) for t in v.values.values())]
    walked: list[object] = []
    real = templating.parameter_values

    def counting(owner: Any, lang: str | None = None) -> Any:
        walked.append(owner)
        return real(owner, lang)

    monkeypatch.setattr(templating, "parameter_values", counting)
    for view in texts:
        list(parity._placeholders(view, view.values.get(view.source, "")))
    assert len(walked) == len(using) < len(texts)


def test_validating_muckle_stoater_imports_no_engine_or_bot() -> None:
    """`validate` needs a game's models and checks; the engine and bots load on the first
    simulation (the plugin's entries import them when called)."""
    import subprocess
    import sys

    code = (
        "import sys; from toolkit.checks import run_checks;"
        "from toolkit.content.game import bundled_games, load_game;"
        "run_checks(load_game(bundled_games()['muckle-stoater']));"
        "print(sorted(m for m in sys.modules if m.endswith(('.compile', '.bots', 'toolkit.api'))"
        " and m.startswith('toolkit.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_lazy_engines_and_bots_are_the_games_own() -> None:
    from toolkit.content.game import bundled_games, load_game

    for folder in bundled_games().values():
        plugin = load_game(folder).plugin
        assert plugin.engine is not None and plugin.bots
        for make in plugin.bots.values():
            bot = make(0)
            assert type(bot).__module__.endswith(".bots")


def test_a_rendered_rulebook_is_searched_for_lacking_glyphs_once_a_character(
    monkeypatch,
) -> None:
    """`may_lack` asks each face about each distinct character once, not the whole book
    again for each face; its answer is the same."""
    from toolkit.checks import rulebook_glyphs
    from toolkit.render.fonts import missing_glyphs
    from toolkit.render.markdown_printed import STYLES

    asked: list[str] = []

    def counting(text: str, style: str = "regular") -> list[str]:
        asked.append(text)
        return missing_glyphs(text, style)

    monkeypatch.setattr(rulebook_glyphs, "missing_glyphs", counting)
    faces = type("Faces", (), {s: f for s, f in zip(STYLES, _FACES, strict=True)})()
    book = "## Setup\n\nEach player takes 3 cards. " * 200
    assert rulebook_glyphs.may_lack(book, faces) is False
    assert asked and all(len(text) == len(set(text)) for text in asked)
    assert rulebook_glyphs.may_lack(book + "\u4e2d", faces) is True  # a CJK letter: lacked


_FACES = ("regular", "bold", "italic", "bolditalic", "bold")


def test_localize_gives_plain_values_back_without_asking_whether_they_are_models(
    monkeypatch,
) -> None:
    """Most of a game's values are texts and numbers: `localize` gives them back as they
    are, before the (slower) model class check; a dict, list or model is localized as ever."""
    from pydantic import BaseModel

    from toolkit.render import context

    checked: list[object] = []
    meta: Any = type(BaseModel)
    own = meta.__instancecheck__

    def counting(cls: Any, value: object) -> bool:
        if cls is BaseModel:
            checked.append(value)
        return own(cls, value)

    monkeypatch.setattr(meta, "__instancecheck__", counting)
    values = ["a", 1, 2.5, True, None]
    assert context.localize(values, "fr") == values
    assert checked == []

    class Kind(str):
        pass

    odd = Kind("x")
    assert context.localize(odd, "fr") is odd  # a subclass goes the long way, to the same end
    assert context.localize({"en": "Hi", "fr": "Salut"}, "fr") == "Salut"
    assert context.localize([{"a": 1}], "fr") == [{"a": 1}]


def _board_game(tmp_path: Any, board: str) -> Any:
    """A copy of the Whisky Game whose map board file is `board`."""
    import shutil

    from toolkit.home import repo_root

    game = tmp_path / "game"
    shutil.copytree(repo_root() / "content" / "whisky-game", game)
    (game / "boards" / "map.yaml").write_text(board, encoding="utf-8")
    return game


def _loaded(game: Any) -> tuple[list[Any], list[Any]]:
    from toolkit.content.game import load_game

    loaded = load_game(game)
    dumps = [(b.rel, b.model and b.model.model_dump(), b.partial) for b in loaded.boards]
    return sorted(loaded.diagnostics, key=lambda d: d.sort_key()), dumps


def test_a_board_file_is_validated_by_its_shape_alone(monkeypatch, tmp_path) -> None:
    from toolkit.content.models import board
    from toolkit.content.plugin import adapter
    from toolkit.home import repo_root

    game = _board_game(tmp_path, (repo_root() / "content/whisky-game/boards/map.yaml").read_text())
    adapter.cache_clear()
    unions: list[int] = []
    union = board.board_union
    monkeypatch.setattr(board, "board_union", lambda: unions.append(1) or union())
    diagnostics, boards = _loaded(game)
    assert boards[0][1] is not None and not diagnostics
    assert unions == []  # the union's schema (every shape's) is not built
    adapter.cache_clear()


BOARDS = {
    "valid": None,
    "a wrong field": ("spaces:", "spaces: 3\nx_spaces:"),
    "an unknown kind": ("kind: graph", "kind: hexes"),
    "a numeric kind": ("kind: graph", "kind: 3"),
    "no kind": ("kind: graph\n", "\n"),
    "an unknown key": ("kind: graph\n", "kind: graph\ncolour: red\n"),
}


def test_a_board_validated_by_its_shape_reads_as_by_the_union(monkeypatch, tmp_path) -> None:
    from toolkit.content import game as game_module
    from toolkit.content.plugin import adapter
    from toolkit.home import repo_root

    text = (repo_root() / "content/whisky-game/boards/map.yaml").read_text()
    for i, (name, change) in enumerate(BOARDS.items()):
        board = text if change is None else text.replace(*change, 1)
        assert change is None or board != text, name
        game = _board_game(tmp_path / str(i), board)
        adapter.cache_clear()
        shaped = _loaded(game)
        assert (change is None) == (not shaped[0]), name  # a board in error says so
        with monkeypatch.context() as m:  # every board through the union, as before
            m.setattr(game_module, "board_shape", lambda data: None)
            adapter.cache_clear()
            assert _loaded(game) == shaped, name
    adapter.cache_clear()


def _deck_game(tmp_path: Any, deck: str | None = None) -> Any:
    """A copy of the Whisky Game whose characters deck file is `deck` (else as it is)."""
    import shutil

    from toolkit.home import repo_root

    game = tmp_path / "game"
    shutil.copytree(repo_root() / "content" / "whisky-game", game)
    if deck is not None:
        (game / "decks" / "characters.yaml").write_text(deck, encoding="utf-8")
    return game


def _fresh_plugin(monkeypatch: Any) -> Any:
    """The Whisky Game's plugin made anew (no validator built yet), as load_game finds it."""
    from toolkit.content import game as game_module
    from toolkit.content.plugin import GamePlugin, plugin_for

    bundled = plugin_for("whisky-game")
    fresh = GamePlugin(
        bundled.game_id, rules_model=bundled.rules_model, card_models=bundled.card_models
    )
    monkeypatch.setattr(game_module, "plugin_for", lambda game_id: fresh)
    return fresh


def _decks_loaded(game: Any) -> tuple[list[Any], list[Any]]:
    from toolkit.content.game import load_game

    loaded = load_game(game)
    dumps = [
        (d.rel, d.model and (type(d.model).__name__, d.model.model_dump()), d.partial)
        for d in loaded.decks
    ]
    return sorted(loaded.diagnostics, key=lambda d: d.sort_key()), dumps


def test_a_deck_file_is_validated_by_its_kind_alone(monkeypatch, tmp_path) -> None:
    """Each deck of a plugin of several deck kinds is validated by its kind's model: the
    union's schema (every kind's) is not built."""
    plugin = _fresh_plugin(monkeypatch)
    diagnostics, decks = _decks_loaded(_deck_game(tmp_path))
    assert not diagnostics and len(decks) == 5 and all(model for _, model, _ in decks)
    assert "deck_adapter" not in vars(plugin)  # the union was never asked for


DECKS = {
    "valid": None,
    "a wrong field": ("size: poker", "size: 3"),
    "an unknown kind": ("kind: characters", "kind: heroes"),
    "another kind": ("kind: characters", "kind: tokens"),
    "a numeric kind": ("kind: characters", "kind: 3"),
    "no kind": ("kind: characters\n", "\n"),
    "an unknown key": ("kind: characters\n", "kind: characters\ncolour: red\n"),
    "a wrong card": ("amount: 3", "amount: three"),
}


def test_a_deck_validated_by_its_kind_reads_as_by_the_union(monkeypatch, tmp_path) -> None:
    from toolkit.content.plugin import GamePlugin
    from toolkit.home import repo_root

    text = (repo_root() / "content/whisky-game/decks/characters.yaml").read_text()
    for i, (name, change) in enumerate(DECKS.items()):
        deck = text if change is None else text.replace(*change, 1)
        assert change is None or deck != text, name
        game = _deck_game(tmp_path / str(i), deck)
        with monkeypatch.context() as m:  # one plugin: its models are the same classes
            _fresh_plugin(m)
            shaped = _decks_loaded(game)
            assert (change is None) == (not shaped[0]), name  # a deck in error says so
            m.setattr(GamePlugin, "deck_shape", lambda self, data: None)  # as before:
            assert _decks_loaded(game) == shaped, name  # every deck through the union


EAGER_MODEL_MODULES = (
    "toolkit.content.models.base",
    "toolkit.content.models.board",
    "toolkit.content.models.deck",
    "toolkit.content.models.generic_deck",
    "toolkit.content.models.glossary",
    "toolkit.content.models.manifest",
    "toolkit.content.models.questions",
    "toolkit.content.models.score_track",
    "toolkit.games.whisky_game.components",
    "toolkit.games.whisky_game.models",
)
"""The model modules a `validate` after one card edit of a bundled game makes classes of (and
the generic deck's, which a game without a plugin makes)."""


def test_the_content_models_annotations_are_not_strings_to_evaluate() -> None:
    """These modules do not put off their annotations (`from __future__ import annotations`):
    pydantic evaluates each string annotation of a model, and its bases' again, with eval()
    when the class is made, ~30 % of making the ~85 model classes a validate after one card
    edit loads. Their JSON Schemas are the same (`playset schemas check`)."""
    import importlib

    from pydantic import BaseModel

    strings = []
    for name in EAGER_MODEL_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseModel):
                if value.__module__ != name:
                    continue
                own = value.__dict__.get("__annotations__", {})
                strings += [
                    f"{name}.{value.__name__}.{k}" for k, v in own.items() if type(v) is str
                ]
    assert strings == []
