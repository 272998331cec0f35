"""Short cuts of `validate`'s checks (issue #27): each test fails when its short cut is gone,
and checks that the answer stays the one the long way gives."""

from __future__ import annotations

import re
import sys
from typing import Any

from toolkit.checks.translation import glossary
from toolkit.checks.translation.term_search import folded, term_pattern, uses
from toolkit.content.game import bundled_games, load_game
from toolkit.content.walk import collect


def _naive(text: str, term: str, forms: tuple[str, ...] = ()) -> bool:
    return any(bool(t) and term_pattern(t).search(text) for t in (term, *forms))


def _as_its_pattern(term: str) -> bool:
    """Whether the walk finds `term` exactly as its pattern does: each word starts and ends
    with a letter or digit (term_search's docstring says what it does otherwise)."""
    return bool(term.split()) and all(re.fullmatch(r"\w(.*\w)?", w) for w in term.split())


def test_the_fold_is_what_a_case_blind_pattern_takes_as_one_character() -> None:
    """A character matches another case-blind exactly when both fold to the same single
    character, for every character there is; folding keeps a text's length."""
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    fold = folded(every)
    assert len(fold) == len(every)
    cased = "".join(c for c, f in zip(every, fold, strict=True) if f != c or c.upper() != c)
    takes = "".join(sorted(set(re.findall("(?i)[" + re.escape(cased) + "]", every))))
    alike: dict[str, set[str]] = {}
    for ch in takes:
        alike.setdefault(folded(ch), set()).add(ch)
    for p in cased:
        matched = set(re.findall(re.escape(p), takes, re.IGNORECASE))
        assert matched == alike[folded(p)], p
    taken = set(takes)
    for ch, f in zip(every, fold, strict=True):  # one no pattern takes as another: itself
        assert ch in taken or f == ch, hex(ord(ch))


def test_a_term_is_found_without_compiling_a_pattern() -> None:
    term_pattern.cache_clear()
    assert uses("Two HARBOUR\u00a0Markets and a ſpirit", "harbour market")
    assert uses("whiskies", "whisky") and not uses("whiskys", "whisky")
    assert not uses("harbour_market", "harbour market")
    assert uses("l'eau-de-vie", "eau-de-vie") and not uses("l'eau de vie", "eau-de-vie")
    assert uses("«Bottles»", "«bottle»") and not uses("Bottles", "«bottle»")
    assert uses("Two HARBOUR-Markets", "harbour-market")
    assert term_pattern.cache_info().misses == 0


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
        "Bottle's bottle-market, bottle\u00a0market bottle\u2028market bottle__market",
        "Ye  Olde\tInns, ye-olde'inn, YE OLDE INNES, whiskies WHISKYS whiskyes",
        "harbourmarket harbour market_ harbour marketsx harbour  marketes",
        "xbottle bottlex bottlexs 2bottles bottles2 ·bottles· «bottles»",
        "DISTILLERY DISTILLERIES distilleryies ¹bottle bottle²",
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
        "harbour market",
        "ye olde inn",
        "Distillery",
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
    walked = [term for term in terms if _as_its_pattern(term)]
    assert len(walked) > 0.9 * len(terms)
    for text in texts:
        for term in walked:
            assert uses(text, term) == bool(_naive(text, term)), (text, term)


def test_a_kept_name_is_blanked_out_wherever_it_appears() -> None:
    names = ["Harbour Market", "Ye Olde Inn", "Île", "Harbour", "Abbey", "Inn"]
    texts = [
        "The harbour markets sell at Ye Olde Inn and on the Île.",
        "Harbour  Market-harbours, HARBOURMARKET, harbour_market, ye olde innes.",
        "abbeys abbies ABBEY's Abbeyx inns Innx inn-inn inninn ÎLES île_ Île2 xÎle",
        "Ye Olde Inn Ye Olde Inn harbour harbour market market",
        "",
    ]

    from tests.test_hardening_probe32 import _everywhere

    expected = [_everywhere(names, text) for text in texts]
    term_pattern.cache_clear()
    kept = glossary._Tables((), ("fr",), "fr", names)  # (the kept names' table)
    assert [kept.blank(text) for text in texts] == expected
    assert term_pattern.cache_info().misses == 0  # plain names: blanked without patterns


