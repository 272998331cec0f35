"""Hardening: nothing read from outside the game (icon SVG references, symlinked layouts
and icons, linked `layouts/` and `icons/` folders), SVGs bounded in size and <use>
expansion, and nothing written through a link planted in the output tree."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

OWN_LOOK = FIXTURES / "own-look"
SECRET = "TOPSECRETWORDS"
SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">\n'
)


@pytest.fixture
def lantern(tmp_path, monkeypatch, run_cli) -> Path:
    """A `playset new` game (the current folder) with its own layout and lantern icon, and
    beside it, outside the game folder, a private folder of files it must never read."""
    assert run_cli("new", "lantern", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "lantern"
    shutil.copytree(OWN_LOOK / "layouts", game / "layouts", dirs_exist_ok=True)
    shutil.copytree(OWN_LOOK / "icons", game / "icons", dirs_exist_ok=True)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: lantern-card\n"))
    private = tmp_path / "private"
    private.mkdir()
    (private / "secret.svg").write_text(
        f'{SVG_OPEN}<g id="s"><text x="5" y="50" font-size="9">{SECRET}</text></g></svg>\n'
    )
    (private / "standard.yaml").write_text(f"id: standard\n{SECRET.lower()}_key: 1\n")
    (private / "layouts").mkdir()
    (private / "layouts" / "lantern-card.yaml").write_text(
        f"id: lantern-card\n{SECRET.lower()}_key: 1\n"
    )
    (private / "icons").mkdir()
    shutil.copy(private / "secret.svg", private / "icons" / "lantern.svg")
    from PIL import Image

    Image.new("RGB", (8, 8), "red").save(private / "secret.png")
    monkeypatch.chdir(game)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    return game


def _findings(run_cli, *args: str) -> tuple[int, list[dict[str, object]]]:
    result = run_cli("validate", "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def _icon(game: Path, body: str, name: str = "lantern") -> Path:
    path = game / "icons" / f"{name}.svg"
    path.write_text(f"{SVG_OPEN}{body}\n</svg>\n", encoding="utf-8")
    return path


# --- High 1: an icon's references stay inside icons/ ----------------------------------


@pytest.mark.parametrize(
    "href",
    [
        "../../private/secret.png",
        "../../private/secret.svg#s",
        "../layouts/lantern-card.yaml",  # in the game, but not in icons/
        "%2e%2e/%2e%2e/private/secret.png",
        "file:///etc/passwd",
        "/etc/passwd",
        "https://example.com/x.png",
    ],
)
@pytest.mark.parametrize("tag", ["image", "use"])
def test_an_icon_reference_outside_icons_is_a_finding_at_the_element(lantern, run_cli, tag, href):
    _icon(lantern, f'  <rect width="9" height="9"/>\n  <{tag} xlink:href="{href}"/>')
    code, found = _findings(run_cli)
    assert code == 1
    svg = [d for d in found if d["file"] == "icons/lantern.svg"]
    assert [(d["code"], d["line"], d["col"]) for d in svg] == [("P008", 3, 3)], svg
    assert href in str(svg[0]["message"])
    result = run_cli("build")
    assert result.exit_code == 1 and not (lantern / "output").exists()


def test_a_link_inside_icons_that_leads_outside_is_refused_too(lantern, run_cli):
    (lantern / "icons" / "pic.png").symlink_to(lantern.parent / "private" / "secret.png")
    _icon(lantern, '  <image xlink:href="pic.png" width="9" height="9"/>')
    code, found = _findings(run_cli)
    svg = [d for d in found if d["file"] == "icons/lantern.svg"]
    assert code == 1 and [(d["line"], d["col"]) for d in svg] == [(2, 3)]
    assert "leads outside the icons/ folder" in str(svg[0]["message"])


def test_a_referenced_svg_is_checked_too_at_its_own_line(lantern, run_cli):
    (lantern / "icons" / "parts.svg").write_text(
        f'{SVG_OPEN}<g id="p">\n<use xlink:href="../../private/secret.svg#s"/></g></svg>\n'
    )
    _icon(lantern, '  <use xlink:href="parts.svg#p"/>')
    code, found = _findings(run_cli)
    where = {(d["file"], d["line"], d["col"]) for d in found if d["code"] == "P008"}
    assert code == 1 and ("icons/parts.svg", 3, 1) in where


def test_references_inside_icons_data_uris_and_ids_are_drawn(lantern, run_cli):
    """What stays inside icons/ is fine, and build prints it."""
    from toolkit.render.svg_icons import load_svg

    png = io.BytesIO()
    from PIL import Image

    Image.new("RGB", (4, 4), "blue").save(png, "PNG")
    data = base64.b64encode(png.getvalue()).decode()
    (lantern / "icons" / "parts.svg").write_text(
        f'{SVG_OPEN}<g id="p"><text x="5" y="50" font-size="9">SHAREDPART</text></g></svg>\n'
    )
    path = _icon(
        lantern,
        f'  <defs><rect id="r" width="9" height="9"/></defs><use xlink:href="#r"/>\n'
        f'  <image xlink:href="data:image/png;base64,{data}" width="9" height="9"/>\n'
        '  <use xlink:href="parts.svg#p"/>',
    )
    icon, problem = load_svg(path, "icons/lantern.svg", path.parent)
    assert problem is None and icon is not None
    assert run_cli("validate").exit_code == 0


def test_svglib_itself_is_confined_to_icons(lantern, monkeypatch):
    """Defence in depth: with the reference check skipped, svglib (external_reference_root)
    still does not put the outside file's text in the drawing."""
    from toolkit.render import svg_guard
    from toolkit.render.svg_icons import load_svg

    monkeypatch.setattr(svg_guard, "check", lambda *args: None)
    path = _icon(lantern, '  <use xlink:href="../../private/secret.svg#s"/>')
    icon, problem = load_svg(path, "icons/lantern.svg", path.parent)
    assert problem is None and icon is not None
    assert SECRET not in _texts(icon.drawing)
    _icon(lantern, '  <use xlink:href="parts.svg#s"/>')  # the control: a file inside is drawn
    shutil.copy(lantern.parent / "private" / "secret.svg", lantern / "icons" / "parts.svg")
    icon, problem = load_svg(path, "icons/lantern.svg", path.parent)
    assert icon is not None and SECRET in _texts(icon.drawing)


