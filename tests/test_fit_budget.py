"""Probe 21 H1 (each test red before its fix): long texts were bounded per text
(MAX_FIT_CHARS), not per game: 200 cards of a layout with 20 texts of 10,000 letters in 3
languages took 96 s of `validate`. A text that fits at no size is no longer wrapped whole
(its first lines are, the rest estimated), a wrap stops once the box is full, and a check
fits at most FIT_BUDGET letters a game: past it, one P001 says where it stopped, with the
validate cache as without."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolkit.render import textfit
from toolkit.render.textfit import LEADING, SHOWN, STEP, Setting, _fit, can_hyphenate, wrap

WORD = "anticonstitutionnellement"
CONTENT = Path(__file__).resolve().parent.parent / "content"


def _every_size(text: str, width: float, height: float, setting: Setting):
    """`_fit` without a shortcut: every size wrapped whole, with and without hyphens; a
    text that fits nowhere keeps its lines at the smallest size (hyphenated first)."""
    size = setting.max_size
    while size >= setting.min_size - 1e-9:
        for lang in (None, setting.lang):
            lines = wrap(text, width, size, setting.style, lang, setting.icons)
            if lines is not None and len(lines) * size * LEADING <= height:
                return True, size, tuple(lines)
            if not can_hyphenate(setting.lang):
                break
        smallest = size
        size = round(size - STEP, 2)
    langs = (setting.lang, None) if can_hyphenate(setting.lang) else (None,)
    for lang in langs:
        lines = wrap(text, width, smallest, setting.style, lang, setting.icons)
        if lines is not None:
            return False, setting.min_size, tuple(lines)
    return False, setting.min_size, (text,)


def _words() -> list[str]:
    found: set[str] = set()
    for path in sorted(CONTENT.rglob("*.yaml"))[:40]:
        found.update(re.findall(r"[^\W\d_]{2,}", path.read_text(encoding="utf-8")))
    return sorted(found)


def test_a_fit_is_what_wrapping_every_size_whole_gives() -> None:
    """The same size and lines as wrapping every size whole, for texts that fit and for
    those that do not (whose lines are all wrapped up to SHOWN of them)."""
    rng = random.Random(21)
    words = _words() + [WORD * 3, "x", ":die:"]
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 90)))
        if rng.random() < 0.3:
            text = text.replace(" ", "\n", rng.randint(1, 3))
        box = (rng.uniform(20.0, 200.0), rng.uniform(8.0, 200.0))
        high = rng.choice([8.0, 12.0, 24.0])
        setting = Setting(high, rng.choice([3.0, 4.0, high]), "regular", rng.choice(["fr", "en"]))
        fits, size, lines = _every_size(text, *box, setting)
        found = _fit(text, *box, setting)
        assert (found.fits, found.size) == (fits, size), (text, box, setting)
        shown = max(SHOWN, textfit._room(box[1], setting.min_size) + 1)
        if fits or len(found.lines) <= shown:
            assert found.lines == lines, (text, box, setting)
        elif len(lines) > shown:  # the first wrapped, the rest cut as its words need
            assert found.lines[:shown] == lines[:shown], (text, box, setting)
            assert len(lines) // 2 <= len(found.lines) <= len(lines) + 1
        else:  # a word hyphens cannot set lies past the lines wrapped: "needs" its height
            assert lines == (text,) and setting.lang == "fr"


def test_a_text_that_fits_nowhere_is_not_wrapped_whole(monkeypatch) -> None:
    """Probe 21 H1: a 10,000-letter word in a 35 mm box wrapped whole at 4 pt (8 ms a text,
    12,000 texts); now its first lines are, the rest is estimated from its width."""
    text = "N0k" + WORD * 399
    wrapped: list[int] = []
    real = textfit._wrap

    def spy(*args, **kwargs):
        found = real(*args, **kwargs)
        wrapped.append(found.work)
        return found

    monkeypatch.setattr(textfit, "_wrap", spy)
    found = _fit(text, 160.0, 99.0, Setting(8.0, 4.0, "regular", "fr"))
    assert not found.fits and found.size == 4.0
    # its first 32 lines, and what hyphenating them read (it was the whole text, and that)
    assert sum(wrapped) < len(text) * 2 // 3
    whole = wrap(text, 160.0, 4.0, "regular", "fr")
    assert whole is not None and found.lines[:SHOWN] == tuple(whole[:SHOWN])
    assert abs(len(found.lines) - len(whole)) <= len(whole) // 10  # "needs X mm" as near
    assert "".join(found.lines).replace("-", "") == text


LAYOUT = """\
id: long
background: "#fbf6ea"
elements:
  - kind: text
    box: {x: 3, y: 3, w: -3, h: 10}
    text: "{{ card.name }}"
    size: {max: 12, min: 7}
