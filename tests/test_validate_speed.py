"""Short cuts of `validate`'s checks (issue #27): each test fails when its short cut is gone,
and checks that the answer stays the one the long way gives."""

from __future__ import annotations

import re
import sys

from toolkit.checks.translation import glossary
from toolkit.checks.translation.glossary import folded, lead, term_pattern, uses
from toolkit.content.game import bundled_games, load_game
from toolkit.content.walk import collect


def _naive(text: str, term: str, forms: tuple[str, ...] = ()) -> bool:
    return any(bool(t) and term_pattern(t).search(text) for t in (term, *forms))


def test_the_fold_covers_every_character_a_case_blind_lead_character_matches() -> None:
    leads = [chr(c) for c in range(0x250) if glossary._LEAD.fullmatch(chr(c))]
    assert {"a", "Z", "0", "_", "é", "À", "ñ", "œ", "ſ"} <= set(leads)
    assert not {" ", "-", "'", "×", "÷", "µ"} & set(leads)
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    matched = set(re.findall("(?i)[" + "".join(map(re.escape, leads)) + "]", every))
    for p in leads:
        one = re.compile(re.escape(p), re.IGNORECASE)
        assert len(folded(p)) == 1, p
        for ch in matched:
            if one.fullmatch(ch):
                assert folded(ch) == folded(p), (p, ch)


def test_a_term_whose_first_word_a_text_lacks_compiles_no_pattern() -> None:
    term_pattern.cache_clear()
    assert not uses("A dram of Talisker on the ferry.", "harbour market", ("harbours",))
    assert not uses("Le marché du port", "harbour market")
    assert term_pattern.cache_info().misses == 0
    assert uses("Two HARBOUR  Markets", "harbour market")
    assert term_pattern.cache_info().misses == 1


