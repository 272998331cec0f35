"""The duplex calibration sheet: a printer's shift is read back from the PDF's own scales,
and printing the sheet with that reading as the back offset lines the scales up."""

from __future__ import annotations

import pytest

from tests.pdf_geometry import MM, paths, text_in, words
from toolkit.render.calibration import TARGET_MM, calibration_pdf
from toolkit.render.pdf import PAPERS


def _centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _targets(pdf):
    """The front's target lines, found by their length: (x of the vertical, y of the
    horizontal)."""
    lines = paths(pdf, 0)
    vertical = [b for b in lines if abs((b[3] - b[1]) - TARGET_MM * MM) < 1.5 and b[2] - b[0] < 2]
    horizontal = [b for b in lines if abs((b[2] - b[0]) - TARGET_MM * MM) < 1.5 and b[3] - b[1] < 2]
    assert len(vertical) == 1 and len(horizontal) == 1
    return _centre(vertical[0]), _centre(horizontal[0])


def _value(text: str) -> float:
    return float(text.replace("\u2212", "-").replace("+", ""))


def _read(pdf, page_w, shift, horizontal: bool) -> float:
    """What a person reads: where the front line, seen through the paper, crosses the back's
    scale as the printer put it (moved by `shift`, points), from the scale's own labels."""
    (vx, vy), (hx, hy) = _targets(pdf)
    # A long-edge flip puts front point (x, y) behind back point (page_w - x, y).
    line = page_w - vx if horizontal else hy
    near = vy if horizontal else hx
    ticks = []
    for box in paths(pdf, 1):
        cx, cy = _centre(box)
        w, h = box[2] - box[0], box[3] - box[1]
        if horizontal and w < 1.2 and 2 < h < 11 * MM and abs(cy - near) < 12 * MM:
            ticks.append(cx)
        if not horizontal and h < 1.2 and 2 < w < 11 * MM and abs(cx - near) < 12 * MM:
            ticks.append(cy)
    ticks.sort()
    assert len(ticks) == 33  # -8 … +8 mm by 0.5 mm
    printed = [t + shift for t in ticks]
    k = min(range(len(ticks)), key=lambda i: abs(printed[i] - line))
    assert abs(printed[k] - line) < 0.25 * MM  # the line falls on a tick: read to 0.5 mm

    labels = words(pdf, 1)

    def label(i: int) -> str:
        """The number centred on tick i, if any (ticks every 0.5 mm, numbers every 1 mm)."""
        at = ticks[i]
        for text, (cx, cy) in labels:
            along, across = (cx, cy) if horizontal else (cy, cx)
            if abs(along - at) < 0.25 * MM and abs(across - near) < 20 * MM:
                return text
        return ""

    found = label(k)
    if found:
        return _value(found)
    return (_value(label(k - 1)) + _value(label(k + 1))) / 2  # a half-millimetre tick


@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("letter", "en"), ("a4", "fr")])
@pytest.mark.parametrize("shift_mm", [(1.5, -0.5), (-3.0, 2.5), (0.0, 0.0), (7.5, -8.0)])
def test_the_scales_read_the_correction_and_it_lines_them_up(paper, lang, shift_mm):
    page_w = PAPERS[paper][0]
    sx, sy = shift_mm[0] * MM, shift_mm[1] * MM
    pdf = calibration_pdf(paper, lang=lang)
    reading = (_read(pdf, page_w, sx, True), _read(pdf, page_w, sy, False))
    assert reading == (-shift_mm[0] + 0.0, -shift_mm[1] + 0.0)
    corrected = calibration_pdf(paper, reading, lang)
    assert (_read(corrected, page_w, sx, True), _read(corrected, page_w, sy, False)) == (0, 0)


def test_edge_letters_match_through_the_paper_after_a_long_edge_flip():
    pdf = calibration_pdf("a4")
    w, h = PAPERS["a4"]

    def letter(page, x, y):
        return text_in(pdf, page, (x - 8, y - 8, x + 8, y + 8))

    inset = 12 * MM
    front = {
        "top": letter(0, w / 2, h - inset - 2),
        "right": letter(0, w - inset, h / 2 - 2),
        "left": letter(0, inset, h / 2 - 2),
    }
    assert front == {"top": "A", "right": "B", "left": "D"}
    # Behind the front's right edge is the back's left edge: the same letter.
    assert letter(1, inset, h / 2 - 2) == "B"
    assert letter(1, w - inset, h / 2 - 2) == "D"
    assert letter(1, w / 2, h - inset - 2) == "A"


def test_calibrate_writes_the_sheet_and_saves_printers(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    result = run_cli("calibrate", "--paper", "letter", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "calibration-letter.pdf").read_bytes() == calibration_pdf("letter")
    assert run_cli("calibrate", "--save", "office", "1.5,-0.5").exit_code == 0
    assert run_cli("calibrate", "--save", "attic laser", "-2,0").exit_code == 0
    saved = (tmp_path / "config" / "playset" / "printers.yaml").read_text()
    assert '"office":\n  back_offset: [1.5, -0.5]' in saved and '"attic laser"' in saved
    result = run_cli("calibrate", "--printer", "office", "--out", str(tmp_path))
    assert result.exit_code == 0
    checked = (tmp_path / "calibration-a4.pdf").read_bytes()
    assert checked == calibration_pdf("a4", (1.5, -0.5))


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--save", "office", "1.5"], 1, "offset must be X,Y"),
        (["--save", "office", "40,0"], 1, "within ±20 mm"),
        (["--save", "../x", "1,1"], 1, "printer name"),
        (["--printer", "nowhere"], 1, "no printer 'nowhere'"),
        (["--paper", "a3"], 2, "paper must be a4 or letter"),
        (["--lang", "de"], 2, "--lang must be one of en, fr, es"),
    ],
)
def test_bad_calibrate_input_is_a_clear_error(run_cli, tmp_path, monkeypatch, args, code, message):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    result = run_cli("calibrate", *args, "--out", str(tmp_path))
    assert result.exit_code == code
    assert message in " ".join(result.output.split())


def test_a_broken_printers_file_names_its_line(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "playset").mkdir()
    (tmp_path / "playset" / "printers.yaml").write_text('"office":\n  back_offset: [1, 2\n')
    result = run_cli("calibrate", "--printer", "office", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "printers.yaml:3:1" in result.output.replace("\n", "")


def test_the_sheet_speaks_each_language():
    from tests.pdf_geometry import page_text

    for lang, fed in (("fr", "entré en premier"), ("es", "entró primero"), ("en", "fed first")):
        pdf = calibration_pdf("a4", lang=lang)
        assert fed in page_text(pdf, 1)
        assert "playset build --back-offset X,Y" in " ".join(page_text(pdf, 1).split())


def test_a_long_printer_name_is_said_short(tmp_path):
    # probe 28 L1: a 100,000-letter name was repeated whole in the message
    from toolkit.render.printers import PrinterError, save_printer

    with pytest.raises(PrinterError) as refused:
        save_printer("n" * 100_000, (1.0, 1.0), tmp_path / "printers.yaml")
    assert "100,000 characters" in str(refused.value) and len(str(refused.value)) < 200
