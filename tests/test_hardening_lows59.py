"""The Low findings of probes 50 and 51 and issue #33's Low list, each test red before its fix."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game


def _starter(tmp_path: Path) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", ["fr", "es", "en"])
    return folder


def _r006(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "R006"]


def test_a_placeholder_inside_another_is_r006(run_cli, tmp_path):
    # probe 51 L3: `{points:{points}}` validated clean and printed "{points:3}": the inner
    # field filled, the outer braces left as written; `{points}}` printed "3}"
    game = _starter(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = text[: text.index("en: Score {points} points.")].count("\n") + 1
    for written in ("{points:{points}}", "{points}}"):
        deck.write_text(text.replace("en: Score {points} points.", f"en: Score {written} pts."))
        found = _r006(run_cli, game)
        assert len(found) == 1 and found[0]["line"] == line, found
        assert found[0]["message"].startswith(
            f"{written!r} (en) prints a brace beside its placeholder as written"
        ), found
    for fine in ("{{{points}}}", "{points}, or rest}.", "{ points"):  # as before: no R006
        deck.write_text(text.replace("en: Score {points} points.", f"en: Score {fine} pts."))
        assert _r006(run_cli, game) == [], fine


def test_an_engine_outside_the_game_is_r002_in_validate(run_cli, tmp_path):
    # probe 51 L5: `engine: ../evil.py`, an absolute path or an engine.py linked outside
    # validated clean; only `simulate` said it (E001)
    game = _starter(tmp_path)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    elsewhere = tmp_path / "evil.py"
    elsewhere.write_text("raise SystemExit('imported')\n", encoding="utf-8")
    (game / "linked.py").symlink_to(elsewhere)
    line = text.count("\n") + 1
    for rel in ("../evil.py", str(elsewhere), "linked.py"):
        manifest.write_text(f"{text}engine: {rel}\n", encoding="utf-8")
        result = run_cli("validate", str(game), "--no-cache", "--format", "json")
        assert result.exit_code == 1, result.output
        found = [d for d in json.loads(result.stdout) if d["code"] == "R002"]
        assert [(d["file"].endswith("game.yaml"), d["line"], d["col"]) for d in found] == [
            (True, line, 9)
        ], found
        assert found[0]["message"] == f"engine {rel!r} leaves the game folder; it is never imported"
    (game / "linked.py").unlink()
    (game / "linked.py").write_text("", encoding="utf-8")
    manifest.write_text(f"{text}engine: linked.py\n", encoding="utf-8")
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert [d for d in json.loads(result.stdout) if d["code"] == "R002"] == []


class _Killed(Exception):
    """Stands for kill -9 between two renames: nothing cleans up."""


@pytest.mark.parametrize(
    ("killed_at", "words"),
    [
        (
            2,
            "was stopped before it changed any file: its 2 file(s) (game.yaml, glossary.yaml)"
            " all still hold their old text;",
        ),
        (
            3,
            "left this game half changed: 1 file(s) (glossary.yaml) still hold their old text,"
            " the others the new;",
        ),
    ],
)
def test_r011_says_whether_any_file_holds_the_new_text(
    run_cli, tmp_path, monkeypatch, killed_at, words
):
    # probe 51 L6: killed at the first rename, R011 said "…still hold their old text, the
    # others the new" when there were no others
    from toolkit.journal import write_journaled

    game = _starter(tmp_path)
    files = [(game / n, (game / n).read_bytes() + b"\n") for n in ("game.yaml", "glossary.yaml")]
    real = os.replace
    calls = []

    def replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == killed_at:  # 1: the journal, 2: the first file
            raise _Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(_Killed):
        write_journaled(game, files)
    monkeypatch.setattr(os, "replace", real)
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert result.exit_code == 1
    [found] = json.loads(result.stdout)
    assert found["code"] == "R011" and words in found["message"], found


def test_a_field_overflowing_several_boxes_names_each_element(run_cli, tmp_path):
    # probe 50 (P50-15, Low): a layout printing a card's name in many small boxes said one
    # identical P001 line per box, nothing to tell them apart
    game = _starter(tmp_path)
    boxes = "".join(
        f"  - kind: text\n    box: {{x: {i}, y: 0, w: 1, h: 1}}\n"
        f'    text: "{{{{ card.name }}}}"\n    size: {{max: 6, min: 6}}\n'
        for i in range(3)
    )
    (game / "layouts" / "gov.yaml").write_text(f"id: gov\nelements:\n{boxes}", encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("size: poker\n", "size: poker\nlayout: gov\n", 1)
    )
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert result.exit_code == 1, result.output
    found = [
        (d["line"], d["message"])
        for d in json.loads(result.stdout)
        if d["code"] == "P001" and d["message"].startswith("advance name (en)")
    ]
    assert len(found) == 3 and len(set(found)) == 3, found
    assert [m.rsplit("; ", 1)[1] for _, m in found] == [
        f"layout gov, element {n})" for n in (1, 2, 3)
    ], found


def test_export_writes_no_po_file_import_would_refuse(run_cli, tmp_path, monkeypatch):
    # probe 51 L7: export wrote a 59,772-entry PO file that import refused ("more than 20,000
    # entries"): the two now share one count (the bound lowered here to this small game)
    import polib

    from toolkit.i18n import po_bounds

    game = _starter(tmp_path)
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    entries = len(polib.pofile(str(po_path)))
    po_path.unlink()
    monkeypatch.setattr(po_bounds, "MAX_ENTRIES", entries + 1)  # the header's msgid counts too
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    result = run_cli("i18n", "import", str(po_path), "--game", str(game), "--dry-run")
    assert result.exit_code == 0, result.output  # what export writes, import reads
    po_path.unlink()
    monkeypatch.setattr(po_bounds, "MAX_ENTRIES", entries)
    for args in (["--lang", "fr"], ["--template"]):
        result = run_cli("i18n", "export", str(game), *args, "--out", str(po_path))
        assert result.exit_code == 1, result.output
        assert (
            "the PO file would not be read back by `playset i18n import`: it holds more than"
            in result.output
        )
        assert "Traceback" not in result.output and not po_path.exists()


def test_calibrate_printer_names_one_that_save_refuses_as_such(run_cli, tmp_path, monkeypatch):
    # issue 33's Low list re-checked: `--printer 'x\n'` answered "no printer … then
    # `playset calibrate --save x<newline> X,Y`", a command cut in two; a name with a space
    # was put in that command unquoted
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    result = run_cli("calibrate", "--printer", "x\n", "--out", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "printer name 'x\\n': letters, digits, space" in result.output, result.output
    assert "--save x\n" not in result.output
    result = run_cli("calibrate", "--printer", "home printer", "--out", str(out))
    assert (
        result.exit_code == 1 and "`playset calibrate --save 'home printer' X,Y`" in result.output
    )
    assert not out.exists()


def test_check_contract_refuses_a_player_count_the_game_does_not_play(run_cli, tmp_path):
    # issue 33's Low list re-checked: `-p 0` with --contract ran no player count at all and
    # said "clean", exit 0 (without --contract it was refused)
    game = tmp_path / "g"
    new_game(game, "g", ["en"], engine=True)
    for count in ("0", "9"):
        result = run_cli("check", str(game), "-n", "10", "-p", count, "--contract")
        assert result.exit_code == 2, result.output
        assert f"g plays with 2–4 players, not {count}" in result.output
        assert "clean" not in result.output and "Traceback" not in result.output


def test_a_tolerance_of_minus_zero_is_zero():
    # issue 33's Low list re-checked (`--tolerance -5%` is refused): `--tolerance -0` passed
    # as -0.0, and tune's report printed "misses the target 10 ± -0"
    from toolkit.sim.tune import parse_tolerance

    for text in ("-0", "-0.0", "-0%"):
        within = parse_tolerance("team_win", text)
        assert within == 0 and str(within) == "0.0", (text, within)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--dask", "local:1_0"),
        ("--dask", "local:\uff11"),
        ("--executor", "pool:1_0"),
        ("--executor", "pool:\uff12"),
    ],
)
def test_a_worker_count_is_ascii_digits(run_cli, tmp_path, option, value):
    # issue 33's Low list re-checked (calibrate's `1_5` and fullwidth digits are refused):
    # `--dask local:1_0` was read as 10 workers, a fullwidth `local:１` as one
    if option == "--dask":
        pytest.importorskip("dask.distributed")
    game = tmp_path / "g"
    new_game(game, "g", ["en"], engine=True)
    result = run_cli("simulate", str(game), "-n", "10", option, value)
    assert result.exit_code == 2, result.output
    kind = value.split(":")[0]
    assert f"{option} {value} (expected {kind}:N with N a number)" in result.output
    assert "Traceback" not in result.output


def test_a_po_msgstr_with_a_placeholder_inside_another_is_refused(run_cli, tmp_path):
    # with R006 for `{points:{points}}` (probe 51 L3), the import refuses it too, at its PO
    # line, rather than write what the next validate refuses
    import polib

    game = _starter(tmp_path)
    path = tmp_path / "fr.po"
    assert run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(path)).exit_code == 0
    po = polib.pofile(str(path))
    (entry,) = [e for e in po if e.msgid == "Score {points} points."]
    entry.msgstr = "Marquez {points:{points}} points."
    po.save(str(path))
    before = (game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1, result.stderr
    assert "'{points:{points}}' (fr) prints a brace beside" in result.stderr, result.stderr
    assert (game / "decks" / "cards.yaml").read_text(encoding="utf-8") == before
