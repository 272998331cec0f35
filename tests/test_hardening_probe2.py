"""Second probe of issue 33's surfaces: what the first round's fixes still let through."""

from __future__ import annotations

import pytest

from tests.conftest import REPO


def test_a_rulebook_word_too_long_to_lay_out_is_refused_at_its_line():
    # reportlab re-hyphenates the rest of a word on every line it breaks: a 200,000-character
    # word took 36 s to lay out, a 1,000,000-character one (within the output limit) minutes
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    game = load_game(REPO / "content" / "drinking-heroes")
    source = "# Title\n\nSome words.\n\nSee {{ 'x' * 5000 }} here.\n"
    with pytest.raises(RulebookError) as caught:
        render_markdown(game, "en", source)
    assert (caught.value.line, caught.value.col) == (5, 5)
    assert "5,000 characters" in str(caught.value)
    ordinary = "# Title\n\nSee https://example.com/" + "a" * 200 + " here.\n"
    assert "example.com" in render_markdown(game, "en", ordinary)


def test_wordwrap_of_a_huge_text_is_refused_before_the_work():
    # one wordwrap call runs without looking at the clock: 1,000,000 characters at width 1
    # took 22 s, far past the 5 s a render may take (and for ever in a preview thread)
    from toolkit.render import template_bounds
    from toolkit.render.jinja_cache import CachedSandbox

    sandbox = CachedSandbox(keep_trailing_newline=False)
    with pytest.raises(template_bounds.TemplateLimitError, match="wordwrap"):
        sandbox.render(sandbox.template("{{ ('x' * 999999)|wordwrap(1) }}", "t"), {})
    wrapped = sandbox.render(sandbox.template("{{ 'ab cd ef'|wordwrap(5) }}", "t"), {})
    assert wrapped == "ab cd\nef"


def test_an_empty_xlink_href_does_not_hide_the_plain_href_svglib_follows(tmp_path):
    # svglib reads `xlink:href or href`: an empty xlink:href made the guard look at "" (fine)
    # while svglib followed the plain href; the guard now reads the same attribute
    from toolkit.render import svg_guard

    icons = tmp_path / "game" / "icons"
    icons.mkdir(parents=True)
    (tmp_path / "secret.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    icon = icons / "x.svg"
    icon.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="10" height="10">\n'
        '  <use xlink:href="" href="../../secret.svg#s"/>\n</svg>\n'
    )
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and (refusal.line, refusal.col) == (2, 3)
    assert "leads outside the icons/ folder" in refusal.message


def test_a_journal_entry_that_cannot_be_renamed_is_a_note_not_a_traceback(tmp_path):
    # the journal is data in the game folder: an entry whose target is a folder made
    # `i18n import` end in IsADirectoryError before it read the PO file
    from toolkit import journal

    (tmp_path / "decks").mkdir()
    staged = tmp_path / ".x.abcdefgh.tmp"
    staged.write_text("x")
    entries = f'[["{staged}", "{tmp_path / "decks"}"]]'
    (tmp_path / journal.JOURNAL).write_text(entries)
    notes = journal.recover(tmp_path)
    assert (tmp_path / "decks").is_dir() and not (tmp_path / journal.JOURNAL).exists()
    assert any("could not be put in place" in note and "decks" in note for note in notes)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[]" + " " * 2_000_000])
def test_a_deeply_nested_or_huge_journal_is_removed_not_a_traceback(tmp_path, text):
    # json.loads raised RecursionError on a nested journal (not caught) and a journal of any
    # size was read whole: both before i18n import read the PO file
    from toolkit import journal

    (tmp_path / journal.JOURNAL).write_text(text)
    notes = journal.recover(tmp_path)
    assert notes == [f"removed an unreadable {journal.JOURNAL}"]
    assert not (tmp_path / journal.JOURNAL).exists()


def test_a_rulebook_paragraph_or_text_too_long_to_lay_out_is_refused():
    # reportlab re-wraps the rest of a paragraph at every page it splits: 150,000 characters
    # in one paragraph took 4 s, 1,000,000 (within the 4,000,000 a template may print) > 40 s
    from toolkit.content.game import load_game
    from toolkit.render import rulebook_source
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    game = load_game(REPO / "content" / "drinking-heroes")
    source = "# Title\n\nShort.\n\n{{ 'word ' * 20000 }}\n\nAfter.\n"
    with pytest.raises(RulebookError) as caught:
        render_markdown(game, "en", source)
    assert (caught.value.line, caught.value.col) == (5, 1)
    assert "paragraph of 100,000 characters" in str(caught.value)
    # (24 paragraphs written in the template: built with `*`, they pass a language's share
    # of what a rulebook may build first)
    many = "# Title\n\n{% for i in range(24) %}" + "word " * 9000 + "\n\n{% endfor %}"
    with pytest.raises(RulebookError, match="prints 1,080,057 characters, more than the 1,000,000"):
        render_markdown(game, "en", many)
    assert rulebook_source.MAX_PARAGRAPH < 100_000 < rulebook_source.MAX_RENDERED


def test_an_output_link_a_game_folder_brings_is_not_followed(tmp_path, run_cli, monkeypatch):
    """`./output` as a link came with the folder, not from the user: build, export and
    calibrate write nothing through it; an `--out` naming it is the user's choice."""
    assert run_cli("new", "linked", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "linked"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (game / "output").symlink_to(elsewhere)
    monkeypatch.chdir(game)
    for args in (["build"], ["export", "png"], ["calibrate"]):
        result = run_cli(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "symbolic link" in " ".join(result.output.split())
    assert list(elsewhere.iterdir()) == []
    assert run_cli("calibrate", "--out", "output").exit_code == 0
    assert [p.name for p in elsewhere.iterdir()] == ["calibration-a4.pdf"]


def test_every_bad_reference_of_an_icon_is_named_at_its_line(tmp_path):
    # s51: P008 named only the first bad href of an icon; the designer met the next one
    # only at the next validate. The first is where the finding is; the others, at their
    # lines, follow (the first 5, then a count)
    from toolkit.render import svg_guard

    icons = tmp_path / "game" / "icons"
    icons.mkdir(parents=True)
    (icons / "ok.png").write_bytes(b"")
    lines = [f'  <image href="../../secret{i}.png" width="1" height="1"/>' for i in range(8)]
    lines.insert(1, '  <image href="ok.png" width="1" height="1"/>')
    lines.insert(3, '  <use href="missing.svg#s"/>')
    icon = icons / "x.svg"
    icon.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
        + "\n".join(lines)
        + "\n</svg>\n"
    )
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and (refusal.line, refusal.col) == (2, 3)
    message = refusal.message
    assert message.startswith("href '../../secret0.png' leads outside the icons/ folder")
    assert "line 4: href '../../secret1.png' leads outside" in message, message
    assert "line 5: href 'missing.svg#s' names no file of the icons/ folder" in message
    assert "line 8: href '../../secret4.png'" in message and "secret5" not in message
    assert message.endswith("; and 3 more)") and "ok.png" not in message
