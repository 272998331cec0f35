"""R rules: ids declared once, references that resolve, placeholders bound, files listed."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from toolkit.checks import CheckFamily, register, wanted
from toolkit.checks.framed import framed
from toolkit.content.board_phrases import Phrase, phrase_problems, phrases
from toolkit.content.folders import TOOL_FOLDERS, modeline_schema_exists, real_paths
from toolkit.content.game import Game
from toolkit.content.models.base import Declares
from toolkit.content.sheets import KEYS_SUFFIX, SUFFIXES
from toolkit.content.suggest import Budget, Pool
from toolkit.content.templating import (
    NAME,
    escaped_message,
    escaped_names,
    lone_brace_message,
    lone_braces,
    parameter_names,
    parameter_values,
    placeholders,
)
from toolkit.content.unit_cache import Clean
from toolkit.content.walk import Facts, Reference, Text
from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.fileio import files_under, real_path

R_DUPLICATE_ID = rule("R003", "duplicate-id", "An id is declared twice in the same namespace.")
R_UNKNOWN_REF = rule("R004", "unknown-reference", "A reference names an id that does not exist.")
R_WRONG_KIND = rule("R005", "wrong-kind-reference", "A reference names an id of another kind.")
R_PLACEHOLDER = rule(
    "R006", "unbound-placeholder", "A text {placeholder} names no parameter of its card."
)
R_UNLISTED = rule(
    "R008",
    "unlisted-file",
    "A content file sits in the game folder but game.yaml does not list it.",
    Severity.WARNING,
)

R_MISSING_SCHEMA = rule(
    "R009",
    "missing-schema",
    "An editor modeline (`# yaml-language-server: $schema=…`) names a schema file that does"
    " not exist (one finding per game).",
    Severity.WARNING,
)
MODELINE = re.compile(r"^[ \t]*#[ \t]*yaml-language-server:[ \t]*\$schema=(\S+)", re.MULTILINE)

CONTENT_DIRS = {"decks": "decks", "boards": "boards", "questions": "questions"}


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    yield from _duplicates(facts)
    budget = Budget()  # the 'did you mean' searches of the run, in the order they are met
    yield from _references(facts, _unread(game), budget)
    yield from _placeholders(facts, budget)
    if wanted(R_UNLISTED):  # these two only warn: the validity gate's run leaves them out
        # reads the game folder's listing and game.yaml, no content file: kept whole while
        # no other file changes (after one card edit the folders were listed again)
        yield from framed("references-unlisted", _unlisted, game)
    if wanted(R_MISSING_SCHEMA):
        yield from _modelines(game)


def _duplicates(facts: Facts) -> Iterator[Diagnostic]:
    first: dict[tuple[str, str], Any] = {}
    for decl in facts.declared:
        key = (decl.namespace, decl.id)
        if key in first:
            prev = first[key]
            assert decl.file.doc is not None and prev.file.doc is not None
            first_at = prev.file.doc.span(prev.path)
            line = first_at.cell or first_at.line  # a sheet's cell, `souvenirs!A2`
            yield R_DUPLICATE_ID.at(
                decl.file.rel,
                decl.file.doc.span(decl.path),
                f"{decl.namespace} id {decl.id!r} is already declared at {prev.file.rel}:{line}",
            )
        else:
            first[key] = decl


def _unread(game: Game) -> frozenset[str]:
    """Namespaces whose ids are unknown because the file declaring them could not be read at
    all (a glossary with a YAML error): a reference into one is not reported as unknown."""
    glossary = game.glossary
    if glossary is None or glossary.model is not None or glossary.partial is not None:
        return frozenset()
    return frozenset(_terms())


def _terms() -> tuple[str, ...]:
    """The namespaces a glossary declares ids in (its model imported only when asked)."""
    from toolkit.content.models.glossary import GlossaryTerm

    fields = GlossaryTerm.model_fields["id"].metadata
    return tuple(m.namespace for m in fields if isinstance(m, Declares))


def _references(
    facts: Facts, unread: frozenset[str] = frozenset(), budget: Budget | None = None
) -> Iterator[Diagnostic]:
    ids: dict[str, dict[str, str | None]] = defaultdict(dict)
    for decl in facts.declared:
        ids[decl.namespace].setdefault(decl.id, decl.kind)
    pools: dict[tuple[str, str | None], Pool] = {}  # each namespace's ids (of a kind), once
    for ref in facts.refs:
        doc = ref.file.doc
        assert doc is not None
        known = ids.get(ref.namespace, {})
        if ref.id not in known and (ref.id in facts.withheld or ref.namespace in unread):
            continue  # its entry has a schema error of its own, or its file a YAML error
        if ref.id not in known:
            pool = pools.get((ref.namespace, ref.kind))
            if pool is None:
                names = [i for i, k in known.items() if ref.kind is None or k == ref.kind]
                pool = pools[(ref.namespace, ref.kind)] = Pool(names, budget)
            close = pool.close(ref.id)
            tip = f"; did you mean {close!r}?" if close is not None else ""
            what = f"{ref.kind or ref.namespace}"
            yield R_UNKNOWN_REF.at(ref.file.rel, _at(ref), f"no {what} with id {ref.id!r}{tip}")
        elif ref.kind is not None and known[ref.id] != ref.kind:
            yield R_WRONG_KIND.at(
                ref.file.rel,
                _at(ref),
                f"{ref.id!r} is a {known[ref.id]}, but a {ref.kind} is expected here",
            )


def _at(ref: Reference) -> Span:
    """Where a reference is written: looked up only for a finding (a file read back from
    `validate`'s units decodes its spans when one is first asked for, toolkit.content.
    parse_units.LazySpans: a clean run of the references asks for none)."""
    doc = ref.file.doc
    assert doc is not None
    return doc.key_span(ref.path) if ref.is_key else doc.span(ref.path)


def _placeholders(facts: Facts, budget: Budget | None = None) -> Iterator[Diagnostic]:
    """R006 of every content text. With `validate`'s units active, a file whose every text
    had nothing to say in the last run, none of them a phrase, is skipped whole when
    nothing it is read from changed (toolkit.content.unit_cache.Clean by file): a text's
    findings are a function of its values and its owner's parameters, both in its file (a
    phrase's may depend on another file's labels: its file is never skipped). After one
    card edit only the edited file's texts are looked through. A skipped text had no
    unknown name, so it asked no 'did you mean' of `budget`."""
    phrase_of = phrases(facts)
    pools: dict[frozenset[str], Pool] = {}  # by the params: cards aliasing them share theirs
    budget = budget if budget is not None else Budget()
    clean = Clean("clean-placeholders")
    for loaded, texts in facts.by_file():
        # a file is kept with no phrase among its texts, and which texts are phrases is
        # told by the file itself (a board's labels) and the boards and glossary (a term a
        # board's label names), all in the file's name in the frame: a file seen has none
        if clean.on and clean.file_seen(loaded):
            continue  # every text of its file clean, and nothing they are read from changed
        for text in texts:
            phrase = phrase_of(text)
            said = yield from _said(_check_text(text, phrase, budget, pools))
            if clean.on:  # (the file is what is kept: no digest of each text)
                clean.noted(loaded, "", not said and phrase is None and _plain(text))
    clean.close()


def _said(found: Iterator[Diagnostic]) -> Generator[Diagnostic, None, bool]:
    """The findings of `found`, passed on; returns whether there was any."""
    said = False
    for each in found:
        said = True
        yield each
    return said


def _plain(text: Text) -> bool:
    """Whether what a text's R006 findings are a function of, but for the places they
    name, is texts: its values by language and, when one may name a placeholder, its
    owner's parameters (a file is kept clean only with such texts). The check asks its
    files by name alone, never a text's digest (it kept ~900 digests no run read)."""
    if not any("{" in value for value in text.value.values()):
        return True
    parameters = parameter_values(text.owner)
    return all(type(k) is str and type(v) is str for k, v in parameters.items())


