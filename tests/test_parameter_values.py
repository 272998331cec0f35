"""`parameter_values` (one module-level walk, no closures per call) gives what its earlier
form gave, name for name and in the same order, for every model of the bundled games and
for made-up owners (nested effects, lists of them, dicts, lists of numbers, negative numbers,
a plain name shared by two effects, depth limits)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel

from toolkit.content.game import bundled_games, load_game
from toolkit.content.templating import _is_scalar, _show, field_names, parameter_values


def _before(owner: BaseModel | None, lang: str | None = None) -> dict[str, str]:
    """The walk as it was written before (closures made per call)."""
    values: dict[str, str] = {}
    if owner is None:
        return values

    def add(names: tuple[str, ...], value: Any) -> None:
        shown = _show(value, lang)
        for name in names:
            values.setdefault(name, shown)

    def walk(model: BaseModel, prefix: str, depth: int) -> None:
        for name in field_names(model):
            value = getattr(model, name)
            if value is None:
                continue
            dotted = prefix + name
            if _is_scalar(value) or (
                isinstance(value, list) and value and all(_is_scalar(v) for v in value)
            ):
                add((dotted, name), value)
            elif isinstance(value, dict):
                for key, item in value.items():
                    if _is_scalar(item):
                        both = name == "params"
                        add((f"{dotted}.{key}", str(key)) if both else (f"{dotted}.{key}",), item)
            elif depth < 2 and isinstance(value, BaseModel):
                walk(value, dotted + ".", depth + 1)
            elif depth < 2 and isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, BaseModel):
                        walk(item, f"{dotted}.{index}.", depth + 1)

    walk(owner, "", 0)
    return values


def _models(value: Any, found: list[BaseModel]) -> None:
    if isinstance(value, BaseModel):
        found.append(value)
        for name in field_names(value):
            _models(getattr(value, name), found)
    elif isinstance(value, list | tuple):
        for item in value:
            _models(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _models(item, found)


class Colour(StrEnum):
    RED = "red"


class Effect(BaseModel):
    amount: int | None = None
    coins: list[int] | None = None
    bonuses: dict[str, Any] | None = None
    inner: Effect | None = None
    steps: list[Effect] | None = None


class Owner(BaseModel):
    points: float | None = None
    params: dict[Any, Any] | None = None
    ability: Effect | None = None
    effects: list[Effect] | None = None
    label: str | None = None
    flag: bool | None = None
    tint: Any = None


def test_the_walk_gives_what_it_gave() -> None:
    deep = Effect(amount=1, inner=Effect(amount=2, inner=Effect(amount=3)))
    owners: list[Any] = [
        None,
        Owner(),
        Owner(
            points=-2.5,
            params={"die": "d6", "n": -3, "more": [1, 2], "on": True, 7: 8},
            ability=Effect(amount=-1, coins=[3, 5], bonuses={"fire": 2, "x": None}),
            effects=[Effect(amount=4, steps=[deep]), Effect(coins=[], amount=5), deep],
            label="go",
            flag=True,
        ),
        Owner(ability=deep, effects=[Effect(inner=deep)]),
        # texts of the exact type str are shown as they are, and a str subclass as str()
        # makes it; a params dict with texts, subclassed texts, numbers and a nested dict
        Owner(
            tint=Colour.RED,
            label="{x}",
            params={"c": Colour.RED, "t": "d8", "n": 0, "f": -0.5, "d": {"a": 1}, "b": False},
            ability=Effect(bonuses={"c": Colour.RED, "t": "-1", "n": -1}),
        ),
        Owner(tint=[Colour.RED, "blue"], params={1: "one", "1": "two"}),
    ]
    for folder in bundled_games().values():
        game = load_game(folder)
        for value in vars(game).values():
            files = value if isinstance(value, list | tuple) else [value]
            _models([getattr(f, "model", None) for f in files], owners)
    assert len(owners) > 50
    for owner in owners:
        for lang in (None, "fr", "en", "de"):
            mine, theirs = parameter_values(owner, lang), _before(owner, lang)
            assert list(mine.items()) == list(theirs.items())