def test_uses_answers_as_every_pattern_searched() -> None:
    texts = [
        "WHİSKY and whisky",  # İ: a case-blind i
        "distilleries, a distillery",
        "ſpirits",  # ſ: a case-blind s
        "\u212aeg of ale",  # the Kelvin sign: a case-blind k
        "Épée d'or, l'eau-de-vie, ÉPÉES",
        "Le marché du port, LES MARCHÉS DU PORT, la Distillerie",
        "Straße STRASSE straẞe",
        "",
        "bottle_s bottles bottled",
    ]
    terms = [
        "whisky",
        "distillery",
        "spirit",
        "keg",
        "épée",
        "Épées",
        "eau-de-vie",
        "marché du port",
        "le marché",
        "straße",
        "distillerie",
        "Île",
        "l'eau-de-vie",
        "bottle",
        "a",
        "ys",
        "_x",
        "  ",
    ]
    for name in ("whisky-game", "tokaido"):  # the largest glossaries, French and English
        game = load_game(bundled_games()[name])
        facts = collect(game)
        values = [value for text in facts.texts for value in text.value.values()]
        texts += values[:: max(1, len(values) // 15)]  # 15 spread over the game
        if game.glossary and game.glossary.model:
            for term in game.glossary.model.terms:
                terms += [*term.text.values(), *(f for fs in term.forms.values() for f in fs)]
    for text in texts:
        for term in terms:
            assert uses(text, term) == bool(_naive(text, term)), (text, term)
            assert lead(term) in folded(text) or not _naive(text, term), (text, term)


def test_a_kept_name_is_blanked_out_as_before() -> None:
    names = ["Harbour Market", "Ye Olde Inn", "Île"]
    text = "The harbour markets sell at Ye Olde Inn and on the Île."
    expected = text
    for name in sorted(names, key=len, reverse=True):
        expected = term_pattern(name).sub(" ", expected)
    assert glossary._without(text, names) == expected


def _same(made: object, want: object) -> None:
    assert type(made) is type(want)
    if isinstance(want, dict):
        assert list(made.items()) == list(want.items())  # type: ignore[attr-defined]
        assert getattr(made, "__dict__", None) == getattr(want, "__dict__", None)
        for key in want:
            _same(made[key], want[key])  # type: ignore[index]
    elif isinstance(want, list):
        assert len(made) == len(want)  # type: ignore[arg-type]
        for one, other in zip(made, want, strict=True):  # type: ignore[call-overload]
            _same(one, other)


def test_a_rulebooks_context_is_copied_without_deepcopy_walking_its_views(monkeypatch) -> None:
    import copy

    from toolkit.render import rulebook_source
    from toolkit.render.context import View
    from toolkit.render.rulebook_source import render_markdown, rulebook_context

    game = load_game(bundled_games()["whisky-game"])
    context = rulebook_context(game, "en")
    context["shared"] = [context["game"], context["game"], {1, 2}]
    made = rulebook_source._own_copy(context, {})
    _same(made, copy.deepcopy(context))
    assert made["shared"][0] is made["shared"][1] is not context["game"]
    assert made["shared"][2] == {1, 2} and made["shared"][2] is not context["shared"][2]
    assert made["glossary"] is not context["glossary"]

    copied: list[type] = []
    real = copy.deepcopy

    def counting(value: object, memo: object = None) -> object:
        copied.append(type(value))
        return real(value, memo)  # type: ignore[arg-type]

    monkeypatch.setattr(copy, "deepcopy", counting)
    assert render_markdown(game, "en", "{{ decks.characters.total }} {{ rules.goal_points }}")
    assert not [kind for kind in copied if issubclass(kind, dict | list | View)]


def test_the_question_checks_are_read_back_while_their_files_are_unchanged(
    tmp_path, monkeypatch
) -> None:
    import json

    from tests.conftest import FIXTURES, build_case
    from toolkit.checks import questions
    from toolkit.content import unit_cache
    from toolkit.content.unit_cache import Units

    folder = build_case(FIXTURES / "broken" / "duplicate-question", tmp_path / "game")
    calls = [0]
    real = questions.duplicates.check

    def counted(*args: object) -> object:
        calls[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(questions.duplicates, "check", counted)

    def found(units: Units) -> list[object]:
        game = load_game(folder)
        with unit_cache.activated(units):
            return list(questions.check(game, collect(game)))

    without = list(questions.check(load_game(folder), collect(load_game(folder))))
    assert [d.code for d in without] == ["Q002"], "the fixture finds its duplicate"
    first = Units()
    assert found(first) == without
    calls[0] = 0
    second = Units(json.loads(json.dumps(first.used)))
    assert found(second) == without
    assert calls[0] == 0, "read back, not worked out"
    bank = next((folder / "questions").glob("*.yaml"))
    bank.write_text(bank.read_text("utf-8") + "\n", "utf-8")  # its lines: same, its text not
    assert found(Units(json.loads(json.dumps(first.used)))) == without
    assert calls[0] == 1, "a bank's edit works the findings out again"


def test_a_module_file_s_real_path_is_its_real_folder_s_entry(tmp_path, monkeypatch) -> None:
    import os

    from toolkit.content import validate_cache

    real, other = tmp_path / "real", tmp_path / "other"
    real.mkdir()
    other.mkdir()
    (real / "a.py").write_text("")
    (other / "b.py").write_text("")
    (real / "linked.py").symlink_to(other / "b.py")
    (tmp_path / "through").symlink_to(real)
    monkeypatch.chdir(tmp_path)
    names = [
        str(real / "a.py"),
        str(tmp_path / "through" / "a.py"),
        str(tmp_path / "through" / "linked.py"),
        str(real / "linked.py"),
        "through/a.py",
        "a.py",
        str(real / "missing.py"),
    ]
    for name in names:
        assert validate_cache._real_module_path(name) == os.path.realpath(name), name

    # resolving the loaded modules: once per folder, not once per file
    monkeypatch.setattr(validate_cache, "_REAL", {})
    monkeypatch.setattr(validate_cache, "_REAL_FOLDERS", {}, raising=False)
    calls = [0]
    resolve = os.path.realpath

    def counted(path: object) -> str:
        calls[0] += 1
        return resolve(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os.path, "realpath", counted)
    validate_cache._outside_modules()
    modules = [
        m for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)
    ]
    assert calls[0] < len(modules) / 3


def test_the_walk_asks_typing_about_each_annotation_once(monkeypatch) -> None:
    from toolkit.content import walk

    game = load_game(bundled_games()["whisky-game"])
    first = collect(game)
    asked = [0]
    real = walk.get_origin

    def counted(ann: object) -> object:
        asked[0] += 1
        return real(ann)  # type: ignore[arg-type]

    monkeypatch.setattr(walk, "get_origin", counted)
    again = collect(game)
    assert asked[0] == 0, "the second walk of the same classes asks typing nothing"
    assert again == first
    monkeypatch.setattr(walk, "_FIELDS", {})
    monkeypatch.setattr(walk, "_SHAPES", {})
    assert collect(game) == first
    assert asked[0] > 0


def test_a_layout_is_found_resolving_the_game_folder_once(tmp_path, monkeypatch) -> None:
    import os

    from toolkit.content import assets

    outside, real_game = tmp_path / "outside", tmp_path / "real-game"
    (real_game / "layouts").mkdir(parents=True)
    (real_game / "icons").mkdir()
    outside.mkdir()
    (outside / "secret.yaml").write_text("a: 1\n")
    (real_game / "layouts" / "plain.yaml").write_text("a: 1\n")
    (real_game / "layouts" / "leaves.yaml").symlink_to(outside / "secret.yaml")
    (real_game / "layouts" / "stays.yaml").symlink_to(real_game / "layouts" / "plain.yaml")
    (tmp_path / "game").symlink_to(real_game)  # the game reached through a link
    (real_game / "icons" / "x.svg").symlink_to(outside / "secret.yaml")
    linked = tmp_path / "linked-game"  # a game whose layouts/ folder is a link outside
    linked.mkdir()
    (linked / "layouts").symlink_to(outside)
    for root in (real_game, tmp_path / "game", linked):
        for path in (
            root,
            root / "layouts",
            root / "icons",
            root / "layouts" / "plain.yaml",
            root / "layouts" / "leaves.yaml",
            root / "layouts" / "stays.yaml",
            root / "layouts" / "missing.yaml",
            root / "layouts" / "secret.yaml",
            root / "icons" / "x.svg",
        ):
            real_root = assets.real_path(root)
            assert str(assets._real(path, root, real_root)) == os.path.realpath(path), path
    found = {n: assets.find(assets.LAYOUTS, n, real_game) for n in ("plain", "leaves", "stays")}
    assert found["plain"] is not None and not found["plain"].outside
    assert found["stays"] is not None and not found["stays"].outside
    assert found["leaves"] is not None and "links outside" in found["leaves"].outside
    linked_found = assets.find(assets.LAYOUTS, "secret", linked)
    assert linked_found is not None and "folder links outside" in linked_found.outside

    calls = [0]
    resolve = os.path.realpath

    def counted(path: object, **options: bool) -> str:
        calls[0] += 1
        return resolve(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(os.path, "realpath", counted)
    assert assets.find(assets.LAYOUTS, "plain", tmp_path / "game") is not None
    assert calls[0] == 1  # the game folder; its layouts/ folder and file are no links


def test_a_yaml_node_s_tag_is_read_once(monkeypatch) -> None:
    from pathlib import Path

    from ruamel.yaml.nodes import Node

    from toolkit.content.source import parse_document

    raw = b"id: deck\nname: {en: Deck, fr: Paquet}\ncards:\n  - {id: a, copies: 2, on: true}\n"
    reads = [0]
    tag = Node.tag

    def counted(node: Node) -> str | None:
        reads[0] += 1
        return tag.fget(node)  # type: ignore[attr-defined]

    monkeypatch.setattr(Node, "tag", property(counted, tag.fset))  # type: ignore[attr-defined]
    doc, diags = parse_document(Path("deck.yaml"), "deck.yaml", raw)
    assert not diags and doc is not None
    assert doc.data == {
        "id": "deck",
        "name": {"en": "Deck", "fr": "Paquet"},
        "cards": [{"id": "a", "copies": 2, "on": True}],
    }
    # 14 scalars (8 keys, 6 values): each tag read once here, and once more by ruamel's
    # constructor for the 2 values that are no strings (was 32: 3 reads per key)
    assert reads[0] <= 14 + 2
