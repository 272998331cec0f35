"""The registries read the installed entry points themselves (toolkit.registry._read_points),
without importing `importlib.metadata`: what they find is what `importlib.metadata` finds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolkit import registry


def _theirs() -> dict[str, list[tuple[str, str, str]]]:
    from importlib.metadata import entry_points

    every = entry_points()
    return {
        group: [(p.name, p.value, p.group) for p in every.select(group=group)]
        for group in sorted(every.groups)
    }


def _mine(read: dict[str, list[Any]]) -> dict[str, list[tuple[str, str, str]]]:
    return {group: [(p.name, p.value, p.group) for p in points] for group, points in read.items()}


def _dist(site: Path, folder: str, text: str | None) -> None:
    (site / folder).mkdir(parents=True)
    if text is not None:
        (site / folder / "entry_points.txt").write_text(text, encoding="utf-8")


def _python_s_finder_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's own distribution finder alone: a library a test imported may have added its
    own and turned Python's off (the `importlib_metadata` backport does both)."""
    from importlib.machinery import PathFinder
    from importlib.metadata import MetadataPathFinder

    kept = [f for f in sys.meta_path if f is PathFinder or not hasattr(f, "find_distributions")]
    monkeypatch.setattr(sys, "meta_path", kept)
    if not hasattr(PathFinder, "find_distributions"):  # as Python defines it
        found = staticmethod(lambda *a, **k: MetadataPathFinder.find_distributions(*a, **k))
        monkeypatch.setattr(PathFinder, "find_distributions", found, raising=False)


