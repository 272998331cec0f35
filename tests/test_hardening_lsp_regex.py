"""The language server's two patterns run on a line and on messages went back over the same
characters from each start (regex53's report): each is one pass now and finds what it found."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolkit.lsp import actions, names

OLD_RULES = re.compile(r"rules\.([\w.]*)$")
OLD_DID_YOU_MEAN = re.compile(r"did you mean \{?'?([^'?}]+)'?\}?\?")


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(["rules", ".", "x", "é_1", " ", "-", "rules.", "{{ "]), max_size=12)
)
def test_a_rules_path_is_found_as_before(parts: list[str]) -> None:
    before = "".join(parts)
    old = OLD_RULES.search(before)
    new = names.RULES.search(names._dotted_tail(before))
    assert (old and old.group(1)) == (new and new.group(1))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["did you mean ", "{", "'", "}", "?", "ab", " "]), max_size=10))
@example("did you mean {?")  # the brace given back: the name is "{"
def test_a_suggestion_is_read_as_before(parts: list[str]) -> None:
    message = "".join(parts)
    old = OLD_DID_YOU_MEAN.search(message)
    assert (old and old.group(1)) == actions.suggested(message)


def test_both_patterns_are_one_pass() -> None:
    """`rules.` repeated on a line took a completion 12 s; `did you mean ` repeated in a
    message, 58 s: minutes at these sizes, milliseconds now (a generous limit, in a process
    of its own)."""
    code = (
        "from toolkit.lsp import actions, names\n"
        "line = 'rules.' * 40_000 + ' '\n"
        "assert names.RULES.search(names._dotted_tail(line)) is None\n"
        "assert actions.suggested('did you mean ' * 40_000) is None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
