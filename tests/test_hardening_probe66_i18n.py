"""Probe 66: a PO import into a rulebook of many units costs as many steps."""

from __future__ import annotations

from toolkit.content.game import load_game
from toolkit.i18n.po import export_po
from toolkit.i18n.units import Change
from toolkit.scaffold.new import new_game


def test_importing_every_paragraph_of_a_rulebook_compares_no_change_with_each(
    tmp_path, run_cli, monkeypatch
):
    # probe 66-6: the changes applied were a list, looked through for each unit: 12,000
    # paragraphs, every one changed, took 26.9 s
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    for lang in ("en", "fr"):
        book = game / "rulebook" / f"{lang}.md"
        book.write_text(
            book.read_text() + "".join(f"\nPara {k} {lang}.\n" for k in range(300)),
            encoding="utf-8",
        )
    po = export_po(load_game(game), "fr")
    for entry in po:
        if entry.msgstr.startswith("Para "):
            entry.msgstr = entry.msgstr.replace(" fr.", " nouveau.")
    path = tmp_path / "fr.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    compared: list[int] = []
    real = Change.__eq__
    monkeypatch.setattr(Change, "__eq__", lambda a, b: compared.append(1) or real(a, b))
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 0, result.output
    assert "300 applied" in result.output, result.output
    assert "Para 299 nouveau." in (game / "rulebook" / "fr.md").read_text(encoding="utf-8")
    assert len(compared) < 300, len(compared)


def _set_rulebook(tmp_path):
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    for lang in ("en", "fr"):
        book = game / "rulebook" / f"{lang}.md"
        text = book.read_text(encoding="utf-8")
        book.write_text(
            "{% set how = {'a': 'the most cards'} %}\n" + text + "\nWin with {{ how.a }}.\n",
            encoding="utf-8",
        )
    return game


def _import_string(game, tmp_path, run_cli, translated: str):
    po = export_po(load_game(game), "fr")
    (entry,) = [e for e in po if e.msgid == "the most cards"]
    entry.msgstr = translated
    path = tmp_path / "fr.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    return run_cli("i18n", "import", str(path), "--game", str(game))


def test_a_string_inside_jinja_code_imports_translated(tmp_path, run_cli):
    # a translated string of a `{% set %}` made code no entry holds: every entry of the
    # rulebook was refused (found by fix66d)
    game = _set_rulebook(tmp_path)
    result = _import_string(game, tmp_path, run_cli, "le plus de cartes")
    assert result.exit_code == 0, result.output
    text = (game / "rulebook" / "fr.md").read_text(encoding="utf-8")
    assert "{% set how = {'a': 'le plus de cartes'} %}" in text


def test_a_string_inside_jinja_code_stays_a_string(tmp_path, run_cli):
    game = _set_rulebook(tmp_path)
    result = _import_string(game, tmp_path, run_cli, "x' ~ (range(3)|list|string) ~ '")
    text = (game / "rulebook" / "fr.md").read_text(encoding="utf-8")
    assert "{'a': 'x\\' ~ (range(3)|list|string) ~ \\''}" in text, (result.output, text[:300])