def _texts(node: object) -> str:
    """Every string a reportlab drawing holds, its groups walked."""
    own = getattr(node, "text", "")
    return own + "".join(_texts(child) for child in getattr(node, "contents", []))


# --- High 2: layouts/ and icons/ are contained like decks -----------------------------


def _state_text(game: Path) -> str:
    from starlette.testclient import TestClient

    from toolkit.preview.app import make_app
    from toolkit.preview.hosts import AllowedHosts
    from toolkit.preview.live import Preview, forget_layouts

    forget_layouts()
    session = Preview(game)
    session.load()
    with TestClient(
        make_app(session, AllowedHosts.for_server("127.0.0.1", None)),
        base_url="http://127.0.0.1:8765",
    ) as client:
        return client.get("/api/state").text


@pytest.mark.parametrize(
    ("link", "target", "code"),
    [
        ("layouts/standard.yaml", "standard.yaml", "R002"),
        ("layouts/lantern-card.yaml", "layouts/lantern-card.yaml", "R002"),
        ("icons/lantern.svg", "secret.svg", "P008"),
        ("layouts", "layouts", "R002"),
        ("icons", "icons", "P008"),
    ],
)
def test_a_layout_or_icon_linked_outside_is_refused_unread(lantern, run_cli, link, target, code):
    path = lantern / link
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    path.symlink_to(lantern.parent / "private" / target)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert any(
        d["code"] == code
        and str(d["file"]).startswith(link.split("/")[0])
        and "links outside the game folder" in str(d["message"])
        for d in found
    ), found
    assert SECRET.lower() not in result.stdout.lower()
    assert SECRET.lower() not in _state_text(lantern).lower()
    assert run_cli("build").exit_code == 1 and not (lantern / "output").exists()
    assert "Traceback" not in run_cli("i18n", "status").output


