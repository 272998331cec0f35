"""Tokaido's typed content: rules parameters, travellers and every card kind."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from toolkit.content.models import CardBase, LocalizedText, StrictModel

Panorama = Literal["paddy", "mountain", "sea"]
Family = Literal["small_object", "clothing", "art", "food_drink"]


class TokaidoRules(StrictModel):
    farm_coins: int = Field(ge=0, le=100)
    temple_min: int = Field(ge=0, le=100, description="Smallest temple donation.")
    temple_max: int = Field(ge=1, le=100, description="Largest temple donation.")
    temple_points_per_coin: int = Field(ge=0, le=100)
    temple_bonus: list[int] = Field(min_length=1, description="End bonus by temple rank.")
    village_reveal: int = Field(ge=1, le=24)
    souvenir_set_points: list[int] = Field(min_length=1)
    meal_points: int = Field(ge=0, le=100)
    meal_draw_extra: int = Field(ge=0, le=10, description="Meals drawn = players + this.")
    achievement_points: int = Field(ge=0, le=100)
    double_spaces_from: int = Field(ge=1, le=10, description="Player count opening 2nd slots.")
    neutral_traveller_players: list[int] = Field(description="Counts that add a neutral pawn.")
    initiation_coins: int = Field(ge=0, le=100, description="Starting coins, Initiation variant.")
    travellers_dealt: int = Field(
        ge=1, le=5, description="Traveller tiles dealt to each player, who keeps one."
    )
    neutral_temple_coins: int = Field(
        ge=0, le=10, description="Bank coins the neutral traveller leaves at a temple."
    )
    neutral_meal_discard: int = Field(
        ge=0, le=10, description="Meal cards the neutral's mover discards at an inn, unseen."
    )
    preparations_coins: list[Annotated[int, Field(ge=-10, le=10)]] = Field(
        min_length=1,
        description="Preparations: coins gained by the last to leave Kyoto, the one before, "
        "...; the last entry applies to every earlier one (negative: paid to the bank).",
        examples=[[2, 1, 0, -1]],
    )


# --- traveller abilities ----------------------------------------------------------------


class InnEncounter(StrictModel):
    """Chuubei: at each intermediate inn, before eating, draw and apply an encounter."""

    kind: Literal["inn_encounter"]


class InnPanorama(StrictModel):
    """Hiroshige: at each intermediate inn, take the next section of a panorama of choice."""

    kind: Literal["inn_panorama"]


class TempleBankCoin(StrictModel):
    """Hirotada: at a temple, also move coins from the bank to his temple zone."""

    kind: Literal["temple_bank_coin"]
    coins: int = Field(ge=1, le=10)


class MealDiscount(StrictModel):
    """Kinko: each meal costs less (never below zero)."""

    kind: Literal["meal_discount"]
    amount: int = Field(ge=1, le=10)


class CardBonus(StrictModel):
    """Mitsukuni: points for each hot spring card and each achievement card."""

    kind: Literal["card_bonus"]
    points: int = Field(ge=1, le=10)
    cards: list[Literal["hot_springs", "achievements"]] = Field(min_length=1)


class CheapestFree(StrictModel):
    """Sasayakko: buying at least `min_bought` souvenirs, the cheapest is free."""

    kind: Literal["cheapest_free"]
    min_bought: int = Field(ge=2, le=10)


class FreeMealOffer(StrictModel):
    """Satsuki: at each inn, one random available meal is offered free."""

    kind: Literal["free_meal_offer"]


class EncounterBonus(StrictModel):
    """Umegae: each encounter first gives points and coins."""

    kind: Literal["encounter_bonus"]
    points: int = Field(ge=0, le=10)
    coins: int = Field(ge=0, le=10)


class EncounterChoice(StrictModel):
    """Yoshiyasu: draw several encounters, keep one, the rest go under the deck."""

    kind: Literal["encounter_choice"]
    draw: int = Field(ge=2, le=5)


class SouvenirFixedPrice(StrictModel):
    """Zen-emon: once per village, one souvenir costs `price`."""

    kind: Literal["souvenir_fixed_price"]
    price: int = Field(ge=0, le=10)


TravellerAbility = Annotated[
    InnEncounter
    | InnPanorama
    | TempleBankCoin
    | MealDiscount
    | CardBonus
    | CheapestFree
    | FreeMealOffer
    | EncounterBonus
    | EncounterChoice
    | SouvenirFixedPrice,
    Field(discriminator="kind"),
]


class TravellerCard(CardBase):
    title: LocalizedText = Field(description="What the traveller is (the artist, ...).")
    coins: int = Field(ge=0, le=100, description="Starting coins.")
    ability: TravellerAbility


# --- cards ----------------------------------------------------------------------------


class PanoramaCard(CardBase):
    panorama: Panorama
    section: int = Field(ge=1, le=20)
    points: int = Field(ge=0, le=100)


class HotSpringCard(CardBase):
    points: int = Field(ge=0, le=100)


class SouvenirFree(StrictModel):
    """Shokunin: take the top souvenir card for free."""

    kind: Literal["souvenir_free"]


class PanoramaSection(StrictModel):
    """Annaibito: the next section of this panorama (or another if it is complete)."""

    kind: Literal["panorama_section"]
    panorama: Panorama


class GainPoints(StrictModel):
    kind: Literal["gain_points"]
    amount: int = Field(ge=1, le=100)


class GainCoins(StrictModel):
    kind: Literal["gain_coins"]
    amount: int = Field(ge=1, le=100)


class TempleCoin(StrictModel):
    """Miko: bank coins to your temple zone, plus points."""

    kind: Literal["temple_coin"]
    coins: int = Field(ge=1, le=10)
    points: int = Field(ge=0, le=10)


EncounterEffect = Annotated[
    SouvenirFree | PanoramaSection | GainPoints | GainCoins | TempleCoin,
    Field(discriminator="kind"),
]


class EncounterCard(CardBase):
    title: LocalizedText | None = Field(default=None, description="Who this is (the artisan).")
    effect: EncounterEffect


class SouvenirCard(CardBase):
    family: Family
    price: int = Field(ge=0, le=100)


class MealCard(CardBase):
    price: int = Field(ge=0, le=100)


class AchievementCard(CardBase):
    points: int = Field(ge=0, le=100)
    trigger: Literal["panorama", "end"]
    panorama: Panorama | None = None
    measure: Literal["meal_prices", "souvenirs", "hot_springs", "encounters"] | None = None
