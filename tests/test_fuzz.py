"""Property test: random bytes, random YAML and random PO files fed to `validate` and
`i18n import` never end in a traceback, exit 0, 1 or 2, and touch nothing outside the game
folder; random `href`s in an icon SVG open nothing outside the game's icons/. Bounded (few
examples, no deadline) so it runs in seconds in CI."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from tests.conftest import FIXTURES, REPO
from toolkit.cli import app_for

FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI stays reproducible
    suppress_health_check=[HealthCheck.too_slow],
)
DECK = "decks/cards.yaml"
FIELDS = [
    "decks/cards.yaml:cards[sprint].text",
    "decks/cards.yaml:cards[sprint].name",
    "decks/cards.yaml:cards[rest].name",
    "decks/cards.yaml:name",
    "game.yaml:title",
]


def _tree(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `root` with its mode, size and bytes (links as their target)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            info = path.lstat()
            data = os.readlink(path).encode() if path.is_symlink() else b""
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
            found[str(path.relative_to(root))] = (info.st_mode, info.st_size, data)
    return found


@contextmanager
def _sandbox() -> Iterator[tuple[Path, Path]]:
    """A fresh copy of the fixture game inside a scratch folder that also holds the
    working directory and a bystander file; yields (game, scratch)."""
    scratch = Path(tempfile.mkdtemp(prefix="playset-fuzz-"))
    game = scratch / "game"
    shutil.copytree(FIXTURES / "base", game)
    (scratch / "bystander.txt").write_text("untouched\n")
    (scratch / "cwd").mkdir()
    before = _outside(scratch)
    cwd = os.getcwd()
    os.chdir(scratch / "cwd")
    try:
        yield game, scratch
    finally:
        os.chdir(cwd)
    try:
        assert _outside(scratch) == before, "something outside the game folder changed"
    finally:
        shutil.rmtree(scratch)


def _outside(scratch: Path) -> dict[str, tuple[int, int, bytes]]:
    return {k: v for k, v in _tree(scratch).items() if not k.startswith("game")}


def _run(*args: str) -> None:
    result = CliRunner().invoke(app_for(list(args)), list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: the property fails with it
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes_as_a_deck(data: bytes) -> None:
    with _sandbox() as (game, _):
        (game / DECK).write_bytes(data)
        _run("validate", str(game))


@FUZZ
@given(st.binary(max_size=200), st.integers(min_value=0, max_value=40))
def test_random_bytes_spliced_into_a_deck(data: bytes, line: int) -> None:
    with _sandbox() as (game, _):
        path = game / DECK
        lines = path.read_bytes().split(b"\n")
        lines.insert(min(line, len(lines)), data)
        path.write_bytes(b"\n".join(lines))
        _run("validate", str(game))


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@FUZZ
@given(_DATA, st.sampled_from(["id", "name", "cards", "size", "kind", "text", "params"]))
def test_random_yaml_values_in_a_deck(value: object, key: str) -> None:
    with _sandbox() as (game, _):
        path = game / DECK
        yaml = YAML(typ="safe", pure=True)
        with path.open(encoding="utf-8") as handle:
            deck = yaml.load(handle)
        if key in ("text", "params") and deck.get("cards"):
            deck["cards"][0][key] = value
        else:
            deck[key] = value
        with path.open("w", encoding="utf-8") as handle:
            yaml.dump(deck, handle)
        _run("validate", str(game))


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes_as_a_po_file(data: bytes) -> None:
    with _sandbox() as (game, scratch):
        po = scratch / "cwd" / "x.po"
        po.write_bytes(data)
        _run("i18n", "import", str(po), "--game", str(game))
        po.unlink()


# Slow (10-14 s): each of the 25 examples exports a catalogue, imports it and validates the
# game, as a translator's round trip does.
@pytest.mark.slow
@FUZZ
@given(
    st.sampled_from(["fr", "es", "en", "de", ""]),
    st.lists(
        st.tuples(
            st.one_of(st.sampled_from(FIELDS), st.text(max_size=40)),
            st.text(max_size=30),
            st.text(max_size=60),
        ),
        max_size=5,
    ),
)
def test_random_po_entries(lang: str, entries: list[tuple[str, str, str]]) -> None:
    with _sandbox() as (game, scratch):
        po = polib.POFile()
        po.metadata = {"Language": lang, "Content-Type": "text/plain; charset=UTF-8"}
        source = polib.pofile(_export(game))
        sources = {e.msgctxt: e.msgid for e in source}
        for ctxt, msgid, msgstr in entries:
            po.append(polib.POEntry(msgctxt=ctxt, msgid=sources.get(ctxt, msgid), msgstr=msgstr))
        path = scratch / "cwd" / "x.po"
        path.write_text(str(po) + "\n", encoding="utf-8")
        _run("i18n", "import", str(path), "--game", str(game))
        path.unlink()
        _run("validate", str(game))


def _export(game: Path) -> str:
    from toolkit.content.game import load_game
    from toolkit.i18n.po import export_po

    return str(export_po(load_game(game), "en"))


# --- SVG references: an icon reaches nothing outside the game's icons/ -----------------

_OPENED: list[str] | None = None
"""Paths opened while an SVG is read (an audit hook records Python's opens; svglib's lxml
parses are recorded by wrapping its loader)."""


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _OPENED is not None and event == "open" and args and isinstance(args[0], str | bytes):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)

_PATHS = st.builds(
    lambda prefix, up, ups, middle, name, fragment: (
        prefix + "/".join([*[up] * ups, *middle, name]) + fragment
    ),
    st.sampled_from(["", "./", "/", "~/", "file://", "file:", "FILE:///", "\\"]),
    st.sampled_from(["..", "%2e%2e", "../.", ".//.."]),
    st.integers(min_value=0, max_value=3),
    st.lists(st.sampled_from(["icons", "game", ".", "x"]), max_size=2),
    st.sampled_from(
        ["secret.svg", "secret.png", "inner.svg", "linked.svg", "pipe.svg", "pipe.png"]
    ),
    st.sampled_from(["", "#s", "#inner"]),
)
_HREFS = st.one_of(_PATHS, _PATHS, _PATHS, st.text(max_size=40))  # mostly paths
_SECRET_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<g id="s"><text x="1" y="8">{word}</text></g></svg>\n'
)


@contextmanager
def _recording() -> Iterator[list[str]]:
    global _OPENED
    import svglib.svglib as svglib_module

    opened: list[str] = []
    loader = svglib_module.load_svg_file

    def load(path: object, *args: object, **kwargs: object) -> object:
        if isinstance(path, str | bytes | os.PathLike):
            opened.append(os.fsdecode(path))
        return loader(path, *args, **kwargs)  # type: ignore[arg-type]

    svglib_module.load_svg_file = load  # type: ignore[assignment]
    _OPENED = opened
    try:
        yield opened
    finally:
        _OPENED = None
        svglib_module.load_svg_file = loader


def _words(node: object) -> str:
    own = getattr(node, "text", "")
    return own + "".join(_words(child) for child in getattr(node, "contents", []))


@settings(FUZZ, max_examples=60)
@given(st.sampled_from(["use", "image"]), _HREFS)
@example("use", "../../secret.svg#s")  # the issue's own cases, always tried
@example("image", "../secret.png")
@example("use", "linked.svg#s")
@example("use", "pipe.svg#s")  # a FIFO in icons/: svglib blocked reading it (probe 4)
@example("image", "pipe.png")
def test_an_svg_reference_never_reaches_a_file_outside_icons(tag: str, href: str) -> None:
    from xml.sax.saxutils import quoteattr

    from PIL import Image

    from toolkit.render.svg_icons import load_svg

    scratch = Path(tempfile.mkdtemp(prefix="playset-fuzz-svg-"))
    try:
        game = scratch / "game"
        icons = game / "icons"
        icons.mkdir(parents=True)
        for folder in (scratch, game):
            (folder / "secret.svg").write_text(_SECRET_SVG.format(word="OUTSIDEWORD"))
            Image.new("RGB", (7, 13), "red").save(folder / "secret.png")
        (icons / "inner.svg").write_text(_SECRET_SVG.format(word="INSIDEWORD"))
        (icons / "linked.svg").symlink_to(scratch / "secret.svg")
        pipes = [icons / "pipe.svg", icons / "pipe.png"]
        for pipe in pipes:
            os.mkfifo(pipe)
        path = icons / "x.svg"
        path.write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            f' width="10" height="10"><rect width="2" height="2"/><{tag} width="5" height="5"'
            f" xlink:href={quoteattr(href)}/></svg>\n",
            encoding="utf-8",
        )
        with _recording() as opened:
            icon = _loaded_in_time(lambda: load_svg(path, "icons/x.svg", icons)[0], pipes)
        allowed, private = os.path.realpath(icons), os.path.realpath(scratch)
        for name in opened:
            real = os.path.realpath(os.path.abspath(name))
            inside = real == allowed or real.startswith(allowed + os.sep)
            assert inside or not real.startswith(private + os.sep), (href, name)
        if icon is not None:
            assert "OUTSIDEWORD" not in _words(icon.drawing), href
    finally:
        shutil.rmtree(scratch)


def _loaded_in_time(load: Callable[[], object], pipes: list[Path]) -> object:
    """`load()` in a thread; fails if it has not returned within 30 s (blocked reading a
    FIFO, which is then opened for writing and closed, so the thread ends)."""
    done: list[object] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(load())
        except BaseException as exc:  # re-raised in the test's own thread
            failed.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        for pipe in pipes:
            with contextlib.suppress(OSError):
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(10)
        pytest.fail("reading the icon blocked on a FIFO it references")
    if failed:
        raise failed[0]
    return done[0]


_DELIMITERS = st.sampled_from([("{{", "}}"), ("{%", "%}"), ("{#", "#}"), ("{{-", "-}}")])
_BODIES = st.one_of(
    st.sampled_from([" 'a' * 10**9 ", " if true ", " raw ", " 'x'.ljust(99) ", " x "]),
    st.text(alphabet="ab '\"*()-|", max_size=12),
)


@functools.cache
def _heroes_po() -> str:
    """The English PO file of Drinking Heroes (the same for every copy of the game)."""
    return _export(REPO / "content" / "drinking-heroes")


@settings(FUZZ, max_examples=6)
@given(_DELIMITERS, _BODIES, st.integers(1, 40))
def test_jinja_split_over_po_entries_never_reaches_the_rulebook(
    delimiters: tuple[str, str], body: str, cut: int
) -> None:
    """Two entries that each pass the per-entry check and hold one expression between them:
    the rulebook keeps exactly the code it had, or is not written."""
    from collections import Counter

    from toolkit.i18n.placeholders import jinja_code
    from toolkit.render.jinja_cache import parse_check

    code = delimiters[0] + body + delimiters[1]
    cut = min(cut, len(code) - 1)  # each half alone holds no Jinja code
    with _sandbox() as (_, scratch):
        game = scratch / "game" / "dh"
        shutil.copytree(REPO / "content" / "drinking-heroes", game)
        po = polib.pofile(_heroes_po())
        plain = [
            e
            for e in po
            if e.msgctxt.startswith("rulebook/") and e.msgstr and "{" not in e.msgid + e.msgstr
        ]
        first, second = plain[3], plain[4]
        first.msgstr += code[:cut]
        second.msgstr = code[cut:] + second.msgstr
        path = scratch / "cwd" / "en.po"
        path.write_text(str(po) + "\n", encoding="utf-8")
        book = game / "rulebook" / "en.md"
        before = book.read_text(encoding="utf-8")
        _run("i18n", "import", str(path), "--game", str(game))
        after = book.read_text(encoding="utf-8")
        assert Counter(jinja_code(after)) == Counter(jinja_code(before))
        parse_check(after)
        path.unlink()
