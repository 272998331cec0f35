"""A board's line style dashes in a pattern of at least `MIN_DASH_PERIOD` points (found
beside probe 50 P50-2): `dash: [0, 0]` validated clean and was a traceback in `export png`
(reportlab refuses a dash cycle of no length), and 700 links dashed `[0.03, 0.03]` took
`export png` 7 s where solid ones took 1 s (a picture of the board draws each dash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.content.models.board import MIN_DASH_PERIOD


def _game(tmp_path: Path, run_cli, dash: str) -> Path:
    """A new game with a graph board of 6 spaces whose plain links are dashed `dash`."""
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    lines = ["kind: graph", "id: map", "name: {en: Map}", "style:", "  links:"]
    lines += [f"    link: {{dash: {dash}}}", "spaces:"]
    lines += [f"  - {{id: s{i}, name: P{i}, kind: town, lat: 50, lon: {i}}}" for i in range(6)]
    lines += ["links:"] + [f"  - {{a: s{i}, b: s{i + 1}}}" for i in range(5)]
    (root / "boards").mkdir(exist_ok=True)
    (root / "boards" / "map.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "files:\n" in text
    manifest.write_text(
        text.replace("files:\n", "files:\n  boards:\n    - boards/map.yaml\n", 1), "utf-8"
    )
    return root


def _dash_findings(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if "dash pattern" in d["message"]]


@pytest.mark.parametrize("dash", ["[0, 0]", "[0]", "[0.03, 0.03]", "[0.2, 0.2, 0.05]"])
def test_a_board_line_style_of_too_short_dashes_is_refused_at_its_dash(tmp_path, run_cli, dash):
    root = _game(tmp_path, run_cli, dash)
    found = _dash_findings(run_cli, root)
    assert len(found) == 1, found
    assert found[0]["severity"] == "error" and found[0]["line"] == 6, found[0]
    assert f"less than the {MIN_DASH_PERIOD:g} a pattern may" in found[0]["message"]
    out = tmp_path / "out"
    result = run_cli("export", "png", str(root), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1  # refused before drawing: no traceback, no picture
    assert not list(out.rglob("*.png"))


@pytest.mark.parametrize("dash", ["[]", "[0, 1.5]", "[5, 3]", "[0.5]"])
def test_a_board_line_style_of_usual_dashes_is_fine(tmp_path, run_cli, dash):
    root = _game(tmp_path, run_cli, dash)
    assert _dash_findings(run_cli, root) == []
