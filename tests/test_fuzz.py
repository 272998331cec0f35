"""Property test: random bytes, random YAML and random PO files fed to `validate` and
`i18n import` never end in a traceback, exit 0, 1 or 2, and touch nothing outside the game
folder. Bounded (few examples, no deadline) so it runs in seconds in CI."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from tests.conftest import FIXTURES
from toolkit.cli import app

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
    result = CliRunner().invoke(app, list(args), catch_exceptions=True)
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
