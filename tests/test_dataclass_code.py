"""The compiled dataclass methods a command keeps between runs (toolkit.dataclass_code): a
second run compiles none of them, and a class made from kept code is the class `dataclasses`
makes."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit import dataclass_code

LIST_AND_COUNT = (
    "import toolkit.cli as cli\n"
    "try:\n"
    "    cli.main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('compiled', counted[0], file=sys.stderr)\n"
)
"""`playset list`, then how many compilations the counter above it saw (on stderr)."""

RUN = (
    "import sys; sys.argv = ['playset', 'list'];"
    "import toolkit.dataclass_code as kept; counted = [0]; real = compile\n"
    "def counting(*args, **kwargs):\n"
    "    counted[0] += 1\n"
    "    return real(*args, **kwargs)\n"
    "kept.compile = counting\n" + LIST_AND_COUNT
)


def _compiled(cache: Path, script: str = RUN) -> int:
    """How many dataclass method sources (or, with FORWARD_RUN, forward references) a run of
    `playset list` compiled."""
    env = dict(os.environ, PLAYSET_CACHE=str(cache))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    line = [row for row in done.stderr.splitlines() if row.startswith("compiled ")][-1]
    return int(line.split()[1])


def test_a_second_run_compiles_no_dataclass_method(tmp_path: Path) -> None:
    first = _compiled(tmp_path)
    assert first > 50  # typer's, pydantic's and the toolkit's dataclasses
    assert _compiled(tmp_path) == 0
    # a tampered entry is not ours: ignored, every method compiled afresh, then kept again
    entry = next((tmp_path / "playset" / "code").glob("dataclass-code-*"))
    data = bytearray(entry.read_bytes())
    data[-1] ^= 1
    entry.write_bytes(bytes(data))
    assert _compiled(tmp_path) == first
    assert _compiled(tmp_path) == 0


def test_a_cache_folder_that_is_a_file_means_no_cache(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert _compiled(tmp_path / "file") > 50
    assert _compiled(tmp_path / "file") > 50


def _classes() -> list[type]:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        """A point."""

        x: int
        y: float = 0.5
        tags: list[str] = dataclasses.field(default_factory=list, compare=False)

    @dataclasses.dataclass(order=True)
    class Plain:
        name: str
        count: int = 0

    @dataclasses.dataclass(frozen=True, eq=False)
    class ById:
        key: str

    return [Point, Plain, ById]


def test_a_class_made_from_kept_code_is_the_class_dataclasses_makes(monkeypatch) -> None:
    plain = _classes()
    monkeypatch.setattr(dataclass_code, "_KEPT", {})
    monkeypatch.setattr(dataclass_code, "_USED", set())
    monkeypatch.setattr(dataclass_code, "_STATE", {"store": None, "new": 0})
    monkeypatch.setattr(dataclasses, "exec", dataclass_code._exec, raising=False)
    compiled = _classes()  # compiled through the hook, kept
    # a third making compiles nothing
    monkeypatch.setattr(dataclass_code, "compile", None, raising=False)
    reused = _classes()
    for ours, kept_ones in zip(plain, zip(compiled, reused, strict=True), strict=True):
        for theirs in kept_ones:
            assert theirs.__doc__ == ours.__doc__
            assert str(inspect.signature(theirs)) == str(inspect.signature(ours))
            assert [f.name for f in dataclasses.fields(theirs)] == [
                f.name for f in dataclasses.fields(ours)
            ]
            assert getattr(theirs, "__slots__", None) == getattr(ours, "__slots__", None)
            assert theirs.__match_args__ == ours.__match_args__
            for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__lt__"):
                mine, original = getattr(theirs, method, None), getattr(ours, method, None)
                assert (mine is None) == (original is None), method
                code, base = getattr(mine, "__code__", None), getattr(original, "__code__", None)
                if base is not None:
                    assert code is not None and code.co_code == base.co_code, method
                    assert code.co_filename == base.co_filename, method
    point, plain_point = reused[0](1), plain[0](1)
    assert repr(point).replace(reused[0].__qualname__, "") == repr(plain_point).replace(
        plain[0].__qualname__, ""
    )
    assert point == reused[0](1, tags=["a"]) and hash(point) == hash(reused[0](1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    assert reused[1]("a") < reused[1]("b")
    assert reused[2]("k") != reused[2]("k")


FORWARD_RUN = (
    "import sys; sys.argv = ['playset', 'list'];"
    "import typing; counted = [0]\n"
    "def hook(event, args):\n"
    "    if event == 'compile':\n"
    "        caller = sys._getframe(1).f_code\n"
    "        if caller is typing.ForwardRef.__init__.__code__ or caller.co_name == '_compile':\n"
    "            counted[0] += 1\n"
    "sys.addaudithook(hook)\n" + LIST_AND_COUNT
)


def test_a_second_run_compiles_no_forward_reference(tmp_path: Path) -> None:
    # pydantic's core schema alone makes hundreds (~0.9 G instructions of a cold build)
    assert _compiled(tmp_path, FORWARD_RUN) > 100
    assert _compiled(tmp_path, FORWARD_RUN) == 0


def test_a_forward_reference_from_kept_code_is_the_one_typing_makes(monkeypatch) -> None:
    import typing

    monkeypatch.setattr(dataclass_code, "_KEPT", {})
    monkeypatch.setattr(dataclass_code, "_USED", set())
    monkeypatch.setattr(dataclass_code, "_STATE", {"store": None, "new": 0})
    texts = ["dict[str, int] | None", "list['Point']", "*tuple[int, str]", "typing.Any"]
    plain = [typing.ForwardRef(text) for text in texts]
    monkeypatch.setattr(typing, "compile", dataclass_code._compile, raising=False)
    compiled = [typing.ForwardRef(text) for text in texts]
    assert dataclass_code._STATE["new"] == len(texts)
    with pytest.raises(SyntaxError, match="Forward reference must be an expression"):
        typing.ForwardRef("not valid(")  # as without the kept code
    monkeypatch.setattr(dataclass_code, "compile", None, raising=False)  # nothing compiled now
    reused = [typing.ForwardRef(text) for text in texts]
    for ours, *kept in zip(plain, compiled, reused, strict=True):
        for theirs in kept:
            assert theirs == ours and hash(theirs) == hash(ours)
            assert theirs.__forward_code__.co_code == ours.__forward_code__.co_code
            assert theirs.__forward_code__.co_filename == "<string>"
            assert theirs.__forward_code__.co_flags == ours.__forward_code__.co_flags
    scope = {"typing": typing, "Point": int}
    assert eval(reused[0].__forward_code__, scope) == (dict[str, int] | None)


def test_each_command_keeps_the_code_it_uses_apart(tmp_path: Path) -> None:
    """A store of what every command compiled cost each run its whole size to check and
    unmarshal: a command reads its own entry, of the code it uses."""
    assert _compiled(tmp_path) > 50
    entries = sorted(p.name for p in (tmp_path / "playset" / "code").glob("dataclass-code-*"))
    assert len(entries) == 1 and entries[0].endswith("-list"), entries
    # another command's first run compiles its own, and keeps them apart
    env = dict(os.environ, PLAYSET_CACHE=str(tmp_path))
    run = RUN.replace("'list'", "'rules'")
    done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert int(done.stderr.split("compiled ")[-1].split()[0]) > 50
    entries = sorted(p.name for p in (tmp_path / "playset" / "code").glob("dataclass-code-*"))
    assert [name.rsplit("-", 1)[1] for name in entries] == ["list", "rules"], entries
    assert _compiled(tmp_path) == 0


REGEX_RUN = (
    "import sys; sys.argv = ['playset', 'list'];"
    "import re; counted = [0]; real = re._compiler.compile\n"
    "def counting(*args, **kwargs):\n"
    "    kept = sys.modules.get('toolkit.dataclass_code')\n"
    "    counted[0] += hasattr(kept, 'install')\n"
    "    return real(*args, **kwargs)\n"
    "re._compiler.compile = counting\n" + LIST_AND_COUNT
)
"""`playset list` counting the patterns `re` really compiles (parse and code writing) once
the store can be installed (the few its own imports compile come before it)."""


def test_a_second_run_compiles_no_regular_expression(tmp_path: Path) -> None:
    # the checks', Jinja's, the YAML reader's: ~0.7 M instructions each, every run the same
    first = _compiled(tmp_path, REGEX_RUN)
    assert first > 20
    assert _compiled(tmp_path, REGEX_RUN) == 0


PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<word>\w+)\s+(?P=word)", 0),
    (r"(?<![\w-])(?:(?P<w0>dos)|(?P<w1>tres))(?![\w-])", re.IGNORECASE),
    ("\n    ^ (https?://|www\\.)  # scheme\n    [^\\s]+ $\n", re.VERBOSE | re.MULTILINE),
    (r"(?i)straße|ǅ", 0),  # an inline flag: the compiled flags are not the given ones
    (r"[\x00-\x1f\u2028\u2029]+|\s{2,}", 0),
    (rb"(?P<key>[a-z]+)=(\d+)", 0),
    (rb"\w+", re.LOCALE),
    (r"\w+", re.ASCII | re.DOTALL),
    (r"(a)(b)?(?:c)(?P<d>d)*", 0),
    (r"x{2,5}?|[^\W\d_]+", 0),
]


@pytest.fixture
def kept_regexes(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty store in this process, `re` compiling through it."""
    monkeypatch.setattr(dataclass_code, "_REGEX", {})
    monkeypatch.setattr(dataclass_code, "_USED", set())
    monkeypatch.setattr(dataclass_code, "_STATE", {"store": None, "new": 0})
    monkeypatch.setattr(re._compiler, "compile", dataclass_code._regex)  # type: ignore[attr-defined]
    monkeypatch.setattr(re, "_cache", {})


