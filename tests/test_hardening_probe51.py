"""Probe 51 (session 58): what a second look at templates and PO files still let through."""

from __future__ import annotations

import pytest

from tests.test_hardening_probe29 import _urlize_counted
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import LAYOUT, RENDER, TemplateLimitError


@pytest.mark.parametrize(
    ("source", "limits"),
    [
        # P51-1: 71 characters of a rulebook built 4 GB in 6.6 s: the target in every link
        ('{{ ("http://c.net "*2000)|urlize(target="x"*999999)|length }}', RENDER),
        ('{{ ("http://c.net "*1000)|urlize(rel="x"*999999)|length }}', RENDER),
        ('{{ ("http://c.net "*1000)|urlize(none, false, "x"*999999)|length }}', RENDER),
        # P51-2: the same in a card layout, under its 200,000 characters: 5 GB for 100 cards
        ("{{ ('http://c.net '*1000)|urlize(target='x'*150000)|length }}", LAYOUT),
    ],
)
def test_urlize_is_refused_before_it_writes_a_long_target_into_every_link(
    monkeypatch, source, limits
):
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=limits)
    calls = _urlize_counted(monkeypatch, sandbox)
    with pytest.raises(TemplateLimitError, match="writes them into every link"):
        sandbox.render(sandbox.template(source, "probe51-urlize"), {})
    assert calls == []  # refused before it ran


def test_urlize_with_a_target_still_links_a_text():
    sandbox = CachedSandbox(keep_trailing_newline=False, limits=RENDER)
    source = "{{ ('see https://example.com or www.x.org. ' * 200)|urlize(target='_blank') }}"
    said = sandbox.render(sandbox.template(source, "probe51-urlize-ok"), {})
    assert said.count('target="_blank"') == 400


@pytest.mark.parametrize("codec", ["punycode", "idna", "PUNYCODE"])
def test_a_po_file_naming_a_codec_decoded_in_python_is_refused_at_its_header(
    game, run_cli, tmp_path, codec
):
    # P51-3: punycode inserts each character into a list as long as the text so far, in
    # Python: a 6.3 MB PO file saying `charset=punycode` ran past 120 s of `i18n import`
    from tests.test_hardening_probe9_lows_files import DECK, _po

    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace("charset=UTF-8", f"charset={codec}"), encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if "charset=" in x)
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (message,) = [x for x in result.stderr.splitlines() if "one character at a time" in x]
    assert f"en.po:{line}: the header's charset '{codec}'" in message
    assert (game / DECK).read_bytes() == before