""" + "".join(
    f"""\
  - kind: text
    box: {{x: 3, y: 50, w: -3, h: -3}}
    text: "{{{{ card.name }}}}{n}{{{{ '{WORD}' * 30 }}}}"
    size: {{max: 8, min: 4}}
"""
    for n in range(3)
)
"""Three texts of 750 letters a face, fitting at no size (probe 21 H1 had 20 of 10,000)."""


def _long_game(tmp_path: Path, cards: int = 12) -> tuple[Path, Path]:
    from toolkit.scaffold.new import new_game

    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    (game / "layouts" / "long.yaml").write_text(LAYOUT, "utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    head, _, _ = text.partition("\ncards:\n")
    entries = "".join(
        f"  - id: c{i}\n    name: {{en: N{i}, fr: Nom{i}}}\n"
        f"    text: {{en: Move on., fr: Avancez.}}\n"
        for i in range(cards)
    )
    deck.write_text(f"{head}\nlayout: long\ncards:\n{entries}", "utf-8")
    return game, deck


def _validate(*args: str) -> list[dict]:
    from typer.testing import CliRunner

    from toolkit.cli import app

    result = CliRunner().invoke(app, ["validate", *args, "-f", "json"], catch_exceptions=False)
    return json.loads(result.output)


def _stops(found: list[dict]) -> list[str]:
    return [d["message"].split(":")[0] for d in found if "print fit stops" in d["message"]]


def test_validate_fits_a_bounded_amount_of_text_a_game(tmp_path, monkeypatch) -> None:
    """Probe 21 H1 at a small scale: past the budget (made small here) no text is fitted,
    and one P001 says at which card print fit stopped; the cards before it have their
    P001s, those after it none."""
    game, _ = _long_game(tmp_path)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 150_000)
    fitted: list[int] = []
    real = textfit._fit

    def spy(text, *args):
        fitted.append(len(text))
        return real(text, *args)

    monkeypatch.setattr(textfit, "_fit", spy)
    textfit.fit.cache_clear()
    found = _validate(str(game), "--no-cache")
    assert _stops(found) == ["print fit stops at c4"], _stops(found)
    overflow = [d["message"].split(" ")[0] for d in found if "characters; layout" in d["message"]]
    # c4's first texts too (c5's while what hyphenating a long word reads was not counted,
    # and a wrap did not count its call)
    assert overflow and set(overflow) == {f"c{i}" for i in range(5)}, overflow
    assert len(fitted) <= 6 * 2 * 4, len(fitted)  # 6 cards of 4 texts, 2 languages: was 12


def test_a_game_past_the_budget_gives_the_same_findings_with_the_cache(
    tmp_path, monkeypatch
) -> None:
    """The budget runs out at the same text with the validate cache as without: a card's
    unit and a fit's keep what they counted, and are read back only when that stays under
    the limit; before and after card edits that move where it runs out."""
    from tests.test_validate_cache_units import cache  # noqa: F401

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    from toolkit.content import validate_cache

    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    game, deck = _long_game(tmp_path)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 150_000)
    monkeypatch.chdir(game)
    text = deck.read_text("utf-8")
    words = "ab cd " * 650  # under the 4,000 letters a text may hold
    longer = f"{{en: N2 {words}, fr: Nom2 {words}}}"
    edits = [
        text,
        text.replace("{en: N2, fr: Nom2}", longer),  # c2's texts longer: stops sooner
        text,
        text.replace("{en: N7, fr: Nom7}", "{en: N7 x, fr: Nom7 x}"),  # past the stop
        text.replace("{en: N1, fr: Nom1}", "{en: N1 x, fr: Nom1 x}"),  # before it
        text,
    ]
    stops = []
    for edited in edits:
        deck.write_text(edited, "utf-8")
        textfit.fit.cache_clear()
        without = _validate(".", "--no-cache")
        for _ in range(2):  # worked out, then read back
            textfit.fit.cache_clear()
            assert _validate(".") == without
        stops.append(_stops(without))
    assert all(len(stop) == 1 for stop in stops), stops
    assert len({stop[0] for stop in stops}) > 1, stops  # the edits move where it stops


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_wrap_stops_once_the_box_is_full(lang: str) -> None:
    """Every size tried wraps what the box holds, not the whole text: a text of many short
    words a size's lower bound cannot pass (it fits nowhere) costs the box, not the text."""
    text = " ".join(["ab cd ef"] * 1_500)
    found = _fit(text, 300.0, 30.0, Setting(6.0, 5.0, "regular", lang))
    assert not found.fits
    assert found.work < 3 * len(text)  # was a whole wrap a size (and hyphenated): 10 ×