def test_a_pattern_from_kept_code_is_the_one_re_makes(kept_regexes: None, monkeypatch) -> None:
    real = dataclass_code._RE_COMPILE
    plain = [real(text, flags) for text, flags in PATTERNS]
    compiled = [re.compile(text, flags) for text, flags in PATTERNS]
    assert dataclass_code._STATE["new"] == len(PATTERNS)
    monkeypatch.setattr(dataclass_code, "_RE_COMPILE", None)  # nothing compiled now
    re.purge()
    reused = [re.compile(text, flags) for text, flags in PATTERNS]
    samples = ["dos Dos tres", "WWW.example.org", "STRASSE straße ǆ", "hé  llo\u2028", "a b b"]
    for ours, *kept in zip(plain, compiled, reused, strict=True):
        for theirs in kept:
            assert theirs is not ours
            assert theirs == ours and hash(theirs) == hash(ours)
            assert (theirs.pattern, theirs.flags, theirs.groups) == (
                ours.pattern,
                ours.flags,
                ours.groups,
            )
            assert theirs.groupindex == ours.groupindex
            for sample in samples:
                text = sample.encode() if isinstance(ours.pattern, bytes) else sample
                assert [m.span() for m in theirs.finditer(text)] == [  # type: ignore[arg-type]
                    m.span()
                    for m in ours.finditer(text)  # type: ignore[arg-type]
                ]
                assert [m.groupdict() for m in theirs.finditer(text)] == [  # type: ignore[arg-type]
                    m.groupdict()
                    for m in ours.finditer(text)  # type: ignore[arg-type]
                ]


