"""What the page shows, as one JSON-ready state: decks with their cards' faces per language
(image keys and versions), boards and rulebooks with their pages, the diagnostics by place,
counts, and what the last save did. The page builds itself from it and from each event.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.diagnostics import Diagnostic, Severity
from toolkit.preview.attach import place
from toolkit.preview.cache import page_key
from toolkit.render.deps import Target, card_keys, deck_specs

if TYPE_CHECKING:
    from toolkit.preview.live import Preview


def _versions(preview: Preview, target: Target) -> list[int] | None:
    count = preview.cache.counts.get(target.key)
    if count is None:
        return None
    return [
        page.version if (page := preview.cache.page(page_key(target, i))) else 0
        for i in range(count)
    ]


def page_state(preview: Preview) -> dict[str, Any]:
    """Everything the page needs, as JSON-ready data (call with the cache's lock held)."""
    game = preview.shown
    if game is None or game.manifest is None:
        placed = {"game": [{**d.to_dict(), "where": _where(d)} for d in preview.diagnostics]}
        return {"revision": preview.revision, "game": None, "sections": [], "placed": placed}
    manifest = game.manifest
    langs = list(manifest.languages)
    targets = preview.snap.targets
    placed = place(preview.diagnostics, game, preview.on_disk)
    stale = preview.stale

    def face(key: str) -> dict[str, Any] | None:
        target = targets.get(key)
        if target is None:
            return None
        versions = _versions(preview, target)
        version = versions[0] if versions else 0
        if key in stale:  # a save changed it: the page asks for it again when it shows it
            version += 1
        return {"key": key, "version": version, "error": preview.cache.errors.get(key)}

    sections: list[dict[str, Any]] = []
    for spec in deck_specs(game):
        cards = []
        for part, card in card_keys(spec.deck.cards):
            base = f"card/{spec.id}/{part}"
            cards.append(
                {
                    "id": part,
                    "place": base,
                    "name": _localized(getattr(card, "name", None), langs) or part,
                    "copies": getattr(card, "copies", 1),
                    "front": {lang: face(f"{base}/{lang}/front") for lang in langs},
                    "back": (
                        {lang: face(f"{base}/{lang}/back") for lang in langs}
                        if spec.per_card_back
                        else None
                    ),
                }
            )
        sections.append(
            {
                "kind": "deck",
                "id": spec.id,
                "place": f"deck/{spec.id}",
                "file": spec.file,
                "name": _localized(spec.deck.name, langs),
                "layouts": sorted({spec.front, spec.back}),
                "size_mm": list(spec.card_mm),
                "back": {lang: face(f"back/{spec.id}/{lang}") for lang in langs},
                "cards": cards,
            }
        )
    for loaded in game.boards:
        if loaded.model is not None:
            board = loaded.model
            sections.append(
                _document(preview, "board", f"board/{board.id}", board.id, langs, loaded.rel)
                | {"name": _localized(board.name, langs)}
            )
    if game.rulebook:
        names = {lang: "Rulebook" for lang in langs}
        sections.append(_document(preview, "rulebook", "rulebook", "rulebook", langs, None))
        sections[-1]["name"] = names
    # what the preview still draws of itself: the board and rulebook pages a save changed
    # that the page asked for last (an image not drawn yet is drawn when the page asks for
    # it, so it is no work waiting)
    pending = sum(1 for key in list(preview._docs) if key in stale)
    return {
        "revision": preview.revision,
        "game": {
            "id": game.id,
            "title": _localized(manifest.title, langs),
            "languages": langs,
            "root": game.display_root,
            "folder": _folder_shown(game.display_root, game.root),
        },
        "sections": sections,
        "placed": placed,
        "counts": _counts(preview.diagnostics),
        "pending": pending,
        "checked": preview.checked,
        "last_update": preview.last_update,
    }


def _document(
    preview: Preview, kind: str, base: str, ident: str, langs: list[str], file: str | None
) -> dict[str, Any]:
    pages: dict[str, Any] = {}
    sizes: dict[str, Any] = {}
    errors: dict[str, str | None] = {}
    for lang in langs:
        target = preview.snap.targets.get(f"{base}/{lang}")
        if target is None:
            continue
        versions = _versions(preview, target)
        if versions is not None:  # a stale page: the page asks for it again when shown
            stale = preview.stale
            versions = [v + (page_key(target, i) in stale) for i, v in enumerate(versions)]
        pages[lang] = versions  # None: its PDF is not made yet (its first page is asked for)
        sizes[lang] = preview.cache.sizes.get(target.key)
        errors[lang] = preview.cache.errors.get(target.key)
    return {
        "kind": kind,
        "id": ident,
        "place": base,
        "file": file,
        "pages": pages,
        "sizes": sizes,
        "errors": errors,
    }


def _folder_shown(display_root: str, root: Path) -> str:
    """The folder named under the title: "." (a preview started inside the game) says nothing."""
    return display_root if display_root not in ("", ".") else f"{root.resolve().name}/"


def _localized(value: Any, langs: list[str]) -> dict[str, str]:
    if isinstance(value, dict):
        return {lang: str(value.get(lang, "")) for lang in langs}
    return {}


def _where(diag: Diagnostic) -> str:
    return f"{diag.file}:{diag.line}:{diag.col}"


def _counts(diagnostics: list[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for diag in diagnostics:
        counts[Severity(diag.severity).value] += 1
    return counts
