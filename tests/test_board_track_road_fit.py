"""A track's player counts and segments are bounded in the schema (probe 19 H1, L1: one key
of 10^8 took 4 GB to build, `-7 players` printed), and what a track or a road prints beside
its spaces is fitted as a graph's title is (probe 19 M1, M2: titles, key lines, piles, leg
tags and legends ran off the page, validate clean; a nested phrase stopped the build with a
traceback); a finding quotes at most 60 characters of a label (probe 19 L3)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO

COUNTS = "segments_by_players:\n  2: 4\n  3: 3\n  4: 4\n  5: 5\n  6: 6\n"
LABELS = "  labels:\n    entrance: castle-entrance\n"


def _track(tmp_path: Path, counts: str = COUNTS, labels: str = "", glossary: str = "") -> Path:
    """A copy of Muckle Stoater with `counts` for its board's player counts, `labels` added
    to its style, `glossary` to its terms."""
    game = tmp_path / "ms"
    shutil.copytree(REPO / "content" / "muckle-stoater", game)
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    assert COUNTS in text and LABELS in text
    board.write_text(text.replace(COUNTS, counts).replace(LABELS, LABELS + labels), "utf-8")
    terms = game / "glossary.yaml"
    terms.write_text(terms.read_text(encoding="utf-8") + glossary, encoding="utf-8")
    return game


def _m(text: str) -> str:
    return "{" + ", ".join(f'{lang}: "{text}"' for lang in ("fr", "es", "en")) + "}"


def _errors(run_cli, game: Path) -> tuple[int, list[dict]]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["severity"] == "error"]
    return result.exit_code, found


def _at(found: list[dict]) -> list[tuple[str, int, int]]:
    """Where the board file's findings are (the rulebook speaks of counts the board lacks)."""
    return [(d["code"], d["line"], d["col"]) for d in found if d["file"].endswith("mashies.yaml")]


def test_a_track_player_count_and_its_segments_are_bounded_at_the_key_and_value(run_cli, tmp_path):
    cases = [
        ("2: 4\n  100000000: 3\n", [("S004", 16, 3)]),  # a key of 10^8 players
        ("2: 100000000\n", [("S004", 15, 6)]),  # 10^8 segments
        ("2: 4\n  -7: -2\n  0: 3\n", [("S004", 16, 3), ("S004", 17, 3)]),
        ("2: 4\n  3: 7\n", [("P016", 16, 6)]),  # more segments than the box holds
    ]
    for i, (counts, where) in enumerate(cases):
        game = _track(tmp_path / str(i), "segments_by_players:\n  " + counts)
        code, found = _errors(run_cli, game)
        assert code == 1 and _at(found) == where, (counts, found)
    code, found = _errors(run_cli, _track(tmp_path / "p", "segments_by_players:\n  3: 7\n"))
    assert "3 players use 7 segments, but the box holds 6" in found[0]["message"]


def test_a_track_listing_more_player_counts_than_a_table_seats_is_refused(run_cli, tmp_path):
    """Probe 19 M1: 96 counts joined by a 200-character `or` passed validate, and the build
    stopped with a ValueError traceback (a title past 100,000 characters)."""
    counts = "segments_by_players:\n" + "".join(f"  {n}: 4\n" for n in range(5, 101))
    labels = f"    or: {_m('o' * 200)}\n    count: {_m('{n}{n}{n}')}\n"
    game = _track(tmp_path, counts, labels)
    code, found = _errors(run_cli, game)
    assert code == 1 and [d["code"] for d in found] == ["S004"], found
    assert "at most 16 items" in found[0]["message"]
    result = run_cli("build", str(game), "--only", "board", "--lang", "en", "--no-cache")
    assert result.exit_code == 1 and "S004" in result.stdout + result.stderr


def test_the_track_check_says_a_phrase_past_its_bound_at_a_label(tmp_path):
    """The drawer's 100,000-character guard is a finding at the label that fills most of the
    title, not an exception (a board built past validation, as the preview draws it)."""
    from toolkit.content.game import load_game
    from toolkit.render.boards import board_look
    from toolkit.render.boards.track import problems

    game = load_game(_track(tmp_path, labels=f"    or: {_m('o' * 4000)}\n"))
    board = game.boards[0].model
    assert board is not None
    crowded = board.model_copy(update={"segments_by_players": dict.fromkeys(range(1, 60), 4)})
    found = problems(crowded, board_look(game, crowded, "en"), True)
    assert [path for path, _, _ in found][:1] == [("style", "labels", "or", "en")], found
    assert "more than 100,000 characters" in found[0][1]


