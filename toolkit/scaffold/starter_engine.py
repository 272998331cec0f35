"""The engine of this game: how one game is played, so `playset simulate` can play thousands.

Written by `playset new --engine`; edit it as your rules change (see docs/engines.md in the
Playset repository). Only the commands that play (simulate, check, sweep, tune, replay)
import this file; validate, build, preview and export never run it.

The rules played here: each player has their own deck holding every card of
decks/cards.yaml (`copies` of each), shuffled, and starts with `hand_size` cards (game.yaml
`rules:`). On your turn you play one card and do what it says, then draw one: a card with a
`steps` parameter moves you that many spaces (a space is a point), one with `points` scores
them, any other card draws one more card. When a player reaches `target_points`, the round
is played out (everyone gets as many turns) and the most points wins; a tie shares the win.
"""

from __future__ import annotations

import random

from toolkit.api import TERMINAL, CompiledGame, GameContent, GameSetup, State

ROUND_CAP = 100  # a game still running after this many rounds ends as a timeout


class Game(CompiledGame):
    """Compiled once from the content: plain numbers only, so playing stays fast."""

    event_names = ("reshuffles", "extra_draws")

    def __init__(self, content: GameContent) -> None:
        self.game_id = content.game_id
        self.min_players = content.players.start
        self.max_players = content.players.stop - 1
        self.max_turns = ROUND_CAP * self.max_players  # no game goes past it
        self.hand_size = int(content.rule("hand_size"))  # `sweep --vary hand_size=2,4` works
        self.target = int(content.rule("target_points"))
        cards = content.cards
        self.card_names = tuple(card.id for card in cards)  # card ids: findings point at them
        # what a card is worth: its steps (a space is a point) plus its points
        self.gain = tuple(card.param("steps", 0) + card.param("points", 0) for card in cards)
        self.deck = tuple(i for i, card in enumerate(cards) for _ in range(card.copies))
        if not 0 <= self.hand_size <= len(self.deck):  # `--set hand_size=1e308` drew for ever
            raise ValueError(f"hand_size {self.hand_size}: from 0 to the deck's {len(self.deck)}")

    def new_state(self, setup: GameSetup, seed: int) -> PlayState:
        return PlayState(self, setup.players, seed)


class PlayState(State):
    """One game in progress: every field a list of ints, so clone() is cheap."""

    __slots__ = (
        "game",
        "rng",
        "turns",
        "rounds",
        "events",
        "card_plays",
        "seat",
        "hands",
        "decks",
        "discards",
        "points",
    )

    def __init__(self, game: Game, players: int, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)  # all chance comes from here
        self.turns = self.rounds = self.seat = 0
        self.events = [0] * len(game.event_names)
        self.card_plays = [[0] * len(game.card_names) for _ in range(players)]
        self.points = [0] * players
        self.hands = [[0] * len(game.card_names) for _ in range(players)]  # count per card
        self.decks = []
        self.discards: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            deck = list(game.deck)
            self.rng.shuffle(deck)
            self.decks.append(deck)
            for _ in range(game.hand_size):
                self.draw(seat)

    def draw(self, seat: int) -> None:
        deck = self.decks[seat]
        if not deck and self.discards[seat]:  # reshuffle the discards into a new deck
            deck.extend(self.discards[seat])
            self.discards[seat].clear()
            self.rng.shuffle(deck)
            self.events[0] += 1
        if deck:
            self.hands[seat][deck.pop()] += 1

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.seat

    def legal_actions(self) -> list[int]:
        """An action is the index (in card_names) of a card in the hand to play."""
        hand = self.hands[self.seat]
        playable = [card for card, count in enumerate(hand) if count]
        return playable or [0]  # an empty hand: a pass, never an empty list

    def apply(self, action: int) -> None:
        seat, game = self.seat, self.game
        hand = self.hands[seat]
        if hand[action]:
            hand[action] -= 1
            self.discards[seat].append(action)
            self.card_plays[seat][action] += 1
            self.points[seat] += game.gain[action]
            if not game.gain[action]:  # a card that neither moves nor scores: draw one more
                self.draw(seat)
                self.events[1] += 1
        self.draw(seat)  # then draw
        self.turns += 1
        self.seat = (seat + 1) % len(self.points)
        if self.seat == 0:
            self.rounds += 1

    def is_terminal(self) -> bool:
        """Over at the end of a round in which someone reached the target (or at the cap)."""
        if self.seat:
            return False
        return max(self.points) >= self.game.target or self.rounds >= ROUND_CAP

    @property
    def timed_out(self) -> bool:
        return self.rounds >= ROUND_CAP and max(self.points) < self.game.target

    def returns(self) -> list[float]:
        """1 for the winner (shared on a tie), 0 for the others; all 0 on a timeout."""
        if self.timed_out:
            return [0.0] * len(self.points)
        top = max(self.points)
        winners = [s for s, p in enumerate(self.points) if p == top]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(self.points))]

    def score_values(self) -> list[float]:
        return [float(p) for p in self.points]

    def worth(self, seat: int) -> float:
        """Points scored plus the points still in hand."""
        gain = self.game.gain
        return self.points[seat] + sum(gain[c] * n for c, n in enumerate(self.hands[seat]))

    def score_estimate(self, seat: int) -> float:
        """The greedy bot's guide (toolkit.api.GreedyBot tries each move on a copy and keeps
        the highest): my worth minus the best other player's."""
        others = [self.worth(s) for s in range(len(self.points)) if s != seat]
        return self.worth(seat) - max(others, default=0)

    def observation(self, seat: int) -> PlayState:
        """What `seat` may know: a copy whose decks are shuffled again, so a bot trying a
        move on it cannot peek at the order of the cards still to draw."""
        other = self.clone()
        for deck in other.decks:
            other.rng.shuffle(deck)  # the copy's own RNG: the real game's is untouched
        return other

    def figures(self) -> dict[str, float | tuple[float, ...]]:
        """This game's own figures in the report: the winning margin."""
        ranked = sorted(self.points, reverse=True) + [0]
        return {"winning_margin": float(ranked[0] - ranked[1])}

    def invariant_errors(self) -> list[str]:
        """Checked after every move by `playset check --contract`: no card lost or made."""
        total = len(self.game.deck)
        return [
            f"seat {s} has {sum(hand) + len(deck) + len(pile)} cards, not {total}"
            for s, (hand, deck, pile) in enumerate(
                zip(self.hands, self.decks, self.discards, strict=False)
            )
            if sum(hand) + len(deck) + len(pile) != total
        ]

    def clone(self) -> PlayState:
        other = PlayState.__new__(PlayState)
        other.game = self.game
        other.rng = random.Random.__new__(random.Random)  # unseeded: setstate fills it
        other.rng.setstate(self.rng.getstate())
        other.turns, other.rounds, other.seat = self.turns, self.rounds, self.seat
        other.events = self.events[:]
        other.card_plays = [row[:] for row in self.card_plays]
        other.points = self.points[:]
        other.hands = [row[:] for row in self.hands]
        other.decks = [row[:] for row in self.decks]
        other.discards = [row[:] for row in self.discards]
        return other


def compile_game(content: GameContent) -> Game:
    """Playset calls this once per run (and per sweep point) with the game's content."""
    return Game(content)