def _calls_to(monkeypatch, owner: object, name: str) -> list[int]:
    """Count the calls to `owner.name` from here on: a one-item list the test reads at the end."""
    calls = [0]
    real = getattr(owner, name)

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


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
    from toolkit.checks.questions import duplicates  # imported by the family when it runs
    from toolkit.content import unit_cache
    from toolkit.content.unit_cache import Units

    folder = build_case(FIXTURES / "broken" / "duplicate-question", tmp_path / "game")
    calls = [0]
    real = duplicates.check

    def counted(*args: object) -> object:
        calls[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(duplicates, "check", counted)

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
        str(tmp_path / "through") + "//a.py",  # an empty part: split and joined as ever
        str(tmp_path / "through" / "." / "a.py"),
        str(tmp_path / "through" / ".." / "real" / "a.py"),
        "/",
        "/tmp",
        "/nonexistent.py",
    ]
    for name in names:
        assert validate_cache._real_module_path(name) == os.path.realpath(name), name
        validate_cache._REAL_FOLDERS.clear()
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


def test_the_walk_skips_a_scalar_field_it_finds_nothing_in(monkeypatch) -> None:
    from pathlib import Path

    from toolkit.content import walk

    folders = [*bundled_games().values()]
    folders += sorted(Path("tests/fixtures/broken").iterdir())[::6]  # partial models too
    games = [load_game(folder) for folder in folders if folder.is_dir()]
    calls = [0]
    value = walk._Walker.value

    def counted(self, *args):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return value(self, *args)

    monkeypatch.setattr(walk._Walker, "value", counted)
    skipping = [collect(game) for game in games]
    skipped = calls[0]
    monkeypatch.setattr(walk, "_FIELDS", {})
    monkeypatch.setattr(walk, "_inert", lambda ann: False)  # every field walked
    calls[0] = 0
    assert [collect(game) for game in games] == skipping
    assert sum(len(f.texts) + len(f.refs) + len(f.declared) for f in skipping) > 1000
    assert skipped < calls[0] * 0.8  # 19,700 calls instead of 27,200


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


def test_a_rulebook_with_little_markup_is_not_scanned_for_it(monkeypatch) -> None:
    from toolkit.render import rulebook_source as rs

    class Counted:
        def __init__(self) -> None:
            self.scans = 0

        def finditer(self, text: str):  # type: ignore[no-untyped-def]
            self.scans += 1
            return real.finditer(text)

    real, counted = rs._INLINE_MARK, Counted()
    monkeypatch.setattr(rs, "_INLINE_MARK", counted)
    game = load_game(bundled_games()["whisky-game"])
    for lang, path in game.rulebook.items():
        rs._refuse_much_markup(rs.render_markdown(game, lang, rs.read_rulebook(path, game.root)))
    assert counted.scans == 0
    # with or without the count first, the same answer: texts at and past the limits
    monkeypatch.setattr(rs, "_INLINE_MARK", real)
    edge = [
        ":a: " * 200 + ":b:",
        ":a::b:" * 100 + " :c:",
        "x  \n" * 200 + "x\\\n",
        "x  \n" * 150 + "x\\\n" * 51,
        "**a** [b](https://x) `c` &<> *d* _e_\u202f!" * 400,
        "*" * 4999 + " x" + "_ y" * 2,
        "a > b" * 2600,
    ]

    def outcome(text: str) -> tuple[str, int, int] | None:
        try:
            rs._refuse_much_markup(text)
        except rs.RulebookError as exc:
            return str(exc), exc.line, exc.col
        return None

    counted_first = [outcome(text) for text in edge]
    monkeypatch.setattr(rs, "_may_hold_much_markup", lambda text: True)
    assert counted_first == [outcome(text) for text in edge]
    assert sum(found is not None for found in counted_first) >= 4


def test_a_rulebook_s_template_code_is_masked_without_a_pattern_per_piece(monkeypatch) -> None:
    from toolkit.checks import rulebook
    from toolkit.render import rulebook_source as rs

    for piece in ["", "\n", "{{ a }}", "{% if x %}\r\n  y\n\n{% endif %}", "`a`\x00\u2028é"]:
        found = re.match(".*", piece, re.DOTALL)
        assert found is not None
        assert rulebook._blanked(found) == re.sub(r"[^\n]", "\x00", piece)
    game = load_game(bundled_games()["whisky-game"])
    sources = [(lang, rs.read_rulebook(path, game.root)) for lang, path in game.rulebook.items()]
    before = [
        (list(rulebook._typography("r.md", lang, s)), list(rulebook._images("r.md", s)))
        for lang, s in sources
    ]
    subs = _calls_to(monkeypatch, re, "sub")
    after = [
        (list(rulebook._typography("r.md", lang, s)), list(rulebook._images("r.md", s)))
        for lang, s in sources
    ]
    assert after == before
    assert subs[0] == 0


