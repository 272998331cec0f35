"""Third probe of issue 33's surfaces: what the first two rounds' fixes still let through."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO

SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">\n'
)


def _icons(tmp_path: Path) -> Path:
    icons = tmp_path / "game" / "icons"
    icons.mkdir(parents=True)
    return icons


def picture_icons(tmp_path: Path, how: str, big: bytes, small: bytes) -> Path:
    """A game's icons/ holding `big.svg` and `small.svg`, each an `<image>` (on line 2,
    column 3) of that PNG: in a `data:` URI, or in a PNG file beside it (`how`)."""
    import base64

    icons = _icons(tmp_path)
    for name, png in (("big", big), ("small", small)):
        if how == "data":
            href = "data:image/png;base64," + base64.b64encode(png).decode()
        else:
            (icons / f"{name}.png").write_bytes(png)
            href = f"{name}.png"
        (icons / f"{name}.svg").write_text(
            f'{SVG_OPEN}  <image width="9" height="9" xlink:href="{href}"/>\n</svg>\n'
        )
    return icons


def _strings(node: object) -> list[object]:
    """Every reportlab String a drawing holds, its groups walked."""
    own = [node] if hasattr(node, "fontName") and hasattr(node, "text") else []
    return own + [s for child in getattr(node, "contents", []) for s in _strings(child)]


def test_an_icon_font_family_reads_no_font_file_and_runs_no_program(tmp_path, monkeypatch):
    # svglib looked an unknown family up as `<family>.ttf` (any absolute path), then with
    # fc-match, and embedded the font it found: an SVG read a .ttf from outside the game
    import svglib.fonts
    from reportlab.pdfbase import pdfmetrics

    from toolkit.render.svg_icons import load_svg

    private = tmp_path / "private"
    private.mkdir()
    shutil.copy(REPO / "templates" / "fonts" / "NotoSans-Bold.ttf", private / "secret.ttf")
    ran: list[object] = []
    monkeypatch.setattr(svglib.fonts.subprocess, "Popen", lambda *a, **k: ran.append(a))
    icons = _icons(tmp_path)
    text = '<text x="5" y="50" font-size="9" font-family="{}">Hi</text>'
    (icons / "parts.svg").write_text(
        f'{SVG_OPEN}<g id="p">{text.format("Some Installed Font")}</g></svg>\n'
    )
    icon_path = icons / "x.svg"
    icon_path.write_text(
        f"{SVG_OPEN}{text.format(private / 'secret')}\n"
        f'{text.format("serif")}<use xlink:href="parts.svg#p"/></svg>\n'
    )
    icon, problem = load_svg(icon_path, "icons/x.svg", icons)
    assert problem is None and icon is not None
    fonts = [s.fontName for s in _strings(icon.drawing)]  # type: ignore[attr-defined]
    assert fonts == ["Helvetica", "Times-Roman", "Helvetica"]
    assert str(private / "secret") not in pdfmetrics.getRegisteredFontNames()
    assert ran == []


def _png(width: int, height: int, mode: str = "P") -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (width, height), 0).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize("how", ["data", "file"])
def test_an_icon_picture_of_too_many_pixels_is_refused_undecoded(tmp_path, monkeypatch, how):
    # a 23 kB SVG with a 12000×12000 palette PNG in a data: URI took 1.6 GB and 6 s to read
    # (svglib converts it to RGBA whole); a PNG file in icons/ is decoded whole by reportlab
    from toolkit.render import svg_guard
    from toolkit.render.svg_icons import load_svg

    # room beside the small one's pixels for its data: URI's characters, which count too
    monkeypatch.setattr(svg_guard, "MAX_PIXELS", 100 * 100 + 500)
    icons = picture_icons(tmp_path, how, _png(110, 100), _png(100, 100))
    icon, problem = load_svg(icons / "big.svg", "icons/big.svg", icons)
    assert icon is None and problem is not None
    assert (problem.span.line, problem.span.col) == (2, 3)
    assert "more than the 10,500 pixels an icon may hold (110×100)" in problem.message
    icon, problem = load_svg(icons / "small.svg", "icons/small.svg", icons)
    assert problem is None and icon is not None


@pytest.mark.parametrize(
    "source",
    [
        "{{ ('x\\n' * 499999)|indent(1000)|length }}",
        "{{ ('x\\n' * 499999)|indent('y' * 1000)|length }}",
        "{{ ('\\n' * 999999)|indent(width=1000, blank=true)|length }}",
    ],
)
def test_indent_of_many_lines_is_refused_before_the_work(source):
    # indent adds its width to every line: 500,000 lines at 1,000 built 500,000,000
    # characters (1 to 2 GB) before the result was found too long
    from toolkit.render import template_bounds
    from toolkit.render.jinja_cache import CachedSandbox

    sandbox = CachedSandbox(keep_trailing_newline=False)
    built: list[int] = []
    check = template_bounds.check_result
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(template_bounds, "check_result", lambda v: built.append(len(v)) or check(v))
        with pytest.raises(template_bounds.TemplateLimitError, match="indent would build"):
            sandbox.render(sandbox.template(source, "t"), {})
    assert all(size <= template_bounds.MAX_STRING for size in built)
    assert sandbox.render(sandbox.template("{{ 'a\\nb'|indent(2, true) }}", "t"), {}) == "  a\n  b"


@pytest.fixture
def odd_server():
    """A server that answers every connection with a well-framed Dask message whose
    msgpack header claims an array of 4,294,967,295 items."""
    import socket
    import struct
    import threading

    frame = b"\xdd\xff\xff\xff\xff"
    body = struct.pack("QQ", 1, len(frame)) + frame
    reply = struct.pack("Q", len(body)) + body
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.sendall(reply)
            held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for conn in held:
        conn.close()


def test_dask_at_a_server_whose_reply_dask_cannot_decode_is_a_clear_error(
    run_cli, odd_server, capfd
):
    # the reply's ValueError ("4294967295 exceeds max_array_len(5)") was shown as if the
    # address were wrong ("… (expected local:N or tcp://HOST:PORT)"), after the traceback
    # Dask's protocol logger printed
    pytest.importorskip("distributed")
    result = run_cli("simulate", "muckle-stoater", "-n", "10", "--dask", odd_server)
    printed = result.stderr + capfd.readouterr().err
    assert result.exit_code == 2
    assert "not a Dask scheduler, or one of another Dask version" in printed
    assert "max_array_len" not in printed and "Traceback" not in printed
    assert "expected local:N" not in printed


@pytest.mark.parametrize(
    ("dask", "message"),
    [
        ("tcp://127.0.0.1:99999", "port 99999 is not a port (1 to 65535)"),
        ("foo://x", "(expected local:N or tcp://HOST:PORT)"),
    ],
)
def test_a_dask_address_that_cannot_be_is_refused_at_once(run_cli, dask, message):
    # port 99999 waited the whole probe (10 s) for an answer it could never get
    pytest.importorskip("distributed")
    from toolkit.sim.executors import dask as dask_kind

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dask_kind, "PROBE_SECONDS", 1.0)
        result = run_cli("simulate", "muckle-stoater", "-n", "10", "--dask", dask)
    assert result.exit_code == 2 and message in " ".join(result.stderr.split())
    assert "answered within" not in result.stderr


# --- read-side race: a link switched between the containment check and the open -----


@pytest.fixture
def switched(tmp_path, run_cli, monkeypatch) -> Path:
    """A `playset new` game whose layout and icon are links outside, and a private folder
    beside it; each test makes the containment check pass (as if the link were switched
    just after it) and the read must still refuse what it opened."""
    assert run_cli("new", "racy", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "racy"
    private = tmp_path / "private"
    private.mkdir()
    (private / "standard.yaml").write_text("id: standard\nsecretword_key: 1\n")
    (private / "token.svg").write_text(f'{SVG_OPEN}<text x="1" y="9">SECRETWORD</text></svg>\n')
    for name in ("layouts/standard.yaml", "icons/token.svg"):
        (game / name).unlink()
        (game / name).symlink_to(private / Path(name).name)
    monkeypatch.chdir(game)
    return game


def test_a_layout_or_icon_switched_to_a_link_after_the_check_is_not_read(
    switched, run_cli, monkeypatch
):
    import json

    from toolkit.content import assets
    from toolkit.render import icons, layout

    monkeypatch.setattr(assets, "_leaves", lambda path, game_root, *real: False)  # the check passed
    layout.clear_layouts()
    icons.icon_set.cache_clear()
    result = run_cli("validate", "--format", "json")
    layout.clear_layouts()
    icons.icon_set.cache_clear()
    assert "secretword" not in result.stdout.lower()
    found = {(d["file"], d["code"]): d["message"] for d in json.loads(result.stdout)}
    assert "leads outside the game folder" in found["layouts/standard.yaml", "Y010"]
    assert "leads outside the game folder" in found["icons/token.svg", "P008"]


def test_a_deck_or_font_switched_to_a_link_after_the_check_is_not_read(tmp_path):
    from toolkit.content import source
    from toolkit.fileio import LEADS_OUTSIDE, read_bounded
    from toolkit.render import game_fonts

    root = tmp_path / "game"
    root.mkdir()
    (tmp_path / "secret.yaml").write_text("secretword: 1\n")
    shutil.copy(REPO / "templates" / "fonts" / "NotoSans-Bold.ttf", tmp_path / "secret.ttf")
    (root / "deck.yaml").symlink_to(tmp_path / "secret.yaml")
    (root / "font.ttf").symlink_to(tmp_path / "secret.ttf")
    doc, diags = source.load_document(root / "deck.yaml", "deck.yaml", inside=root)
    assert doc is None and LEADS_OUTSIDE in diags[0].message
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game_fonts, "real_path", lambda path: path)  # the check passed
        assert LEADS_OUTSIDE in str(game_fonts.read_face(root / "font.ttf", root))
    (root / "inside.yaml").write_text("a: 1\n")
    (root / "link.yaml").symlink_to(root / "inside.yaml")
    assert read_bounded(root / "link.yaml", 100, inside=root) == b"a: 1\n"


# --- PO import: a file too large to parse in bounded time ------------------------------

PO_HEAD = (
    'msgid ""\nmsgstr ""\n"Project-Id-Version: pofile\\n"\n"Language: fr\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
)


@pytest.fixture
def po_game(tmp_path, run_cli, monkeypatch) -> Path:
    assert run_cli("new", "pofile", "--into", str(tmp_path)).exit_code == 0
    monkeypatch.chdir(tmp_path / "pofile")
    return tmp_path / "pofile"


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("".join(f'msgid "x{i}"\nmsgstr "y"\n\n' for i in range(6)), 19, "more than 5 entries"),
        ('msgid "x"\nmsgstr ""\n' + '"y"\n' * 11, 8, "more than 10 lines or 1,000 bytes"),
        ('msgid "x"\nmsgstr ""\n' + f'"{"y" * 600}"\n' * 2, 8, "more than 10 lines or 1,000"),
        ('#~ msgid "x"\n#~ msgstr ""\n' + '#~ "y"\n' * 11, 8, "more than 10 lines"),
        # probe 50 P50-12: one line's text (an 8.3 MB msgstr: 1.45 GB to refuse)
        ('msgid "x"\nmsgstr "' + "y" * 1200 + '"\n', 8, "more than 10 lines or 1,000 bytes"),
        ('msgid "' + "x" * 1200 + '"\nmsgstr "y"\n', 7, "more than 10 lines or 1,000 bytes"),
        ('msgid "x"\nmsgstr "' + "y" * 600 + '"\n"' + "y" * 600 + '"\n', 8, "1,000 bytes"),
        ("#" * 5000, 1, "larger than the limit of 4,096 bytes"),
    ],
)
def test_a_po_file_too_large_to_parse_in_bounded_time_is_refused_unparsed(
    po_game, run_cli, monkeypatch, tmp_path, body, line, message
):
    # polib appends each continuation line to the text so far: a 5 MB msgstr of 5,000
    # lines took 41 s to parse, 50 MB ran for minutes; 30,000 entries took 25 s to report
    import polib

    from toolkit.i18n import po_bounds

    monkeypatch.setattr(po_bounds, "MAX_BYTES", 4096)
    monkeypatch.setattr(po_bounds, "MAX_ENTRIES", 5)
    monkeypatch.setattr(po_bounds, "MAX_ENTRY_LINES", 10)
    monkeypatch.setattr(po_bounds, "MAX_ENTRY_BYTES", 1000)
    parsed: list[object] = []
    real = polib.pofile
    monkeypatch.setattr(polib, "pofile", lambda *a, **k: parsed.append(a) or real(*a, **k))
    po = tmp_path / "fr.po"
    po.write_text(PO_HEAD + body, encoding="utf-8")
    result = run_cli("i18n", "import", str(po), "--dry-run")
    assert result.exit_code == 2, result.output
    assert f"{po}:{line}: " in result.stderr and message in result.stderr
    assert parsed == []
    po.write_text(PO_HEAD + 'msgid "x"\nmsgstr ""\n' + '"y"\n' * 10, encoding="utf-8")
    assert run_cli("i18n", "import", str(po), "--dry-run").exit_code == 1  # parsed: unknown
    assert parsed


def test_an_import_of_many_entries_prints_a_bounded_number_of_lines(po_game, run_cli, tmp_path):
    from toolkit.cli import i18n

    po = tmp_path / "fr.po"
    po.write_text(PO_HEAD + "".join(f'msgid "x{i}"\nmsgstr "y"\n\n' for i in range(5)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "MAX_SHOWN", 2)
        result = run_cli("i18n", "import", str(po), "--dry-run")
    assert result.exit_code == 1
    assert result.stderr.count("refused x") == 2
    assert "… and 3 more entries (the totals below count them)" in result.stderr
    assert "5 refused" in result.stderr


# --- SVG cost: what svglib's time grows with, bounded before it runs -------------------


def _svg_problem(tmp_path: Path, body: str) -> object:
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "game" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    (icons / "x.svg").write_text(f"{SVG_OPEN}{body}\n</svg>\n")
    icon, problem = load_svg(icons / "x.svg", "icons/x.svg", icons)
    assert (icon is None) == (problem is not None)
    return problem


def test_an_icon_with_too_many_path_numbers_is_refused_at_the_shape(tmp_path, monkeypatch):
    # a 2 MB path of 400,000 segments took 18 s to read, a polyline of as many points 10 s
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_NUMBERS", 12)  # the path's 6 numbers and 2 commands
    problem = _svg_problem(tmp_path, '<path d="M0 0 L1 1 2 2"/>\n<polyline points="1,1 2,2 3"/>')
    assert problem is not None and "more than 12 numbers and commands" in problem.message  # type: ignore[attr-defined]
    assert (problem.span.line, problem.span.col) == (3, 1)  # type: ignore[attr-defined]
    assert _svg_problem(tmp_path, '<path d="M0 0 L1 1 2 2"/><polyline points="1,1 2,2"/>') is None


def test_an_icon_whose_css_takes_too_long_to_match_is_refused(tmp_path, monkeypatch):
    # svglib matches every selector on every element: 1,000 rules on 2,000 rectangles took
    # 19 s; two selectors of 24 descendant parts in 100 nested groups ran over 2 minutes
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_MATCHING", 50)
    nested = '<g><g><g><rect class="a" width="5" height="5"/></g></g></g>'  # 5 deep, 5 in all
    assert _svg_problem(tmp_path, f"<style>.a {{ fill: red }}</style>\n{nested}") is None
    problem = _svg_problem(tmp_path, f"<style>g g rect {{ fill: red }}</style>\n{nested}")
    assert problem is not None and "more than 50 steps to match" in problem.message  # type: ignore[attr-defined]
    assert (problem.span.line, problem.span.col) == (2, 1)  # type: ignore[attr-defined]
    many = "".join(f".c{i}, .d{i} {{ fill: red }}" for i in range(6))  # 12 selectors × 5
    assert _svg_problem(tmp_path, f"<style>{many}</style>\n{nested}") is not None
    monkeypatch.setattr(svg_guard, "MAX_STYLE", 10)
    problem = _svg_problem(tmp_path, "<style>.a { fill: red }</style>")
    assert problem is not None and "more than 10 characters of CSS" in problem.message  # type: ignore[attr-defined]


def test_an_icon_of_more_elements_than_a_page_draws_in_time_is_refused(tmp_path):
    # svglib takes one to two ms an element, and each card draws it again: 9,000 rectangles
    # (within the old bound of 10,000) took 14 s to read
    body = '<rect width="1" height="1"/>' * 2_001
    problem = _svg_problem(tmp_path, body)
    assert problem is not None and "more than 2,000 elements" in problem.message  # type: ignore[attr-defined]


def test_an_error_quoting_a_huge_template_value_is_said_short(monkeypatch):
    # `{{ ('x' * 999999)|filesizeformat }}` in a layout printed a 1 MB diagnostic line
    # (Python's ValueError quotes the whole string), once per card and language
    from toolkit.content.game import load_game
    from toolkit.render import layout as layouts
    from toolkit.render.elements import LayoutError
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    loaded, _ = layouts.load_layout("standard")
    assert loaded is not None
    monkeypatch.setattr(layouts, "_resolve", lambda *a: float("y" * 999_999))
    with pytest.raises(LayoutError) as caught:
        layouts.resolve(loaded, {}, 63.0, 88.0)
    assert len(str(caught.value)) < 500 and "(1,000,036 characters)" in str(caught.value)
    game = load_game(REPO / "content" / "drinking-heroes")
    with pytest.raises(RulebookError) as failed:
        # (600,000: within a language's share of what a rulebook may build)
        render_markdown(game, "en", "# T\n\n{{ ('x' * 600000)|filesizeformat }}\n")
    assert len(str(failed.value)) < 500 and failed.value.line == 3
    assert "could not convert string to float: 'xxx" in str(failed.value)
