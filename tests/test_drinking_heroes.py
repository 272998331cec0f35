"""Drinking Heroes: engine contract, rulings R1–R21, the §5.3 kill-rate check, G checks."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.games.drinking_heroes.bots import BraveBot, CarefulBot
from toolkit.games.drinking_heroes.compile import CompiledDrinking
from toolkit.games.drinking_heroes.constants import (
    A_CONTINUE,
    A_DRINK,
    A_FIGHT,
    A_GIVE_UP,
    A_NONE,
    A_REFUSE,
    E_KILLED,
    E_SACRIFICED,
    E_SIPS,
    E_SIPS_REFUSED,
    E_SIPS_TRIES,
    K_BANISH,
    K_DOUBLE,
    K_GIVE,
    K_SHIELD,
    K_STEAL_M,
    PH_CHOOSE,
    PH_DECIDE,
    PH_END,
    PH_GO,
    PH_SIPS,
    PH_SPELL,
)
from toolkit.games.drinking_heroes.state import DrinkingState
from toolkit.games.drinking_heroes.tables import split_teams
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import GameSetup
from toolkit.sim.prepared import compile_game
from toolkit.sim.runner import play_one

GAME = REPO / "content" / "drinking-heroes"


@pytest.fixture(scope="module")
def g() -> CompiledDrinking:
    compiled = compile_game(GAME)
    assert isinstance(compiled, CompiledDrinking)
    return compiled


def fresh(g: CompiledDrinking, players: int = 2, seed: int = 1, **options) -> DrinkingState:
    return g.new_state(GameSetup(players, options), seed)


def monster(g: CompiledDrinking, level: int, type_id: str = "fire") -> int:
    t = g.type_ids.index(type_id)
    return next(m for m in range(len(g.m_id)) if g.m_level[m] == level and g.m_type[m] == t)


def hero_with(g: CompiledDrinking, bonus: int, type_id: str = "fire") -> int:
    t = g.type_ids.index(type_id)
    return next(h for h, row in enumerate(g.bonus) if row[t] == bonus)


def card(g: CompiledDrinking, kind: int, param: int | None = None) -> int:
    return next(
        c
        for c in range(len(g.card_names))
        if g.s_kind[c] == kind and (param is None or g.s_param[c] == param)
    )


def setup_combat(
    s: DrinkingState, m: int, seat: int = 0, hero: int | None = None, deck: list[int] | None = None
) -> None:
    """Put monster `m` in front of `seat` (the active seat) at the start of its turn."""
    n = s.tb.seats
    others = [x for x in range(len(s.g.m_id)) if x != m]
    s.deck = list(deck) if deck is not None else others[:3]
    s.pit, s.gone = [], []
    s.owned = [[] for _ in range(n)]
    s.monster = m
    s.active = seat
    if hero is not None:
        s.hero = list(s.hero)
        s.hero[seat] = hero
    s.legal = None
    s._start_combat(seat)


# --- engine contract -----------------------------------------------------------------------

CONTRACT_CASES = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (3, {"short_deck": True}),
    (4, {"mode": "cooperative"}),
    (6, {"mode": "cooperative", "coop_extra_tries": 1}),
    (4, {"mode": "no_drinking"}),
    (5, {"non_drinkers": 2}),
    (9, {}),
    (18, {"non_drinkers": 5}),
]


@pytest.mark.parametrize("players,options", CONTRACT_CASES)
def test_random_play_contract(g, players, options):
    # 12 setups x 100 games = 1200 random games in all.
    setup = GameSetup(players, options)
    assert random_play_check(g, setup, 100, seed=players, probe_every=5) == []


@pytest.mark.parametrize("players,options", [(4, {}), (4, {"mode": "cooperative"}), (9, {})])
def test_bots_finish_and_returns_per_seat(g, players, options):
    setup = GameSetup(players, options)
    seats = len(split_teams(players, g.solo_max, g.team_sizes, g.max_teams))
    bots = [CarefulBot(), BraveBot()]
    coop = options.get("mode") == "cooperative"
    for index in range(40):
        record = play_one(g, setup, bots, index, seed=3)
        assert not record.timed_out
        assert len(record.returns) == seats == len(record.roles) == len(record.scores)
        if coop:
            assert set(record.returns) in ({0.0}, {1.0})
        else:
            assert abs(sum(record.returns) - 1.0) < 1e-9
        assert len(set(record.roles)) == seats  # R14


def test_same_seed_same_records(g):
    setup = GameSetup(4, {"non_drinkers": 1})
    bots = [CarefulBot(), BraveBot(), CarefulBot(), BraveBot()]
    first = [play_one(g, setup, bots, i, seed=11) for i in range(30)]
    again = [play_one(g, setup, bots, i, seed=11) for i in range(30)]
    assert first == again
    other = [play_one(g, setup, bots, i, seed=12) for i in range(30)]
    assert first != other


def test_observation_hides_order_but_keeps_counts(g):
    s = fresh(g, 4, seed=5)
    view = s.observation(0)
    assert view.hands[0] == s.hands[0]
    assert sorted(view.deck) == sorted(s.deck)
    assert [len(h) for h in view.hands] == [len(h) for h in s.hands]
    assert fresh(g, 4, seed=5).rng.getstate() == s.rng.getstate()  # the original is untouched


# --- setup rulings -------------------------------------------------------------------------


def test_team_splits_r13(g):
    split = lambda n: split_teams(n, g.solo_max, g.team_sizes, g.max_teams)  # noqa: E731
    assert split(6) == [1] * 6
    assert split(7) == [2, 2, 3]
    assert split(8) == [2, 2, 2, 2]
    assert split(9) == [2, 2, 2, 3]
    assert split(13) == [2, 2, 2, 2, 2, 3]
    assert split(18) == [3] * 6
    assert g.seats_are_teams(GameSetup(7)) and not g.seats_are_teams(GameSetup(6))


def test_spell_deck_filters_r20_f16(g):
    assert len(g.table(GameSetup(4)).spells) == 24
    assert len(g.table(GameSetup(4, {"mode": "cooperative"})).spells) == 15
    assert len(g.table(GameSetup(4, {"mode": "no_drinking"})).spells) == 20
    assert len(g.table(GameSetup(4, {"non_drinkers": 4})).spells) == 20  # nobody drinks
    assert len(g.table(GameSetup(4, {"non_drinkers": 3})).spells) == 24  # one drinker left


def test_short_deck_one_per_pair_r21(g):
    s = fresh(g, 2, short_deck=True)
    drawn = [*s.deck, s.monster]
    assert len(drawn) == 18
    assert len({(g.m_type[m], g.m_level[m]) for m in drawn}) == 18


def test_deal_and_team_drinkers_r12_r19(g):
    s = fresh(g, 9, non_drinkers=3)  # teams 2,2,2,3; players 6-8 sober
    assert s.tb.members == (2, 2, 2, 3)
    assert s.tb.drinkers == (2, 2, 2, 0)
    assert s.tb.drinking == (True, True, True, False)
    assert all(len(h) == g.spells_per_seat for h in s.hands)


# --- combat rulings ------------------------------------------------------------------------


def test_natural_faces_r3(g):
    assert g.kills(g.kill_face, need=99)
    assert not g.kills(g.fail_face, need=-99)
    assert g.kills(4, need=4) and not g.kills(3, need=4)


def test_non_drinker_cap_and_coop_extra_r17_r18(g):
    s = fresh(g, 2, non_drinkers=1)
    s.hands = [[], []]
    setup_combat(s, monster(g, 1), seat=1)
    assert s.tries_max == g.nd_cap  # printed 3, capped
    setup_combat(s, monster(g, 1), seat=0)
    assert s.tries_max == g.m_tries[monster(g, 1)]
    c = fresh(g, 2, mode="cooperative", coop_extra_tries=1, non_drinkers=1)
    c.hands = [[], []]
    setup_combat(c, monster(g, 1), seat=1)
    assert c.tries_max == g.nd_cap + 1


def test_non_drinker_shield_is_an_extra_try_r18(g):
    s = fresh(g, 2, non_drinkers=1)
    shield = card(g, K_SHIELD)
    s.hands = [[], [shield]]
    setup_combat(s, monster(g, 1), seat=1)
    assert s.phase == PH_SPELL
    s.apply(g.a_spell + shield * g.tw)
    assert s.tries_max == g.nd_cap + g.s_param[shield] and s.shields == 0


def test_failed_try_sips_then_continue_r4_r5(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    m = monster(g, 6)
    setup_combat(s, m, hero=hero_with(g, 0))
    assert s.phase == PH_DECIDE
    s.rng.random = lambda: 0.0  # natural 1: always fails
    s.apply(A_FIGHT)
    assert s.sips[0] == g.m_sips[m][1] == s.events[E_SIPS_TRIES]
    # L6 has a single try: the combat is over and the monster stays in the Pit.
    assert s.pit == [m] and s.active == 1


def test_sacrifice_refuses_sips_r6_r7(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    m = monster(g, 3)
    setup_combat(s, m, hero=hero_with(g, 0))
    low, high = monster(g, 1, "water"), monster(g, 2, "water")
    s.owned[0] = [high, low]
    s.rng.random = lambda: 0.0
    s.apply(A_FIGHT)
    assert s.phase == PH_SIPS and s.cur == 0
    assert sorted(s.legal_actions()) == sorted([A_DRINK, g.a_sacrifice + low, g.a_sacrifice + high])
    assert CarefulBot().choose(s, None) == g.a_sacrifice + low  # 4 sips ≥ 3 × level 1
    s.mark[low] = 2  # a double_points mark is lost with the card
    s.apply(g.a_sacrifice + low)
    assert s.owned[0] == [high] and s.gone == [low] and s.mark[low] == 1
    assert s.events[E_SACRIFICED] == 1 and s.events[E_SIPS_REFUSED] == g.m_sips[m][1]
    assert s.sips[0] == 0 and s.phase == PH_GO  # settled before continue/give up (R5)
    s.apply(A_GIVE_UP)
    assert m in s.pit


def test_kill_keeps_monster_and_draws_spell_f12(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    m = monster(g, 2)
    setup_combat(s, m)
    before = len(s.sdeck)
    s.rng.random = lambda: 0.99  # natural 6
    s.apply(A_FIGHT)
    assert s.owned[0] == [m] and s.events[E_KILLED] == 1
    assert len(s.hands[0]) == g.spells_per_kill and len(s.sdeck) == before - g.spells_per_kill


def test_give_sips_targets_drinkers_only_r9_r18(g):
    s = fresh(g, 3, non_drinkers=1)  # seat 2 is sober
    give = card(g, K_GIVE)
    s.hands = [[give], [], []]
    setup_combat(s, monster(g, 1))
    actions = s.legal_actions()
    assert g.a_spell + give * g.tw + 1 in actions
    assert g.a_spell + give * g.tw + 2 not in actions
    s.apply(g.a_spell + give * g.tw + 1)
    assert s.sips[1] == g.s_param[give] and s.phase == PH_DECIDE and s.cur == 0


def test_no_target_no_spell_r9(g):
    s = fresh(g, 2)
    banish, steal = card(g, K_BANISH), card(g, K_STEAL_M)
    s.hands = [[banish, steal], []]
    setup_combat(s, monster(g, 4), deck=[])
    assert s.phase == PH_DECIDE  # empty deck, nothing to steal: no legal spell, no spell phase
    setup_combat(s, monster(g, 4), deck=[monster(g, 1, "water")])
    assert s.legal_actions() == [A_NONE, g.a_spell + banish * g.tw]


def test_banish_draws_next_without_second_spell_f9_r8(g):
    s = fresh(g, 2)
    banish = card(g, K_BANISH)
    m, nxt, bottom = monster(g, 6), monster(g, 1, "water"), monster(g, 2, "water")
    s.hands = [[banish, banish], []]
    setup_combat(s, m, deck=[bottom, nxt])
    s.apply(g.a_spell + banish * g.tw)
    assert s.monster == nxt and s.deck == [m, bottom] and s.phase == PH_DECIDE
    assert s.hands[0] == [banish]


def test_double_points_mark_follows_the_card(g):
    s = fresh(g, 2)
    dbl, steal = card(g, K_DOUBLE), card(g, K_STEAL_M)
    m = monster(g, 3)
    s.hands = [[dbl], [steal]]
    setup_combat(s, m)
    s.apply(g.a_spell + dbl * g.tw)
    s.rng.random = lambda: 0.99
    s.apply(A_FIGHT)
    assert s.mark[m] == g.s_param[dbl] and s.score(0) == g.s_param[dbl] * g.m_level[m]
    assert s.active == 1 and s.phase == PH_SPELL
    s.apply(g.a_spell + steal * g.tw + m)
    assert s.owned[1] == [m] and s.score(1) == g.s_param[dbl] * g.m_level[m]


def test_end_after_last_card_even_refused_r11(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    setup_combat(s, monster(g, 5), deck=[])
    s.apply(A_REFUSE)
    assert s.phase == PH_END and s.is_terminal()


def test_tie_breaks_f15(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    setup_combat(s, monster(g, 1), deck=[])
    # Same 6 points: seat 0 has a level 6, seat 1 has levels 3+2+1.
    s.owned = [[monster(g, 6)], [monster(g, 3), monster(g, 2), monster(g, 1, "water")]]
    s.apply(A_REFUSE)
    assert s.returns() == [1.0, 0.0]
    t = fresh(g, 2)
    t.hands = [[], []]
    setup_combat(t, monster(g, 1), deck=[])
    t.owned = [[monster(g, 4)], [monster(g, 4, "water")]]
    t.apply(A_REFUSE)
    assert t.returns() == [0.5, 0.5]  # tied at every level: shared win


def test_curse_lasts_until_end_of_targets_next_turn(g):
    s = fresh(g, 2)
    curse = next(c for c in range(len(g.card_names)) if g.s_param[c] < 0)
    s.hands = [[curse], []]
    setup_combat(s, monster(g, 1))
    s.apply(g.a_spell + curse * g.tw + 1)
    assert s.curse[1] == g.s_param[curse]
    s.apply(A_REFUSE)  # seat 0's turn ends; the curse waits for seat 1
    assert s.active == 1 and s.curse[1] == g.s_param[curse] and s.phase == PH_DECIDE
    m = s.monster
    bonus = g.bonus[s.hero[1]][g.m_type[m]]
    assert s.need == g.m_kill[m] - bonus - g.s_param[curse]  # a malus raises the face needed
    s.apply(A_REFUSE)
    assert s.curse[1] == 0 and s.active == 0


def test_coop_failed_hero_cannot_retry_and_all_fail_loses_r15(g):
    s = fresh(g, 3, mode="cooperative")
    s.hands = [[], [], []]
    s.deck = []
    s.monster = monster(g, 6)
    s.failed = 0
    s.legal = None
    s._choose_or_start()
    assert s.phase == PH_CHOOSE and len(s.legal_actions()) == 3
    s.rng.random = lambda: 0.0  # every roll a natural 1
    s.apply(g.a_choose + 0)
    # Seat 0 failed its only try: it may not retry; the table picks among the others.
    assert s.phase == PH_CHOOSE and s.legal_actions() == [g.a_choose + 1, g.a_choose + 2]
    s.apply(g.a_choose + 2)  # seat 1 is the last hero left: it fights at once, and fails
    assert s.phase == PH_END and s.returns() == [0.0, 0.0, 0.0]
    assert s.sips == [g.m_sips[s.pit[-1]][1]] * 3  # failing heroes still drink (R16)


def test_coop_win_when_every_monster_dies(g):
    s = fresh(g, 2, mode="cooperative")
    s.rng.random = lambda: 0.99
    while not s.is_terminal():
        s.apply(s.legal_actions()[-1] if s.phase != PH_GO else A_CONTINUE)
    assert s.returns() == [1.0, 1.0] and s.events[E_KILLED] == 36


def test_careful_refuses_bad_deals_brave_fights(g):
    s = fresh(g, 2)
    s.hands = [[], []]
    setup_combat(s, monster(g, 6), hero=hero_with(g, 0))
    # Level 6, +0: 1/6 for 6 points vs 5/6 × 3.6 sips × 0.5.
    assert CarefulBot().choose(s, None) == A_REFUSE
    assert BraveBot().choose(s, None) == A_FIGHT
    setup_combat(s, monster(g, 2), hero=hero_with(g, 2))
    assert CarefulBot().choose(s, None) == A_FIGHT


# --- §5.3 engine check: kill rate per level × bonus, no spells -----------------------------

# Design 3.1 table: P(kill) and E[sips] fighting to the last try, for bonus +0/+1/+2.
TABLE_31 = {
    1: ((215 / 216, 0.60), (215 / 216, 0.60), (215 / 216, 0.60)),
    2: ((26 / 27, 1.20), (215 / 216, 0.60), (215 / 216, 0.60)),
    3: ((7 / 8, 2.63), (26 / 27, 1.69), (215 / 216, 0.80)),
    4: ((5 / 9, 3.06), (3 / 4, 2.25), (8 / 9, 1.56)),
    5: ((11 / 36, 5.50), (5 / 9, 4.17), (3 / 4, 3.00)),
    6: ((1 / 6, 3.00), (1 / 6, 3.00), (1 / 3, 2.50)),
}


def test_kill_rates_match_design_table(g):
    fights = 2000
    base = fresh(g, 2, seed=99)
    base.hands = [[], []]
    for level, row in TABLE_31.items():
        for bonus, (p_table, sips_table) in enumerate(row):
            m, hero = monster(g, level), hero_with(g, bonus)
            kills, sips, sq = 0, 0, 0
            for i in range(fights):
                s = base.clone()
                s.rng.seed(level * 100_000 + bonus * 10_000 + i)
                setup_combat(s, m, hero=hero, deck=[])
                s.apply(A_FIGHT)
                while s.phase == PH_GO:
                    s.apply(A_CONTINUE)
                kills += s.events[E_KILLED]
                sips += s.events[E_SIPS]
                sq += s.events[E_SIPS] ** 2
            rate = kills / fights
            se = math.sqrt(p_table * (1 - p_table) / fights)
            assert abs(rate - p_table) <= 3 * se + 1e-9, (level, bonus, rate, p_table)
            mean = sips / fights
            sd = math.sqrt(max(sq / fights - mean * mean, 1e-12))
            assert abs(mean - sips_table) <= 3 * sd / math.sqrt(fights) + 0.005, (level, bonus)


# --- G checks ------------------------------------------------------------------------------


def test_bundled_content_has_no_g_findings():
    found = [d for d in run_checks(load_game(GAME)) if d.code.startswith("G")]
    assert found == []


def broken(tmp_path: Path, rel: str, *edits: str) -> list[tuple[str, str, int]]:
    """G findings of a copy of the game with `rel` edited by (old, new, old, new, ...)."""
    root = tmp_path / "drinking-heroes"
    shutil.copytree(GAME, root)
    path = root / rel
    text = path.read_text(encoding="utf-8")
    for old, new in zip(edits[::2], edits[1::2], strict=True):
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    game = load_game(root)
    return [(d.code, Path(d.file).name, d.line) for d in run_checks(game) if d.code[0] == "G"]


def line_of(rel: str, needle: str, nth: int = 0) -> int:
    lines = (GAME / rel).read_text(encoding="utf-8").splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if needle in line]
    return hits[nth]


M, S, H = "decks/monsters.yaml", "decks/spells.yaml", "decks/heroes.yaml"


def test_g203_fewer_heroes_than_seats(tmp_path):
    """Six heroes, but solo play for up to seven: the heroes deck's `cards` is flagged."""
    root = tmp_path / "drinking-heroes"
    shutil.copytree(GAME, root)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "solo_max_players: 6" in text
    manifest.write_text(text.replace("solo_max_players: 6", "solo_max_players: 7"), "utf-8")
    found = [(d.code, Path(d.file).name, d.line) for d in run_checks(load_game(root))]
    assert [f for f in found if f[0] == "G203"] == [("G203", "heroes.yaml", line_of(H, "cards:"))]


