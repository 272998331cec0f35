"""End-to-end behaviour of the CLI on the bundled games and on hand-made input."""

from __future__ import annotations

import json

from tests.conftest import FIXTURES, build_case

GAMES = ["drinking-heroes", "muckle-stoater", "tokaido", "whisky-game"]


def test_list_shows_all_four_games(run_cli):
    result = run_cli("list")
    assert result.exit_code == 0
    for game in GAMES:
        assert game in result.stdout


def test_validate_bundled_games_is_clean(run_cli):
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout or "[]") == []


def test_unknown_game_is_a_usage_error(run_cli):
    result = run_cli("validate", "no-such-game")
    assert result.exit_code == 2
    assert "no bundled game or folder" in result.stderr


def test_unknown_format_is_a_usage_error(run_cli):
    result = run_cli("validate", "tokaido", "--format", "xml")
    assert result.exit_code == 2


def test_unknown_rule_prefix_is_a_usage_error(run_cli):
    result = run_cli("validate", "tokaido", "--select", "Z9")
    assert result.exit_code == 2


def _broken(tmp_path, monkeypatch, case="unknown-field"):
    game = build_case(FIXTURES / "broken" / case, tmp_path / "game")
    monkeypatch.chdir(game)
    return game


def test_ignore_silences_a_rule(run_cli, tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch)
    assert run_cli("validate", ".").exit_code == 1
    assert run_cli("validate", ".", "--ignore", "S002").exit_code == 0
    assert run_cli("validate", ".", "--select", "R,T").exit_code == 0


def test_manifest_can_ignore_rules(run_cli, tmp_path, monkeypatch):
    game = _broken(tmp_path, monkeypatch, "unlisted-file")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "checks:\n  ignore: [R008]\n")
    assert run_cli("validate", ".").exit_code == 0


def test_text_format(run_cli, tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch)
    result = run_cli("validate", ".")
    assert result.stdout.startswith("decks/cards.yaml:27:5: S002 [error] unknown field 'copeis'")


def test_github_format(run_cli, tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch)
    result = run_cli("validate", ".", "--format", "github")
    line = result.stdout.strip()
    assert line.startswith("::error file=decks/cards.yaml,line=27,col=5,")
    assert "title=S002::unknown field 'copeis'" in line


def test_sarif_format(run_cli, tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch)
    doc = json.loads(run_cli("validate", ".", "--format", "sarif").stdout)
    (result,) = doc["runs"][0]["results"]
    assert result["ruleId"] == "S002"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (27, 5)


def test_rules_lists_every_family_in_use(run_cli):
    result = run_cli("rules")
    assert result.exit_code == 0
    for code in ("Y001", "S002", "R004", "T001"):
        assert code in result.stdout


def test_folder_without_manifest_is_a_usage_error(run_cli, tmp_path):
    result = run_cli("validate", str(tmp_path / "nowhere"))
    assert result.exit_code == 2


def test_variant_must_set_a_declared_option(run_cli, tmp_path, monkeypatch):
    game = _broken(tmp_path, monkeypatch, "unlisted-file")
    (game / "decks" / "extra.yaml").unlink()
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text()
        + "variants:\n  - id: fast\n    name: {fr: Rapide, es: Rápido, en: Fast}\n"
        + "    options:\n      speed: 2\n"
    )
    found = json.loads(run_cli("validate", ".", "-f", "json").stdout)
    assert [(d["code"], d["line"], d["col"]) for d in found] == [("R004", 27, 7)]


def test_unreadable_file_exits_2(run_cli, tmp_path, monkeypatch):
    from pathlib import Path

    from toolkit.content import source

    game = _broken(tmp_path, monkeypatch, "unknown-field")
    real = source.read_bounded

    def refuse(path, limit, **kwargs):
        if Path(path).name == "cards.yaml":
            raise PermissionError(13, "Permission denied")
        return real(path, limit, **kwargs)

    monkeypatch.setattr(source, "read_bounded", refuse)
    result = run_cli("validate", str(game), "--format", "json")
    assert result.exit_code == 2
    found = json.loads(result.stdout)
    assert [d["code"] for d in found] == ["Y010"] and "Permission denied" in found[0]["message"]


def test_main_builds_only_the_command_it_runs(monkeypatch, capsys) -> None:
    """`main` registers just the invoked command (or group); unknown names get the full app,
    so typos still get click's suggestions."""
    import pytest

    from toolkit.cli import COMMANDS, app_for, main, make_app

    assert [c.name for c in make_app("build").registered_commands] == ["build"]
    assert [g.name for g in make_app("i18n").registered_groups] == ["i18n"]
    assert len(make_app().registered_commands) == len(COMMANDS)
    # the choice main makes, which the tests' run_cli makes too (tests/conftest.py)
    assert [c.name for c in app_for(["-v", "validate", "x"]).registered_commands] == ["validate"]
    assert [g.name for g in app_for(["i18n", "status"]).registered_groups] == ["i18n"]
    for whole in (["--version"], ["reference"], ["buidl"], []):
        assert len(app_for(whole).registered_commands) == len(COMMANDS), whole
    monkeypatch.setattr("sys.argv", ["playset", "rules"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    assert "P002" in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["playset", "buidl"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2


def test_paths_outside_the_working_folder_show_absolute(tmp_path, monkeypatch) -> None:
    from toolkit.content.game import display_path

    inside = tmp_path / "game" / "decks" / "cards.yaml"
    monkeypatch.chdir(tmp_path)
    assert display_path(inside) == "game/decks/cards.yaml"
    monkeypatch.chdir(inside.parent.parent.parent.parent)
    assert display_path(inside) == f"{tmp_path.name}/game/decks/cards.yaml"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert display_path(inside) == str(inside)


def test_version_exit_zero_and_completion(run_cli, tmp_path, monkeypatch) -> None:
    """ruff and yamllint conventions: --version, --exit-zero, shell completion."""
    from toolkit.cli import make_app

    assert run_cli("--version").stdout.startswith("playset ")
    game = build_case(FIXTURES / "broken" / "unknown-field", tmp_path / "game")
    assert run_cli("validate", str(game)).exit_code == 1
    assert run_cli("validate", str(game), "--exit-zero").exit_code == 0
    from typer.testing import CliRunner

    shown = CliRunner().invoke(make_app(), ["--show-completion", "bash"])
    assert shown.exit_code == 0 and "_playset_completion" in shown.stdout


def test_a_suppression_comment_silences_one_finding_on_its_line(run_cli, tmp_path) -> None:
    """`# playset: ignore[CODE]` at the end of the line a finding points at (as ruff's noqa)
    silences that code there only; another code on the same line still reports."""
    game = build_case(FIXTURES / "broken" / "unknown-inline-icon", tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    assert run_cli("validate", str(game)).exit_code == 1
    text = deck.read_text()
    line = "      en: Move {steps} spaces :lamp:."
    deck.write_text(text.replace(line, line + "  # playset: ignore[T004]"))
    assert run_cli("validate", str(game)).exit_code == 1  # P007 is not T004
    deck.write_text(text.replace(line, line + "  # playset: ignore[P007] the lamp comes later"))
    result = run_cli("validate", str(game), "--format", "json")
    assert result.exit_code == 0, result.stdout


def test_the_summary_names_a_game_given_as_dot_or_dot_dot(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "moon-market")
    monkeypatch.chdir(game)
    assert run_cli("validate", ".").stderr == "clean: 1 game(s): moon-market\n"
    monkeypatch.chdir(game / "decks")
    assert run_cli("validate", "..").stderr == "clean: 1 game(s): moon-market\n"
