"""The rule examples' format: `examples/<CODE>.yaml` (a game's own rules:
`toolkit/games/<id>/rule_examples/<CODE>.yaml`), read and checked into typed objects.

```yaml
explain: |            # what the rule checks and why (Markdown)
base: fixture         # the shared base game (`base/`), a bundled game's id, or new-engine
                      # (the game `playset new example-game --lang en --engine` writes)
command: validate     # the command whose findings prove the example (validate, check, ...);
                      # {fail: …, pass: …} when the rule is about the command line itself
at: decks/cards.yaml:18   # where the failing example reports the code (file:line; in a
                          # sheet deck, .csv/.xlsx/.ods, the line is the cell's row)
also: []              # other codes the failing example may report with it (rare)
edits:                # the failing and passing examples, as edits of the base
  - file: decks/cards.yaml
    find: "en: Move {steps} spaces."     # text of the base, found exactly once
    fail: "en: Move {stpes} spaces."     # replaces it in the failing example
    pass: "en: Move {steps} spaces."     # replaces it in the passing one (default: find)
```

An edit without `find` sets the whole file: `fail`/`pass` is its text, null removes it, and an
absent `pass` leaves the base's file as it is. `repeat: N` writes the failing text N times;
`encoding: latin-1` writes the failing file in another encoding; `encoding: base64` gives a
binary file (an image) as base64 text, in both examples.
`unreachable: why` with `proof: tests/test_x.py::test_name` documents a rule no edit of a game's
files can produce; the named test produces (or proves unreachable) it another way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

EXAMPLES_DIR = Path(__file__).parent / "examples"
GAMES_DIR = Path(__file__).parent.parent / "games"  # a game's own rules: <id>/rule_examples/
BASE_DIR = Path(__file__).parent / "base"


def _example_files() -> dict[str, Path]:
    """Every example file by code: the toolkit's rules here, each game's beside its plugin."""
    paths = [*EXAMPLES_DIR.glob("*.yaml"), *GAMES_DIR.glob("*/rule_examples/*.yaml")]
    return {p.stem: p for p in sorted(paths)}


_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class Edit:
    """One change of one file, in the failing and in the passing example."""

    file: str
    find: str | None
    fail: str | None
    passing: str | None
    pass_given: bool = False
    repeat: int = 1
    encoding: str = "utf-8"

    def text(self, variant: str) -> str | None:
        """What this edit puts in place of `find` (or as the file) in a variant."""
        if variant == "fail":
            return None if self.fail is None else self.fail * self.repeat
        if self.pass_given:
            return self.passing
        return self.find


@dataclass(frozen=True, slots=True)
class RuleExample:
    """A rule's explanation and its failing and passing examples."""

    code: str
    explain: str
    base: str = "fixture"
    command: tuple[str, ...] = ("validate",)
    pass_command: tuple[str, ...] | None = None  # the passing example's, when it differs
    at_file: str = ""
    at_line: int = 0
    also: tuple[str, ...] = ()
    edits: tuple[Edit, ...] = field(default_factory=tuple)
    unreachable: str | None = None
    proof: str | None = None


class ExampleError(ValueError):
    """An example file that does not follow the format."""


def example_codes() -> list[str]:
    """Every rule code that has an example file, sorted."""
    return sorted(_example_files())


def _edit(raw: Any, where: str) -> Edit:
    if not isinstance(raw, dict) or not isinstance(raw.get("file"), str):
        raise ExampleError(f"{where}: an edit is a mapping with a `file`")
    unknown = set(raw) - {"file", "find", "fail", "pass", "repeat", "encoding"}
    if unknown:
        raise ExampleError(f"{where}: unknown edit keys {sorted(unknown)}")
    for key in ("find", "fail", "pass"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise ExampleError(f"{where}: `{key}` is text")
    if raw.get("find") is not None and "fail" not in raw:
        raise ExampleError(f"{where}: an edit with `find` needs `fail`")
    repeat = raw.get("repeat", 1)
    if not isinstance(repeat, int) or repeat < 1:
        raise ExampleError(f"{where}: `repeat` is a positive whole number")
    return Edit(
        file=raw["file"],
        find=raw.get("find"),
        fail=raw.get("fail"),
        passing=raw.get("pass"),
        pass_given="pass" in raw,
        repeat=repeat,
        encoding=str(raw.get("encoding", "utf-8")),
    )


def load_example(code: str) -> RuleExample:
    """The example of one rule code; KeyError when it has none."""
    path = _example_files().get(code)
    if path is None:
        raise KeyError(code)
    raw = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("explain"), str):
        raise ExampleError(f"{path.name}: needs an `explain` text")
    known = {"explain", "base", "command", "at", "also", "edits", "unreachable", "proof"}
    unknown = set(raw) - known
    if unknown:
        raise ExampleError(f"{path.name}: unknown keys {sorted(unknown)}")
    unreachable = raw.get("unreachable")
    at_file, at_line = "", 0
    if unreachable is not None and not str(raw.get("proof", "")).startswith("tests/"):
        raise ExampleError(f"{path.name}: an unreachable rule names its `proof` test")
    if unreachable is None:
        at = str(raw.get("at", ""))
        file, _, line = at.rpartition(":")
        if not file or not line.isdigit():
            raise ExampleError(f"{path.name}: `at` is file:line")
        at_file, at_line = file, int(line)
    command = raw.get("command", "validate")
    pass_command = None
    if isinstance(command, dict):
        if set(command) != {"fail", "pass"}:
            raise ExampleError(f"{path.name}: `command` is text or {{fail: …, pass: …}}")
        command, pass_command = command["fail"], tuple(str(command["pass"]).split())
    if unreachable is None and not raw.get("edits") and pass_command is None:
        raise ExampleError(f"{path.name}: needs `edits` (or a failing and a passing command)")
    return RuleExample(
        code=code,
        explain=raw["explain"].strip(),
        base=str(raw.get("base", "fixture")),
        command=tuple(str(command).split()),
        pass_command=pass_command,
        at_file=at_file,
        at_line=at_line,
        also=tuple(raw.get("also") or ()),
        edits=tuple(
            _edit(e, f"{path.name} edit {i}") for i, e in enumerate(raw.get("edits") or [])
        ),
        unreachable=unreachable,
        proof=raw.get("proof"),
    )