def _named_road(tmp_path: Path) -> Path:
    """Tokaido with each of its 55 stops named by its own 80 letters, no two alike."""
    game = tmp_path / "tk"
    shutil.copytree(REPO / "content" / "tokaido", game)
    board = game / "boards" / "road.yaml"
    text = board.read_text(encoding="utf-8")
    text = re.sub(r"\n    name: [^\n]*", "", text)
    count = iter(range(1000))
    syllables = ["con", "ti", "tu", "na", "le", "pro", "me", "ra", "li", "se"]

    def named(match: re.Match) -> str:
        digits = str((next(count) + 1000) ** 40)
        name = "".join(syllables[int(d)] for d in digits)[:80]
        return f"{match.group(0)}\n    name: {name.capitalize()}"

    board.write_text(re.sub(r"\n  - kind: \w+", named, text), "utf-8")
    return game


def _spied_fits(monkeypatch) -> list[int]:
    """The letters of work each fit does from now on (the fits kept in memory forgotten)."""
    spent: list[int] = []
    real = textfit._fit

    def spy(text, *args):
        found = real(text, *args)
        spent.append(found.work)
        return found

    monkeypatch.setattr(textfit, "_fit", spy)
    textfit.fit.cache_clear()
    return spent


def test_a_boards_labels_are_fitted_within_the_games_budget(tmp_path, monkeypatch) -> None:
    """Probe 22 H1: a board's words (road stops' names) were fitted outside the budget, as
    many as it has; they are counted with the faces' texts, and the one finding that says
    where fitting stopped is listed (as print fit's own), with the cache as without."""
    from tests.test_validate_cache_units import cache  # noqa: F401

    game = _named_road(tmp_path)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 5_000)
    spent = _spied_fits(monkeypatch)
    found = _validate(str(game), "--no-cache")
    stops = [d for d in found if "label fit stops at" in d["message"]]
    assert [d["code"] for d in stops] == ["P016"], stops
    assert stops[0]["file"].endswith("boards/road.yaml") and stops[0]["line"] == 6, stops
    assert len(_stops(found)) == 1  # and print fit's: nothing left for the cards
    assert sum(spent) <= 5_000 + max(spent), sum(spent)  # 55 stops' names: 60,000
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    from toolkit.content import validate_cache

    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    monkeypatch.chdir(game)
    board = game / "boards" / "road.yaml"
    text = board.read_text("utf-8")
    short = re.sub(r"(\n    name: \w{12})\w*", r"\1", text)  # the board's labels all fitted
    stops = []
    for edited in (text, short, text):
        board.write_text(edited, "utf-8")
        textfit.fit.cache_clear()
        without = _validate(".", "--no-cache")
        for _ in range(2):  # worked out, then read back
            textfit.fit.cache_clear()
            assert _validate(".") == without
        stops.append([d["file"] for d in without if "fit stops at" in d["message"]])
    assert stops[0] == stops[2] == ["boards/road.yaml", "decks/travellers.yaml"], stops
    assert stops[1] and "boards/road.yaml" not in stops[1], stops


def test_the_checks_of_a_game_fit_within_one_budget(tmp_path, monkeypatch) -> None:
    """Probe 22 H1: print fit and the legibility check each had a budget, and legibility
    fitted the cards' faces while print fit spent its own on the question banks (1.4 times
    the budget here, twice at worst); legibility now looks at the faces print fit measured,
    read back, and the game's checks fit one budget's letters."""
    game = tmp_path / "wg"
    shutil.copytree(REPO / "content" / "whisky-game", game)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 50_000)
    spent = _spied_fits(monkeypatch)
    found = _validate(str(game), "--no-cache")
    assert _stops(found) == ["print fit stops at easy-18"], _stops(found)  # a wrap counts its call
    assert sum(spent) <= 50_000 + max(spent), sum(spent)  # was 69,319


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_what_hyphenating_a_long_word_reads_is_counted(lang: str) -> None:
    """Probe 22 H1: a long word's letters cost twice what others do (pyphen reads each line's
    letters and a pattern's length more to break it there): they are counted."""
    syllables = ["con", "ti", "tu", "na", "le", "pro", "mé", "ra", "li", "sé"]
    word = "".join(syllables[int(d)] for d in str(1234**200))
    wrapped = textfit._wrap(word, 100.0, 8.0, "regular", lang)
    assert wrapped.lines is not None and len(wrapped.lines) > 40
    assert wrapped.work > 1.5 * len(word), (wrapped.work, len(word))  # was len(word) + 1


def test_a_run_keeps_every_fit_its_checks_may_count():
    """The legibility check asks for the fits print fit worked out, in the same order: the
    in-run memo holds as many as the budget counts (each counts a wrap's `WRAP_CALL` at
    least), so none is worked out twice (budget60: at 16,384 kept, 1,400 texts in 1 mm boxes
    a card were all fitted again, ~0.5 s)."""
    fewest = textfit.WRAP_CALL
    assert textfit.fit.cache_info().maxsize * fewest >= textfit.FIT_BUDGET
    setting = Setting(6, 6, "regular", "en")
    assert _fit("a", 1.0, 1.0, setting).work >= fewest  # nowhere: wrapped once to be shown
    assert _fit("a", 100.0, 100.0, setting).work >= fewest  # at its first size
