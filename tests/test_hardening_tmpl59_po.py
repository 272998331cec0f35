"""Probe 53-11 (session 59, helper tmpl59): the PO file's bounds read its lines as polib does.
A blank line between two continuation lines reset the count of a text's lines and bytes, but
polib joins them (an 8 MB msgstr: `i18n import` 14.9 s, 1.45 GB); an indented entry was no
entry for the count and one for polib (150,000 entries past the 20,000 allowed)."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from toolkit.fileio import InputError
from toolkit.i18n import po_bounds

PO_HEAD = (
    'msgid ""\nmsgstr ""\n"Project-Id-Version: pofile\\n"\n"Language: fr\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
)
HEAD_LINES = PO_HEAD.count("\n")


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(po_bounds, "MAX_ENTRIES", 5)
    monkeypatch.setattr(po_bounds, "MAX_ENTRY_LINES", 10)
    monkeypatch.setattr(po_bounds, "MAX_ENTRY_BYTES", 1000)


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        # blank lines (and lines polib skips) between continuation lines: one text to polib
        ('msgid "x"\nmsgstr ""\n' + '"y"\n\n' * 11, 2, "more than 10 lines"),
        ('msgid "x"\nmsgstr ""\n' + f'"{"y" * 300}"\n\n\n' * 4, 2, "1,000 bytes"),
        ('msgid "x"\nmsgstr ""\n' + '"y"\n#~| z\n' * 11, 2, "more than 10 lines"),
        ('msgid "x"\nmsgstr ""\n' + '"y"\n#:\n#,\n#.\n' * 11, 2, "more than 10 lines"),
        # indented lines: polib strips every line (Unicode spaces too) before reading it
        ('msgid "x"\nmsgstr ""\n' + ' "y"\n' * 11, 2, "more than 10 lines"),
        ('msgid "x"\nmsgstr ""\n' + '\u3000"y"\n' * 11, 2, "more than 10 lines"),
        ('msgid "x"\n  msgstr "' + "y" * 1200 + '"\n', 2, "1,000 bytes"),
        ("".join(f' msgctxt "c{i}"\n msgid "x"\n msgstr "y"\n' for i in range(6)), 14, "entries"),
        ("".join(f'\t#~ msgid "x{i}"\n#~ msgstr "y"\n' for i in range(6)), 9, "entries"),
    ],
)
def test_a_text_is_counted_as_polib_joins_it(small, tmp_path: Path, body, line, message) -> None:
    po = tmp_path / "fr.po"
    po.write_text(PO_HEAD + body, encoding="utf-8")
    with pytest.raises(InputError, match=message) as raised:
        po_bounds.read_po_file(po)
    assert raised.value.line == HEAD_LINES + line


@pytest.mark.parametrize(
    "body",
    [
        'msgid "x"\nmsgstr ""\n' + '"y"\n' * 10,  # at the limit
        "".join(f'msgid "x{i}"\nmsgstr ""\n' + '"y"\n' * 6 + "\n" for i in range(4)),
        # a comment ends the text for polib: the next text is a new one (a syntax error
        # there, for polib itself, but no long text)
        'msgid "x"\nmsgstr ""\n' + '"y"\n# note\n' * 11,
    ],
)
def test_texts_within_the_bounds_are_read(small, tmp_path: Path, body) -> None:
    po = tmp_path / "fr.po"
    po.write_text(PO_HEAD + body, encoding="utf-8")
    assert po_bounds.read_po_file(po).startswith('msgid ""')


def test_the_count_follows_polib_on_blank_and_indented_lines(tmp_path: Path) -> None:
    # what the bounds count as one text is what polib makes one msgstr of
    body = 'msgid "x"\nmsgstr ""\n' + '"ab"\n\n  "cd"\n#~| z\n#:\n\u2003"ef"\n'
    po = tmp_path / "fr.po"
    po.write_text(PO_HEAD + body, encoding="utf-8")
    text = po_bounds.read_po_file(po)
    parsed = polib.pofile(text)
    assert [entry.msgstr for entry in parsed] == ["abcdef"]
    kinds = [po_bounds._line_kind(line)[0] for line in body.split("\n")]
    assert kinds.count(po_bounds.CONTINUED) == 3