def test_a_link_that_stays_inside_the_game_is_read(lantern, run_cli):
    shared = lantern / "shared"
    shared.mkdir()
    (lantern / "icons" / "lantern.svg").rename(shared / "lantern.svg")
    (lantern / "icons" / "lantern.svg").symlink_to(shared / "lantern.svg")
    assert run_cli("validate").exit_code == 0


# --- Medium: SVG sizes, file size and <use> expansion ---------------------------------


@pytest.mark.parametrize(
    "svg",
    [
        '<svg xmlns="http://www.w3.org/2000/svg" width="1e308" height="1e308">\n'
        '<rect width="5" height="5"/></svg>\n',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
        '<rect width="1e308" height="1e308"/></svg>\n',
        '<svg xmlns="http://www.w3.org/2000/svg" width="1e-300" height="1e-300">\n'
        '<rect width="5" height="5"/></svg>\n',
    ],
)
def test_an_svg_with_sizes_reportlab_cannot_print_is_a_finding_not_a_crash(lantern, run_cli, svg):
    (lantern / "icons" / "lantern.svg").write_text(svg)
    code, found = _findings(run_cli)
    svg_findings = [d for d in found if d["file"] == "icons/lantern.svg"]
    assert code == 1 and [(d["code"], d["line"], d["col"]) for d in svg_findings] == [
        ("P008", 1, 1)
    ]
    result = run_cli("build")
    assert result.exit_code == 1 and "P008" in result.stderr


def test_an_svg_over_the_size_limit_is_refused_unparsed(lantern, run_cli):
    from toolkit.render.svg_guard import MAX_BYTES

    padding = "<!--" + "x" * MAX_BYTES + "-->\n"
    _icon(lantern, padding + '<rect width="5" height="5"/>')
    code, found = _findings(run_cli)
    svg = [d for d in found if d["file"] == "icons/lantern.svg"]
    assert code == 1 and len(svg) == 1 and "larger than the limit" in str(svg[0]["message"])


def _use_bomb(depth: int, fan: int) -> str:
    lines = ['<defs><rect id="a0" width="1" height="1"/>']
    for i in range(1, depth + 1):
        uses = "".join(f'<use xlink:href="#a{i - 1}"/>' for _ in range(fan))
        lines.append(f'<g id="a{i}">{uses}</g>')
    lines.append(f'</defs><use xlink:href="#a{depth}"/>')
    return "\n".join(lines)


@pytest.mark.parametrize(("depth", "fan"), [(8, 4), (1, 800)])
def test_nested_use_beyond_the_bound_is_a_finding_at_a_use(lantern, run_cli, depth, fan):
    body = _use_bomb(depth, fan)
    assert len(body) < 20_000
    _icon(lantern, body)
    code, found = _findings(run_cli)
    svg = [d for d in found if d["file"] == "icons/lantern.svg"]
    assert code == 1 and len(svg) == 1 and "<use>" in str(svg[0]["message"])
    assert svg[0]["line"] >= 2 and svg[0]["col"] > 1  # at a <use>, not the file's start


def test_a_few_uses_are_fine(lantern, run_cli):
    _icon(lantern, _use_bomb(2, 4))
    assert run_cli("validate").exit_code == 0
    assert os.path.getsize(lantern / "icons" / "lantern.svg") < 1000


# --- High 6: nothing written through a link planted in the output tree ------------------


@pytest.fixture
def fresh(tmp_path, monkeypatch, run_cli) -> Path:
    """A `playset new` game (the current folder) and, outside it, a file of the user's."""
    assert run_cli("new", "fresh", "--into", str(tmp_path)).exit_code == 0
    (tmp_path / "victim.txt").write_text("precious\n")
    monkeypatch.chdir(tmp_path / "fresh")
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    return tmp_path / "fresh"


