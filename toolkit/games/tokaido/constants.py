"""Tokaido's codes and plain data types: stop, encounter and ability kinds, measures, score
sources, event names, phases, the compiled Content and the per-setup Table. Both compile
(which builds them) and state (which plays on them) import this module, so neither imports
the other's way back."""

from __future__ import annotations

from dataclasses import dataclass

# --- registries: content kind name -> engine code ------------------------------------------

STOP_KINDS = ("inn", "village", "farm", "temple", "hot_spring", "encounter", "panorama")
"""Stop codes: a road stop whose kind is a panorama type (paddy, mountain, sea) is PANORAMA
with the type's index as its argument."""
INN, VILLAGE, FARM, TEMPLE, HOT_SPRING, ENCOUNTER, PANORAMA = range(len(STOP_KINDS))
ORDINARY_KINDS = ("village", "farm", "temple", "hot_spring", "encounter")

ENCOUNTER_KINDS = {
    "souvenir_free": 0,
    "panorama_section": 1,
    "gain_points": 2,
    "gain_coins": 3,
    "temple_coin": 4,
}
E_SOUVENIR, E_PANORAMA, E_POINTS, E_COINS, E_TEMPLE = range(len(ENCOUNTER_KINDS))

ABILITY_KINDS = {
    "inn_encounter": 1,  # Chuubei
    "inn_panorama": 2,  # Hiroshige
    "temple_bank_coin": 3,  # Hirotada
    "meal_discount": 4,  # Kinko
    "card_bonus": 5,  # Mitsukuni
    "cheapest_free": 6,  # Sasayakko
    "free_meal_offer": 7,  # Satsuki
    "encounter_bonus": 8,  # Umegae
    "encounter_choice": 9,  # Yoshiyasu
    "souvenir_fixed_price": 10,  # Zen-emon
}
"""Traveller abilities the engine knows (V11). 0 = no ability (Initiation)."""
(
    AB_NONE,
    AB_INN_ENCOUNTER,
    AB_INN_PANORAMA,
    AB_TEMPLE_BANK,
    AB_MEAL_DISCOUNT,
    AB_CARD_BONUS,
    AB_CHEAPEST_FREE,
    AB_FREE_MEAL,
    AB_ENCOUNTER_BONUS,
    AB_ENCOUNTER_CHOICE,
    AB_FIXED_PRICE,
) = range(11)

MEASURES = ("meal_prices", "souvenirs", "hot_springs", "encounters")
M_MEAL_PRICES, M_SOUVENIRS, M_HOT_SPRINGS, M_ENCOUNTERS = range(len(MEASURES))

SOURCES = (
    "souvenirs",
    "meals",
    "panoramas",
    "hot_springs",
    "encounters",
    "temple",
    "achievements",
)
"""Where points come from (the report's points-by-source figures); every point scored is
booked to exactly one source, so the sources add up to the score (an invariant)."""
S_SOUVENIRS, S_MEALS, S_PANORAMAS, S_HOT_SPRINGS, S_ENCOUNTERS, S_TEMPLE, S_ACHIEVEMENTS = range(
    len(SOURCES)
)

EVENT_NAMES = (
    "villages",
    "souvenirs_bought",
    "farms",
    "temple_visits",
    "hot_springs",
    "encounters",
    "panorama_sections",
    "meals_eaten",
    "meals_skipped",
    "neutral_moves",
    "empty_draws",
)
(
    EV_VILLAGE,
    EV_SOUVENIR,
    EV_FARM,
    EV_TEMPLE,
    EV_HOT,
    EV_ENCOUNTER,
    EV_SECTION,
    EV_MEAL,
    EV_MEAL_SKIP,
    EV_NEUTRAL,
    EV_EMPTY,
) = range(len(EVENT_NAMES))

