"""Muckle Stoater: the moves the state scores for the greedy bot as it lists them give the
actions, moves and choices the bot's own scoring gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toolkit.content.game import load_game
from toolkit.games.muckle_stoater.bots import GreedyBot
from toolkit.games.muckle_stoater.compile import MuckleGame, compile_game
from toolkit.games.muckle_stoater.state import MuckleState
from toolkit.sim.engine import GameSetup

GAME_DIR = Path(__file__).parent.parent / "content" / "muckle-stoater"


@pytest.fixture(scope="module")
def compiled() -> MuckleGame:
    return compile_game(load_game(GAME_DIR))


def unscored(state: MuckleState) -> MuckleState:
    """The same position listed the plain way (a clone scores nothing as it lists)."""
    plain = state.clone()
    plain._acts = plain._groups = None
    plain._best = -1
    return plain


def test_scored_listing_gives_the_actions_moves_and_choices_of_the_bot(compiled):
    scored = 0
    setups = ((2, False), (3, False), (4, False), (5, False), (6, False), (4, True), (6, True))
    for players, teams in setups:
        for seed in range(3):
            state = compiled.new_state(GameSetup(players, {"teams": teams}), seed)
            assert isinstance(state, MuckleState)
            bots = [GreedyBot() for _ in range(players)]
            rng = random.Random(seed)
            while not state.is_terminal():
                plain = unscored(state)
                actions = state.legal_actions()
                assert actions == plain.legal_actions()
                if len(actions) == 1:
                    state.apply(actions[0])
                    continue
                scored += state._best >= 0
                bot = bots[state.seat]
                assert bot.choose(state, rng) == bot.choose(plain, rng)
                assert state.moves() == plain.moves()
                assert state.move_groups() == plain.move_groups()
                assert state.legal_actions() == actions  # listing the moves kept the actions
                state.apply(bot.choose(state, rng))
    assert scored > 3000


def test_a_clone_lists_its_moves_unscored(compiled):
    # a search (mcts) plays its copies with other bots: they score nothing for the greedy one
    state = compiled.new_state(GameSetup(4), 1)
    assert isinstance(state, MuckleState)
    bot = GreedyBot()
    while state.legal_actions() and len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    state.apply(bot.choose(state, random.Random(1)))  # registers seat 0's bot
    assert state._scoring is not None and state._scoring[0] is not None
    assert state.clone()._scoring is None
    assert state.observation(1)._scoring is None


def test_a_plain_listing_leaves_no_score_behind(compiled):
    # a position listed with scores, then listed again the plain way with its best card
    # gone (a clone lists plainly): the bot scores the new listing, not the old best
    state = compiled.new_state(GameSetup(4), 3)
    assert isinstance(state, MuckleState)
    bot, rng = GreedyBot(), random.Random(3)
    t = state.t
    checked = 0
    while not state.is_terminal():
        state.legal_actions()
        if state._best >= 0:
            probe = state.clone()
            rank = t.eff_rank[state._best % t.n_effects]
            probe.hands[probe.seat * t.ranks + rank] = 0  # the best card is gone
            probe._acts = probe._groups = None
            if len(probe.legal_actions()) > 1:
                assert bot.choose(probe, rng) == bot.choose(unscored(probe), rng)
                checked += 1
        state.apply(bot.choose(state, rng))
    assert checked > 20
