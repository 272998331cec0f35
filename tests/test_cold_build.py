"""A cold `build` (no cache) pays for what the game needs: each test here fails when a short
cut of the gate or the build is gone, and checks the answer stays the same."""

from __future__ import annotations

import functools
import subprocess
import sys


@functools.cache
def _checked(game: str) -> tuple[list[str], int, int]:
    """Check a bundled game in a fresh interpreter: the modules imported by then, and the
    hits and misses of the colour-luminance cache. Once per game for the tests below (each
    ran its own interpreter, the same run each time: ~1.5 s of CPU apiece)."""
    code = (
        "import sys; from toolkit.checks import run_checks;"
        "from toolkit.content.game import bundled_games, load_game;"
        f"run_checks(load_game(bundled_games()[{game!r}]));"
        "modules = sorted(sys.modules);"  # before the import below adds to them
        "from toolkit.checks.legibility.colours import luminance;"
        "info = luminance.cache_info(); print(repr((modules, info.hits, info.misses)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout)  # noqa: S307 - a tuple we printed


def _modules_after_checks(game: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of `prefixes` that checking a bundled game imports."""
    return [m for m in _checked(game)[0] if m.startswith(prefixes)]


def test_checking_a_game_without_boards_imports_no_board_renderer() -> None:
    """The legibility checks of boards import the board renderer (its module and its style
    models' schemas) only for a game that has a board."""
    assert _modules_after_checks("drinking-heroes", ("toolkit.render.boards",)) == []
    assert "toolkit.render.boards" in _modules_after_checks("tokaido", ("toolkit.render.boards",))


def test_loading_a_game_without_boards_builds_no_board_validator() -> None:
    """The validators of boards and question banks are made for the files that need them:
    a game without boards never imports the board models."""
    board_models = ("toolkit.content.models.board",)
    assert _modules_after_checks("drinking-heroes", board_models) == []
    assert _modules_after_checks("tokaido", board_models) == list(board_models)


def test_plural_categories_come_without_loading_whole_locales() -> None:
    """The plural check reads each language's CLDR rule alone, not Babel's whole merged
    locale (whose unpickling imports babel.dates and babel.numbers)."""
    code = (
        "import sys; from toolkit.checks.translation.plurals import _category;"
        "print([_category(l, n) for l in ('fr', 'es', 'en') for n in (0, 1, 2)]);"
        "print(sorted(m for m in sys.modules if m in ('babel.dates', 'babel.numbers')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    categories, loaded = done.stdout.splitlines()
    fr, es, en = ["one", "one", "other"], ["other", "one", "other"], ["other", "one", "other"]
    assert categories == repr(fr + es + en)
    assert loaded == "[]"


def test_plural_rules_answer_as_babels_locales() -> None:
    from babel import Locale

    from toolkit.checks.translation.plural_rules import plural_rule

    languages = ("fr", "es", "en", "de", "pt", "ru", "pl", "ar", "cy", "ga", "gd", "he", "lt")
    languages += ("sl", "mt", "br", "ja", "zh", "no", "kw", "is", "mk")
    for lang in languages:
        theirs = Locale.parse(lang).plural_form
        ours = plural_rule(lang)
        for value in [*range(0, 130), 1000, 1001, 10**6]:
            assert ours(value) == theirs(value), (lang, value)


def test_a_game_without_spreadsheets_loads_without_the_sheet_readers() -> None:
    """The CSV, XLSX and ODS readers are imported with the first deck kept in a sheet."""
    assert _modules_after_checks("drinking-heroes", ("toolkit.content.sheets.load",)) == []


def test_suppression_comments_look_at_each_file_once_per_run(monkeypatch, tmp_path) -> None:
    """A check gives hundreds of findings in one file (a warning per card): the file's
    version is read once for all of them, and each finding's line still decides."""
    from toolkit.diagnostics import Diagnostic, Span, suppress

    deck = tmp_path / "cards.yaml"
    deck.write_text("a: 1\nb: 2  # playset: ignore[T007]\nc: 3\n")
    looked: list[str] = []
    real = suppress._notes

    def counting(path: str, inside: tuple) -> dict[int, str]:
        looked.append(path)
        return real(path, inside)

    monkeypatch.setattr(suppress, "_notes", counting)
    found = [Diagnostic(str(deck), "T007", "x", span=Span(line % 3 + 1, 1)) for line in range(60)]
    kept = suppress.unsuppressed(found, inside=[deck.parent])
    assert [d.span.line for d in kept] == [d.span.line for d in found if d.span.line != 2]
    assert looked == [str(deck)]


def test_a_cold_validate_of_a_small_game_makes_no_cyclic_collection() -> None:
    """What a command loads lives to its end: the collector walking it is work for nothing,
    so a command on a small game (Drinking Heroes, 3 languages) runs without a collection."""
    code = """
import gc, sys
import toolkit.cli as cli
runs = []
gc.callbacks.append(lambda phase, info: runs.append(phase) if phase == "stop" else None)
sys.argv = ["playset", "validate", "drinking-heroes", "--no-cache"]
try:
    cli.main()
except SystemExit:
    pass
print(len(runs))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0"


def test_a_manifests_default_sections_are_made_without_validators_of_their_own() -> None:
    """game.yaml without `checks:` or `style:` gets their defaults without building a
    validator for each default model (the manifest's own validator checks them), and those
    defaults are what validating an empty section gives."""
    code = """
from pydantic._internal._mock_val_ser import MockValSer
from toolkit.content.game import bundled_games, load_game
from toolkit.content.models.manifest import ChecksConfig, GameStyle, Legibility
game = load_game(bundled_games()["drinking-heroes"])
models = (ChecksConfig, GameStyle, Legibility)
print([isinstance(m.__pydantic_validator__, MockValSer) for m in models])
made = (game.manifest.checks, game.manifest.style, game.manifest.checks.legibility)
same = [
    m.model_validate({}) == got and got.model_fields_set == set() for m, got in zip(models, made)
]
print(same)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[True, True, True]", "[True, True, True]"]


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()


def test_a_command_imports_its_own_module_only() -> None:
    """`playset build` imports toolkit.cli.build, not the modules of the other commands
    (simulate, sweep, i18n…); the whole command line is made only when asked for."""
    code = """
import sys
import toolkit.cli as cli
sys.argv = ["playset", "build", "--help"]
try:
    cli.main()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.startswith("toolkit.cli.")))
"""
    loaded = eval(_run(code)[-1])  # noqa: S307 - a list of module names we printed
    assert "toolkit.cli.build" in loaded
    assert not {"toolkit.cli.simulate", "toolkit.cli.sweep", "toolkit.cli.i18n"} & set(loaded)
    from toolkit.cli import COMMANDS, app

    assert len(app.registered_commands) == len(COMMANDS)


def test_installed_entry_points_are_read_once_per_run() -> None:
    """The registries and pydantic's plugin lookup share one read of the installed
    distributions (each read is ~15 ms): loading and checking a game reads them once, and
    never through `importlib.metadata` (pydantic's own scan)."""
    code = """
import importlib.metadata as metadata
reads = []
real = metadata.distributions
metadata.distributions = lambda *a, **k: reads.append(1) or real(*a, **k)
from toolkit import registry
own = registry._read_points
registry._read_points = lambda: reads.append(2) or own()
from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game
run_checks(load_game(bundled_games()["drinking-heroes"]))
from pydantic.plugin._loader import get_plugins
print(reads, list(get_plugins()))
"""
    assert _run(code)[-1] == "[2] []"


def test_missing_glyphs_answers_as_the_font_s_character_map() -> None:
    """missing_glyphs (with its one-pass short cut for a text the font draws whole) gives
    each character the font lacks once, in order of first use, tabs and newlines aside."""
    from toolkit.render.fonts import IGNORED, _drawn, missing_glyphs

    cmap = _drawn("regular")[1]
    texts = ["", "Avancez de 3 cases\u202f!", "a\u4e00b\u4e00\U0001f600\n\t\u00ad", "\u4e01" * 3]
    for text in texts:
        expected = [c for c in dict.fromkeys(text) if c not in IGNORED and ord(c) not in cmap]
        assert missing_glyphs(text) == expected
    assert missing_glyphs("a\u4e00b\u4e00") == ["\u4e00"]


def test_missing_glyphs_holds_only_the_letters_it_was_asked_about() -> None:
    """The characters a face draws are looked up in its character map as texts ask about
    them: no set of every character of the font (~3,000 a face) is made."""
    from toolkit.render.fonts import _drawn, missing_glyphs

    _drawn.cache_clear()
    assert missing_glyphs("Avancez\u4e00 de 3 cases") == ["\u4e00"]
    assert missing_glyphs("avance") == []
    assert _drawn("regular")[0] == set("Avancez de 3 cases")


def test_checking_every_bundled_game_never_tokenizes_a_signature() -> None:
    """pydantic reads the signature of each field's default factory; a builtin's (`list`)
    is parsed from its text with the tokenizer, whose first use compiles its large pattern.
    Content models name a Python function instead (`new_list`), so loading and checking a
    game never starts the tokenizer."""
    code = (
        "import tokenize; from toolkit.checks import run_checks;"
        "from toolkit.content.game import bundled_games, load_game;"
        "[run_checks(load_game(folder)) for folder in bundled_games().values()];"
        "print(tokenize._compile.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_no_content_model_takes_a_builtin_default_factory() -> None:
    """Every field of every content and layout model (and a game's) has a default factory
    whose signature is read without the tokenizer: not a builtin type or function."""
    import inspect

    from toolkit.content.game import bundled_games, load_game
    from toolkit.content.models.base import StrictModel
    from toolkit.render.layout import layout_model

    for folder in bundled_games().values():
        load_game(folder)  # a game's own models, defined by its plugin
    layout_model()
    classes, seen = [StrictModel], []
    while classes:
        cls = classes.pop()
        seen.append(cls)
        classes.extend(cls.__subclasses__())
    assert len(seen) > 30
    for cls in seen:
        for name, field in cls.model_fields.items():
            factory = field.default_factory
            if factory is None or factory is dict:  # dict's signature fails fast: no text
                continue
            builtin = inspect.isbuiltin(factory) or getattr(factory, "__module__", "") == "builtins"
            assert not builtin, f"{cls.__qualname__}.{name}: default_factory={factory!r}"


def test_a_game_without_svg_icons_is_checked_without_the_logging_module() -> None:
    """svglib's logger is silenced when svglib is first used, not when the icon module is
    imported: checking a game without SVG icons never imports `logging`."""
    assert _modules_after_checks("drinking-heroes", ("logging",)) == []


def test_a_game_without_svg_icons_is_checked_without_the_svg_reader() -> None:
    """The SVG reader (svg_icons, its guard and its fonts) is imported for a game with icons
    of its own: a game printing only the built-in icons is checked without it."""
    code = (
        "import sys; from toolkit.checks import run_checks;"
        "from toolkit.content.game import load_game;"
        "from tests.conftest import FIXTURES;"
        "{}"
        "print(sorted(m for m in sys.modules if m.startswith('toolkit.render.svg_')))"
    )
    for game, expected in (
        ("base", "[]"),
        (
            "own-look",
            "['toolkit.render.svg_fonts', 'toolkit.render.svg_guard', 'toolkit.render.svg_icons',"
            " 'toolkit.render.svg_properties']",
        ),
    ):
        check = f"run_checks(load_game(FIXTURES / {game!r}), errors_only=True, printed=['fr']);"
        done = subprocess.run(
            [sys.executable, "-c", code.format(check)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == expected, game


def test_a_colour_s_luminance_is_worked_out_once_per_run() -> None:
    """The legibility check asks the contrast of the same few colours for each text of each
    card and language: each colour's luminance is worked out once."""
    _, hits, misses = _checked("drinking-heroes")
    assert hits > 10 * misses > 0


def test_checking_a_game_without_a_rulebook_imports_no_rulebook_reader() -> None:
    """The rulebook's reader, style, card reference and words (and Babel, for a plural rule
    no check asks) are imported by the checks of a game that has a rulebook, not by every
    gate: the validity gate of a deck without one loads none of them (the glyph check's
    module, which the family registry imports, takes the rulebook's words when it runs), and
    its findings stay."""
    code = (
        "import sys; from toolkit.checks import run_checks;"
        "from toolkit.content.game import load_game;"
        "from tests.conftest import FIXTURES;"
        "found = run_checks(load_game(FIXTURES / 'base'), errors_only=True, printed=['fr']);"
        "print(sorted(m for m in sys.modules if m.startswith(('babel', 'toolkit.render.rulebook',"
        " 'toolkit.render.card_reference'))));"
        "print(sorted(d.code for d in found))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.splitlines()[0]
    assert loaded == "[]"


def test_a_build_without_the_cache_imports_no_cache_code(tmp_path) -> None:
    """`build --no-cache` (PLAYSET_NO_CACHE=1, the benchmark's cold build) neither looks up
    nor keeps anything: the build cache's module and the findings cache's are not imported,
    and the PDFs are written as ever."""
    code = f"""
import sys
import toolkit.cli as cli
from tests.conftest import FIXTURES
sys.argv = ["playset", "build", str(FIXTURES / "base"), "--lang", "fr", "--no-cache",
            "--out", {str(tmp_path)!r}]
try:
    cli.main()
except SystemExit as exc:
    print(exc.code)
print(sorted(m for m in sys.modules if m.endswith(("build_cache", "validate_cache"))))
"""
    status, loaded = _run(code)[-2:]
    assert status == "0"
    assert loaded == "[]"
    assert list(tmp_path.glob("*/fr/*.pdf"))


def test_checking_a_game_without_a_glossary_imports_no_glossary_model(tmp_path) -> None:
    """The board-phrase checks (R006's phrases, the unfilled terms of print-fit) ask whether
    a text is a glossary term's: a game without a glossary is checked without importing the
    glossary model at all, and a game with one finds its terms as ever."""
    game = tmp_path / "g"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text(
        "id: g\ntitle: {fr: Jeu}\nlanguages: [fr]\nsource_language: fr\n"
        "players: {min: 2, max: 4}\nrules: {}\nfiles:\n  decks: [decks/cards.yaml]\n"
    )
    (game / "decks" / "cards.yaml").write_text(
        "id: cards\nkind: actions\nname: {fr: Actions}\nsize: poker\ncards:\n"
        "  - id: c1\n    name: {fr: Carte}\n    text: {fr: 'Avancez de {steps} cases.'}\n"
        "    params: {steps: 2}\n"
    )
    code = (
        "import sys; from pathlib import Path; from toolkit.checks import run_checks;"
        "from toolkit.content.game import load_game;"
        f"found = run_checks(load_game(Path({str(game)!r})), errors_only=True, printed=['fr']);"
        "print('toolkit.content.models.glossary' in sys.modules);"
        "print(sorted(d.code for d in found))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False", "[]"]
    from toolkit.checks.references import _terms

    assert _terms() == ("term",)


def _command_run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """`python -m toolkit ARGV` with an `atexit` function and a live object whose `__del__`
    prints: what the process does on its way out shows."""
    code = f"""
import atexit, os, runpy, sys, types
class Alive:
    def __del__(self):
        os.write(1, b"torn down\\n")
probe = types.ModuleType("probe")  # a module's objects are freed when the interpreter ends
probe.alive = Alive()
sys.modules["probe"] = probe
del probe
atexit.register(lambda: print("atexit ran", flush=True))
sys.argv = ["playset", *{argv!r}]
runpy.run_module("toolkit", run_name="__main__", alter_sys=True)
"""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_a_done_build_ends_without_tearing_down_every_object(tmp_path) -> None:
    """As the `playset` command, a build that is done (or refused) runs the `atexit`
    functions and ends with its exit code, without freeing its modules and objects one by
    one; its PDFs are written as ever."""
    from tests.conftest import FIXTURES

    done = _command_run(["build", str(FIXTURES / "base"), "--lang", "fr", "--out", str(tmp_path)])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1:] == ["atexit ran"]
    assert list(tmp_path.glob("*/fr/*.pdf"))
    broken = sorted((FIXTURES / "broken").iterdir())[0]
    refused = _command_run(["build", str(broken), "--lang", "fr", "--out", str(tmp_path / "b")])
    assert refused.returncode == 1
    assert refused.stdout.splitlines()[-1:] == ["atexit ran"]
    other = _command_run(["list"])  # any other command ends the ordinary way
    assert other.returncode == 0
    assert other.stdout.splitlines()[-2:] == ["atexit ran", "torn down"]