def test_the_board_build_turns_a_drawer_refusal_into_a_message(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.render.artifacts import BuildError, BuildOptions
    from toolkit.render.artifacts.board import parts

    game = load_game(_track(tmp_path, labels=f"    or: {_m('o' * 4000)}\n"))
    loaded = game.boards[0]
    assert loaded.model is not None
    loaded.model = loaded.model.model_copy(
        update={"segments_by_players": dict.fromkeys(range(1, 60), 4)}
    )
    (part,) = parts(game, "en", BuildOptions(["en"]))
    with pytest.raises(BuildError, match=r"mashies\.yaml \(en\): the board phrase 'count'"):
        part.draw()


def test_a_track_title_key_line_pile_and_picked_term_are_fitted(run_cli, tmp_path):
    labels = (
        f"    title: {_m('TITLE' + 'W' * 150 + '{players}')}\n"
        f"    players: {_m('PL' + 'M' * 150 + '{n}')}\n"
    )
    game = _track(tmp_path / "a", labels=labels)
    code, found = _errors(run_cli, game)
    assert code == 1 and {d["code"] for d in found} == {"P016"}, found
    messages = " ".join(d["message"] for d in found)
    assert "the title 'TITLEWWW" in messages and "runs off the page" in messages
    assert "the key's line 'PLMMM" in messages
    assert all(len(d["message"]) < 300 for d in found), found
    piles = "  piles:\n    - draw-pile\n    - discard-pile\n"
    game = _track(tmp_path / "b")
    board = game / "boards" / "mashies.yaml"
    long_pile = f"  piles:\n    - {_m('P' * 60)}\n    - discard-pile\n"
    board.write_text(board.read_text("utf-8").replace(piles, long_pile), "utf-8")
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P016"]
    assert [d["severity"] for d in found] == ["warning"] * 3, found  # names overlap
    assert "the pile's name 'PPP" in found[0]["message"] and "runs over" in found[0]["message"]
    term = "  - id: entrance\n    text: " + _m("ENTR" + "W" * 600 + "END") + "\n"
    game = _track(tmp_path / "c", glossary=term)
    board = game / "boards" / "mashies.yaml"
    board.write_text(board.read_text("utf-8").replace(LABELS, "  labels: {}\n"), "utf-8")
    code, found = _errors(run_cli, game)
    assert code == 1 and [d["code"] for d in found] == ["P016"], found
    assert "the glossary term 'entrance'" in found[0]["message"]


def _road(tmp_path: Path, labels: str) -> Path:
    game = tmp_path / "tk"
    shutil.copytree(REPO / "content" / "tokaido", game)
    board = next((game / "boards").glob("*.yaml"))
    text = board.read_text(encoding="utf-8")
    assert "\nstyle:\n" in text
    board.write_text(text.replace("\nstyle:\n", "\nstyle:\n  labels:\n" + labels), "utf-8")
    return game


def test_a_road_leg_tag_and_legend_are_fitted(run_cli, tmp_path):
    game = _road(tmp_path / "a", f"    leg: {_m('LEG{n}' + 'W' * 180 + 'END')}\n")
    code, found = _errors(run_cli, game)
    assert code == 1 and [d["code"] for d in found] == ["P016"] * 3, found
    assert (
        "the leg's tag 'LEG1WWW" in found[0]["message"]
        and "(187 characters)" in (found[0]["message"])
    )
    game = _road(tmp_path / "b", f"    double: {_m('DBL{n}' + 'M' * 180 + 'END')}\n")
    code, found = _errors(run_cli, game)
    assert code == 1 and [d["code"] for d in found] == ["P016"] * 3, found
    assert "the legend (" in found[0]["message"] and "runs off the page" in found[0]["message"]


def test_a_stop_label_too_long_is_quoted_short():
    from types import SimpleNamespace

    from toolkit.render.boards.road import _too_long

    message = _too_long("anticonstitutionnellement" * 150, SimpleNamespace(lang="fr"))  # type: ignore[arg-type]
    assert len(message) < 300 and "(3,750 characters)" in message, message


def test_a_track_drawing_too_many_holes_is_p016(run_cli, tmp_path):
    """16 loops of 49 to 64 segments of 500 holes (each bound in the schema) drew 461,040
    holes: the build took 140 s and wrote 30 MB."""
    counts = "segments_by_players:\n" + "".join(f"  {n}: {48 + n}\n" for n in range(1, 17))
    game = _track(tmp_path, counts)
    board = game / "boards" / "mashies.yaml"
    text = board.read_text("utf-8").replace("segments_in_box: 6", "segments_in_box: 64")
    board.write_text(text.replace("holes_per_segment: 18", "holes_per_segment: 500"), "utf-8")
    code, found = _errors(run_cli, game)
    mine = [d for d in found if d["file"].endswith("mashies.yaml") and d["code"] == "P016"]
    assert code == 1 and _at(mine) == [("P016", 15, 3)], found
    assert "the board's 16 loops draw 461,040 holes, at most 40,000" in mine[0]["message"]


def test_a_track_player_count_outside_the_games_players_is_s004_at_the_count(run_cli, tmp_path):
    # game.yaml says 2 to 6 players: a count of 1 or 7 printed its line in the board's
    # legend and its title, validate clean
    counts = COUNTS.replace("  2: 4\n", "  1: 4\n  2: 4\n") + "  7: 6\n"
    code, found = _errors(run_cli, _track(tmp_path, counts))
    assert code == 1 and _at(found) == [("S004", 15, 3), ("S004", 21, 3)], found
    said = [d["message"] for d in found if d["file"].endswith("mashies.yaml")]
    assert said[1].startswith("segments_by_players.7: 7 players, but the game is for 2 to 6")
    code, found = _errors(run_cli, _track(tmp_path / "in", COUNTS))
    assert _at(found) == [], found


def _holes(game: Path, pen: int, home: int) -> None:
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^pen_holes: \d+$", f"pen_holes: {pen}", text)
    board.write_text(re.sub(r"(?m)^home_holes: \d+$", f"home_holes: {home}", text), "utf-8")


def test_pens_and_home_lanes_that_leave_their_segment_are_p016_at_their_counts(run_cli, tmp_path):
    """probe 21 M2: 50 home holes on the loop of three 18-hole segments ran across the
    centre through the other seats' lanes, and a 50-hole pen ran past the segment's corners
    off the page, validate clean; a loop of 2 segments was drawn and titled with 3."""
    game = _track(tmp_path / "a")
    _holes(game, 50, 50)
    code, found = _errors(run_cli, game)
    by_line = {d["line"]: d["message"] for d in found if d["file"].endswith("mashies.yaml")}
    assert code == 1 and sorted(_at(found)) == [("P016", 23, 12), ("P016", 24, 13)], found
    assert "a pen of 50 holes is wider than its segment on the loop of 4 segments" in by_line[23]
    assert "at most 18 fit on every loop" in by_line[23]
    assert (
        "home lanes of 50 holes meet" in by_line[24]
        and "at most 12 fit on every loop" in by_line[24]
    )
    _holes(game, 18, 12)  # what the messages say fits
    assert [at for at in _at(_errors(run_cli, game)[1]) if at[0] == "P016"] == []
    game = _track(tmp_path / "b", "segments_by_players:\n  2: 2\n  3: 3\n")
    code, found = _errors(run_cli, game)
    assert code == 1 and _at(found) == [("P016", 15, 6)], found
    assert "a loop needs at least 3" in found[0]["message"]


def test_an_offset_past_its_segments_last_hole_is_p016_at_the_offset(run_cli, tmp_path):
    """probe 23 M2: an offset at or past the segment's end skipped the lane checks, and the
    pens and home lanes printed off the loop, validate clean (a game's own check said it for
    one game only)."""
    game = _track(tmp_path)
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^start_offset: \d+$", "start_offset: 18", text)
    board.write_text(re.sub(r"(?m)^entrance_offset: \d+$", "entrance_offset: 80", text), "utf-8")
    code, found = _errors(run_cli, game)
    assert code == 1 and sorted(_at(found)) == [("P016", 21, 15), ("P016", 22, 18)], found
    said = sorted(d["message"] for d in found if d["code"] == "P016")
    assert said[0].startswith("entrance_offset 80 is past the segment's last hole"), said
    assert "(a segment of 18 holes counts 0 to 17)" in said[1], said


def test_a_phrase_name_in_doubled_braces_is_r006_at_the_label(run_cli, tmp_path):
    # probe 21 M4: `{{n}} to {m} players` printed "{n} to 4 players" on the board
    labels = "    players: " + _m("{{n}} to {m} players") + "\n"
    code, found = _errors(run_cli, _track(tmp_path, labels=labels))
    said = [d["message"] for d in found if d["code"] == "R006"]
    assert code == 1 and len(said) == 3, found
    assert "writes {{n}}, which prints '{n}' as written" in said[0]


def test_a_board_text_naming_no_field_says_board_not_card(run_cli, tmp_path):
    # probe 21 L4: a board's `segment_name` with `{players}` said "no parameter of this card"
    game = _track(tmp_path)
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    assert "  en: Mashie\n" in text
    board.write_text(text.replace("  en: Mashie\n", "  en: Mashie {players}\n", 1), "utf-8")
    code, found = _errors(run_cli, game)
    said = [d["message"] for d in found if d["code"] == "R006"]
    assert code == 1 and said and "names no parameter of this board" in said[0], found
