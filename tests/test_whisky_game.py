"""The Whisky Game: engine rules (spec §A, rulings §C), bots, contract, workers, G checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.games.whisky_game import specials as sp
from toolkit.games.whisky_game.bots import GreedyBot
from toolkit.games.whisky_game.compile import WhiskyGame, compile_game
from toolkit.games.whisky_game.constants import (
    END_NOW,
    EV_DECL,
    EV_EMPTY,
    EV_QRESHUF,
    EV_VOID,
    EVENT_NAMES,
    H_FIFTY,
    H_NEWQ,
    H_RESCUE,
    H_WRITER,
    K_AIR,
    K_DIST,
    K_LOST,
    K_PORT,
    K_PUB,
    K_RES,
    K_SEA,
    K_SPEC,
    OP_BOOK,
    OP_BUY,
    OP_CARD,
    OP_CHOOSE,
    OP_DIFF,
    OP_FERRY,
    OP_HELP,
    OP_HERE,
    OP_JUMP,
    OP_PASS,
    OP_PUB,
    OP_SPILL,
    PH_ACT,
    PH_CHOICE,
    PH_END,
    PH_HELP,
    PH_JUMP,
    PH_PATH,
    PH_START,
    ROLL,
    SHIFT,
)
from toolkit.games.whisky_game.mapgen import REGION_NOTE
from toolkit.games.whisky_game.moves import outcomes
from toolkit.games.whisky_game.scoring import LOST
from toolkit.games.whisky_game.state import WhiskyState
from toolkit.sim.bots import RandomBot
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import GameSetup
from toolkit.sim.play import run
from toolkit.sim.prepared import SimConfig
from toolkit.sim.runner import play_one

GAME_DIR = REPO / "content" / "whisky-game"
EV = {name: i for i, name in enumerate(EVENT_NAMES)}


def write_dev_bank(root: Path, per_difficulty: int = 40) -> None:
    """A generated question bank (the real one is written and checked by people): the
    engine only needs how many cards each difficulty holds."""
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    if "  questions:" in text:
        return
    (root / "questions").mkdir(exist_ok=True)
    files = []
    for diff in ("easy", "normal", "hard"):
        rows = [f"id: dev-{diff}\nname: {{fr: {diff}, es: {diff}, en: {diff}}}\nquestions:\n"]
        for i in range(per_difficulty):
            right, other = "abcd"[i % 4], "abcd"[(i + 1) % 4]
            answers = "".join(
                f"      - {{fr: Réponse {x}{i}, es: Respuesta {x}{i}, en: Answer {x}{i}}}\n"
                for x in "abcd"
            )
            rows.append(
                f"  - id: {diff}-{i}\n    difficulty: {diff}\n"
                f"    question: {{fr: Question {diff} {i}, es: Pregunta {diff} {i},"
                f" en: Question {diff} {i} in English}}\n"
                f"    answers:\n{answers}    right: {right}\n"
                f"    fifty_fifty: [{right}, {other}]\n"
                f"    fact: {{fr: Fait {i}., es: Hecho {i}., en: Fact {i}.}}\n"
                "    source: Generated test bank\n"
            )
        (root / "questions" / f"{diff}.yaml").write_text("".join(rows), encoding="utf-8")
        files.append(f"    - questions/{diff}.yaml\n")
    text = text.replace(
        "  glossary: glossary.yaml", "  questions:\n" + "".join(files) + "  glossary: glossary.yaml"
    )
    manifest.write_text(text, encoding="utf-8")


def game_copy(target: Path) -> Path:
    shutil.copytree(GAME_DIR, target)
    write_dev_bank(target)
    return target


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory) -> Path:
    return game_copy(tmp_path_factory.mktemp("wg") / "whisky-game")


@pytest.fixture(scope="module")
def g(game_dir) -> WhiskyGame:
    return compile_game(load_game(game_dir))


class Dice:
    """A scripted RNG: die faces and answer draws in order; blind draws take the first."""

    def __init__(self, faces=(), floats=()) -> None:
        self.faces = list(faces)
        self.floats = list(floats)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else a  # then every die shows its lowest

    def random(self) -> float:
        return self.floats.pop(0) if self.floats else 0.999999

    def randrange(self, n: int) -> int:
        return 0

    def shuffle(self, items: list) -> None:
        pass


def sid(g: WhiskyGame, name: str) -> int:
    return g.content.space_names.index(name)


def card(g: WhiskyGame, name: str) -> int:
    return g.card_names.index(name)


def char(g: WhiskyGame, name: str) -> int:
    return [c.name for c in g.content.characters].index(name)


def fresh(g: WhiskyGame, players: int = 2, seed: int = 1, **options) -> WhiskyState:
    """A state just after the start choices, before anyone rolled (chance scripted)."""
    s = g.new_state(GameSetup(players, options), seed)
    assert isinstance(s, WhiskyState)
    s.rng = Dice()
    return s


def turn(s: WhiskyState, seat: int, space: str, faces=(), floats=(), characters=None) -> None:
    """Put `seat` on `space` at the start of its turn, with scripted dice."""
    g = s.g
    for other in range(s.n):  # the others wait on a choice at their turn's start
        if other != seat:
            s.pos[other] = sid(g, "teeling")
            s.placed[other] = True
    s.cur = seat
    s.pos[seat] = sid(g, space)
    plain = ["alan-winchester", "billy-leighton", "gordon-motion", "rachel-barrie"]
    names = list(characters or plain[:1]) + [n for n in plain if n not in (characters or ())]
    s.char = [char(g, name) for name in names[: s.n]]
    s.rng = Dice(faces, floats)
    s.phase = PH_START
    s.turn_start = True
    s.moves_left = 1
    s.spill_done = False
    s.newq_left = 1


def act(s: WhiskyState, op: int, arg: int = 0) -> None:
    action = op << SHIFT | arg
    assert action in s.legal_actions(), (action, s.legal_actions())
    s.apply(action)


def path_to(s: WhiskyState, space: str) -> int:
    target = sid(s.g, space)
    return next(i for i, o in enumerate(s.paths) if o[0] == target)


# ----- compiled content ----------------------------------------------------------------


def test_compiled_map(g):
    c = g.content
    assert len(c.dist_space) == 24 and len(c.lost_spaces) == 4
    assert [c.space_names[s] for s in c.starts] == ["edinburgh", "dublin"]
    game = load_game(GAME_DIR)
    per = [q.difficulty for bank in game.valid(game.questions) for q in bank.questions]
    assert c.bottle_values == (1, 3, 5)
    assert c.questions == tuple(per.count(d) for d in ("easy", "normal", "hard"))
    land = [i for i, k in enumerate(c.kind) if k != K_SEA]
    for a in land:
        for b in land:
            assert c.distance[a][b] == c.distance[b][a] < 10**6
    assert c.distance[sid(g, "glasgow")][sid(g, "tarbet")] == 2


def reference_outcomes(c, start: int, steps: int) -> set:
    """Rules A4-A6 and C7 by brute force over every simple path (no caching, no pruning)."""
    found = set()
    paths = [(start,)]
    while paths:
        path = paths.pop()
        end, length = path[-1], len(path) - 1
        tokens = sum(1 for x in path[1:] if c.kind[x] == K_RES)
        if length == steps:
            found.add((end, tokens, int(c.kind[end] == K_SPEC)))
            continue
        longer = [(*path, n) for n in c.adj[end] if n not in path]
        if length and c.kind[end] in (K_DIST, K_LOST, K_PUB, K_PORT, K_AIR):
            found.add((end, tokens, 0))
        if not longer:
            found.add((end, tokens, 0))
        paths.extend(longer)
    return found


def test_moves_match_the_rules_by_brute_force(g):
    c = g.content
    cache: dict = {}
    for start in range(0, len(c.kind), 3):
        if c.kind[start] == K_SEA:
            continue
        for steps in range(1, 11):
            got = outcomes(c, cache, start, steps, False)
            assert set(got) == reference_outcomes(c, start, steps), (start, steps)
            assert all(c.kind[end] != K_SEA for end, _, _ in got)


def test_exact_landing_draws_and_passing_does_not(g):
    c = g.content
    cache: dict = {}
    two = outcomes(c, cache, sid(g, "glasgow"), 2, False)
    assert (sid(g, "tarbet"), 0, 1) in two
    three = outcomes(c, cache, sid(g, "glasgow"), 3, False)
    assert all(end != sid(g, "tarbet") for end, _, _ in three)


def test_early_stop_on_a_dead_end_distillery(g):
    cache: dict = {}
    ends = {o[0] for o in outcomes(g.content, cache, sid(g, "newton-stewart"), 5, False)}
    assert sid(g, "bladnoch") in ends  # 1 step away, 4 steps left: it may stop there


def test_prohibition_never_ends_on_distillery_or_pub(g):
    c = g.content
    cache: dict = {}
    for steps in range(1, 10):
        for end, _, _ in outcomes(c, cache, sid(g, "edinburgh"), steps, True):
            assert c.kind[end] not in (K_DIST, K_LOST, K_PUB)


@pytest.mark.parametrize("start", ["edinburgh", "glasgow", "inverness", "aberdeen"])
def test_prohibition_never_passes_through_a_distillery_or_pub(g, start):
    """The rules texts forbid entering one ("il ne doit PAS entrer"), not only ending there:
    every end is reachable within the roll on the map with those spaces taken out."""
    c = g.content
    cache: dict = {}
    banned = {i for i, k in enumerate(c.kind) if k in (K_DIST, K_LOST, K_PUB)}
    origin = sid(g, start)
    distance = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for space in frontier:
            for n in c.adj[space]:
                if n not in distance and n not in banned:
                    distance[n] = distance[space] + 1
                    nxt.append(n)
        frontier = nxt
    for steps in range(1, 13):
        for end, _, _ in outcomes(c, cache, origin, steps, True):
            assert distance.get(end, 99) <= steps, (steps, end)


# ----- moves and rolls (C10, C11) ------------------------------------------------------


def test_six_rolls_again_and_adds(g):
    s = fresh(g)
    turn(s, 0, "edinburgh", faces=[6, 6, 2])
    s.apply(ROLL)
    assert s.paths == list(outcomes(g.content, g._paths, sid(g, "edinburgh"), 14, False))


def test_move_value_order_jameson_truck_carriage(g):
    s = fresh(g)
    turn(s, 0, "cork", faces=[1], characters=["john-jameson", "alan-winchester"])
    s.front[0] = [card(g, "horse-drawn-carriage"), card(g, "truck")]
    s.deck = [t for t in s.deck if t not in s.front[0]]
    s.apply(ROLL)

    def ends(steps: int) -> list:
        return list(outcomes(g.content, g._paths, sid(g, "cork"), steps, False))

    assert s.paths == ends((1 + 5) * 2 + 2)
    assert ends((1 + 5) * 2 + 2) not in (ends((1 + 5 + 2) * 2), ends(1 * 2 + 5 + 2))


@pytest.mark.parametrize(("face", "steps"), [(3, 1), (5, 3)])
def test_hangover_subtracts(g, face, steps):
    s = fresh(g)
    turn(s, 0, "edinburgh", faces=[face])
    s.front[0] = [card(g, "hangover")]
    s.deck.remove(card(g, "hangover"))
    s.apply(ROLL)
    want = outcomes(g.content, g._paths, sid(g, "edinburgh"), steps, False)
    assert s.paths == list(want) or s.pos[0] in {o[0] for o in want}


def test_hangover_low_roll_no_move_and_six_cures(g):
    s = fresh(g)
    turn(s, 0, "edinburgh", faces=[2])
    hang = card(g, "hangover")
    s.front[0] = [hang]
    s.deck.remove(hang)
    s.apply(ROLL)
    assert s.pos[0] == sid(g, "edinburgh") and s.cur == 1 and s.front[0] == [hang]
    turn(s, 0, "edinburgh", faces=[6])
    s.apply(ROLL)
    assert s.pos[0] == sid(g, "edinburgh") and s.front[0] == [] and hang in s.discard
    assert s.cur == 1  # no move, no re-roll: play resumes next turn


def test_two_moves_in_ireland_and_stop_to_resolve(g):
    s = fresh(g)
    turn(s, 0, "dublin", faces=[1, 4], characters=["john-quinn", "alan-winchester"])
    s.moves_left = 2
    s.apply(ROLL)
    s.apply(OP_PATH_ := (1 << SHIFT) | path_to(s, "teeling"))  # noqa: F841
    assert s.phase == PH_ACT
    act(s, OP_PASS, 0)  # go on with the second move instead of answering
    assert s.cur == 0 and s.moves_left == 1


def test_tokens_from_resource_spaces_and_empty_bag(g):
    c = g.content
    s = fresh(g)
    start = sid(g, "edinburgh")
    move = next(
        (steps, o)
        for steps in range(1, 8)
        for o in outcomes(c, g._paths, start, steps, False)
        if o[1] == 1 and c.kind[o[0]] not in (K_DIST, K_LOST, K_PUB, K_PORT, K_AIR)
    )
    s.bag = [0, 0, 0]
    s.tokens = [0] * len(s.tokens)
    turn(s, 0, "edinburgh")
    s.paths = [move[1]]
    s._take_path(0)
    assert s.events[EV_EMPTY] == 1 and sum(s.tokens) == 0


# ----- distilleries (A9-A11, C19-C21, C27) ---------------------------------------------


def arrive(s: WhiskyState, seat: int, space: str, **kw) -> None:
    turn(s, seat, space, **kw)
    s.turn_start = False
    s._arrive()


def test_right_answer_wins_the_bottle(g):
    s = fresh(g)
    arrive(s, 0, "glenlivet", floats=[0.1])
    assert s.phase == PH_ACT
    act(s, OP_DIFF, 2)
    d = g.content.space_dist[sid(g, "glenlivet")]
    assert s.bottles[0] == [d * 3 + 2] and s.avail[d * 3 + 2] == 0 and s.cur == 1


def test_no_twice_in_a_row_and_one_bottle_per_distillery(g):
    s = fresh(g)
    arrive(s, 0, "glenlivet")  # wrong (0.999999)
    act(s, OP_DIFF, 0)
    assert s.bottles[0] == [] and s.cur == 1
    arrive(s, 0, "glenlivet")
    assert s.phase != PH_ACT  # latest question was here
    s.last_q[0] = -1
    s.bottles[0] = [g.content.space_dist[sid(g, "glenlivet")] * 3]
    arrive(s, 0, "glenlivet")
    assert s.phase != PH_ACT


def test_questions_pile_rebuilt_when_empty(g):
    s = fresh(g)
    s.piles[0] = 0
    arrive(s, 0, "glenlivet", floats=[0.1])
    act(s, OP_DIFF, 0)
    assert s.events[EV_QRESHUF] == 1 and s.piles[0] == g.content.questions[0] - 1


@pytest.mark.parametrize(
    ("helper", "setup", "floats", "faces", "wins"),
    [
        (H_WRITER, "dave-broom", [0.99], [], True),
        (H_FIFTY, "fifty-fifty", [0.99, 0.4], [], True),
        (H_FIFTY, "fifty-fifty", [0.99, 0.6], [], False),
        (H_RESCUE, None, [0.99], [2], True),
        (H_RESCUE, None, [0.99], [3], False),
    ],
)
def test_helpers_when_you_dont_know(g, helper, setup, floats, faces, wins):
    s = fresh(g)
    chars = ["billy-walker", "alan-winchester"]
    arrive(s, 0, "glenlivet", floats=floats, faces=faces, characters=chars)
    if setup:
        t = card(g, setup)
        s.deck.remove(t)
        s.hand[0].append(t)
    act(s, OP_DIFF, 1)
    assert s.phase == PH_HELP
    act(s, OP_HELP, helper)
    assert bool(s.bottles[0]) == wins
    if helper == H_WRITER:
        assert s.deck[0] == card(g, "dave-broom")  # under the special deck


def test_mcewan_new_question_then_a_helper(g):
    s = fresh(g)
    arrive(
        s,
        0,
        "glenlivet",
        floats=[0.99, 0.99],
        faces=[4],
        characters=["jim-mcewan", "alan-winchester"],
    )
    t = card(g, "fifty-fifty")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_DIFF, 0)
    act(s, OP_HELP, H_NEWQ)  # even: a new question, again not known
    assert s.phase == PH_HELP and H_NEWQ not in {a & 0xFFF for a in s.legal_actions()}
    assert s.events[EV["questions"]] == 2
    s.rng.floats = [0.1]
    act(s, OP_HELP, H_FIFTY)
    assert s.bottles[0]


def test_robbie_macpherson_takes_that_value_anywhere(g):
    s = fresh(g)
    arrive(s, 0, "glenlivet", floats=[0.1])
    t = card(g, "robbie-macpherson")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_DIFF, 8 | 2)
    assert s.phase == PH_CHOICE and s.choice_kind == sp.CH_CALL
    target = g.content.space_dist[sid(g, "laphroaig")] * 3 + 2
    act(s, OP_CHOOSE, s.opts.index(target))
    assert s.bottles[0] == [target] and t in s.discard


def test_savage_jumps_to_bladnoch_and_answers_there_next_turn(g):
    s = fresh(g)
    arrive(s, 0, "macallan", characters=["nick-savage", "alan-winchester"])
    act(s, OP_DIFF, 0)
    assert s.phase == PH_JUMP
    act(s, OP_JUMP)
    assert s.pos[0] == sid(g, "bladnoch") and s.placed[0] and s.cur == 1
    s.cur, s.phase, s.turn_start = 0, PH_START, True
    assert OP_HERE << SHIFT in s.legal_actions()


# ----- lost distilleries, pubs (A13, A14, C5, C9) --------------------------------------


def test_buy_a_hidden_lost_bottle_tokens_back_in_the_bag(g):
    s = fresh(g)
    s.tokens[0:3] = [2, 2, 2]
    s.bag = [b - 2 for b in s.bag]
    arrive(s, 0, "st-magdalene")
    top = s.lost_pile[-1]
    act(s, OP_BUY)
    assert s.bottles[0] == [LOST + top] and s.tokens[0:3] == [0, 0, 0]
    assert s.bag == list(g.content.bag)


def test_friar_john_cor_pays_with_any_kind(g):
    s = fresh(g)
    s.tokens[0:3] = [6, 0, 0]
    s.bag[0] -= 6
    arrive(s, 0, "st-magdalene", characters=["friar-john-cor", "alan-winchester"])
    act(s, OP_BUY)
    assert s.tokens[0:3] == [0, 0, 0] and len(s.bottles[0]) == 1


def test_pub_trades_two_for_one(g):
    s = fresh(g)
    s.tokens[0:3] = [4, 0, 0]
    s.bag[0] -= 4
    arrive(s, 0, "glasgow")
    act(s, OP_PUB, 0 * 3 + 2)
    assert s.tokens[0:3] == [2, 0, 1] and s.phase == PH_ACT
    act(s, OP_PUB, 0 * 3 + 1)
    assert s.tokens[0:3] == [0, 1, 1] and s.phase == PH_ACT  # any number of trades
    act(s, OP_PASS, 1)
    assert s.cur == 1


# ----- ferries and flights (A7, A8, C13, C23, C24) -------------------------------------


def test_ferry_to_belfast_leaves_the_country(g):
    s = fresh(g)
    turn(s, 0, "cairnryan")
    truck = card(g, "truck")
    s.deck.remove(truck)
    s.front[0] = [truck]
    act(s, OP_FERRY, 0)
    assert g.content.kind[s.pos[0]] == K_SEA and s.front[0] == [] and s.cur == 1
    s.cur = 0
    s.rng = Dice(faces=[1])
    s._begin_turn()
    assert s.pos[0] != sid(g, "cairnryan")


def test_kennacraig_picks_a_route(g):
    s = fresh(g)
    turn(s, 0, "kennacraig")
    ferries = [a for a in s.legal_actions() if a >> SHIFT == OP_FERRY]
    assert len(ferries) == 2


def test_return_ticket_flies_back_later(g):
    c = g.content
    s = fresh(g)
    turn(s, 0, "glasgow-airport")
    t = card(g, "flight-return")
    s.deck.remove(t)
    s.hand[0].append(t)
    dublin = c.flights[sid(g, "glasgow-airport")].index(sid(g, "dublin-airport"))
    act(s, OP_BOOK, t << 4 | dublin)
    s.cur = 0
    s.rng = Dice(faces=[1])
    s._begin_turn()
    assert s.returns_to[0] and s.events[EV["flights"]] == 1
    turn(s, 0, "aberdeen-airport")
    act(s, OP_BOOK, 1 << 11 | 0)
    s.cur = 0
    s.rng = Dice(faces=[1])
    s._begin_turn()
    assert t in s.discard and not s.returns_to[0]


def test_booked_player_moved_away_gets_the_ticket_back(g):
    s = fresh(g)
    turn(s, 0, "glasgow-airport")
    t = card(g, "flight-one-way")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_BOOK, t << 4 | 0)
    s.place(0, sid(g, "laphroaig"))
    assert s.hand[0] == [t] and s.booked[0] == -1


# ----- special cards -------------------------------------------------------------------


def draw_card(s: WhiskyState, name: str, seat: int = 0) -> bool:
    t = card(s.g, name)
    s.deck.remove(t)
    s.deck.append(t)
    s.cur = seat
    return sp.draw(s, seat, 1)


def test_birthday_returns_your_bottle_else_an_opponents(g):
    s = fresh(g)
    s.bottles[1] = [0]
    s.avail[0] = 0
    draw_card(s, "birthday")
    assert s.bottles[1] == [] and s.avail[0] == 1


def test_prohibition_goes_before_an_opponent_and_a_six_lifts_it(g):
    s = fresh(g, players=3)
    draw_card(s, "prohibition")
    assert s.phase == PH_CHOICE
    act(s, OP_CHOOSE, s.opts.index(2))
    t = card(g, "prohibition")
    assert s.front[2] == [t]
    s.cur = 2
    s.rng = Dice(faces=[1, 2, 6, 1])
    s._begin_turn()
    assert s.front[2] == [] and t in s.discard


def test_feis_ile_places_without_tokens_or_draw(g):
    s = fresh(g)
    s.tokens = [0] * 6
    draw_card(s, "feis-ile")
    lag = sid(g, "lagavulin")
    act(s, OP_CHOOSE, s.opts.index(lag))
    assert s.pos[0] == lag and s.placed[0] and sum(s.tokens) == 0


def test_leaking_barrel_loses_five(g):
    s = fresh(g)
    s.tokens[0:3] = [3, 3, 1]
    s.bag = [b - x for b, x in zip(s.bag, [3, 3, 1], strict=True)]
    draw_card(s, "leaking-barrel")
    assert sum(s.tokens[0:3]) == 2


def test_luck_of_the_irish_is_a_plain_ten_then_out(g):
    s = fresh(g)
    turn(s, 0, "edinburgh")
    t = card(g, "luck-of-the-irish")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_CARD, t)
    assert t in s.removed
    assert s.phase != PH_PATH or s.paths == list(
        outcomes(g.content, g._paths, sid(g, "edinburgh"), 10, False)
    )


def extended(g, players=2):
    return fresh(g, players=players, extended=True)


def test_broken_cork_victim_chooses(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.bottles[1] = [0, 5]
    s.avail[0] = s.avail[5] = 0
    t = card(g, "broken-cork")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_CARD, t)
    assert s.phase == PH_CHOICE and s.current_player() == 1
    act(s, OP_CHOOSE, 1)
    assert s.bottles[1] == [0] and s.avail[5] == 1 and s.current_player() == 0


def test_angels_and_gordon_macphail_swap_values(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.bottles[1] = [2]  # distillery 0, the 5
    s.bottles[0] = [3]  # distillery 1, the 1
    s.avail[2] = s.avail[3] = 0
    for name in ("angels", "gordon-macphail"):
        t = card(g, name)
        s.deck.remove(t)
        s.hand[0].append(t)
    act(s, OP_CARD, card(g, "angels"))
    assert s.bottles[1] == [0] and s.avail[2] == 1
    act(s, OP_CARD, card(g, "gordon-macphail"))
    act(s, OP_CHOOSE, s.opts.index(0 << 4 | 2))
    assert s.bottles[0] == [5]


def test_a_held_card_is_played_after_the_moves_too(g):
    """Rules A15 ("any time in your own turn"): Gordon & MacPhail after the moves, before the
    turn passes (it used to be playable only at a move's start); a card kept stays held."""
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.bottles[0] = [3]  # distillery 1, the 1
    s.avail[3] = 0
    t = card(g, "gordon-macphail")
    s.deck.remove(t)
    s.hand[0].append(t)
    s._end_turn()
    assert s.phase == PH_END and s.cur == 0
    assert s.legal_actions() == [OP_PASS << SHIFT | END_NOW, OP_CARD << SHIFT | t]
    act(s, OP_CARD, t)
    act(s, OP_CHOOSE, s.opts.index(0 << 4 | 2))
    assert s.bottles[0] == [5] and s.cur == 1  # then the turn ended: no card left to play


def test_aeneas_coffey_on_arrival_at_a_lost_distillery_pays_for_the_bottle(g):
    """A held card on arrival, before acting: Coffey doubles the tokens, then the lost
    bottle can be bought (before, held cards waited for the next move's start)."""
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.pos[0] = g.content.lost_spaces[0]
    s.tokens[0:3] = [1, 1, 1]  # half the cost of a lost bottle
    t = card(g, "aeneas-coffey")
    s.deck.remove(t)
    s.hand[0].append(t)
    s._arrive()
    assert s.phase == PH_ACT and OP_BUY << SHIFT not in s.legal_actions()
    act(s, OP_CARD, t)
    assert s.phase == PH_ACT and s.tokens[0:3] == [2, 2, 2]
    act(s, OP_BUY)
    assert s.bottles[0] and s.bottles[0][-1] >= LOST


def test_a_held_card_may_be_kept_at_the_end_of_the_turn(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.bottles[0] = [3]
    s.avail[3] = 0
    t = card(g, "gordon-macphail")
    s.deck.remove(t)
    s.hand[0].append(t)
    s._end_turn()
    act(s, OP_PASS, END_NOW)
    assert s.hand[0] == [t] and s.cur == 1


def test_nick_offerman_sends_to_lagavulin_and_skips(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    t = card(g, "nick-offerman")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_CARD, t)
    assert s.pos[1] == sid(g, "lagavulin") and s.skips[1] == 2


def test_skipped_turns_add_up_and_do_nothing(g):
    s = extended(g)
    s.skips[1] = 2
    draw_card(s, "whisky-show", seat=1)
    assert s.skips[1] == 4
    s.front[1] = []
    turn(s, 0, "edinburgh", faces=[1, 1, 1, 1, 1, 1])
    s._end_turn()
    s.drain()
    assert s.skips[1] == 3 and s.cur == 0 and s.events[EV["skipped_turns"]] == 1


def test_aeneas_coffey_doubles_as_the_bag_allows(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    s.tokens[0:3] = [2, 1, 0]
    s.bag = [1, 5, 5]
    t = card(g, "aeneas-coffey")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_CARD, t)
    assert s.tokens[0:3] == [3, 2, 0]


def test_shackleton_takes_a_highlands_bottle(g):
    s = extended(g)
    turn(s, 0, "edinburgh")
    t = card(g, "shackletons-whisky")
    s.deck.remove(t)
    s.hand[0].append(t)
    act(s, OP_CARD, t)
    act(s, OP_CHOOSE, 0)
    per = g.content.bottles_per_distillery
    region = g.content.region_names[g.content.dist_region[s.bottles[0][0] // per]]
    assert region == "highlands"


def test_paterson_spills_once_per_opponent(g):
    s = fresh(g)
    turn(s, 0, "edinburgh", characters=["richard-paterson", "alan-winchester"])
    s.bottles[1] = [0, 3]
    s.avail[0] = s.avail[3] = 0
    act(s, OP_SPILL, 1)
    assert len(s.bottles[1]) == 1
    turn(s, 0, "edinburgh")
    assert OP_SPILL << SHIFT | 1 not in s.legal_actions()


# ----- scoring and the end (A16, C1, C2, C25, B1) --------------------------------------


def one_bottle_per_region(g, value: int = 2) -> list[int]:
    c = g.content
    seen: dict[int, int] = {}
    for d, r in enumerate(c.dist_region):
        seen.setdefault(r, d * 3 + value)
    return list(seen.values())


def test_winchester_plus_three_and_the_triple_what_if(g):
    glenlivet = g.content.space_dist[sid(g, "glenlivet")] * 3 + 2
    ruled = fresh(g)
    ruled.char = [char(g, "alan-winchester"), char(g, "billy-walker")]
    ruled.bottles[0] = [glenlivet]
    assert ruled.points(0) == 5 + 3
    what_if = fresh(g, winchester_triple=True)
    what_if.char = ruled.char
    what_if.bottles[0] = [glenlivet]
    assert what_if.points(0) == 15


def test_multiplier_and_bonus_cards_count(g):
    s = fresh(g)
    s.char = [char(g, "billy-leighton"), char(g, "alan-winchester")]
    s.bottles[0] = [g.content.space_dist[sid(g, "midleton")] * 3 + 1]
    s.hand[0] = [card(g, "bottle-arran")]
    assert s.points(0) == 3 * 2 + 2


def test_declaration_completes_the_round_then_most_points_win(g):
    s = fresh(g, players=3)
    s.char = [char(g, "billy-walker"), char(g, "david-stewart"), char(g, "jim-mcewan")]
    s.bottles[1] = one_bottle_per_region(g)  # 30 points, six regions
    s.cur = 1
    s.rng = Dice(faces=[1] * 10)
    s._end_turn()
    assert s.events[EV_DECL] == 1 and not s.over and s.cur == 2
    s.bottles[2] = [b - 2 + 2 for b in one_bottle_per_region(g)]
    s.bottles[2] = [b + 1 for b in one_bottle_per_region(g, 1)]  # the 5s of other ones
    s._end_turn()
    assert s.over and s.winners == [1]


def test_void_declaration_play_goes_on(g):
    s = fresh(g)
    s.bottles[1] = one_bottle_per_region(g)[1:]  # declared, then lost one before the reveal
    s.declarer, s.met, s.cur = 1, [1], 1
    s._next_seat()
    assert not s.over and s.events[EV_VOID] == 1 and s.declarer == -1


def test_timeout_at_the_round_limit(g):
    s = fresh(g)
    s.rounds = g.content.round_limit - 1
    s.cur = 1
    assert s._next_seat() and s.timed_out and s.returns() == [0.0, 0.0]


def test_per_seat_skill_option(g):
    s = fresh(g, players=3, skill="casual", skill_2="expert")
    c = g.content
    assert s.skill == [c.skills["casual"], c.skills["expert"], c.skills["casual"]]


# ----- contract, bots, workers ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("ext", [False, True])
def test_random_play_contract(g, players, ext):
    setup = GameSetup(players, {"extended": ext})
    assert random_play_check(g, setup, 4, seed=players, probe_every=11) == []


def test_greedy_finishes_and_beats_random(g):
    bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    records = [play_one(g, GameSetup(4), bots, i, 5) for i in range(60)]
    assert sum(r.timed_out for r in records) == 0
    greedy = sum(r.returns[0] + r.returns[2] for r in records)
    assert greedy > 0.8 * len(records)


def test_same_results_for_one_and_two_workers(game_dir):
    config = SimConfig(game_dir, GameSetup(4, {"extended": True}), ("greedy",), 3, 40, batch=10)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert one == two


def test_figures_are_reported(g):
    record = play_one(g, GameSetup(4), [GreedyBot()] * 4, 0, 0)
    names = dict(record.figures)
    assert "difficulty_picks.hard" in names and "bottles_at_end.islay" in names
    assert any(k.startswith("holder_win.") for k in names)


def test_observation_hides_deck_order(g):
    s = fresh(g)
    s.rng = __import__("random").Random(1)
    s.bottles[1] = [LOST + s.lost_pile.pop()]
    views = [s.observation(0) for _ in range(20)]
    assert all(sorted(v.deck) == sorted(s.deck) for v in views)
    assert any(v.deck != s.deck for v in views)
    assert len({v.bottles[1][0] for v in views}) > 1  # the hidden value is re-dealt
    assert all(v.invariant_errors() == [] for v in views)


def test_invariant_errors_name_each_broken_count(g):
    """Each conservation rule the random-play contract asks after every move, broken alone on
    a fresh 3-seat game, gives its own message (the check counts in one pass per list)."""
    c = fresh(g, 3).c
    per = c.bottles_per_distillery
    specials = sum(card.copies for card in c.specials if not card.extended)

    def broken(change) -> list[str]:
        s = fresh(g, 3)
        assert s.invariant_errors() == []
        change(s)
        return s.invariant_errors()

    def owned_twice(s):
        s.avail[0] = 0
        s.bottles[0].append(0)
        s.bottles[2].append(0)

    def two_of_a_distillery(s):
        s.avail[per] = s.avail[per + 1] = 0
        s.bottles[1] += [per, per + 1]

    assert broken(lambda s: s.deck.pop()) == [
        f"special cards: {specials - 1} in play, {specials} expected"
    ]
    assert broken(owned_twice) == ["a bottle is owned twice", "bottle 0 counted 2 times"]
    assert broken(lambda s: s.avail.__setitem__(per + 2, 0)) == [
        f"bottle {per + 2} counted 0 times"
    ]
    assert broken(lambda s: s.lost_pile.pop()) == [
        f"lost bottles: {len(c.lost_values) - 1}, expected {len(c.lost_values)}"
    ]
    assert broken(two_of_a_distillery) == ["seat 1 owns two bottles of distillery 1"]
    assert broken(lambda s: s.tokens.__setitem__(3 * 2 + 1, s.tokens[3 * 2 + 1] + 1)) == [
        f"tokens of kind 1: {c.bag[1] + 1}, bag holds {c.bag[1]}"
    ]
    assert broken(lambda s: setattr(s, "over", True)) == ["a finished game needs one winner"]
    assert broken(lambda s: s.winners.append(2)) == ["winner 2 does not meet the goal"]


# ----- G checks (spec §E) ----------------------------------------------------------------


def test_bundled_content_passes_g_checks(game_dir):
    found = [d for d in run_checks(load_game(game_dir)) if d.code.startswith("G1")]
    assert found == []


GAME = "game.yaml"
MAP = "boards/map.yaml"
SPECIALS = "decks/specials.yaml"
NEW_REGION = f"""  - id: speyside
    name:
      fr: Speyside
      es: Speyside
      en: Speyside
    colour: "#af612c"  {REGION_NOTE}
"""
# (code, edits (file, old, new), file reported, line marker, text the column points at)
BROKEN = [
    (
        "G101",
        [(GAME, "lost_values: [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]", "lost_values: [1, 2, 3, 4]")],
        GAME,
        "lost_values:",
        "[1,",
    ),
    ("G101", [(GAME, "    hard: 5\n", "    hard: 3\n")], GAME, "bottle_values:", "bottle_values"),
    ("G102", [(GAME, "goal_regions: 6", "goal_regions: 5")], MAP, "regions:", "regions"),
    ("G103", [(GAME, "goal_points: 25", "goal_points: 31")], GAME, "goal_points:", "31"),
    (
        "G104",
        [(MAP, "  - a: newton-stewart\n    b: bladnoch\n    km: 12\n", "")],
        MAP,
        "- id: bladnoch",
        "bladnoch",
    ),
    (
        "G105",
        [(MAP, "      - oban-craignure-crossing\n", "      - salen\n")],
        MAP,
        "id: ferry-oban-craignure",
        "stops",
    ),
    (
        "G106",
        [(GAME, "start_spaces: [edinburgh, dublin]", "start_spaces: [edinburgh, glasgow]")],
        GAME,
        "start_spaces:",
        "start_spaces",
    ),
    ("G107", [(MAP, "    lat: 55.78\n", "    lat: 60.78\n")], MAP, "lat: 60.78", "60.78"),
    (
        "G108",
        [(MAP, "    b: road-to-ardrossan\n    km: 25\n", "    b: road-to-ardrossan\n    km: 95\n")],
        MAP,
        "km: 95",
        "95",
    ),
    (
        "G109",
        [
            (MAP, NEW_REGION, NEW_REGION + NEW_REGION.replace("speyside", "moray-firth")),
            (SPECIALS, "      region: highlands", "      region: moray-firth"),
        ],
        SPECIALS,
        "region: moray-firth",
        "moray-firth",
    ),
    (
        "G111",
        [(MAP, "    kind: special\n    region: islay", "    kind: path\n    region: islay")],
        MAP,
        "- id: islay",
        "islay",
    ),
    ("G112", [(GAME, "    barley: 25", "    barley: 5")], GAME, "barley: 5", "5"),
]


def broken_copy(tmp_path: Path, edits: list[tuple[str, str, str]]) -> Path:
    root = game_copy(tmp_path / "whisky-game")
    manifest = root / "game.yaml"  # check every rule, the ones the game ignores too
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("  ignore: [G108]\n", "  ignore: []\n"), encoding="utf-8")
    for page in (root / "rulebook").glob("*.md"):  # the rulebook renders cards; keep it neutral
        page.write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    for rel, old, new in edits:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


@pytest.mark.parametrize(("code", "edits", "rel", "marker", "at"), BROKEN)
def test_g_checks_fire_at_the_node_to_fix(tmp_path, code, edits, rel, marker, at):
    root = broken_copy(tmp_path, edits)
    rows = (root / rel).read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(rows, 1) if marker in row)
    if code == "G105":  # the ferry's stops: the key two lines below its id
        line += 2
    column = rows[line - 1].index(at) + 1
    found = [d for d in run_checks(load_game(root)) if d.code == code]
    assert found, f"{code} did not fire"
    where = [(d.span.line, d.span.col) for d in found if d.file.endswith(Path(rel).name)]
    assert (line, column) in where, (line, column, found)


def test_g110_fires_for_an_effect_the_engine_lacks(tmp_path, monkeypatch):
    from toolkit.games.whisky_game.checks import cards

    monkeypatch.setattr(cards, "IMPLEMENTED_SPECIALS", cards.IMPLEMENTED_SPECIALS - {"fixed_move"})
    root = broken_copy(tmp_path, [])
    found = [d for d in run_checks(load_game(root)) if d.code == "G110"]
    rows = (root / "decks" / "specials.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(rows, 1) if "kind: fixed_move" in row)
    assert [(d.span.line, d.span.col) for d in found] == [(line, rows[line - 1].index("fixed") + 1)]


def test_report_leaves_out_cards_of_the_set_not_played(game_dir):
    from toolkit.sim.request import SimRequest
    from toolkit.sim.session import prepare

    game = load_game(game_dir)
    base = prepare(game, game_dir, SimRequest(20, 4, ("greedy",), 0)).play().to_json()
    names = {row["card"] for row in base["cards"]}
    assert "truck" in names and "angels" not in names
    ext = prepare(game, game_dir, SimRequest(20, 4, ("greedy",), 0, ("extended=true",))).play()
    ext = ext.to_json()
    assert "angels" in {row["card"] for row in ext["cards"]}
