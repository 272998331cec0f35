"""Probe 66: what a game reads (a workbook's members, an icon's pictures) is read once."""

from __future__ import annotations

import io
import zipfile

from tests.test_hardening_probe9_content import _xlsx
from toolkit.content.sheets import archive, grid, workbook
from toolkit.content.source import game_repeats


def test_a_workbook_of_many_members_is_read_through_one_directory(tmp_path, monkeypatch):
    # probe 66-2: each member was read through a new ZipFile, which reads the whole
    # directory: 4,000 empty members (371 kB) took validate 24.9 s
    data = _xlsx('<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c></row>')
    grown = io.BytesIO(data)
    with zipfile.ZipFile(grown, "a") as book:
        for n in range(400):
            book.writestr(f"xl/extra{n}.xml", "")
    path = tmp_path / "w.xlsx"
    path.write_bytes(grown.getvalue())
    opened: list[object] = []
    real = archive._zip
    monkeypatch.setattr(archive, "_zip", lambda source: opened.append(source) or real(source))
    with game_repeats():
        read = workbook.read_workbook(path, "decks/w.xlsx")
    assert not isinstance(read, grid.Refused), read
    assert len(opened) < 10, len(opened)


def test_icons_drawing_the_same_pictures_share_one_decoding_of_each(tmp_path, monkeypatch):
    # probe 66-3: icons drawing more picture files than the few kept between them decoded
    # each file again for each icon, their drawings holding every copy (100 icons of the
    # same nine PNGs: 1.26 GB)
    from tests.test_hardening_probe15_reads import _png
    from toolkit.render import svg_icons
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    icons.mkdir()
    names = [f"p{i}.png" for i in range(4)]
    for i, name in enumerate(names):
        (icons / name).write_bytes(_png() + bytes([i]))
    image = '<image x="0" y="0" width="10" height="10" href="{}"/>'
    decoded: list[bytes] = []
    real = svg_icons._picture
    monkeypatch.setattr(svg_icons, "_picture", lambda data: decoded.append(data) or real(data))
    monkeypatch.setattr(svg_icons, "KEPT_PICTURES", 2)
    svg_icons._READ.clear()
    drawn = []
    for n in range(6):
        path = icons / f"i{n}.svg"
        path.write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
            + "".join(image.format(name) for name in names)
            + "\n</svg>\n"
        )
        icon, problem = load_svg(path, f"icons/i{n}.svg", icons, tmp_path)
        assert problem is None and icon is not None
        drawn.append(icon)
    assert len(decoded) == len(names), len(decoded)


def test_a_large_file_beside_the_game_is_hashed_as_it_is_read(tmp_path, monkeypatch):
    # probe 66 (info): the findings cache read each file whole to hash it: a 300 MB file
    # beside game.yaml held 650 MB
    import hashlib
    import os

    from toolkit.content import validate_cache
    from toolkit.content.validate_cache import WHOLE_BYTES, FileFacts, StatCache, _Budget

    big = tmp_path / "big.bin"
    data = bytearray(os.urandom(WHOLE_BYTES + 3_000_000))
    data[(1 << 20) - 3 : (1 << 20) + 3] = b"output"  # across two pieces
    big.write_bytes(bytes(data))
    monkeypatch.setattr(validate_cache, "_read", lambda fd, size: 1 / 0)  # never whole
    read: list[int] = []
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real(fd, n))
    facts = StatCache().facts(str(big), _Budget())
    assert facts == FileFacts("F" + hashlib.sha256(bytes(data)).hexdigest(), True)
    assert max(read) <= 1 << 20
    data[5_000_000:5_000_020] = b"yaml-language-server"  # a modeline: never remembered
    big.write_bytes(bytes(data))
    assert StatCache().facts(str(big), _Budget()).tag.startswith("V")


def test_a_picture_read_through_links_is_decoded_once(tmp_path, monkeypatch):
    # probe 68-1: a picture was kept by the name an icon read it by: 40 links in icons/ to
    # one 16 M-pixel PNG were 40 decodes the drawings held (2.6 GB)
    from tests.test_hardening_probe15_reads import _png
    from toolkit.render import svg_icons
    from toolkit.render.svg_icons import load_svg

    icons = tmp_path / "icons"
    (icons / "d").mkdir(parents=True)
    (icons / "p.png").write_bytes(_png())
    decoded: list[bytes] = []
    real = svg_icons._picture
    monkeypatch.setattr(svg_icons, "_picture", lambda data: decoded.append(data) or real(data))
    svg_icons._READ.clear()
    drawn = []
    for n in range(5):
        (icons / f"l{n}.png").symlink_to("p.png")
        path = icons / f"i{n}.svg"
        path.write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            f'<image width="10" height="10" href="l{n}.png"/>'
            '<image width="10" height="10" href="d/../p.png"/></svg>\n'
        )
        icon, problem = load_svg(path, f"icons/i{n}.svg", icons, tmp_path)
        assert problem is None and icon is not None
        drawn.append(icon)
    assert len(decoded) == 1, len(decoded)


def test_a_picture_saved_again_lets_its_old_decode_go(tmp_path, monkeypatch):
    # probe 68-4: each save of a picture was one more version kept (8 × 63 MB)
    import os

    from tests.test_hardening_probe15_reads import _png
    from toolkit.render import svg_icons

    icons = tmp_path / "icons"
    icons.mkdir()
    picture = icons / "p.png"
    svg_icons._READ.clear()
    for n in range(5):
        picture.write_bytes(_png() + bytes([n]))
        os.utime(picture, ns=(n * 10**9, n * 10**9))
        assert svg_icons._read_picture(picture, icons) is not None
    assert len(svg_icons._READ) == 1
