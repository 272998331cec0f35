"""A layout holds at most `BoxElement.most_per_layout` boxes (probe 47 K10): a rasteriser
fills every box whole on every face, so one layout of 8,000 full-card boxes took `export png`
10.7 s for one card (4,000 with a 10 mm stroke and round corners 7.4 s), validate clean. Now
S004 at the first box past the bound, and the layout is not used."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.render.elements.box import BoxElement

BOX = (
    '  - {kind: box, box: {x: 0, y: 0, w: 63, h: 88}, fill: "#336699", stroke: "#000000",'
    " stroke_mm: 10, radius_mm: 44}\n"
)


def _game(tmp_path: Path, run_cli, boxes: int) -> Path:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "layouts" / "standard.yaml").write_text(
        "id: standard\nelements:\n" + BOX * boxes, encoding="utf-8"
    )
    return root


def _past(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "S004"]


def test_a_layout_past_the_box_bound_is_said_at_its_first_box_past_it(tmp_path, run_cli):
    bound = BoxElement.most_per_layout or 200  # (none before: no S004 then)
    assert 50 <= bound <= 1_000  # far above the bundled layouts' 9, under ~1 s a face
    root = _game(tmp_path, run_cli, bound + 1)
    found = _past(run_cli, root)
    assert [(Path(d["file"]).name, d["line"], d["severity"]) for d in found] == [
        ("standard.yaml", 3 + bound, "error")
    ], found
    assert f"more than {bound} elements of kind 'box'" in found[0]["message"]
    assert "filled whole on every face" in found[0]["message"]
    result = run_cli("build", str(root), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code != 0  # the layout is not used: the build refuses the game


def test_a_layout_at_the_box_bound_is_used(tmp_path, run_cli):
    bound = BoxElement.most_per_layout or 200
    assert _past(run_cli, _game(tmp_path, run_cli, bound)) == []
