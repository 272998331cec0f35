"""The shipped TrueType faces as reportlab parsed them, kept between runs.

reportlab's `TTFont(name, path)` parses the whole file on every run (tables, character map,
widths, glyph positions): ~26 M instructions a face, and a card with a bold title, a regular
text and an italic footer registers three, ~75 M instructions of a ~2.2 G cold build of 100
cards, the same files parsed the same way each time. The parse depends on nothing but the
file's bytes and reportlab's version.

`tagged_font(name, path)` keeps what the parse produced (the face's attributes: plain
numbers, strings, bytes, lists and dicts; the name strings reportlab keeps as `TTFNameBytes`
with their text) in the user cache under the template cache's rules (toolkit.usercache: a
private folder, HMAC-checked entries, always safe to delete), keyed by the file's real path,
size, modification time and inode (as Python keys its .pyc files) and reportlab's version;
the build's fit and draw of 100 cards then costs ~45 M instructions less. A later run
rebuilds the same face from it: the attributes a parse gives, the file's bytes (the subsets
embedded in a PDF are cut from them) and the same scale function, so measuring, drawing and
embedding are what the parse would give. Anything else (no usable cache folder, an entry that
does not check out, an attribute of a kind this module does not know, as a later reportlab
might add) means a parse, as before. Like the compiled templates, the faces are kept under
PLAYSET_NO_CACHE too: they depend on the font file alone, never on a game.
"""

from __future__ import annotations

import hashlib
import marshal
from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFontFace

from toolkit.render.subset_tags import TaggedTTFont
from toolkit.usercache import SignedStore

MAX_BYTES = 4 * 1024 * 1024
KEEP_BYTES = 32 * 1024 * 1024  # ~300 KB a checkout (keyed by the files' path and inode)
FORMAT = "1"  # what an entry holds; a change of this module's encoding changes it
_PLAIN = (int, float, str, bytes, bool, type(None))
_SKIPPED = ("filename", "_ttf_data", "_pdfScale")  # set from the file and its unitsPerEm
_NAME_TAG = "\0TTFNameBytes"


def tagged_font(name: str, path: Path) -> TaggedTTFont:
    """`TaggedTTFont(name, str(path))`, its face rebuilt from the cache when it holds one."""
    data = path.read_bytes()
    entry = _entry(path)
    store = _store()
    payload = store.read(entry) if store is not None else None
    if payload is not None:
        font = _from_kept(name, str(path), data, payload)
        if font is not None:
            return font
    font = TaggedTTFont(name, str(path))
    kept = _encoded(vars(font.face))
    if kept is not None and store is not None:
        store.write(entry, kept)
    return font


@cache
def _store() -> SignedStore | None:
    """The user's store of faces, opened once a run (each face would list its folder)."""
    return SignedStore.open("fonts", MAX_BYTES, KEEP_BYTES)


def _entry(path: Path) -> str:
    """The entry of the file at `path` as it is now: its real path, size and modification
    time (as Python's own .pyc files are keyed; hashing the ~160 KB of each face cost a
    third of what keeping it saves) and reportlab's version."""
    real = path.resolve()
    info = real.stat()
    seed = f"{real}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ino}\0{reportlab.Version}"
    return f"face-{FORMAT}-{hashlib.sha256(seed.encode()).hexdigest()[:40]}"


def _plain(value: Any) -> bool:
    """Whether marshal keeps `value` as it is (exact built-in types all the way down)."""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    if kind is dict:
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


def _encoded(attributes: dict[str, Any]) -> bytes | None:
    """The face's attributes as marshal bytes; None when one is of a kind not known here."""
    kept: dict[str, Any] = {}
    for key, value in attributes.items():
        if key in _SKIPPED:
            continue
        if type(value) is TTFNameBytes:
            kept[key] = (_NAME_TAG, bytes(value), value.ustr)
        elif _plain(value):
            kept[key] = value
        else:
            return None
    if set(_SKIPPED) - set(attributes) - {"filename"}:
        return None
    return marshal.dumps(kept)


def _scale(units_per_em: int) -> Any:
    """The scale function reportlab's parse keeps (`_pdfScale`), made the same way."""
    if units_per_em == 1000:
        return lambda x: x
    mult = 1000 / units_per_em
    return lambda x: x * mult


def _from_kept(name: str, filename: str, data: bytes, payload: bytes) -> TaggedTTFont | None:
    try:
        kept = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if type(kept) is not dict or type(kept.get("unitsPerEm")) is not int:
        return None
    face = TTFontFace.__new__(TTFontFace)
    attributes = face.__dict__
    for key, value in kept.items():
        if type(value) is tuple and len(value) == 3 and value[0] == _NAME_TAG:
            value = _name_bytes(value[1], value[2])
        attributes[key] = value
    attributes["filename"] = filename
    attributes["_ttf_data"] = data
    attributes["_pdfScale"] = _scale(kept["unitsPerEm"])
    # TTFont.__init__, its face given instead of parsed
    font = TaggedTTFont.__new__(TaggedTTFont)
    font.__dict__.update(
        fontName=name,
        face=face,
        encoding=TTEncoding(),
        state=WeakKeyDictionary(),
        _asciiReadable=rl_config.ttfAsciiReadable,
    )
    unshaped = vars(ttfonts)["unShapedFontGlob"]  # the patterns TTFont.__init__ reads
    font.shapable = not any(fnmatch(name, pattern) for pattern in unshaped)
    return font


def _name_bytes(raw: bytes, text: str) -> TTFNameBytes:
    """A TTFNameBytes of `raw` with its text, as the parse made it."""
    made = bytes.__new__(TTFNameBytes, raw)
    made.ustr = text
    return made
