"""Probe 15 (issue #33): unbounded and sparse-file reads. An icon's embedded picture was
read whole at every `<image>` (a 56 kB icon naming a sparse 63 MB picture 1,000 times: 128 s
of validate, H2); the editor's mirror copied a sparse file densely into a /tmp in RAM (204 kB
on disk became 3.15 GB, H3); the `--workers`/`--dask` content digest read every `*.py` of
the game folder whole, links out of it followed (a 3 GB sparse file: 59 s and 3.2 GB, H1);
and a 3 GB sparse engine.py was read whole (38 s) before its syntax error (Low)."""

from __future__ import annotations

import errno
import io
import os
import sys
import time
from pathlib import Path

import pytest

from toolkit import fileio


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(out, format="PNG")
    return out.getvalue()


def _sparse(path: Path, head: bytes, size: int) -> Path:
    path.write_bytes(head)
    os.truncate(path, size)
    if path.stat().st_blocks * 512 * fileio.SPARSE_SHARE >= size:
        pytest.skip("this file system stores no sparse file")
    return path


def _icon(folder: Path, images: int, href: str = "p.png") -> Path:
    image = f'<image x="0" y="0" width="10" height="10" href="{href}"/>'
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"'
        f' viewBox="0 0 100 100">\n{image * images}\n</svg>\n'
    )
    path = folder / "token.svg"
    path.write_text(svg)
    return path


_OPENED: list[str] = []
_WATCHING = [False]  # an audit hook cannot be removed: it records only while a test asks


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _WATCHING[0] and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))  # type: ignore[arg-type]


sys.addaudithook(_audit)


def _opens_of(name: str) -> int:
    return sum(1 for path in _OPENED if os.path.basename(path) == name)


# --- H2: an icon's embedded picture, read whole at every <image> -----------------------------


def test_an_icon_naming_a_sparse_picture_is_refused_at_its_image(tmp_path):
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    _sparse(icons / "p.png", _png(), 8 * 1024 * 1024)
    path = _icon(icons, 3)
    icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
    assert icon is None and problem is not None
    assert problem.file == "icons/token.svg"
    assert (problem.span.line, problem.span.col) == (2, 1)
    assert "sparse file" in problem.message and "p.png" in problem.message


def test_a_picture_named_by_many_images_is_read_once(tmp_path):
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "p.png").write_bytes(_png())
    path = _icon(icons, 200)
    _OPENED.clear()
    _WATCHING[0] = True
    try:
        icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
    finally:
        _WATCHING[0] = False
    assert problem is None and icon is not None
    # the check looks at it once (its size, its header), the drawing reads it once: not
    # 200 (or 600) times
    assert _opens_of("p.png") <= 4, _opens_of("p.png")


def test_an_icon_whose_pictures_are_over_its_bytes_budget_is_refused(tmp_path, monkeypatch):
    from toolkit.render import svg_guard
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    data = _png()
    (icons / "a.png").write_bytes(data)
    (icons / "b.png").write_bytes(data + b"\0" * 10)  # another file: its own bytes
    path = icons / "token.svg"
    image = '<image x="0" y="0" width="10" height="10" href="{}"/>\n'
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
        + image.format("a.png") * 3
        + image.format("b.png")
        + "</svg>\n"
    )
    # a picture named again is not counted again; the second file takes it past the budget
    monkeypatch.setattr(svg_guard, "MAX_PICTURES_BYTES", len(data) + 5)
    icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
    assert icon is None and problem is not None
    assert problem.span.line == 5
    assert "together" in problem.message and "bytes" in problem.message


def test_a_picture_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    from toolkit.render import svg_guard
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "p.png").write_bytes(_png() + b"\0" * 200)
    path = _icon(icons, 2)
    monkeypatch.setattr(svg_guard, "MAX_PICTURE_BYTES", 100)
    icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
    assert icon is None and problem is not None and problem.span.line == 2
    assert "more than the 100 bytes" in problem.message


def test_the_drawing_reads_no_sparse_or_oversized_picture(tmp_path, monkeypatch):
    # the file svg_guard looked at may be another by the time svglib draws (switched)
    from toolkit.render import svg_guard, svg_icons

    icons = tmp_path / "icons"
    icons.mkdir()
    sparse = _sparse(icons / "s.png", _png(), 8 * 1024 * 1024)
    assert svg_icons._read_picture(sparse, icons) is None
    dense = icons / "d.png"
    dense.write_bytes(_png())
    assert svg_icons._read_picture(dense, icons) is not None
    monkeypatch.setattr(svg_guard, "MAX_PICTURE_BYTES", 10)
    dense.write_bytes(_png() + b"\0")  # a new version: not the one read above
    assert svg_icons._read_picture(dense, icons) is None


# --- H3: the editor's mirror copied sparse files densely ------------------------------------


