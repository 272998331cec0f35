"""A Markdown image in a rulebook prints only its alt text (a rulebook prints no pictures):
validate says so, R012 at the image, with where a picture goes instead; build still works."""

from __future__ import annotations

import json

from pypdf import PdfReader

from tests.starter_games import rulebook_game

BOOK = """# Rules

Some text, then a picture: ![The board](images/board.png "Board").

`![in code](x.png)` is code, not an image.

```
![in a fence](y.png)
```

![](missing.png)
"""


def _game(run_cli, tmp_path):
    return rulebook_game(run_cli, tmp_path, BOOK, "pics")


def test_a_rulebook_image_is_r012_at_the_image(run_cli, tmp_path):
    game = _game(run_cli, tmp_path)
    result = run_cli("validate", str(game), "--no-cache", "--format", "json", "--select", "R012")
    assert result.exit_code == 0, result.output  # a warning: the build prints the alt text
    found = [d for d in json.loads(result.stdout) if d["file"].endswith("en.md")]
    assert [(d["code"], d["severity"], d["line"], d["col"]) for d in found] == [
        ("R012", "warning", 3, 28),
        ("R012", "warning", 11, 1),
    ]
    assert (
        "`![The board](images/board.png)` prints only its text 'The board'" in (found[0]["message"])
    )
    assert "style: cover: images/board.png" in found[0]["message"]


def test_the_build_still_prints_the_alt_text(run_cli, tmp_path):
    game = _game(run_cli, tmp_path)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--only", "rulebook", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = "".join(p.extract_text() for p in PdfReader(out / "pics" / "en" / "rulebook.pdf").pages)
    assert "The board" in text
