"""Bots: random, a generic open-loop MCTS and a one-ply greedy any engine gets.

The greedy bot needs one hook from the engine: `State.score_estimate(seat) -> float`, how
good the position is for `seat` (higher is better). A game may replace it with its own
`greedy` bot (as the bundled games do, for speed or finer play).

A bot sees the state only through `state.observation(seat)` (engines with hidden
information re-sample what the seat cannot see) and draws chance from its own RNG.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable
from typing import Protocol

from toolkit.sim.engine import State
from toolkit.sim.wrong_results import WrongResult, shown


class Bot(Protocol):
    name: str

    def choose(self, state: State, rng: random.Random) -> int:
        """Pick one of state.legal_actions() for the current player."""
        ...


class RandomBot:
    name = "random"

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]


class MctsBot:
    """Open-loop UCT: statistics per action sequence, chance re-sampled on every playout.

    Playouts are random to the end (or `horizon` moves); the value is the acting seat's
    return. Cheap because states are small and `clone()` copies a few lists.
    """

    name = "mcts"

    def __init__(self, playouts: int = 200, horizon: int = 400, c: float = 1.4) -> None:
        self.playouts = playouts
        self.horizon = horizon
        self.c = c

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        root = state.observation(seat)
        visits: dict[tuple[int, ...], int] = {(): 0}
        values: dict[tuple[int, ...], float] = {}
        for _ in range(self.playouts):
            sim = root.clone()
            sim.rng.seed(rng.getrandbits(64))
            path: tuple[int, ...] = ()
            mover_path: list[tuple[tuple[int, ...], int]] = []
            depth = 0
            # selection/expansion: UCT over the action sequence while nodes are known
            while not sim.is_terminal() and path in visits and depth < self.horizon:
                legal = sim.legal_actions()
                parent_visits = visits[path] + 1
                best, best_score = legal[0], -math.inf
                for action in legal:
                    child = (*path, action)
                    n = visits.get(child, 0)
                    if n == 0:
                        score = math.inf
                    else:
                        score = values[child] / n + self.c * math.sqrt(math.log(parent_visits) / n)
                    if score > best_score:
                        best, best_score = action, score
                mover = sim.current_player()
                sim.apply(best)
                path = (*path, best)
                mover_path.append((path, mover))
                depth += 1
                if path not in visits:
                    visits[path] = 0
                    values[path] = 0.0
                    break
            # rollout
            while not sim.is_terminal() and depth < self.horizon:
                legal = sim.legal_actions()
                sim.apply(legal[rng.randrange(len(legal))])
                depth += 1
            result = sim.returns() if sim.is_terminal() else _estimate(sim)
            visits[()] += 1
            for node, mover in mover_path:
                visits[node] += 1
                values[node] += result[mover] if 0 <= mover < len(result) else 0.0
        return max(actions, key=lambda a: (visits.get((a,), 0), rng.random()))


def _estimate(state: State) -> list[float]:
    """Value of an unfinished playout: share of the lead in game points."""
    scores = state.score_values()
    top = max(scores) if scores else 0
    leaders = [i for i, s in enumerate(scores) if s == top]
    return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(scores))]


class MissingHook(TypeError):
    """The engine lacks a hook a bot needs (the message says which and how to add it)."""


GREEDY_HOOK = "score_estimate"


def greedy_hook_missing(state: State) -> str | None:
    """Why the generic greedy bot cannot play this engine's states, or None if it can."""
    if callable(getattr(state, GREEDY_HOOK, None)):
        return None
    return (
        f"the greedy bot needs {type(state).__name__}.{GREEDY_HOOK}(seat) -> float "
        "(how good the position is for that seat; see docs/engines.md): add it, or choose "
        "--bots random or --bots mcts"
    )


class GreedyBot:
    """One-ply lookahead: play each legal action on a copy of what the seat sees and keep
    the one whose `score_estimate(seat)` is highest; ties are broken by the bot's RNG (so a
    table of greedy bots does not always pick the first of equal moves)."""

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        # what the seat may see; with the default observation (a plain copy) the state itself
        # serves, since every move is tried on a clone anyway
        hidden = type(state).observation is not State.observation
        root = state.observation(seat) if hidden else state
        if not callable(getattr(root, GREEDY_HOOK, None)):
            raise MissingHook(greedy_hook_missing(root))
        best: list[int] = []
        best_value = -math.inf
        for action in actions:
            child = root.clone()
            child.apply(action)
            value = child.score_estimate(seat)  # type: ignore[attr-defined]
            if not _comparable(value):  # NaN kept no move: "empty range for randrange()"
                raise _wrong_estimate(seat, value)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def _comparable(value: object) -> bool:
    """A number moves can be ranked by: a real number, not NaN (infinity ranks)."""
    return isinstance(value, numbers.Real) and not math.isnan(value)


def _wrong_estimate(seat: int, value: object) -> Exception:
    """A game's E004 at the engine's score_estimate, naming what it returned."""
    what = (
        f"{GREEDY_HOOK}({seat}) returned {shown(value)}, not a number the greedy bot can rank "
        "moves by (higher is better for the seat; NaN compares with nothing)"
    )
    return WrongResult(GREEDY_HOOK, what)


GENERIC_BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seat: RandomBot(),
    "mcts": lambda seat: MctsBot(),
    "greedy": lambda seat: GreedyBot(),
}