def test_a_spanish_text_without_question_or_exclamation_marks_is_not_split(monkeypatch) -> None:
    from toolkit.checks.translation import typography

    texts = ["Coge dos cartas. Luego descarta una.", "¿Qué? ¡Sí!", "Qué? Sí.", "¡Hola. Adiós!"]
    before = [typography.spanish_balance(text) for text in texts]
    assert before[0] is None and before[1] is None and before[2] and before[3]
    splits = _calls_to(monkeypatch, re, "split")
    assert typography.spanish_balance(texts[0]) is None
    assert splits[0] == 0
    assert [typography.spanish_balance(text) for text in texts] == before


def test_a_card_s_context_is_made_once_per_language(monkeypatch) -> None:
    from toolkit.render import context

    game = load_game(bundled_games()["whisky-game"])
    assert game.manifest is not None
    deck = game.valid(game.decks)[0]
    card = deck.cards[0]
    made = [0]
    localize = context.localize

    def counted(value, lang, *rest):  # type: ignore[no-untyped-def]
        made[0] += value is card
        return localize(value, lang, *rest)

    monkeypatch.setattr(context, "localize", counted)
    first = context.card_context(game, deck, card, "fr")
    again = context.card_context(game, deck, card, "fr")
    assert again is first and made[0] == 1
    assert context.card_context(game, deck, card, "en") is not first and made[0] == 2
    fresh = load_game(bundled_games()["whisky-game"])  # another loaded game: made anew
    fresh_deck = fresh.valid(fresh.decks)[0]
    assert context.card_context(fresh, fresh_deck, fresh_deck.cards[0], "fr") == first
    assert made[0] == 2  # (counted only for the first game's card)


def test_a_rulebook_reads_the_card_views_the_faces_read() -> None:
    from toolkit.render import context, rulebook_source

    game = load_game(bundled_games()["whisky-game"])
    deck = game.valid(game.decks)[0]
    face = context.card_context(game, deck, deck.cards[1], "es")
    read = rulebook_source.rulebook_context(game, "es")
    assert read["decks"][deck.id]["cards"][1] is face["card"]
    plain = context.localize(deck, "es")
    plain["total"] = sum(card.copies for card in deck.cards)
    _same(read["decks"][deck.id], plain)
    other = load_game(bundled_games()["whisky-game"])  # as a fresh game reads it
    _same(rulebook_source.rulebook_context(other, "es")["decks"], read["decks"])


def test_a_text_left_as_its_source_looks_for_every_kept_name_in_one_walk(monkeypatch) -> None:
    from toolkit.checks.translation import presence
    from toolkit.checks.translation.term_search import finder

    kept = {"harbour market", "ye olde inn", "île", "glenlivet", "x"}
    names = finder(tuple((name, 0) for name in sorted(kept)))
    texts = ["Glenlivet", "Ye Olde Inns and the Harbour Market", "Île: 3 :coin:", "Le Port", "ok"]
    texts += ["Ye Olde Inns, Harbour-Markets", "Glenlivets ÎLE"]
    subs = _calls_to(monkeypatch, re, "sub")
    assert [presence._may_stay(text, kept, names) for text in texts] == [
        *(True, False, True, False, True),
        *(True, True),  # names with their plurals and separators, as glossary terms
    ]
    assert subs[0] == 0  # no pattern a name: one walk of each text


def _too_deep_as_before(text: str) -> Any:
    """The nesting scan as it was written first (every bracket, quote, '#' and line end a
    step): the reference the faster scan answers as."""
    import re

    from toolkit.content import source

    indent = source._DEEP_INDENT.search(text)
    found = indent.start(1) if indent else len(text)
    if text.count("[") + text.count("{") > source.MAX_DEPTH:
        depth = 0
        quote = ""
        comment = False
        for match in re.finditer(r"[\[\]{}'\"#\n]", text[:found]):
            ch = match.group()
            if ch == "\n":
                comment = False
                continue
            if comment:
                continue
            at = match.start()
            previous = text[at - 1] if at and text[at - 1] != "\n" else " "
            if quote:
                if ch == quote:
                    quote = ""
            elif ch == "#":
                comment = previous in " \t"
            elif ch in "'\"":
                quote = ch if previous in " \t[{,:" else ""
            elif ch in "[{":
                depth += 1
                if depth > source.MAX_DEPTH:
                    found = at
                    break
            elif depth:
                depth -= 1
    return source._position(text, found) if found < len(text) else None


