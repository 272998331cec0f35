"""Findings of the tenth hostile-input probe (issue #33), on content: pictures and boards
(/work/notes/probe10content.md)."""

from __future__ import annotations

import io
import struct
import time
from pathlib import Path

import pytest

from tests.test_hardening_probe4_input import _new_game, _with_picture
from tests.test_hardening_probe7_input import _icon


def _segments(data: bytes) -> list[bytes]:
    """A JPEG file's marker segments, each SOS with the entropy-coded data after it."""
    out, i = [], 2
    while i < len(data):
        code = data[i + 1]
        if code == 0xD9:
            break
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        end = i + 2 + length
        if code == 0xDA:
            while not (data[end] == 0xFF and data[end + 1] not in (0, *range(0xD0, 0xD8))):
                end += 1
        out.append(data[i:end])
        i = end
    return out


def _jpeg(size: tuple[int, int], repeats: int = 0, **save: object) -> bytes:
    """A JPEG of `size`, one of its small AC scans repeated `repeats` more times: libjpeg
    warns of the bogus progression and decodes each copy over the whole picture."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", size, 255).save(buffer, "JPEG", **save)
    data = buffer.getvalue()
    if not repeats:
        return data
    segments = _segments(data)
    ac = min((s for s in segments if s[1] == 0xDA and s[7] != 0), key=len)
    return data[:2] + b"".join(segments) + ac * repeats + b"\xff\xd9"


def test_a_jpeg_of_many_scans_is_refused_undecoded(tmp_path, run_cli):
    # P1: a 1.4 MB JPEG repeating a 59-byte scan 20,000 times over 6000×6000 pixels (within
    # the 40-million-pixel bound) kept `validate` 92 s (55 s of CPU) in the contrast
    # estimate's decode; the time grows with the file
    from toolkit.render import pictures

    data = _jpeg((64, 64), repeats=300, progressive=True)
    root = _with_picture(tmp_path, run_cli)
    (root / "images" / "art.png").write_bytes(data)
    (root / "images" / "cover.png").write_bytes(_jpeg((64, 64)))
    result = run_cli("validate", str(root), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "cannot read image 'images/art.png': it is a JPEG of more than 100 scans" in (
        result.output
    )
    assert "cover" not in result.output
    result = run_cli("build", str(root), "--no-cache", "--lang", "en", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert pictures.jpeg_scans(data) == pictures.MAX_JPEG_SCANS + 1  # it stops counting


def test_an_icon_embedding_a_jpeg_of_many_scans_is_refused(tmp_path):
    from toolkit.render import svg_guard

    icon, icons = _icon(tmp_path, '<image href="art.jpg" width="10" height="10"/>')
    (icons / "art.jpg").write_bytes(_jpeg((64, 64), repeats=300, progressive=True))
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and "JPEG of more than 100 scans" in refusal.message


@pytest.mark.parametrize(
    ("save", "scans"),
    [
        ({}, 1),
        ({"progressive": True}, 6),
        ({"progressive": True, "optimize": True}, 6),
        ({"progressive": True, "exif": "thumbnail"}, 6),
        ({"restart_marker_blocks": 1}, 1),
    ],
)
def test_ordinary_jpegs_are_read(tmp_path, save, scans):
    from PIL import Image

    from toolkit.render import pictures

    if save.get("exif") == "thumbnail":  # an EXIF block holding a JPEG with its own scans
        inner = _jpeg((16, 16), repeats=200, progressive=True)
        save = {**save, "exif": b"Exif\x00\x00" + inner}
    data = _jpeg((300, 200), **save)
    assert pictures.jpeg_scans(data) == scans
    # fill bytes before a marker are no scan either
    frame = max(data.rfind(b"\xff\xc0"), data.rfind(b"\xff\xc2"))  # the picture's own
    padded = data[:frame] + data[frame:].replace(b"\xff\xda", b"\xff\xff\xff\xda")
    assert pictures.jpeg_scans(padded) == scans
    path = tmp_path / "art.jpg"
    path.write_bytes(padded)
    assert pictures.problem(path, tmp_path) == ((300, 200), None)
    with pictures.opened(path) as image:
        image.load()
        assert isinstance(image, Image.Image)


def _graph_board(
    tmp_path: Path,
    run_cli,
    spaces: list[tuple[float, float]],
    links: str,
    name: str = "Map",
    kinds: bool = False,
):
    """A new game with a graph board of `spaces` (lat, lon), linked in a chain or a star."""
    from toolkit.content.game import load_game
    from toolkit.render.boards import board_look

    root = _new_game(tmp_path, run_cli)
    lines = ["kind: graph", "id: map", f"name: {{en: {name}}}", "spaces:"]
    lines += [
        f"  - {{id: s{i}, name: Place {i}, kind: {f'k{i}' if kinds else 'town'}, lat: {lat},"
        f" lon: {lon}}}"
        for i, (lat, lon) in enumerate(spaces)
    ]
    pairs = [(i, i + 1) if links == "chain" else (0, i + 1) for i in range(len(spaces) - 1)]
    lines += ["links:"] + [f"  - {{a: s{a}, b: s{b}}}" for a, b in pairs]
    (root / "board.yaml").write_text("\n".join(lines) + "\n")
    manifest = root / "game.yaml"
    text = manifest.read_text().replace("files:\n", "files:\n  boards:\n    - board.yaml\n")
    manifest.write_text(text)
    game = load_game(root)
    (model,) = game.valid(game.boards)
    return model, board_look(game, model, "en")


@pytest.mark.parametrize(
    ("where", "links"),
    [("one spot", "chain"), ("a hair apart", "star"), ("spread", "chain")],
)
def test_a_crowded_or_large_map_is_laid_out_in_bounded_time(tmp_path, run_cli, where, links):
    # P2: spreading, nudging and naming a graph board's spaces compared every pair of
    # neighbours per round and every name with every road: 400 spaces at one place took
    # 170 s to build, 2,000 spaces over a map with a chain of links over two minutes; now
    # 0.5 s, 0.4 s and 1.1 s of CPU
    from toolkit.render.boards import graph

    count = {"one spot": 300, "a hair apart": 600, "spread": 1000}[where]
    random = __import__("random").Random(1)
    spaces = [
        (50.0, 1.0)
        if where == "one spot"
        else (50.0, 1.0 + i * 1e-9)
        if where == "a hair apart"
        else (random.uniform(50, 60), random.uniform(-8, 2))
        for i in range(count)
    ]
    model, look = _graph_board(tmp_path, run_cli, spaces, links)
    start = time.process_time()
    layout = graph.plan_graph(model, look)
    assert time.process_time() - start < 2.0  # before: 4.9 s, 3.3 s and 5.9 s
    assert len(layout.spots) == count and all(s.label for s in layout.spots.values())
    for s in layout.spots.values():  # still on the page
        assert s.reach <= s.x <= layout.width - s.reach
        assert s.reach <= s.y <= layout.height - s.reach


@pytest.mark.parametrize("what", ["a long name", "many kinds"])
def test_a_title_or_legend_larger_than_the_page_is_no_traceback(tmp_path, run_cli, what):
    # P3: a board name of 200 letters, or 200 kinds of space in the legend: validate clean,
    # build ended in IndexError (no corner of the poster could hold the title or legend)
    from toolkit.render.boards import graph

    spaces = [(50.0 + i / 10, 1.0 + i / 10) for i in range(200)]
    name = "W" * 200 if what == "a long name" else "Map"
    model, look = _graph_board(tmp_path, run_cli, spaces, "chain", name, what == "many kinds")
    layout = graph.plan_graph(model, look)
    box = layout.title_box if what == "a long name" else layout.legend_box
    assert box[0] >= 6 * 2.834 and box[1] >= 6 * 2.834  # from the page's margin
    assert box[2] > layout.width or box[3] > layout.height  # larger than the page


def test_a_game_font_whose_dots_take_no_room_prints_the_rulebook(tmp_path, run_cli):
    # P4: a game font whose space and full stop have no advance width: validate clean, build
    # ended in ZeroDivisionError in reportlab (the contents' dot leaders divide by their width)
    from fontTools.ttLib import TTFont

    from toolkit.render.fonts import font_dir

    root = _new_game(tmp_path, run_cli)
    font = TTFont(font_dir() / "NotoSans-Regular.ttf")
    for record in font["name"].names:
        if record.nameID in (1, 4, 6, 16):
            record.string = "Flat"
    for glyph in (font.getBestCmap()[ord(c)] for c in " ."):
        font["hmtx"].metrics[glyph] = (0, 0)
    (root / "fonts").mkdir()
    font.save(root / "fonts" / "Flat.ttf")
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Flat\n")
    out = tmp_path / "out"
    result = run_cli("build", str(root), "--only", "rulebook", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "probe" / "en" / "rulebook.pdf").is_file()


def _anagram_questions(count: int, letters: int) -> str:
    """Questions whose texts hold the same letters in different words: no word set near
    another, every pair passing difflib's quick ratios."""
    random = __import__("random").Random(1)
    pool = list(("abcdefgh" * letters)[:letters])

    def text() -> str:
        random.shuffle(pool)
        joined, words, i = "".join(pool), [], 0
        while i < len(joined):
            size = random.randint(2, 9)
            words.append(joined[i : i + size])
            i += size
        return " ".join(words) + " ?"

    lines = ["id: qs", "name: {en: Questions}", "questions:"]
    for i in range(count):
        answers = "".join(f"\n      - {{en: {x}{i}}}" for x in "ABCD")
        lines.append(
            f"  - id: q{i}\n    difficulty: easy\n    topic: t\n    question:\n"
            f'      en: "{text()}"\n    answers:{answers}\n    right: a\n'
            f"    fifty_fifty: [a, b]\n    fact: {{en: F{i}}}\n    source: src"
        )
    return "\n".join(lines) + "\n"