# Decision phases (what the current action means).
P_TRAVELLER, P_MOVE, P_VILLAGE, P_TEMPLE, P_ENC_PICK, P_PANO_PICK, P_MEAL, P_OVER = range(8)


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules use, as plain values (no pydantic in the engine)."""

    game_id: str
    min_players: int
    max_players: int
    # rules parameters
    farm_coins: int
    temple_min: int
    temple_max: int
    temple_points: int
    temple_bonus: tuple[int, ...]
    village_reveal: int
    set_points: tuple[int, ...]
    meal_points: int
    meal_draw_extra: int
    doubles_from: int
    neutral_players: frozenset[int]
    initiation_coins: int
    travellers_dealt: int
    neutral_temple_coins: int
    neutral_meal_discard: int
    preparations: tuple[int, ...]
    # road (index 0 = start)
    stop_kind: tuple[int, ...]
    stop_arg: tuple[int, ...]
    stop_double: tuple[bool, ...]
    # panoramas: per type
    pano_types: tuple[str, ...]
    pano_points: tuple[tuple[int, ...], ...]  # [type][section - 1] points
    pano_copies: tuple[tuple[int, ...], ...]
    pano_achievement: tuple[int, ...]  # [type] points of its achievement (0: none)
    end_achievements: tuple[tuple[int, int], ...]  # (measure, points)
    # decks (card index = position in the card list of the deck)
    hot_points: tuple[int, ...]  # [card] points
    hot_copies: tuple[int, ...]
    enc_kind: tuple[int, ...]
    enc_a: tuple[int, ...]  # panorama type / amount / coins
    enc_b: tuple[int, ...]  # Miko's points
    enc_copies: tuple[int, ...]
    souv_family: tuple[int, ...]
    souv_price: tuple[int, ...]
    souv_copies: tuple[int, ...]
    families: int
    meal_price: tuple[int, ...]  # [dish] printed price
    meal_copies: tuple[int, ...]
    trav_coins: tuple[int, ...]
    trav_ability: tuple[int, ...]
    trav_a: tuple[int, ...]
    trav_b: tuple[int, ...]
    trav_c: tuple[int, ...]
    # names
    trav_ids: tuple[str, ...]
    enc_ids: tuple[str, ...]
    souv_ids: tuple[str, ...]
    meal_ids: tuple[str, ...]
    hot_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """One setup: who travels, which slots exist, the action encoding.

    Travellers 0..P-1 belong to seats 0..P-1; with a neutral traveller it is number P.
    Actions: a_move + stop (destination), a_buy + mask (souvenirs bought from the revealed),
    a_donate + coins, a_enc + encounter card, a_pano + panorama type, a_meal + dish,
    a_skip (no meal), a_free (Satsuki's free meal), a_trav + traveller tile.
    """

    c: Content
    players: int
    travellers: int  # players + neutral
    neutral: int  # traveller number of the neutral, or -1
    doubles: bool
    stops: int
    kind: tuple[int, ...]
    arg: tuple[int, ...]
    slots: tuple[int, ...]  # slots per stop: 1, 2 (double in use), or travellers (inn)
    next_inn: tuple[int, ...]  # [stop] the next inn after it
    reach: tuple[tuple[int, ...], ...]  # [stop] stops a traveller there may move to
    intermediate: tuple[bool, ...]  # an inn neither first nor last
    inns_after: tuple[int, ...]  # [stop] inns still ahead
    last: int
    meal_draw: int
    initiation: bool
    preparations: bool
    pano_sections: tuple[int, ...]
    a_move: int
    a_buy: int
    a_donate: int
    a_enc: int
    a_pano: int
    a_meal: int
    a_skip: int
    a_free: int
    a_trav: int
    n_actions: int
    souv_deck: tuple[int, ...]
    enc_deck: tuple[int, ...]
    hot_deck: tuple[int, ...]
    meal_deck: tuple[int, ...]
    card_names: tuple[str, ...]
    card_base: tuple[int, ...]  # 5 offsets of travellers/souvenirs/meals/enc/hot
    mean_meal_price: float  # for bots: the mean printed price of a meal card
    mean_souvenir_price: tuple[float, ...]  # [family] mean printed price
    end_points: tuple[int, ...]  # [measure] points of its end achievements
