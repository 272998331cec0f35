"""The engine contract every game's simulator implements (after OpenSpiel's Python games).

A `CompiledGame` describes: it is built once from validated content (every rules number read
from the manifest and decks, ids turned into indexes) and makes states. A `State` plays: it is
small (`__slots__`, lists of ints), `clone()` is a shallow copy of a few lists, and chance
comes from the state's own seeded `random.Random`. No pydantic object, string lookup or
logging belongs in the hot loop.

Actions are ints. `legal_actions()` is never empty before the end (a forced pass is an action).
Events are counted in `state.events`, a list of ints indexed by the game's `event_names`;
per-card plays are counted in `state.card_plays` (indexed like `card_names`) so metrics can
find dead cards without listening to every move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

CHANCE = -1
TERMINAL = -2


@dataclass(frozen=True)
class GameSetup:
    """How one table is set up: player count and option values (already validated)."""

    players: int
    options: dict[str, bool | int | str] = field(default_factory=dict)


class State(ABC):
    """One game in progress. Subclasses define `__slots__` and keep everything as ints/lists."""

    rng: random.Random
    turns: int  # turns taken (one per current_player decision move)
    rounds: int  # completed rounds of play
    events: list[int]  # counters indexed by CompiledGame.event_names
    card_plays: list[list[int]]  # [seat][card index] plays, card index per card_names

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0-based), or TERMINAL when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Actions of the current player; never empty before the end."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Play an action (must be one of legal_actions()); resolves chance internally."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Result per seat at the end: 1/k for each of k winners, 0 otherwise (co-op: all 1
        or all 0). A timeout (turn cap reached) returns all zeros and sets `timed_out`."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (the RNG too), cheap enough for MCTS playouts."""

    @property
    def timed_out(self) -> bool:
        return False

    def roles(self) -> list[str]:
        """Role of each seat (character, hero, traveller id) for per-role win rates."""
        return []

    def score_values(self) -> list[float]:
        """Game points per seat at the end (for margins and score distributions)."""
        return self.returns()

    def figures(self) -> dict[str, float | tuple[float, ...]]:
        """The game's own figures (captures, sips...), read once at the end. A tuple gives
        one value per person or seat; the report then summarises over all of them."""
        return {}

    def action_label(self, action: int) -> str:
        return str(action)

    def first_player(self) -> int:
        """The seat that takes the first turn of play, for the report's first-player
        advantage. Seat 0 unless the rules seat the players at random (read it at the end)."""
        return 0

    def observation(self, seat: int) -> State:
        """What `seat` may see, for bots. Engines with hidden information override this to
        return a clone whose hidden parts (other hands, deck order) are re-sampled."""
        return self.clone()


class CompiledGame(ABC):
    """A game compiled from content into plain data; makes new states."""

    game_id: str
    event_names: Sequence[str] = ()
    card_names: Sequence[str] = ()
    max_turns: int  # declared maximum length: no game goes past it
    min_players: int
    max_players: int

    @abstractmethod
    def new_state(self, setup: GameSetup, seed: int) -> State:
        """A fresh game; all chance in it derives from `seed`."""

    def seats_are_teams(self, setup: GameSetup) -> bool:
        return False

    def cards_in_play(self, setup: GameSetup) -> Sequence[bool] | None:
        """Which of `card_names` a table set up so uses (None: every one). A card left out
        (an expansion not chosen) is not reported as dead."""
        return None