def _check_text(
    text: Text, phrase: Phrase | None, budget: Budget, pools: dict[frozenset[str], Pool]
) -> Iterator[Diagnostic]:
    doc = text.file.doc
    assert doc is not None
    if phrase is not None:  # a board phrase: its braces hold the phrase's names alone
        for lang, value in text.value.items():
            for message in phrase_problems(value, lang, phrase):
                yield R_PLACEHOLDER.at(text.file.rel, doc.span((*text.path, lang)), message)
        return
    allowed: frozenset[str] | None = None
    for lang, value in text.value.items():
        if "{{" in value:
            allowed = parameter_names(text.owner) if allowed is None else allowed
            for written in escaped_names(value):  # any name: a misspelt one prints too
                yield R_PLACEHOLDER.at(
                    text.file.rel, doc.span((*text.path, lang)), escaped_message(written, lang)
                )
        for written in lone_braces(value):
            span = doc.span((*text.path, lang))
            yield R_PLACEHOLDER.at(text.file.rel, span, lone_brace_message(written, lang))
        for name in dict.fromkeys(placeholders(value)):  # a name once a text (probe 21)
            if allowed is None:
                allowed = parameter_names(text.owner)
            if not NAME.match(name):
                span = doc.span((*text.path, lang))  # looked up for a finding only
                yield R_PLACEHOLDER.at(text.file.rel, span, f"malformed placeholder {{{name}}}")
            elif name not in allowed:
                span = doc.span((*text.path, lang))
                pool = pools.get(allowed)
                if pool is None:
                    pool = pools[allowed] = Pool(sorted(allowed), budget)
                close = pool.close(name)
                tip = f"; did you mean {{{close}}}?" if close is not None else ""
                yield R_PLACEHOLDER.at(
                    text.file.rel,
                    span,
                    f"placeholder {{{name}}} ({lang}) names no parameter of this"
                    f" {_owner_word(text.owner)}{tip}",
                )