def test_long_questions_alike_in_letters_are_compared_in_bounded_time(tmp_path, run_cli):
    # P5: Q003 weighed every pair of questions with difflib's ratio, which grows with the
    # product of their lengths: two 3,100-letter questions whose letters agree (not their
    # words) took 3 s each; 3 such questions made validate take 22 s, 10 over 100 s
    from toolkit.checks import questions
    from toolkit.content.game import load_game
    from toolkit.content.walk import collect

    root = _new_game(tmp_path, run_cli)
    (root / "questions.yaml").write_text(_anagram_questions(6, 3000))
    manifest = root / "game.yaml"
    text = manifest.read_text().replace("files:\n", "files:\n  questions:\n    - questions.yaml\n")
    manifest.write_text(text)
    game = load_game(root)
    start = time.process_time()
    found = list(questions.check(game, collect(game)))
    assert time.process_time() - start < 2.0
    assert not [d for d in found if d.code in ("Q002", "Q003")]


def test_a_multi_picture_jpeg_of_many_scans_is_refused_too(tmp_path):
    # H1, second way in: Pillow opens a JPEG with an MPF block (two pictures, as cameras
    # save them) as format "MPO", and decodes its first picture with libjpeg all the same
    from PIL import Image

    from toolkit.render import pictures

    buffer = io.BytesIO()
    first, second = Image.new("L", (64, 64), 255), Image.new("L", (64, 64), 0)
    first.save(buffer, "MPO", save_all=True, append_images=[second], progressive=True)
    data = buffer.getvalue()
    end = data.index(b"\xff\xd9")  # the first picture's EOI
    scan = min((s for s in _segments(data[: end + 2]) if s[1] == 0xDA and s[7] != 0), key=len)
    (tmp_path / "art.jpg").write_bytes(data[:end] + scan * 300 + data[end:])
    (tmp_path / "fine.jpg").write_bytes(data)
    size, why = pictures.problem(tmp_path / "art.jpg", tmp_path)
    assert size is None and why is not None and "JPEG of more than 100 scans" in why
    assert pictures.problem(tmp_path / "fine.jpg", tmp_path) == ((64, 64), None)
