"""Probe 14c (issue #33), content surface: a PO file naming the `undefined` codec, printed
carriage returns in a rulebook, `_xHHHH_` texts written to XLSX, and the Lows."""

from __future__ import annotations

import pytest

from tests.test_hardening_probe9_lows_files import DECK, _po


def test_a_po_file_naming_the_undefined_codec_is_refused_at_its_header(game, run_cli, tmp_path):
    # `data.decode('undefined')` raises a UnicodeError that is no UnicodeDecodeError: a
    # traceback
    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace("charset=UTF-8", "charset=undefined"), encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if "charset=" in x)
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (message,) = [x for x in result.stderr.splitlines() if "cannot decode" in x]
    assert f"en.po:{line}: the header's charset 'undefined' cannot decode anything" in message
    assert (game / DECK).read_bytes() == before


# --- M2: printed carriage returns and R010's word placing --------------------------------


@pytest.mark.parametrize("count", [1, 3, 40])
def test_printed_carriage_returns_are_line_breaks_to_the_word_bound(game, count):
    # markdown-it counts `\r` as a line break, R010's word placing counted `\n` only: 40
    # printed CRs before a long word were a traceback (ValueError), 3 a wrong line
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    loaded = load_game(game)
    places = []
    for newline in ("\\r", "\\n"):
        source = (
            f"# T\n\n{{{{ '{newline}' * {count} }}}}Intro.\n\nMore.\n\n"
            f"**{'a' * 1001}**\n\nAfter a turn.\n\nAnd {'b' * 80}.\n"
        )
        with pytest.raises(RulebookError, match="a word of 1,001 characters") as caught:
            render_markdown(loaded, "en", source)
        places.append((caught.value.line, caught.value.col))
    assert places[0] == places[1] == (7 + count, 3)