def test_the_points_read_are_importlib_metadata_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The installed environment, and two folders of distributions put first on the path:
    comments, blank lines, lines before any section, spaces around `=`, extras, a value
    with `=` in it, several groups, an egg-info, a distribution without entry points, the
    same distribution in both folders (the first found counts, as importlib's), names that
    normalise alike (`a.b-1.0`, `A_B-2.0`)."""
    one, two = tmp_path / "one", tmp_path / "two"
    _dist(
        one,
        "alpha_pkg-1.0.dist-info",
        "# made by hand\nstray = before:sections\n\n[playset.checks]\n"
        "  zeta = alpha_mod:FAMILY  \nbeta=alpha_mod.sub:obj.attr [extra1, extra2]\n"
        "; not a comment = kept:as_is\n[console_scripts]\nalpha = alpha_mod:main\n"
        "odd = pkg:f=g\n",
    )
    _dist(one, "gamma-2.0.egg-info", "[playset.games]\ngamma = gamma_mod:PLUGIN\n")
    _dist(one, "no_points-1.0.dist-info", None)
    _dist(one, "a.b-1.0.dist-info", "[playset.games]\nab = ab_mod:ONE\n")
    _dist(one, "A_B-2.0.dist-info", "[playset.games]\nab = ab_mod:TWO\n")
    _dist(two, "alpha_pkg-0.9.dist-info", "[playset.checks]\nold = alpha_old:FAMILY\n")
    _dist(two, "delta-3.0.dist-info", "[playset.checks]\ndelta = delta_mod\n")
    monkeypatch.setattr(sys, "path", [str(one), str(two), *sys.path])
    _python_s_finder_only(monkeypatch)
    mine = registry._read_points_plainly()
    assert _mine(mine) == _theirs()
    assert ("zeta", "alpha_mod:FAMILY", "playset.checks") in _mine(mine)["playset.checks"]
    assert ("old", "alpha_old:FAMILY", "playset.checks") not in _mine(mine)["playset.checks"]
    from importlib.metadata import EntryPoint

    def parts(point: Any) -> Any:
        try:
            return (point.module, point.attr)
        except Exception as exc:  # noqa: BLE001 - `pkg:f=g` does not match: alike
            return type(exc)

    for points in mine.values():
        for point in points:
            assert parts(point) == parts(EntryPoint(point.name, point.value, point.group))


def test_a_point_loads_as_importlib_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pointed_mod.py").write_text("class A:\n    class B:\n        c = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from importlib.metadata import EntryPoint

    for value in ("pointed_mod:A.B.c", "pointed_mod", "pointed_mod : A [x]"):
        assert registry.Point("n", value, "g").load() == EntryPoint("n", value, "g").load()
    with pytest.raises(ModuleNotFoundError):
        registry.Point("n", "no_such_module_here:X", "g").load()


def test_another_distribution_finder_is_asked_through_importlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finder of distributions other than Python's path finder (or a zip on the path):
    the points are `importlib.metadata`'s own."""

    class Finder:
        @staticmethod
        def find_spec(*args: Any) -> None:
            return None

        @staticmethod
        def find_distributions(*args: Any, **kwargs: Any) -> list[Any]:
            return []

    _python_s_finder_only(monkeypatch)
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    with pytest.raises(registry._Unusual):
        registry._read_points_plainly()
    assert _mine(registry._read_points()) == _theirs()


def test_python_s_finder_turned_off_is_asked_through_importlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python's path finder without `find_distributions` (the backport deletes it): nothing is
    read as Python's, the answer is `importlib.metadata`'s."""
    from importlib.machinery import PathFinder

    _python_s_finder_only(monkeypatch)
    monkeypatch.delattr(PathFinder, "find_distributions")
    with pytest.raises(registry._Unusual):
        registry._read_points_plainly()
    assert _mine(registry._read_points()) == _theirs()


def test_a_command_never_imports_importlib_metadata() -> None:
    """`playset build` (here its help, and a game list) reads the entry points and settles
    pydantic's plugins without `importlib.metadata` (~70 modules, ~15 ms of a cold build);
    pydantic still finds it has no plugins."""
    code = """
import sys
sys.argv = ["playset", "list"]
import toolkit.cli as cli
try:
    cli.main()
except SystemExit:
    pass
from pydantic.plugin._loader import get_plugins
print("importlib.metadata" in sys.modules, list(get_plugins()))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False []"


def _malformed_site(tmp_path: Path) -> Path:
    """A distribution with a line without `=` (importlib.metadata raises a TypeError on it,
    for every distribution), one that is not UTF-8, and a sound one."""
    site = tmp_path / "site"
    _dist(site, "bad_line-1.0.dist-info", "[console_scripts]\nno equals sign\n[playset.games]\n")
    (site / "bad_bytes-1.0.dist-info").mkdir(parents=True)
    (site / "bad_bytes-1.0.dist-info" / "entry_points.txt").write_bytes(b"[x]\na = \xff\n")
    _dist(site, "sound-1.0.dist-info", "[playset.games]\nsound = sound_mod:PLUGIN\n")
    return site


def test_a_malformed_entry_points_file_leaves_its_distribution_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as Python's and through importlib.metadata (which raises on the whole
    environment): the two bad distributions are left out with a warning line each, the
    sound one is read."""
    site = _malformed_site(tmp_path)
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    _python_s_finder_only(monkeypatch)
    plain = _mine(registry._read_points_plainly())
    said = capsys.readouterr().err.splitlines()
    assert ("sound", "sound_mod:PLUGIN", "playset.games") in plain["playset.games"]
    assert "x" not in plain and "no equals sign" not in str(plain)
    assert len(said) == 2 and all(line.startswith("warning: ") for line in said)
    assert "bad_line-1.0.dist-info" in said[0] + said[1]
    assert "bad_bytes-1.0.dist-info" in said[0] + said[1]
    assert "line 2 has no '='" in said[0] + said[1]
    from importlib.metadata import entry_points

    with pytest.raises(Exception):  # noqa: B017, PT011 - importlib's own, whatever it is
        entry_points()
    through = _mine(registry._read_points_through_importlib())
    assert through == plain
    assert len(capsys.readouterr().err.splitlines()) == 2


def test_a_command_runs_despite_a_malformed_entry_points_file(tmp_path: Path) -> None:
    """`playset --version` (and every command) with such a distribution installed: one
    warning line each, never a traceback."""
    import os

    site = _malformed_site(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), str(site)])}
    code = "from toolkit.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "--version"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 2, done.stderr


def test_plain_distribution_names_are_normalised_without_the_pattern(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A development environment holds ~130 distributions, each name normalised twice on
    every command: a name without `-`, `.` or `__` is its lower case, no `re.sub` (~4 us a
    call); the others are normalised as importlib.metadata does."""
    import re

    site = tmp_path / "site"
    for folder in ("Plain_Pkg-1.0.dist-info", "other-2.0.dist-info", "third_one-3.dist-info"):
        _dist(site, folder, "[console_scripts]\nx = m:f\n")
    monkeypatch.setattr(sys, "path", [str(site)])
    _python_s_finder_only(monkeypatch)
    calls: list[str] = []
    real = re.sub

    def counted(pattern: Any, repl: Any, string: str, *args: Any, **kwargs: Any) -> str:
        calls.append(string)
        return real(pattern, repl, string, *args, **kwargs)

    monkeypatch.setattr(registry.re, "sub", counted)
    assert len(_mine(registry._read_points())["console_scripts"]) == 3
    assert calls == []
    monkeypatch.undo()

    def importlib_s(name: str) -> str:  # importlib.metadata's Prepared.normalize
        return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")

    names = ["a", "A_B", "a.b", "a-b", "a__b", "a_.-b", "_a_", "Ab.C-d", "ß_İ", "x--", "..", ""]
    assert [registry._normalize(n) for n in names] == [importlib_s(n) for n in names]