def test_g205_kill_target_formula(tmp_path):
    found = broken(tmp_path, M, "kill_target: 2", "kill_target: 3")
    assert found == [("G205", "monsters.yaml", line_of(M, "kill_target: 2"))]


def test_g205_max_tries_formula(tmp_path):
    found = broken(tmp_path, M, "max_tries: 1", "max_tries: 2")
    assert found == [("G205", "monsters.yaml", line_of(M, "max_tries: 1"))]


def test_g206_sip_table(tmp_path):
    old = "sips: {1: 3, 2: 2, 3: 1, 4: 1, 5: 1}"
    found = broken(tmp_path, M, old, "sips: {1: 3, 2: 2, 3: 1, 4: 1, 6: 1}")
    line = line_of(M, old)
    assert ("G206", "monsters.yaml", line) in found  # face 5 missing, face 6 cannot fail
    assert {code for code, _, _ in found} == {"G206"}


def test_g204_pairs_and_g207_unkillable(tmp_path):
    found = broken(tmp_path, H, "fire: 2", "fire: 1")
    codes = {code for code, _, _ in found}
    assert codes == {"G201", "G202", "G207"}
    assert ("G201", "heroes.yaml", line_of(H, "fire: 2")) in found  # the bonuses value
    assert ("G207", "monsters.yaml", line_of(M, "kill_target: 7")) in found
    pairs = broken(tmp_path / "b", M, "    level: 1\n", "    level: 2\n")
    assert ("G204", "monsters.yaml", line_of(M, "level: 1")) in pairs