def _plant(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


@pytest.mark.parametrize(
    ("command", "planted"),
    [
        (("build", "--lang", "en", "--only", "cards"), "cards.pdf"),
        (
            ("export", "png", "--lang", "en", "--dpi", "60", "--page-dpi", "30"),
            "png/cards/advance-front.png",
        ),
        (("export", "tts", "--lang", "en", "--dpi", "60"), "tts/fresh-en.json"),
    ],
)
def test_a_link_planted_at_an_output_file_is_refused_not_followed(fresh, run_cli, command, planted):
    victim = fresh.parent / "victim.txt"
    link = fresh / "output" / "fresh" / "en" / planted
    _plant(link, victim)
    result = run_cli(*command)
    assert result.exit_code == 1
    assert "symbolic link" in result.stderr and str(link) in result.stderr
    assert victim.read_text() == "precious\n"
    assert link.is_symlink() and os.readlink(link) == str(victim)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [("build", "--lang", "en", "--only", "cards")])
def test_a_linked_folder_inside_output_is_refused_even_to_inside(fresh, run_cli, command):
    out = fresh / "output"
    (out / "elsewhere").mkdir(parents=True)
    _plant(out / "fresh" / "en", Path("..") / "elsewhere")
    result = run_cli(*command)
    assert result.exit_code == 1 and "symbolic link" in result.stderr
    assert list((out / "elsewhere").iterdir()) == []


def test_calibrate_refuses_a_link_at_its_sheet(fresh, run_cli):
    victim = fresh.parent / "victim.txt"
    _plant(fresh / "output" / "calibration-a4.pdf", victim)
    result = run_cli("calibrate")
    assert result.exit_code == 1 and "symbolic link" in result.stderr
    assert victim.read_text() == "precious\n"


def test_inside_an_output_folder_no_link_is_followed(tmp_path):
    """The writer itself: a link at the file or at a folder below `inside` is refused
    (the folder named as `inside` may be a link: the user chose it); the old files stay."""
    from toolkit.fileio import OutputError, atomic_write_bytes, write_many

    real = tmp_path / "real-out"
    (real / "game").mkdir(parents=True)
    out = tmp_path / "out"
    out.symlink_to(real)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (real / "game" / "kept.pdf").write_bytes(b"old")
    (real / "game" / "cards.pdf").symlink_to(victim)
    with pytest.raises(OutputError, match="symbolic link"):
        write_many(
            [(out / "game" / "kept.pdf", b"new"), (out / "game" / "cards.pdf", b"x")],
            inside=out,
        )
    assert (
        victim.read_text() == "precious\n" and (real / "game" / "kept.pdf").read_bytes() == b"old"
    )
    (real / "linked").symlink_to(real / "game")
    with pytest.raises(OutputError, match="symbolic link"):
        atomic_write_bytes(out / "linked" / "new.pdf", b"x", inside=out)
    assert not (real / "game" / "new.pdf").exists()
    atomic_write_bytes(out / "game" / "new.pdf", b"ok", inside=out)
    assert (real / "game" / "new.pdf").read_bytes() == b"ok"
    assert sorted(p.name for p in (real / "game").iterdir()) == ["cards.pdf", "kept.pdf", "new.pdf"]


def test_schemas_export_neither_reads_nor_writes_through_a_planted_link(tmp_path):
    from toolkit.content.schemas import export, schema_documents
    from toolkit.fileio import OutputError

    out = tmp_path / "schemas"
    export(out)
    rel = sorted(schema_documents())[0]
    victim = tmp_path / "victim.json"
    victim.write_text((out / rel).read_text())  # the same text: a compare would skip it
    (out / rel).unlink()
    (out / rel).symlink_to(victim)
    with pytest.raises(OutputError, match="symbolic link"):
        export(out)
    assert (out / rel).is_symlink() and victim.read_text() == (out / rel).read_text()
