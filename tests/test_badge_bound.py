"""A layout holds at most `BadgeElement.most_per_layout` badges: a rasteriser fills every
disc whole on every face (1,500 full-card badges: ~1.3 s a face), as it does boxes (K10)."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.render.elements.badge import BadgeElement

BADGE = '  - {kind: badge, box: {x: 0, y: 0, w: 63, h: 88}, text: "1"}\n'


def _past(run_cli, tmp_path: Path, badges: int) -> list[dict]:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "layouts" / "standard.yaml").write_text(
        "id: standard\nelements:\n" + BADGE * badges, encoding="utf-8"
    )
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "S004"]


def test_a_layout_past_the_badge_bound_is_said_at_its_first_badge_past_it(tmp_path, run_cli):
    bound = BadgeElement.most_per_layout or 200
    assert 50 <= bound <= 1_000  # far above the bundled layouts' 1, well under a second a face
    found = _past(run_cli, tmp_path / "a", bound + 1)
    assert [(Path(d["file"]).name, d["line"]) for d in found] == [("standard.yaml", 3 + bound)]
    assert "each disc is filled whole on every face" in found[0]["message"]
    assert _past(run_cli, tmp_path / "b", bound) == []
