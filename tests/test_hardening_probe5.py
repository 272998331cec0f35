"""Findings of the fifth hostile-input probe (issue #33's re-probe), each with its test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">'
)


def _icons(tmp_path: Path) -> Path:
    from PIL import Image

    icons = tmp_path / "icons"
    icons.mkdir()
    Image.new("1", (100, 100)).save(icons / "b.png")  # 10,000 pixels
    return icons


@pytest.mark.parametrize(
    ("prefix", "each"),
    [
        ("", '<image xlink:href="b.png" width="5" height="5"/>'),
        (
            '<defs><image id="i" xlink:href="b.png" width="5" height="5"/></defs>',
            '<use xlink:href="#i"/>',
        ),
        ("", '<use xlink:href="inner.svg#i"/>'),
    ],
    ids=["images", "uses", "another-file"],
)
def test_the_pictures_an_icon_draws_are_bounded_together_not_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str, each: str
):
    # P2: the pixel bound held per picture: a 2 kB PNG of 16 M pixels drawn 200 times from
    # a 13 kB icon (each <image>, or each <use> of one, decodes it again) took minutes
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_PIXELS", 25_000)  # two and a half pictures
    icons = _icons(tmp_path)
    (icons / "inner.svg").write_text(
        f'{SVG_OPEN}<image id="i" xlink:href="b.png" width="5" height="5"/></svg>\n'
    )
    icon = icons / "x.svg"
    icon.write_text(f"{SVG_OPEN}{prefix}{each * 3}</svg>\n")
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None
    assert "pixels together" in refusal.message
    # one of them (a <defs> picture counts as drawn, as svglib may) stays within it
    icon.write_text(f"{SVG_OPEN}{prefix}{each}</svg>\n")
    assert svg_guard.check(icon, icons) is None


@pytest.mark.parametrize(
    "compare",
    ["t in a", "a == b", "a.count(t)", "a.index(s)", "a|sort|length", "a.sort()"],
)
def test_a_comparison_of_lists_of_long_texts_is_bounded_by_their_characters(compare: str):
    # P6: a comparison of lists runs in C, out of the deadline's reach, and was bounded by
    # items only: `t in a` over 99,999 references to a 1,000,000-character text took 3.4 s,
    # ten of them in one list literal 25 s (the 5 s deadline never looked). Here 20 such
    # references (20,000,000 characters): refused before the comparison runs.
    from toolkit.render import jinja_cache
    from toolkit.render.template_bounds import TemplateLimitError

    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False, immutable=False)
    source = (
        '{% set s = "x"*999999 %}{% set t = ("x"*999998) ~ "y" %}{% set a = [s]*20 %}'
        '{% set b = [("x"*999998) ~ "x"]*20 %}{{ ' + compare + " }}"
    )
    with pytest.raises(TemplateLimitError, match="16,000,000 characters"):
        sandbox.render(sandbox.template(source, "probe5"), {})
    small = source.replace("*20 %}", "*3 %}")  # 3,000,000 characters: compared as before
    assert sandbox.render(sandbox.template(small, "probe5"), {}) != ""


def test_select_and_ignore_know_every_rule_in_a_fresh_process():
    # P7: `validate --select R010` (or P008, T012…) said "no rule matches R010" and exited 2:
    # only `toolkit.checks` was imported before the prefixes were matched, and it declares
    # none of the rulebook, print or translation rules (in one pytest process an earlier
    # test had imported them, so only a fresh process shows it)
    import subprocess
    import sys

    from tests.conftest import REPO

    for option in ("--select", "--ignore"):
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "validate", "muckle-stoater", option, "R010,P008"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            timeout=120,
        )
        assert "no rule matches" not in done.stderr + done.stdout
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "ref", ['<image xlink:href="missing.png"/>', '<use xlink:href="gone.svg#p"/>']
)
def test_an_icon_naming_a_file_icons_lacks_is_refused(tmp_path: Path, ref: str):
    # probe 17a L2: svglib leaves a missing picture or SVG out without a word, and the icon
    # printed with a hole in it after a clean validate
    from toolkit.render import svg_guard

    icons = _icons(tmp_path)
    icon = icons / "x.svg"
    icon.write_text(f"{SVG_OPEN}{ref}</svg>\n")
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and "names no file of the icons/ folder" in refusal.message
    icon.write_text(f'{SVG_OPEN}<image xlink:href="b.png"/><use xlink:href="#a"/></svg>\n')
    assert svg_guard.check(icon, icons) is None
