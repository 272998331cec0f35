"""toolkit.content.unit_cache.Clean by file: `file_seen`, asked for each text of a file
(~1,100 texts by each of ~9 users each run), works a file's answer out once; and the kept
digests are read back as before (a list of texts, nothing else)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from toolkit.content import unit_cache
from toolkit.content.unit_cache import Clean, Units, activated


class _Frame:
    """A frame that names a file by its path alone."""

    def digest_but(self, content: frozenset[str], here: str) -> str:
        return here


class _Edited(_Frame):
    """The frame after an edit of /game/2.yaml: it names that file otherwise."""

    def digest_but(self, content: frozenset[str], here: str) -> str:
        return "/game/2+" if here == "/game/2.yaml" else here


def _units(known: dict[str, object] | None = None) -> Units:
    units = Units(known)
    units.frame = _Frame()
    units.content = frozenset(f"/game/{i}.yaml" for i in range(3))
    return units


def test_a_file_is_asked_its_name_once_however_many_texts_ask(monkeypatch):
    files = [SimpleNamespace(doc=SimpleNamespace(path=f"/game/{i}.yaml")) for i in range(3)]
    first = _units()
    with activated(first):
        clean = Clean("clean-test")
        for i, loaded in enumerate(files):
            for text in range(5):
                said = i == 2 and text == 3
                if not said:
                    clean.found_clean(f"{i}-{text}")
                clean.noted(loaded, f"{i}-{text}", not said)
        clean.close()
    asked: list[object] = []
    real = Clean._file_name

    def counted(self, loaded):  # type: ignore[no-untyped-def]
        asked.append(loaded)
        return real(self, loaded)

    monkeypatch.setattr(Clean, "_file_name", counted)
    with activated(_units(dict(first.used))):
        clean = Clean("clean-test")
        seen = [clean.file_seen(loaded) for loaded in files for _ in range(100)]
        assert seen == [True] * 200 + [False] * 100  # the third had an unclean text
        assert len(asked) == 3
        assert clean.seen("0-4") and clean.seen("2-0") and not clean.seen("2-3")


@pytest.mark.parametrize(
    "kept",
    [["a", 1], ["a", b"b"], ["a", None], [type("Text", (str,), {})("a")], ("a",), {"a": 1}],
)
def test_kept_digests_other_than_texts_are_refused(kept):
    with pytest.raises(ValueError):
        unit_cache._digests(kept)
    with pytest.raises(ValueError):
        unit_cache._file_digests({"file": kept})


def test_kept_digests_are_read_back():
    assert unit_cache._digests(["a", "b", "a"]) == {"a", "b"}
    assert unit_cache._digests([]) == set()
    kept = {"f": ["a"], "g": []}
    assert unit_cache._file_digests(kept) is kept
    with pytest.raises(ValueError):
        unit_cache._file_digests(["a"])


def test_clean_digests_are_kept_without_a_look_at_each_from_python(monkeypatch):
    """A `Clean`'s digests (a list of texts, and by file a mapping of texts to such lists)
    are kept as `put` keeps them, told texts in C: `_json_own`, which looks at each of a
    bundled game's ~2,800 digests in Python, is not asked."""
    files = [SimpleNamespace(doc=SimpleNamespace(path=f"/game/{i}.yaml")) for i in range(3)]
    looked: list[object] = []
    real = unit_cache._json_own
    monkeypatch.setattr(unit_cache, "_json_own", lambda v, d=0: looked.append(v) or real(v, d))
    units = _units()
    with activated(units):
        clean = Clean("clean-test")
        for i, loaded in enumerate(files):
            for text in range(5):
                clean.found_clean(f"{i}-{text}")
                clean.noted(loaded, f"{i}-{text}", True)
        clean.close()
    assert looked == []
    digests = [f"{i}-{text}" for i in range(3) for text in range(5)]
    assert units.used[Units.name("clean-test", [])] == digests
    by_file = units.used[Units.name("clean-test:files", [])]
    assert sorted(by_file.values()) == [digests[5 * i : 5 * i + 5] for i in range(3)]
    assert units.worked_out == 2


@pytest.mark.parametrize(
    "value",
    [["a", 1], ["a", ("b",)], [type("Text", (str,), {})("a")], {"a": ["b", 2]}, {1: ["a"]}, "a"],
)
def test_texts_put_otherwise_are_kept_as_put_keeps_them(value):
    """Anything but texts in lists goes the way of `put` (a JSON round trip)."""
    by_put, by_texts = Units(), Units()
    by_put.put("x", value)
    by_texts.put_texts("x", value)
    assert by_texts.used == by_put.used
    assert [type(v) for v in by_texts.used.values()] == [type(v) for v in by_put.used.values()]


def test_the_kind_keeps_the_checked_inputs_and_asks_the_skipped_files_for_theirs():
    """A run that skips files keeps, besides its files', only the digests of the inputs it
    checked (one card edit: the edited deck's, not the ~2,800 of every file again); `seen`
    still knows every clean input of the last run, a skipped file's too, and a file's
    stale version is not kept."""
    files = [SimpleNamespace(doc=SimpleNamespace(path=f"/game/{i}.yaml")) for i in range(3)]
    kind, by_file = Units.name("clean-test", []), Units.name("clean-test:files", [])
    first = _units()
    with activated(first):
        clean = Clean("clean-test")
        for i, loaded in enumerate(files):
            for text in range(5):
                clean.found_clean(f"{i}-{text}")
                clean.noted(loaded, f"{i}-{text}", True)
        clean.close()
    edited = SimpleNamespace(doc=SimpleNamespace(path="/game/2.yaml"))
    second = _units(dict(first.used))
    second.frame = _Edited()
    with activated(second):
        clean = Clean("clean-test")
        assert clean.file_seen(files[0]) and clean.file_seen(files[1])
        assert not clean.file_seen(edited)  # its bytes changed: another name
        for digest in ["0-1", "2-1", "new"]:  # a text moved, one kept, one new
            if not clean.seen(digest):
                clean.found_clean(digest)
            clean.noted(edited, digest, True)
        clean.close()
    assert sorted(second.used[kind]) == ["0-1", "2-1", "new"]  # not the skipped files' again
    named = [Units.name(by_file, [path]) for path in ("/game/0.yaml", "/game/1.yaml")]
    assert sorted(second.used[by_file]) == sorted([*named, Units.name(by_file, ["/game/2+"])])
    with activated(_units(dict(second.used))):
        clean = Clean("clean-test")
        for digest in ["0-0", "1-4", "0-1", "2-1", "new"]:  # skipped, checked, new: all clean
            assert clean.seen(digest), digest
        assert not clean.seen("2-0")  # only in the deck's version before the edit


def test_a_file_checked_now_keeps_each_digest_once():
    """A text written twice in a file (or a check that notes "" for each text) is kept
    once in the file's list: the lists of a bundled game's typography held ~250 digests
    twice, and each "" user 1,101 "" for 9 files."""
    loaded = SimpleNamespace(doc=SimpleNamespace(path="/game/0.yaml"))
    units = _units()
    with activated(units):
        clean = Clean("clean-test")
        for digest in ["a", "b", "a", "", "", "b"]:
            clean.found_clean(digest)
            clean.noted(loaded, digest, True)
        clean.close()
    (kept,) = units.used[Units.name("clean-test:files", [])].values()
    assert kept == ["a", "b", ""]
    with activated(_units(dict(units.used))):
        clean = Clean("clean-test")
        assert clean.file_seen(loaded) and clean.seen("a") and clean.seen("b")