def test_the_nesting_scan_skips_quoted_texts_and_comments_and_answers_as_before():
    """The depth scan before composing steps over a quoted text or a comment at once: on
    a question bank of the Whisky Game (1,800 quotes, 200 brackets) it takes fewer
    steps than the file has quotes, and it finds the very place (or none) the first scan
    found, on every bundled YAML file and on random texts of brackets, quotes, comments,
    line ends and deep indentation."""
    import random

    from tests.conftest import REPO
    from toolkit.content import source

    steps = [0]
    pattern = source._FLOW_MARK

    class Counted:
        def search(self, *args: Any) -> Any:
            steps[0] += 1
            return pattern.search(*args)

    bank = (REPO / "content" / "whisky-game" / "questions" / "hard.yaml").read_text("utf-8")
    source._FLOW_MARK = Counted()  # type: ignore[assignment]
    try:
        assert source._too_deep(bank) is None
    finally:
        source._FLOW_MARK = pattern
    assert 0 < steps[0] < bank.count('"') + bank.count("'"), steps
    for path in sorted(REPO.glob("**/*.yaml")):
        if ".venv" not in path.parts:
            text = path.read_text("utf-8", "replace")
            assert source._too_deep(text) == _too_deep_as_before(text), path
    rng = random.Random(27)
    pieces = ["[", "[", "[", "{", "]", "}", "'", '"', "#", "\n", " ", "\t", "a", ":", ",", "x#"]
    pieces += [" " * 257, "\n" + " " * 257 + "x", "''", "[[[[[[[[[["]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 400)))
        assert source._too_deep(text) == _too_deep_as_before(text), repr(text)


def test_a_run_of_the_checks_looks_each_layout_up_once(tmp_path, monkeypatch) -> None:
    from tests.conftest import REPO
    from toolkit.checks import run_checks
    from toolkit.content import assets
    from toolkit.content.game import load_game
    from toolkit.render import layout

    game = load_game(REPO / "content" / "whisky-game")
    looked: list[tuple[str, object]] = []
    find, stamp = assets._find, layout._stamp_now

    def counted(kind: assets.Kind, name: str, root: object) -> object:
        looked.append((name, root))
        return find(kind, name, root)  # type: ignore[arg-type]

    stamps: list[str] = []

    def stamped(name: str, root: object) -> object:
        stamps.append(name)
        return stamp(name, root)  # type: ignore[arg-type]

    monkeypatch.setattr(assets, "_find", counted)
    monkeypatch.setattr(layout, "_stamp_now", stamped)
    found = run_checks(game)
    assert looked and len(looked) == len(set(looked))
    assert stamps and len(stamps) == len(set(stamps))
    assert run_checks(game) == found
    assert len(looked) == 2 * len(set(looked))  # the next run looks again (a file saved since)

    (tmp_path / "layouts").mkdir()
    with assets.steady():
        assert assets.find(assets.LAYOUTS, "mine", tmp_path) is None
        (tmp_path / "layouts" / "mine.yaml").write_text("a: 1\n")
        assert assets.find(assets.LAYOUTS, "mine", tmp_path) is None  # as the run saw it
    assert assets.find(assets.LAYOUTS, "mine", tmp_path) is not None


COUNT_COLLECTIONS = """
import atexit, gc, runpy, sys
collections = []
def seen(phase, info):  # those at the command's threshold (Python's own start-up's are not)
    if phase == "start" and gc.get_threshold()[0] == 200_000:
        collections.append(info["generation"])
gc.callbacks.append(seen)
sys.argv = ["__main__.py", *sys.argv[1:]]
# at exit: a done validate ends the process itself, its atexit functions run
atexit.register(lambda: print("collections:", collections, file=sys.stderr))
runpy.run_module("toolkit", run_name="__main__")
"""


def test_validate_of_the_bundled_games_walks_no_young_generation(tmp_path) -> None:
    # each loaded game (the Whisky Game: ~100,000 objects, its checks ~165,000 more) lives
    # to the end of the command: a collection at 200,000 walked them all and found next to
    # no garbage (one of ~50 ms CPU in `validate --no-cache` of the four); they are frozen
    import os
    import subprocess
    import sys

    env = {**os.environ, "PLAYSET_NO_CACHE": "1"}
    command = [sys.executable, "-c", COUNT_COLLECTIONS, "validate", "--no-cache"]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr  # clean: every check ran
    assert "collections: []" in done.stderr, done.stderr
