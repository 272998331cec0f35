"""`playset rules CODE` prints a rule's page with its proven examples (as `ruff rule`)."""

from __future__ import annotations

from toolkit.ruledocs import load_example


def test_rule_page_shows_explanation_and_both_examples(run_cli):
    result = run_cli("rules", "r006")
    assert result.exit_code == 0, result.output
    example = load_example("R006")
    out = result.stdout
    assert "R006 unbound-placeholder" in out
    assert "Move {stpes} spaces." in out and "Move {steps} spaces." in out
    fails, passes = out.index("Fails"), out.index("Passes")
    assert fails < out.index("Move {stpes} spaces.") < passes < out.rindex("Move {steps} spaces.")
    assert example.explain.split()[0] in out
    assert "decks/cards.yaml:18" in out


def test_unknown_rule_is_a_usage_error(run_cli):
    result = run_cli("rules", "X999")
    assert result.exit_code == 2


def test_rules_without_code_lists_every_rule(run_cli):
    result = run_cli("rules")
    assert result.exit_code == 0
    assert "R006" in result.stdout and "Y001" in result.stdout and "G101" in result.stdout


def test_the_wheel_ships_every_example_and_the_base_game():
    """`playset rules CODE` works from an installed wheel: its data is package data."""
    import tomllib

    from tests.conftest import REPO

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]
    shipped = {
        path
        for package, patterns in data.items()
        for pattern in patterns
        for path in (REPO / package.replace(".", "/")).glob(pattern)
        if path.is_file()
    }
    needed = [
        *(REPO / "toolkit" / "ruledocs" / "examples").glob("*.yaml"),
        *(REPO / "toolkit" / "games").glob("*/rule_examples/*.yaml"),
        *(p for p in (REPO / "toolkit" / "ruledocs" / "base").rglob("*") if p.is_file()),
    ]
    assert len(needed) > 130
    assert [p for p in needed if p not in shipped] == []


def test_a_repeated_failing_text_is_shown_once_with_its_count(run_cli):
    """A padding line written 20,000 times is shown once and counted, not 40 times over."""
    result = run_cli("rules", "Y013")
    assert result.exit_code == 0, result.output
    fails = result.stdout[result.stdout.index("Fails") : result.stdout.index("Passes")]
    assert fails.count("rest,Repos,Descanso,Rest,2") == 2  # the sheet, then the repeated line
    assert "(the lines above 20000 times)" in fails and "more lines" not in fails


def test_thousands_of_plugin_rules_are_listed_plainly(run_cli, monkeypatch):
    """A plugin's 20,000 rules took `playset rules` 7.8 s of rich's table layout (probe 39
    L3): past MAX_TABLE_ROWS rows the rules are aligned plainly, each on its line; the
    built-ins alone are still a table."""
    from rich.table import Table

    from toolkit.diagnostics import REGISTRY
    from toolkit.diagnostics.registry import rule

    rows: list[tuple] = []
    drawn = Table.add_row
    monkeypatch.setattr(
        Table, "add_row", lambda self, *row, **k: rows.append(row) or drawn(self, *row, **k)
    )
    result = run_cli("rules")
    assert result.exit_code == 0 and len(rows) == len(REGISTRY.all()) < 500
    codes = [f"G95{n:03d}" for n in range(600)]
    try:
        for code in codes:
            rule(code, f"many-{code}", "[bold]one of many[/bold]")
        rows.clear()
        result = run_cli("rules")
    finally:
        for code in codes:
            REGISTRY.unregister(code)
    assert result.exit_code == 0, result.output
    assert len(rows) == 0
    lines = result.stdout.splitlines()
    assert sum(line.startswith("G95") for line in lines) == 600
    assert any(line.split()[:2] == ["R006", "unbound-placeholder"] for line in lines)
    assert "G95599  many-G95599" in result.stdout and "[bold]one of many[/bold]" in result.stdout
