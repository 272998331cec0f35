"""Muckle Stoater: engine rules (spec §2 worked cases, rulings), bots, contract and G checks."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.games.muckle_stoater.bots import GreedyBot
from toolkit.games.muckle_stoater.compile import MuckleGame, compile_game
from toolkit.games.muckle_stoater.constants import BONNIE, EVENT_NAMES, SPLIT
from toolkit.games.muckle_stoater.state import Move, MuckleState
from toolkit.sim.bots import RandomBot
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import GameSetup
from toolkit.sim.runner import play_one

GAME_DIR = Path(__file__).parent.parent / "content" / "muckle-stoater"
EV = {name: i for i, name in enumerate(EVENT_NAMES)}


@pytest.fixture(scope="module")
def compiled() -> MuckleGame:
    return compile_game(load_game(GAME_DIR))


def fresh(compiled: MuckleGame, players: int = 4, teams: bool = False) -> MuckleState:
    state = compiled.new_state(GameSetup(players, {"teams": teams}), 1)
    assert isinstance(state, MuckleState)
    return state


def castle(state: MuckleState, hole: int) -> int:
    """Position code of Castle hole `hole` (1-based)."""
    return state.t.track + hole - 1


def arrange(state: MuckleState, places: dict[int, int], seat: int = 0) -> None:
    """Laddies (id → position) on the board, every other Laddie in its Dock; `seat` to play."""
    t = state.t
    n = t.laddies
    state.pos = [-1] * (t.players * n)
    state.board = [-1] * t.track
    state.mask = [0] * t.players
    state.dock = [n] * t.players
    state.home = [0] * t.players
    for lid, p in places.items():
        o = lid // n
        state.pos[lid] = p
        state.dock[o] -= 1
        state.mask[o] |= 1 << p
        if p < t.track:
            state.board[p] = lid
        else:
            state.home[o] += 1
    state.seat = seat
    state._acts = state._groups = None
    assert state.invariant_errors() == []


def _share_castle(s: MuckleState) -> None:
    s.pos[0] = s.pos[1] = castle(s, 1)
    s.dock[0] -= 1
    s.home[0] = 2
    s.mask[0] |= 1 << castle(s, 1)


def _share_track(s: MuckleState) -> None:
    s.pos[1] = s.pos[0]
    s.dock[0] -= 1


def _lose_hand_card(s: MuckleState) -> None:
    s.hands[0] -= 1
    s.hands[1] = -1
    s.draw.extend([0, 0])


BROKEN_STATES = [
    ("cards:", lambda s: s.draw.pop()),
    ("cards:", _lose_hand_card),  # the count adds up, a hand holds -1
    ("impossible places", lambda s: s.pos.__setitem__(2, s.t.track + s.t.castle)),
    ("dock/home counts", lambda s: s.dock.__setitem__(0, s.dock[0] + 1)),
    ("dock/home counts", lambda s: s.home.__setitem__(1, 1)),
    ("share a Castle hole", _share_castle),
    ("position mask out of date", lambda s: s.mask.__setitem__(0, s.mask[0] ^ 2)),
    ("share a track hole", _share_track),
    ("names Laddie 0 standing elsewhere", lambda s: s.board.__setitem__(30, 0)),
    ("board and positions disagree", lambda s: s.board.__setitem__(10, -1)),
]


@pytest.mark.parametrize(("said", "corrupt"), BROKEN_STATES, ids=[b[0] for b in BROKEN_STATES])
def test_the_fast_invariant_check_lets_no_broken_state_through(compiled, said, corrupt):
    """invariant_errors answers [] from a quick pass when all is well (the contract check asks
    after every move); each way a state can be wrong must still reach the full check."""
    state = fresh(compiled, 4)
    arrange(state, {0: 10, 1: castle(state, 2), 4: 20})
    assert state._consistent() and state.invariant_errors() == []
    corrupt(state)
    assert not state._consistent()
    assert any(said in e for e in state.invariant_errors()), state.invariant_errors()


def hand(state: MuckleState, *names: str) -> None:
    """Give the seat to play exactly these cards, taken from the piles (cards conserved)."""
    t = state.t
    base = state.seat * t.ranks
    for r in range(t.ranks):
        state.draw.extend([r] * state.hands[base + r])
        state.hands[base + r] = 0
    for name in names:
        r = t.card_names.index(name)
        (state.draw if r in state.draw else state.discard).remove(r)
        state.hands[base + r] += 1
    state._acts = state._groups = None
    assert state.invariant_errors() == []


def options(state: MuckleState, card: str | None = None) -> list[tuple[int, Move]]:
    """(action, move) of the legal moves, optionally of one card only."""
    t = state.t
    pairs = list(zip(state.legal_actions(), state.moves(), strict=True))
    if card is None:
        return pairs
    r = t.card_names.index(card)
    return [(a, m) for a, m in pairs if t.eff_rank[a % t.n_effects] == r and a >= t.n_effects]


def dests(state: MuckleState, card: str, lid: int) -> set[int]:
    return {m[3] for a, m in options(state, card) if m[1] == lid and not _kind(state, a, SPLIT)}


def _kind(state: MuckleState, action: int, kind: int) -> bool:
    return state.t.eff_kind[action % state.t.n_effects] == kind


def play(state: MuckleState, card: str, lid: int, dest: int) -> None:
    for a, m in options(state, card):
        if m[1] == lid and m[3] == dest and m[4] < 0:
            state.apply(a)
            assert state.invariant_errors() == []
            return
    raise AssertionError(f"no {card} move of Laddie {lid} to {dest}")


def only_discards(state: MuckleState) -> bool:
    return all(a < state.t.n_effects for a in state.legal_actions())


# ----- geometry (spec §2 table) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "track", "starts", "gates"),
    [
        (2, 72, (8, 44), (3, 39)),
        (3, 54, (8, 26, 44), (3, 21, 39)),
        (4, 72, (8, 26, 44, 62), (3, 21, 39, 57)),
        (5, 90, (8, 26, 44, 62, 80), (3, 21, 39, 57, 75)),
        (6, 108, (8, 26, 44, 62, 80, 98), (3, 21, 39, 57, 75, 93)),
    ],
)
def test_board_geometry(compiled, players, track, starts, gates):
    t = fresh(compiled, players).t
    assert (t.track, t.start, t.entrance) == (track, starts, gates)
    assert t.dist[0][t.start[0]] == track - 5
    assert len(t.deck) == (108 if players <= 4 else 162)


# ----- worked cases of spec §2 ---------------------------------------------------------------


def test_hole_70_plays_10_castle_or_track(compiled):
    s = fresh(compiled)
    arrange(s, {0: 70})
    hand(s, "rank-10")
    assert dests(s, "rank-10", 0) == {8, castle(s, 5)}


def test_start_hole_8_backwards_then_short_way_home(compiled):
    s = fresh(compiled)
    arrange(s, {0: 8})
    hand(s, "rank-8")
    assert dests(s, "rank-8", 0) == {0}
    play(s, "rank-8", 0, 0)
    assert s.pos[0] == 0 and s.events[EV["backward_moves"]] == 1
    arrange(s, {0: 0})
    hand(s, "rank-3", "rank-4")
    assert dests(s, "rank-3", 0) == {3}  # lands on the entrance: no Castle option (d = k)
    assert dests(s, "rank-4", 0) == {4, castle(s, 1)}
    eight = {dest for _, dest, _ in s.t.fwd[0][8][0]}  # a forward move of 8 from hole 0
    assert eight == {8, castle(s, 5)}


def test_castle_1_plus_4_needs_empty_holes(compiled):
    s = fresh(compiled)
    arrange(s, {0: castle(s, 1)})
    hand(s, "rank-4")
    assert dests(s, "rank-4", 0) == {castle(s, 5)}
    arrange(s, {0: castle(s, 1), 1: castle(s, 3)})
    hand(s, "rank-4")
    assert only_discards(s)  # no jumping inside the Castle, no leaving it


def test_castle_entry_needs_exact_count_and_free_path(compiled):
    s = fresh(compiled)
    arrange(s, {0: 70, 1: castle(s, 2)})
    hand(s, "rank-10")
    assert dests(s, "rank-10", 0) == {8}  # Castle 5 path crosses own Laddie in Castle 2
    hand(s, "rank-6")
    assert dests(s, "rank-6", 0) == {4, castle(s, 1)}


# ----- moves, captures, blocking ------------------------------------------------------------


def test_capture_sends_opponent_to_its_dock(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 5: 15})
    hand(s, "rank-5")
    play(s, "rank-5", 0, 15)
    assert s.pos[5] == -1 and s.dock[1] == 5 and s.board[15] == 0
    assert s.events[EV["captures"]] == 1


def test_own_laddie_blocks_opponents_do_not(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 13})
    hand(s, "rank-5")
    assert dests(s, "rank-5", 0) == set()  # cannot jump over its own Laddie
    assert dests(s, "rank-5", 1) == {18}
    arrange(s, {0: 10, 1: 15})
    hand(s, "rank-5")
    assert dests(s, "rank-5", 0) == set()  # cannot land on its own Laddie
    arrange(s, {0: 10, 5: 12, 10: 14})
    hand(s, "rank-5")
    assert dests(s, "rank-5", 0) == {15}  # opponents never block
    s = fresh(compiled, 4, teams=True)
    arrange(s, {0: 10, 10: 12})
    hand(s, "rank-5")
    assert dests(s, "rank-5", 0) == {15}  # nor do partners
    assert s.roles() == ["team-1", "team-2", "team-1", "team-2"]


def test_eight_goes_backwards_on_the_track_only(compiled):
    s = fresh(compiled)
    arrange(s, {0: 5})
    hand(s, "rank-8")
    assert dests(s, "rank-8", 0) == {69}  # passes the entrance and stays on the track
    arrange(s, {0: 20, 1: 15})
    hand(s, "rank-8")
    assert dests(s, "rank-8", 0) == set() and dests(s, "rank-8", 1) == {7}
    arrange(s, {0: castle(s, 2)})
    hand(s, "rank-8")
    assert only_discards(s)


def test_leave_dock(compiled):
    s = fresh(compiled)
    arrange(s, {})
    hand(s, "rank-a")
    assert [m[3] for _, m in options(s)] == [8]
    arrange(s, {0: 8})
    hand(s, "rank-k")
    assert dests(s, "rank-k", 1) == set()  # own Laddie on the start hole blocks
    arrange(s, {5: 8})
    hand(s, "rank-q")
    play(s, "rank-q", 0, 8)
    assert s.pos[0] == 8 and s.pos[5] == -1 and s.events[EV["dock_exits"]] == 1


def test_bonnie_fechter(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 5: 30, 6: castle(s, 1) + 0, 15: 50})
    hand(s, "bonnie-fechter")
    moves = [m for _, m in options(s, "bonnie-fechter")]
    assert {(m[1], m[4]) for m in moves} == {(0, 5), (0, 15), (1, 5), (1, 15)}  # track/Dock
    for a, m in options(s, "bonnie-fechter"):
        if m[1] == 0 and m[4] == 5:
            s.apply(a)
            break
    assert s.pos[0] == 30 and s.pos[5] == -1 and s.board[10] == -1 and s.dock[1] == 4
    assert s.events[EV["bonnie_fechter_swaps"]] == 1 and s.invariant_errors() == []


def test_bonnie_fechter_without_targets_only_discards(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 5: castle(s, 1)})
    hand(s, "bonnie-fechter")
    assert only_discards(s)
    arrange(s, {0: 10, 5: 40})
    hand(s, "bonnie-fechter", "rank-2")
    kinds = {_kind(s, a, BONNIE) for a in s.legal_actions()}
    assert kinds == {True, False}  # a forced joker is still a legal move (R10)


def test_bonnie_fechter_never_targets_partner(compiled):
    s = fresh(compiled, 4, teams=True)
    arrange(s, {0: 10, 10: 30, 5: 40})
    hand(s, "bonnie-fechter")
    assert {m[4] for _, m in options(s, "bonnie-fechter")} == {5}


# ----- the 7 split -------------------------------------------------------------------------


def splits(state: MuckleState) -> list[Move]:
    return [m for a, m in options(state, "rank-7") if _kind(state, a, SPLIT)]


def test_seven_split_shares(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 20})
    hand(s, "rank-7")
    found = splits(s)
    assert len(found) == 6  # 1+6 .. 6+1, each listed once
    for m in found:
        assert m[1] != m[4]
        assert (m[3] - m[2]) + (m[6] - m[5]) == 7
    assert len(options(s, "rank-7")) == 8  # plus the plain 7 of each Laddie


def test_seven_split_order_and_castle_parts(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 12})
    hand(s, "rank-7")
    # 3 for Laddie 0 over Laddie 1 is only legal once Laddie 1 has moved its 4 first
    assert (1, 12, 16, 0, 10, 13) in [m[1:] for m in splits(s)]
    assert all(not (m[1] == 0 and m[3] == 13) for m in splits(s))
    arrange(s, {0: 70, 1: 20})
    hand(s, "rank-7")
    assert any(m[3] == castle(s, 1) or m[6] == castle(s, 1) for m in splits(s))
    arrange(s, {0: 10})
    hand(s, "rank-7")
    assert splits(s) == []  # needs two Laddies in play


def test_seven_split_resolves_each_part(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 30, 5: 13, 15: 34})
    hand(s, "rank-7")
    for a, m in options(s, "rank-7"):
        if m[1:] == (0, 10, 13, 1, 30, 34):
            s.apply(a)
            break
    else:
        raise AssertionError("split 3+4 not offered")
    assert s.pos[0] == 13 and s.pos[1] == 34 and s.pos[5] == -1 and s.pos[15] == -1
    assert s.events[EV["captures"]] == 2 and s.events[EV["splits"]] == 1


def test_seven_split_first_part_unblocks_second(compiled):
    deep = MuckleGame(dataclasses.replace(compiled.content, castle=10))  # a longer Castle
    s = deep.new_state(GameSetup(4), 1)
    arrange(s, {0: castle(s, 1), 1: castle(s, 2)})
    hand(s, "rank-7")
    # Castle 1 is blocked until Castle 2 has moved: every split moves Castle 2 first
    found = [m[1:] for m in splits(s)]
    assert (1, castle(s, 2), castle(s, 6), 0, castle(s, 1), castle(s, 4)) in found
    assert len(found) == 3 and all(m[0] == 1 for m in found)  # shares 4+3, 5+2, 6+1


def test_team_split_finishing_moves_partner(compiled):
    s = fresh(compiled, 4, teams=True)
    home = {lid: castle(s, lid + 1) for lid in range(1, 5)}
    arrange(s, {**home, 0: 70, 10: 20, 11: castle(s, 5)})
    hand(s, "rank-7")
    found = splits(s)
    # 6 takes the last Laddie home to Castle 1, the last step goes to the partner's Laddie
    assert (0, 70, castle(s, 1), 10, 20, 21) in [m[1:] for m in found]
    assert all(m[4] not in range(1, 5) for m in found if m[1] == 0 and m[3] >= s.t.track)
    for a, m in options(s, "rank-7"):
        if m[1:] == (0, 70, castle(s, 1), 10, 20, 21):
            s.apply(a)
            break
    assert s.home[0] == 5 and s.pos[10] == 21 and s.invariant_errors() == []


# ----- must move, passing, dedupe, reshuffle -------------------------------------------------


def test_must_move_and_discard_when_stuck(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10})
    hand(s, "rank-2", "rank-3", "rank-8", "rank-5", "rank-6", "rank-9")
    assert not any(a < s.t.n_effects for a in s.legal_actions())  # no discard if a move exists
    arrange(s, {})
    hand(s, "rank-2", "rank-3", "rank-3", "rank-5", "rank-6", "rank-9")
    actions = s.legal_actions()
    assert only_discards(s) and len(actions) == 5  # one discard per distinct rank
    s.apply(actions[0])
    assert s.events[EV["turns_passed"]] == 1 and s.seat == 1
    assert s.discard[-1] == s.t.card_names.index("rank-2") and s.invariant_errors() == []


def test_identical_cards_give_one_action(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 30})
    hand(s, "rank-5", "rank-5", "rank-5")
    assert len(s.legal_actions()) == 2


def test_reshuffle_when_draw_pile_runs_out(compiled):
    s = fresh(compiled)
    arrange(s, {0: 10})
    hand(s, "rank-5")
    s.discard.extend(s.draw)
    s.draw.clear()
    play(s, "rank-5", 0, 15)
    assert s.events[EV["reshuffles"]] == 1 and s.invariant_errors() == []
    assert sum(s.hands[s.t.ranks : 2 * s.t.ranks]) == 6


def test_both_piles_empty_skip_the_draw(compiled):
    s = fresh(compiled)
    before = s.hands[:]
    s.draw.clear()
    s._draw(1)
    assert s.hands == before and s.events[EV["reshuffles"]] == 0


# ----- teams ---------------------------------------------------------------------------------


def test_partner_landed_on_goes_to_its_entrance(compiled):
    s = fresh(compiled, 4, teams=True)
    arrange(s, {0: 10, 10: 15})
    hand(s, "rank-5")
    play(s, "rank-5", 0, 15)
    assert s.pos[10] == 39 and s.events[EV["partner_bumps"]] == 1
    arrange(s, {0: 10, 10: 15, 5: 39})
    hand(s, "rank-5")
    play(s, "rank-5", 0, 15)
    assert s.pos[10] == 39 and s.pos[5] == -1  # the opponent on the entrance goes home
    arrange(s, {0: 10, 10: 15, 11: 39})
    hand(s, "rank-5")
    play(s, "rank-5", 0, 15)
    assert s.pos[10] == -1 and s.pos[11] == 39  # own team holds the entrance: to the Dock
    arrange(s, {0: 34, 10: 39})
    hand(s, "rank-5")
    play(s, "rank-5", 0, 39)
    assert s.pos[10] == -1 and s.pos[0] == 39  # the mover holds it: to the Dock


def test_finished_player_moves_partner_and_team_wins(compiled):
    s = fresh(compiled, 4, teams=True)
    mine = {lid: castle(s, lid + 1) for lid in range(5)}
    arrange(s, {**mine, 10: 50})
    hand(s, "rank-5", "rank-a")
    assert dests(s, "rank-5", 10) == {55}
    assert [m[3] for _, m in options(s, "rank-a") if m[2] < 0] == [44]  # partner's Dock exit
    partner = {lid: castle(s, lid - 9) for lid in range(11, 15)}
    arrange(s, {**mine, **partner, 10: 38})
    hand(s, "rank-2")
    play(s, "rank-2", 10, castle(s, 1))
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 1.0, 0.0]


def test_free_for_all_win(compiled):
    s = fresh(compiled)
    arrange(s, {**{lid: castle(s, lid + 1) for lid in range(1, 5)}, 0: 70})
    hand(s, "rank-10", "rank-6")
    assert dests(s, "rank-10", 0) == {8}  # Castle 5 is taken: the path is blocked
    play(s, "rank-6", 0, castle(s, 1))
    assert s.is_terminal() and not s.timed_out
    assert s.returns() == [1.0, 0.0, 0.0, 0.0] and s.score_values()[0] == 5.0


def test_round_cap_is_a_draw(compiled):
    capped = MuckleGame(dataclasses.replace(compiled.content, max_rounds=3))
    s = capped.new_state(GameSetup(4), 5)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.timed_out and s.rounds == 3 and s.returns() == [0.0] * 4


def test_setup_errors(compiled):
    with pytest.raises(ValueError):
        compiled.new_state(GameSetup(3, {"teams": True}), 1)
    with pytest.raises(ValueError):
        compiled.new_state(GameSetup(7), 1)


def test_observation_redeals_hidden_cards(compiled):
    s = fresh(compiled)
    seen = s.observation(0)
    r = s.t.ranks
    assert seen.hands[:r] == s.hands[:r] and seen.invariant_errors() == []
    assert seen.hands[r:] != s.hands[r:] or seen.draw != s.draw


# ----- bots, determinism, contract -----------------------------------------------------------


def test_greedy_prefers_castle_and_capture(compiled):
    bot = GreedyBot()
    s = fresh(compiled)
    arrange(s, {0: 70, 1: 20})
    hand(s, "rank-10", "rank-2")
    s.apply(bot.choose(s, None))  # type: ignore[arg-type]
    assert s.pos[0] == castle(s, 5)
    s = fresh(compiled)
    arrange(s, {0: 10, 1: 20, 5: 66})
    hand(s, "rank-6")
    assert dests(s, "rank-6", 0) == {16} and dests(s, "rank-6", 1) == {26}
    arrange(s, {0: 60, 1: 20, 5: 66})
    hand(s, "rank-6", "rank-2")
    s.apply(bot.choose(s, None))  # type: ignore[arg-type]
    assert s.pos[5] == -1


def test_greedy_beats_random(compiled):
    setup = GameSetup(4)
    bots = [GreedyBot(), RandomBot(), RandomBot(), RandomBot()]
    wins = sum(play_one(compiled, setup, bots, i, 3).returns[0] for i in range(12))
    assert wins >= 9


def test_same_seed_same_records(compiled):
    setup = GameSetup(4)
    bots = [GreedyBot() for _ in range(4)]
    first = [play_one(compiled, setup, bots, i, 11) for i in range(3)]
    again = [play_one(compiled, setup, bots, i, 11) for i in range(3)]
    assert first == again
    assert len({r.turns for r in first}) > 1


# Slow (the seven cases: about 60 s of CPU together, the longest 10-15 s): issue 4 asks for at
# least 1,000 random games per engine in CI, at every player count; split by count so that
# they run side by side.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "teams", "games"),
    [(2, False, 420), (3, False, 250), (4, False, 100), (5, False, 60), (6, False, 50)]
    + [(4, True, 70), (6, True, 50)],  # 1000 games; random games are long (500-2500 turns)
)
def test_random_play_contract(compiled, players, teams, games):
    setup = GameSetup(players, {"teams": teams})
    assert random_play_check(compiled, setup, games, seed=players, probe_every=97) == []


# ----- G checks ----------------------------------------------------------------------------


def test_bundled_content_passes_g_checks():
    found = [d for d in run_checks(load_game(GAME_DIR)) if d.code.startswith("G")]
    assert found == []


BROKEN = [
    ("G301", "game.yaml", [("    6: 3\n  pack:", "    6: 0\n  pack:")], "6: 0"),
    ("G302", "boards/mashies.yaml", [("  3: 3\n", "  3: 4\n")], "3: 4"),
    # the start moved onto the entrance (the entrance moved onto the start also ran the
    # home lanes of the three-segment loop into each other: P016, before any G check)
    ("G303", "boards/mashies.yaml", [("start_offset: 8", "start_offset: 3")], "entrance_of"),
    # an offset past the segment is P016 of any track now, before any G check (probe 23 M2;
    # tests/test_board_track_road_fit.py)
    ("G304", "boards/mashies.yaml", [("home_holes: 5", "home_holes: 4")], "home_holes"),
    ("G305", "decks/pack.yaml", [('rank: "9"', 'rank: "NINE"')], 'rank: "NINE"'),
    ("G306", "decks/pack.yaml", [("total: 7", "total: 6")], "total: 6"),
    ("G307", "decks/pack.yaml", [("      - kind: leave_dock\n", "")], "cards:"),
    (
        "G308",
        "game.yaml",
        [("hand_size: 5", "hand_size: 20"), ("    6: 3\n  pack:", "    6: 1\n  pack:")],
        "hand_size",
    ),
    ("G310", "game.yaml", [("team_players: [4, 6]", "team_players: [4, 5]")], "team_players"),
    ("G312", "decks/pack.yaml", [("    copies: 2", "    copies: 3")], "copies: 3"),
    # no draw: the 5 cards dealt cannot bring 5 Laddies home (probe 41: every simulated game
    # was a 200,000-turn timeout, validate said clean)
    ("G313", "game.yaml", [("draw_per_turn: 1", "draw_per_turn: 0")], "draw_per_turn"),
    # An offset outside a Mashie (G303's and G309's before) is any track's P016 now:
    # tests/test_board_track_road_fit.py.
]


@pytest.mark.parametrize(("code", "rel", "edits", "marker"), BROKEN)
def test_g_checks_fire_on_broken_copy(tmp_path, code, rel, edits, marker):
    root = tmp_path / "muckle-stoater"
    shutil.copytree(GAME_DIR, root)
    for page in (root / "rulebook").glob("*.md"):  # the rulebook renders cards; keep it neutral
        page.write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    path = root / rel
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if marker in row)
    found = [d for d in run_checks(load_game(root)) if d.code == code]
    assert found, f"{code} did not fire"
    assert any(d.file.endswith(Path(rel).name) and d.line == line for d in found), found


@pytest.mark.parametrize(
    ("edits", "fires"),
    [
        ([("draw_per_turn: 1", "draw_per_turn: 0"), ("hand_size: 5", "hand_size: 7")], True),
        # 8 cards can bring 5 Laddies home (5 leave the Dock, two 7 splits and one move)
        ([("draw_per_turn: 1", "draw_per_turn: 0"), ("hand_size: 5", "hand_size: 8")], False),
        (
            [
                ("draw_per_turn: 1", "draw_per_turn: 0"),
                ("laddies_per_player: 5", "laddies_per_player: 1"),
            ],
            False,
        ),
        ([("hand_size: 5", "hand_size: 1")], False),  # a draw recycles the discards
    ],
)
def test_g313_flags_only_a_game_that_cannot_end(tmp_path, edits, fires):
    from toolkit.games.muckle_stoater.checks.players import cards_to_finish

    assert [cards_to_finish(n) for n in (1, 2, 5, 6)] == [2, 3, 8, 9]
    root = tmp_path / "muckle-stoater"
    shutil.copytree(GAME_DIR, root)
    path = root / "game.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    found = [d for d in run_checks(load_game(root)) if d.code == "G313"]
    assert bool(found) == fires, found


def test_building_a_table_and_the_bot_plan_runs_no_garbage_collection(compiled):
    # their 100,000 tuples and floats set off collections that walked the whole heap: a
    # table took 30-50 ms of CPU instead of 10 in a process with the content loaded
    import gc

    from toolkit.games.muckle_stoater.bots import plan_for

    game = MuckleGame(compiled.content)  # no table built yet
    collections: list[int] = []
    thresholds = gc.get_threshold()  # the CLI's are high; a library user's the default

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()  # every generation's count at zero: what earlier tests left cannot chain in
    gc.callbacks.append(seen)
    gc.set_threshold(700, 10, 10)
    try:
        plan_for(game.table(GameSetup(3)))
    finally:
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(seen)
    # at most the one young collection the allocations made while paused are due once the
    # collector is back (before: one every 700 tuples, some of them over the whole heap)
    assert len(collections) <= 1, collections
    assert gc.isenabled()


def test_the_engine_shuffle_draws_as_random_shuffle_does():
    # the engine's own shuffle (no Python call per card) must deal the games
    # Random.shuffle dealt: same order, and the generator left in the same state
    import random

    from toolkit.games.muckle_stoater.state import shuffle

    for seed in range(40):
        for size in (0, 1, 2, 3, 7, 64, 65, 108, 162, 1024, 1025, 1500):
            ours, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            shuffle(ours, cards)
            theirs.shuffle(expected)
            assert cards == expected, (seed, size)
            assert ours.getstate() == theirs.getstate(), (seed, size)