def test_a_bad_pattern_raises_as_ever_and_is_not_kept(kept_regexes: None) -> None:
    with pytest.raises(re.error) as plain:
        dataclass_code._RE_COMPILE("(?P<a>x)(?P<a>y)", 0)
    with pytest.raises(re.error) as ours:
        re.compile("(?P<a>x)(?P<a>y)")
    assert (str(ours.value), ours.value.pos) == (str(plain.value), plain.value.pos)
    assert dataclass_code._REGEX == {}


def test_a_pattern_joined_from_a_set_is_kept_once_not_each_order(kept_regexes: None) -> None:
    """Libraries join a set into a pattern: another order each process, which would grow the
    store on every run."""
    re.compile(r"\b(?:alpha|beta|gamma)\b")
    re.compile(r"\b(?:gamma|alpha|beta)\b")  # the same characters in another order
    re.compile(r"\b(?:alpha|beta|delta)\b")
    assert [key[1] for key in dataclass_code._REGEX] == [
        r"\b(?:alpha|beta|gamma)\b",
        r"\b(?:alpha|beta|delta)\b",
    ]
    assert dataclass_code._STATE["new"] == 2


def test_the_debug_flag_is_never_kept(kept_regexes: None, capsys) -> None:
    re.compile("ab+", re.DEBUG)
    assert dataclass_code._REGEX == {}
    assert "LITERAL" in capsys.readouterr().out


DECODED = """
import sys, dataclasses
from toolkit import dataclass_code as kept
kept.install("probe")
@dataclasses.dataclass(frozen=True)
class Used:
    a: int
if sys.argv[1] == "both":
    @dataclasses.dataclass(frozen=True)
    class Other:
        b: str
assert Used(1) == Used(1) and hash(Used(2)) == hash(Used(2))
codes = [type(v).__name__ for k, v in kept._KEPT.items() if "Other" in k or "b:" in k]
print(len(kept._KEPT), sorted(set(codes)))
kept.save()
"""


def test_a_run_decodes_only_the_kept_code_it_uses(tmp_path: Path) -> None:
    """An entry keeps what every run of its command compiled (builds of other games too):
    a run unmarshals a method's code when it first makes that method, not the whole entry
    up front; what it never asks for stays as read and is kept for the next run."""
    env = dict(os.environ, PLAYSET_CACHE=str(tmp_path))

    def run(which: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", DECODED, which], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split(maxsplit=1)

    first = run("both")
    assert first[1].strip() == "['code']"  # compiled in this run
    count, kinds = run("one")
    assert count == first[0]
    assert kinds.strip() == "['bytes']"  # read, never decoded
    assert run("both")[0] == count  # and still kept
