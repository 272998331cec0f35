"""The published game's facts the checklist names (the road of spec §2, card counts, starting
coins, rules constants), written once: the checks compare the content with them, so an edit
that drifts from the box is caught where it was made."""

from __future__ import annotations

from typing import Any

# --- the published game (spec §2, §7, §8, §9) ------------------------------------------------

_LETTERS = {
    "V": "village",
    "F": "farm",
    "T": "temple",
    "H": "hot_spring",
    "E": "encounter",
    "P": "paddy",
    "M": "mountain",
    "S": "sea",
}
_LEGS = (
    "V* T  E  P  H* M* F* V  T* E  S* M  H",
    "S  T  F* P* M* E* T  H* M  S* V  F",
    "P  V  E* F  M* H  S* P  T* F* E  S  V*",
    "H  T* E  V* S  F* H* E  M  P* S* V",
)


def _published_road() -> tuple[tuple[str, bool], ...]:
    road: list[tuple[str, bool]] = [("inn", False)]
    for leg in _LEGS:
        road.extend((_LETTERS[code[0]], code.endswith("*")) for code in leg.split())
        road.append(("inn", False))
    return tuple(road)


PUBLISHED: dict[str, Any] = {
    "road": _published_road(),
    "panorama_sections": {"paddy": 3, "mountain": 4, "sea": 5},
    "hot_springs": {2: 6, 3: 6},
    "encounters": {
        "souvenir_free": 2,
        "panorama_section": 6,
        "gain_points": 2,
        "gain_coins": 2,
        "temple_coin": 2,
    },
    "annaibito": {"paddy": 1, "mountain": 2, "sea": 3},
    "souvenir_prices": {
        "small_object": [1] * 6,
        "clothing": [2] * 6,
        "art": [2, 2, 2, 3, 3, 3],
        "food_drink": [1, 1, 1, 2, 2, 2],
    },
    "set_points": [1, 3, 5, 7],
    "meal_copies": {1: 3, 2: 2, 3: 1},
    "meal_cards": 25,
    "meal_dishes": 14,
    "meal_points": 6,
    "achievement_points": 3,
    "end_measures": ("meal_prices", "souvenirs", "hot_springs", "encounters"),
    "traveller_coins": {
        "chuubei": 4,
        "hiroshige": 3,
        "hirotada": 8,
        "kinko": 7,
        "mitsukuni": 6,
        "sasayakko": 5,
        "satsuki": 2,
        "umegae": 5,
        "yoshiyasu": 9,
        "zen-emon": 6,
    },
    "rules": {
        "farm_coins": 3,
        "temple_min": 1,
        "temple_max": 3,
        "temple_points_per_coin": 1,
        "temple_bonus": [10, 7, 4, 2],
        "village_reveal": 3,
        "meal_draw_extra": 1,
    },
    "effects": {"gain_points": {"amount": 3}, "gain_coins": {"amount": 3}},
    "miko": {"coins": 1, "points": 1},
    "players": (2, 5),
    "neutral_players": [2],
    "doubles_from": 4,
}