def _owner_word(owner: object) -> str:
    """What a finding calls the entry a text belongs to: a card, a board, else an entry."""
    name = type(owner).__name__
    return "card" if "Card" in name else "board" if "Board" in name else "entry"


def _unlisted(game: Game) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    manifest = game.manifest_file
    assert manifest is not None and manifest.doc is not None
    root = real_path(game.root)
    for folder in CONTENT_DIRS:
        base = game.root / folder
        if not base.is_dir() or folder in game.broken_lists:
            continue
        if not real_path(base).is_relative_to(root):
            continue  # a link out of the game: its files are no game's (never listed: probe71-5)
        found = [  # bounded in depth, as rglob was not; a tool's folder holds no stray
            path  # deck (`.git`, `node_modules`: never walked by the findings cache either)
            for path in files_under(base)
            if TOOL_FOLDERS.isdisjoint(path.relative_to(base).parts[:-1])
        ]
        for path in [
            *sorted(p for p in found if p.suffix == ".yaml"),
            *sorted(p for p in found if p.suffix == ".yml"),
        ]:
            if real_path(path) not in game.listed:
                rel = path.relative_to(game.root).as_posix()
                where = ("files", folder) if ("files", folder) in manifest.doc.key_spans else ()
                yield R_UNLISTED.at(
                    manifest.rel,
                    manifest.doc.key_span(where or ("files",)),
                    f"{rel} is not listed under files.{folder} in game.yaml{_sheet_hint(path)}",
                )


def _sheet_hint(path: Path) -> str:
    """For a sheet's keys file (`cards.deck.yaml` beside `cards.ods`, as `playset convert`
    writes them), which file to list: the sheet, which is read with its keys file."""
    if not path.name.endswith(KEYS_SUFFIX):
        return ""
    stem = path.name[: -len(KEYS_SUFFIX)]
    sheets = [path.with_name(stem + suffix) for suffix in SUFFIXES]
    found = [sheet.name for sheet in sheets if sheet.is_file()]
    if not found:
        return ""
    return f"; it holds the keys of the sheet {found[0]}: list the sheet, its keys are read with it"


def _modelines(game: Game) -> Iterator[Diagnostic]:
    """One warning per game when editor modelines point at schema files that are not there
    (a game folder moved away from its schemas, or a file copied from a bundled game):
    completion and checks in the editor silently stop. URLs are not followed, nor paths
    outside the game folder and the toolkit's schemas (whether they exist is not told)."""
    broken: list[tuple[str, Span, str]] = []
    real = real_paths()
    for loaded in game.files():
        doc = loaded.doc
        found = MODELINE.search(doc.text) if doc is not None else None
        if doc is None or found is None or "://" in found.group(1):
            continue
        target = found.group(1)
        if modeline_schema_exists(doc.path, target, game.root, real) is False:
            line = doc.text.count("\n", 0, found.start(1)) + 1
            col = found.start(1) - (doc.text.rfind("\n", 0, found.start(1)) + 1) + 1
            broken.append((loaded.rel, Span(line, col, line, col + len(target)), target))
    if not broken:
        return
    rel, span, target = broken[0]
    more = f"; so do {len(broken) - 1} more file(s) of this game" if len(broken) > 1 else ""
    yield R_MISSING_SCHEMA.at(
        rel,
        span,
        f"the editor modeline names {target!r}, which does not exist{more}: the editor"
        " cannot check or complete them. `playset schemas export --into DIR` writes the"
        " schemas (beside the game, as `playset new` does); point the modelines at them",
    )


register(
    CheckFamily("references", "Ids, terms and placeholders name something that exists.", check)
)