def test_g208_target_and_g209_flags(tmp_path):
    found = broken(tmp_path, S, "target: monster", "target: self")
    assert found == [("G208", "spells.yaml", line_of(S, "target: monster"))]
    flags = broken(tmp_path / "b", S, "    gold: true\n", "")
    line = line_of(S, "- id: bottoms-up")
    assert flags == [("G209", "spells.yaml", line)]  # the card, as the key is missing


def test_g210_mode_deck_size(tmp_path):
    found = broken(tmp_path, "game.yaml", "spells_per_seat: 2", "spells_per_seat: 3")
    assert found == [("G210", "spells.yaml", line_of(S, "cards:"))]


def test_g211_setup(tmp_path):
    found = broken(tmp_path, "game.yaml", "max_teams: 6", "max_teams: 5")
    line = line_of("game.yaml", "max: 18")
    assert set(found) == {("G211", "game.yaml", line)}  # 16-18 players cannot be seated


def test_g212_param_not_shown(tmp_path):
    # Dropped in every language (one language alone is the generic T005 parity error).
    edits = ("baisse de {amount}.", "baisse.", "baja {amount}.", "baja.", "drops by {amount}.")
    found = broken(tmp_path, S, *edits, "drops.")
    lines = [line_of(S, "baisse de {amount}."), line_of(S, "baja {amount}.")]
    lines.append(line_of(S, "drops by {amount}."))
    assert found == [("G212", "spells.yaml", line) for line in lines]