def _cross_device(monkeypatch):
    from toolkit.lsp import mirror

    def other_file_system(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(mirror.os, "link", other_file_system)


def test_the_mirror_copies_no_sparse_file_densely(tmp_path, monkeypatch):
    from toolkit.lsp.mirror import Mirror

    game = tmp_path / "game"
    (game / "notes").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\n")
    size = 8 * 1024 * 1024
    _sparse(game / "notes" / "n1.txt", b"note 1\n", size)
    _cross_device(monkeypatch)
    mirror = Mirror(game)
    try:
        mirror.sync()
        copied = (mirror.path / "notes" / "n1.txt").stat()
        assert copied.st_size == size
        assert copied.st_blocks * 512 < size // fileio.SPARSE_SHARE  # not 8 MB of zeros
        assert any("n1.txt" in note and "sparse" in note for note in mirror.notices())
        assert mirror.notices() == []  # said once
        assert (mirror.path / "game.yaml").read_text() == "id: g\n"
    finally:
        mirror.close()


def test_the_mirror_copies_no_more_than_its_bytes_budget(tmp_path, monkeypatch):
    from toolkit.lsp import mirror as module
    from toolkit.lsp.mirror import Mirror

    game = tmp_path / "game"
    (game / "notes").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\n")
    for i in range(5):
        (game / "notes" / f"n{i}.txt").write_bytes(b"x" * 1000)
    _cross_device(monkeypatch)
    monkeypatch.setattr(module, "MAX_MIRROR_BYTES", 2500)
    mirror = Mirror(game)
    try:
        mirror.sync()
        held = [mirror.path / "notes" / f"n{i}.txt" for i in range(5)]
        assert all(p.stat().st_size == 1000 for p in held)
        dense = [p for p in held if p.read_bytes() == b"x" * 1000]
        assert len(dense) == 2  # the rest: sparse files of their size, not copied
        notes = mirror.notices()
        assert len(notes) == 1 and "2,500 bytes" in notes[0]
        mirror.sync()  # as it was: copied again, the budget not spent twice
        assert [p for p in held if p.read_bytes() == b"x" * 1000] == dense
        assert mirror.notices() == []
    finally:
        mirror.close()


def test_the_editor_shows_what_the_mirror_left_out(tmp_path, monkeypatch):
    import threading

    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.server import PlaysetServer
    from toolkit.lsp.workspace import GameState

    game = tmp_path / "game"
    (game / "notes").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\nname: G\n")
    _sparse(game / "notes" / "n1.txt", b"note 1\n", 8 * 1024 * 1024)
    _cross_device(monkeypatch)
    server = PlaysetServer()
    shown: list[object] = []
    monkeypatch.setattr(server, "window_show_message", shown.append)
    monkeypatch.setattr(server, "text_document_publish_diagnostics", lambda params: None)
    monkeypatch.setattr(type(server), "workspace", property(lambda _: _NoDocuments()))
    state = GameState(Mirror(game))
    server.locks[state.mirror.root] = threading.Lock()
    try:
        server.check(state)
        server.check(state)  # said once
    finally:
        state.mirror.close()
    assert len(shown) == 1
    message = shown[0].message  # type: ignore[attr-defined]
    assert "notes/n1.txt" in message and "sparse" in message


class _NoDocuments:
    text_documents: dict[str, object] = {}


# --- H1: the content digest of `--workers`/`--dask` ------------------------------------------


def _engine_game(tmp_path: Path) -> Path:
    from toolkit.scaffold.new import new_game

    folder = tmp_path / "sp"
    new_game(folder, "sp", ["en"], engine=True)
    return folder


def _peak(call):
    import tracemalloc

    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_digest_reads_no_sparse_python_file_the_engine_does_not_load(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.sim import prepared

    folder = _engine_game(tmp_path)
    (folder / "notes").mkdir()
    scratch = _sparse(folder / "notes" / "scratch.py", b"# notes\n", 64 * 1024 * 1024)
    game = load_game(folder)
    before, peak = _peak(lambda: prepared.content_digest(game))
    assert peak < 8 * 1024 * 1024, peak  # not the 64 MB hole in memory
    os.truncate(scratch, 65 * 1024 * 1024)  # it changed: the digest says so
    assert prepared.content_digest(game) != before


def test_the_digest_reads_source_files_in_chunks(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.sim import prepared

    folder = _engine_game(tmp_path)
    (folder / "big.py").write_bytes(b"# " + b"x" * (12 * 1024 * 1024) + b"\n")
    game = load_game(folder)
    before, peak = _peak(lambda: prepared.content_digest(game))
    assert peak < 4 * 1024 * 1024, peak  # never the whole file in memory
    (folder / "big.py").write_bytes(b"# " + b"y" * (12 * 1024 * 1024) + b"\n")
    assert prepared.content_digest(game) != before


def test_the_digest_follows_no_link_out_of_the_game(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.sim import prepared

    folder = _engine_game(tmp_path)
    outside = tmp_path / "secret.txt"
    outside.write_text("one\n")
    (folder / "leak.py").symlink_to(outside)
    game = load_game(folder)
    before = prepared.content_digest(game)
    outside.write_text("two\n")  # the outside file is not read: its content is not hashed
    assert prepared.content_digest(game) == before


def test_a_link_loop_in_the_game_is_digested_without_recursion(tmp_path):
    # probe 16 M1: `ln -s loop.py loop.py` (or a.py -> b.py -> a.py) made the digest recurse
    # until RecursionError: a traceback in simulate/check/tune --workers 2
    from toolkit.content.game import load_game
    from toolkit.sim import prepared

    folder = _engine_game(tmp_path)
    (folder / "loop.py").symlink_to("loop.py")
    (folder / "a.py").symlink_to("b.py")
    (folder / "b.py").symlink_to("a.py")
    game = load_game(folder)
    assert prepared.content_digest(game) == prepared.content_digest(game)


def test_a_sparse_engine_module_is_refused_by_the_digest(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.sim import prepared
    from toolkit.sim.engines import EngineError

    folder = _engine_game(tmp_path)
    engine = folder / "engine.py"
    head = engine.read_bytes()
    game = load_game(folder)
    _sparse(engine, head, 8 * 1024 * 1024)
    with pytest.raises(EngineError, match="sparse file") as raised:
        prepared.content_digest(game)
    assert raised.value.diagnostic.code == "E001"
    assert raised.value.diagnostic.file.endswith("engine.py")


def test_an_engine_module_over_the_size_limit_is_refused_by_the_digest(tmp_path, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.sim import engines, prepared
    from toolkit.sim.engines import EngineError

    folder = _engine_game(tmp_path)
    game = load_game(folder)
    monkeypatch.setattr(engines, "MAX_SOURCE_BYTES", 100)
    with pytest.raises(EngineError, match="more than the 100 bytes"):
        prepared.content_digest(game)


# --- Low: a 3 GB sparse engine.py was read whole before its syntax error ---------------------


def test_a_sparse_engine_file_is_refused_before_it_is_read(tmp_path, run_cli):
    folder = _engine_game(tmp_path)
    engine = folder / "engine.py"
    _sparse(engine, engine.read_bytes(), 512 * 1024 * 1024)
    result = run_cli("simulate", str(folder), "-n", "2", "-p", "2")
    assert result.exit_code == 1
    assert "E001" in result.output and "sparse file" in result.output
    assert "null bytes" not in result.output


def test_pictures_named_in_turn_are_read_once_each(tmp_path, monkeypatch):
    # more files than the process keeps, named in turn: each was read at every <image>
    from toolkit.render import svg_icons
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    names = [f"p{i}.png" for i in range(4)]
    for i, name in enumerate(names):
        (icons / name).write_bytes(_png() + bytes([i]))
    image = '<image x="0" y="0" width="10" height="10" href="{}"/>'
    path = icons / "token.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
        + "".join(image.format(name) for name in names) * 30
        + "\n</svg>\n"
    )
    monkeypatch.setattr(svg_icons, "KEPT_PICTURES", 2)
    _OPENED.clear()
    _WATCHING[0] = True
    try:
        icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
    finally:
        _WATCHING[0] = False
    assert problem is None and icon is not None
    assert all(_opens_of(name) <= 4 for name in names), [_opens_of(n) for n in names]


def test_an_icons_pictures_die_with_its_drawing(tmp_path):
    # probe 16 H2: the renderer (in reference cycles) kept every picture it read until a
    # cyclic collection, and Pillow's pixels do not count towards one: 40 icons of one large
    # picture each held 2.5 GB in validate
    import gc

    from toolkit.render import svg_icons
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "p.png").write_bytes(_png())
    path = _icon(icons, 2)
    gc.collect()
    # pictures an earlier test's drawings keep (its own caches) are not this icon's
    before = {id(o) for o in gc.get_objects() if type(o).__name__ == "Picture"}
    gc.disable()
    try:
        icon, problem = load_svg(path, "icons/token.svg", icons, tmp_path)
        assert problem is None and icon is not None
        svg_icons._READ.clear()  # the process's few kept versions
        del icon
        alive = [
            o for o in gc.get_objects() if type(o).__name__ == "Picture" and id(o) not in before
        ]
    finally:
        gc.enable()
    assert alive == [], len(alive)


def _flat(colour: str) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), colour).save(out, format="PNG", compress_level=0)
    return out.getvalue()


def test_a_picture_rewritten_in_place_with_its_size_and_mtime_is_read_again(tmp_path):
    # probe 16 M3: the kept versions were keyed without the ctime, so a picture rewritten
    # in place (same size, its mtime put back) was drawn from its old pixels
    from toolkit.render import svg_icons

    icons = tmp_path / "icons"
    icons.mkdir()
    picture = icons / "p.png"
    picture.write_bytes(_flat("red"))
    before = picture.stat()
    first = svg_icons._read_picture(picture, icons)
    blue = _flat("blue")
    assert len(blue) == picture.stat().st_size
    time.sleep(0.05)  # past the file system's clock tick: the ctime moves
    with open(picture, "r+b") as handle:
        handle.write(blue)
    os.utime(picture, ns=(before.st_atime_ns, before.st_mtime_ns))
    second = svg_icons._read_picture(picture, icons)
    assert second is not first
