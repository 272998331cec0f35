"""Lows the tenth probe kept (issue #33), fixed in session 43 (/work/notes/lows11.md)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from toolkit.checks.questions import duplicates
from toolkit.diagnostics import Span


class _Question:
    def __init__(self, number: int, texts: dict[str, str], right: str) -> None:
        self.id = f"q{number}"
        self.question = texts
        self.answers = [{lang: right for lang in texts}, {lang: "x" for lang in texts}]
        self.right = "a"


class _Item:
    """What the Q002/Q003 pair loop reads of a question (no YAML file behind it)."""

    rel = "questions.yaml"

    def __init__(self, number: int, texts: dict[str, str], right: str = "") -> None:
        self.number = number
        self.question = _Question(number, texts, right)
        self.id = self.question.id

    def right_index(self) -> int:
        return 0

    def span(self, *path: Any) -> Span:
        return Span(self.number + 1, 1)

    def where(self) -> str:
        return f"{self.rel}:{self.number + 1}"


def _found(questions: list[Any], langs: list[str]) -> list[tuple[str, int, str]]:
    found = duplicates.check(questions, langs)
    return [(d.code, d.span.line, d.message) for d in found]


def _every_pair(questions: list[Any], langs: list[str]) -> list[tuple[str, int, str]]:
    """Q002/Q003 as they were found before the grouping: every pair, in order."""
    # the same preparation and messages as `duplicates.check`, over all pairs
    prepared = []
    for item in questions:
        q = item.question
        right = q.answers[item.right_index()]
        texts = {
            lang: duplicates._Text(q.question[lang], right.get(lang, ""))
            for lang in langs
            if lang in q.question
        }
        prepared.append({lang: text for lang, text in texts.items() if text.flat})
    out, seen, budget = [], {}, duplicates.Budget()
    for later, item in enumerate(questions):
        texts = prepared[later]
        same = [
            (lang, seen[(lang, texts[lang].flat)])
            for lang in langs
            if lang in texts and (lang, texts[lang].flat) in seen
        ]
        for lang in langs:
            if lang in texts:
                seen.setdefault((lang, texts[lang].flat), later)
        if same:
            lang, earlier = same[0]
            other = questions[earlier]
            message = f"{item.id} asks the same question as {other.id} ({other.where()}) in {lang}"
            out.append(("Q002", later + 1, message))
            continue
        for earlier in range(later):
            found = None
            for lang in langs:
                if lang not in texts or lang not in prepared[earlier]:
                    continue
                score = duplicates.near(prepared[earlier][lang], texts[lang], budget)
                if score is None:
                    continue
                other = questions[earlier]
                found = (
                    f"{item.id} nearly repeats {other.id} ({other.where()}) in {lang} "
                    f"(similarity {score:.2f}): {texts[lang].flat[:60]!r}"
                )
                break
            if found is not None:  # one finding per question: its first near twin (probe 33)
                out.append(("Q003", later + 1, found))
                break
    return out


def _bank(seed: int, count: int) -> list[Any]:
    """Questions written as variants of a few others (a word changed, dropped, added or
    reversed, a name added), some in a second language, some sharing their right answer."""
    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 4)))
        for _ in range(rng.choice([15, 40, 200]))
    ]
    names = ["Islay", "Speyside", "12", "Paris", '"wash"']
    bases: list[list[str]] = []
    questions = []
    for number in range(count):
        if bases and rng.random() < 0.6:
            said = list(rng.choice(bases))
            for _ in range(rng.randint(0, 3)):
                at, how = rng.randrange(len(said)), rng.random()
                if how < 0.3:
                    said[at] = rng.choice(vocabulary)
                elif how < 0.5 and len(said) > 1:
                    del said[at]
                elif how < 0.7:
                    said.insert(at, rng.choice(vocabulary))
                elif how < 0.85:
                    said[at] = said[at][::-1]
                else:
                    said.insert(at, rng.choice(names))
        else:
            said = [rng.choice(vocabulary) for _ in range(rng.randint(1, 10))]
            if rng.random() < 0.3:
                said.insert(rng.randrange(len(said)), rng.choice(names))
            bases.append(said)
        texts = {"en": " ".join(said) + "?" if rng.random() > 0.05 else "?!"}
        if rng.random() < 0.7:
            other = reversed(said) if rng.random() < 0.5 else (rng.choice(vocabulary) for _ in said)
            texts["fr"] = " ".join(other)
        questions.append(_Item(number, texts, rng.choice(["A", "B", "C", ""])))
    return questions


@pytest.mark.parametrize("work", [0, 50, 500, 5000, duplicates.MAX_RATIO_WORK])
def test_near_duplicates_are_those_every_pair_finds(work, monkeypatch):
    # Q003 now searches only the questions whose names agree, and once the characters'
    # budget is spent only those sharing a rare word: the findings, their order and their
    # similarities are those of the loop over every pair (a guard: green before the fix too)
    monkeypatch.setattr(duplicates, "MAX_RATIO_WORK", work)
    findings = set()
    for seed in range(24):
        questions = _bank(seed, random.Random(seed).randint(1, 90))
        for langs in (["en"], ["en", "fr"], ["fr", "en"]):
            expected = _every_pair(questions, langs)
            assert _found(questions, langs) == expected, (seed, langs)
            findings.update(code for code, *_ in expected)
    assert findings == {"Q002", "Q003"}


def _nameless(count: int) -> Iterator[Any]:
    rng = random.Random(7)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(3000)
    ]
    common = ["what", "is", "the", "of", "which", "in", "a", "how", "many"]
    for number in range(count):
        said = rng.sample(common, 3) + rng.sample(vocabulary, rng.randint(4, 9))
        yield _Item(number, {"en": " ".join(said) + "?"}, rng.choice(vocabulary))


def test_ten_thousand_nameless_questions_are_compared_in_seconds():
    # Q003 compared every pair of questions whose names agree: 1,000 questions with no
    # capitalised word, number or quoted term cost 1.3 s of CPU, 10,000 about 100 s
    questions = list(_nameless(10_000))
    start = time.process_time()
    found = _found(questions, ["en"])
    assert time.process_time() - start < 6.0
    assert found == []


def _board_findings(tmp_path, run_cli, monkeypatch, spaces, name="Map", kinds=False):
    """validate's P016 findings on a new game with a graph board (tests' `_graph_board`)."""
    import json

    from tests.test_hardening_probe10_content import _graph_board

    _graph_board(tmp_path, run_cli, spaces, "chain", name, kinds)
    root = next(p.parent for p in tmp_path.rglob("board.yaml"))
    monkeypatch.chdir(root)
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = json.loads(result.stdout)
    return result, [d for d in found if d["code"] == "P016"]


@pytest.mark.parametrize(
    ("what", "line", "words"),
    [
        ("a long name", 3, "the title is"),
        ("many kinds", 5, "the legend (202 rows"),
    ],
)
def test_a_title_or_legend_larger_than_the_poster_is_a_finding(
    what, line, words, tmp_path, run_cli, monkeypatch
):
    # a board name of 200 letters or 200 kinds of space (legend rows) printed past the
    # poster's edge, and validate was clean
    spaces = [(50.0 + i / 10, 1.0 + i / 10) for i in range(200)]
    name = "W" * 200 if what == "a long name" else "Map"
    result, found = _board_findings(
        tmp_path, run_cli, monkeypatch, spaces, name, what != "a long name"
    )
    assert result.exit_code == 1, result.output
    assert [(d["file"], d["line"], d["severity"]) for d in found] == [("board.yaml", line, "error")]
    assert words in found[0]["message"] and "run off the page" in found[0]["message"]


def test_a_map_past_the_layout_bounds_is_a_warning(tmp_path, run_cli, monkeypatch):
    # 300 spaces on one spot: the spreading stops at MAX_PAIRS (spaces may touch) and the
    # names past MAX_LABEL_WORK go east of their space unweighed; validate said nothing
    result, found = _board_findings(tmp_path, run_cli, monkeypatch, [(50.0, 1.0)] * 300)
    assert [(d["line"], d["severity"]) for d in found] == [(5, "warning")], result.output
    message = found[0]["message"]
    assert "300 spaces" in message and "may touch" in message
    assert "names are put east of their space" in message


def test_a_small_map_is_not_laid_out_by_validate(tmp_path, run_cli, monkeypatch):
    # the layout runs in validate only for boards whose size could reach its bounds
    from toolkit.render.boards import graph

    calls = []
    monkeypatch.setattr(graph, "plan_graph", lambda *a: calls.append(a))
    spaces = [(50.0 + i / 10, 1.0 + i / 10) for i in range(20)]
    result, found = _board_findings(tmp_path, run_cli, monkeypatch, spaces)
    assert found == [] and calls == [], result.output


# --- files: a half-done write leaves nothing behind ------------------------------------------


def test_a_rename_failing_half_way_leaves_no_staged_file(tmp_path):
    # a folder made at one target's name between staging and renaming (a race) raised a bare
    # IsADirectoryError at that rename and left the remaining staged files beside the targets
    from toolkit import fileio

    out = tmp_path / "out"
    out.mkdir()
    targets = [out / f"{name}.pdf" for name in "abc"]

    def race(staged):
        (out / "b.pdf").mkdir()
        (out / "b.pdf" / "keep").write_text("x")

    with pytest.raises(fileio.OutputError) as caught:
        fileio.write_many([(t, b"new") for t in targets], inside=out, on_staged=race)
    assert "b.pdf" in str(caught.value) and "could not be put in place" in caught.value.reason
    assert sorted(p.name for p in out.iterdir()) == ["a.pdf", "b.pdf", "c.pdf"]
    assert targets[0].read_bytes() == targets[2].read_bytes() == b"new"


def test_a_staged_set_whose_rename_fails_leaves_no_staged_file(tmp_path):
    from toolkit import fileio

    out = tmp_path / "out"
    with pytest.raises(fileio.OutputError), fileio.StagedSet(out) as staged:
        staged.add(out / "x" / "a.png", b"a")
        staged.add(out / "x" / "b.png", b"b")
        (out / "x" / "a.png").mkdir()
    assert sorted(p.name for p in (out / "x").iterdir()) == ["a.png", "b.png"]


def test_a_failed_export_leaves_no_empty_folder(tmp_path, run_cli, monkeypatch):
    # `export png` made <out>/<game>/<lang>/png/<deck>/ as it drew, and a run that failed
    # after (a page over the pixel limit, a full disk) left those folders, empty
    import toolkit.render.exports.png as png
    from tests.test_hardening_probe10_files import _game
    from toolkit.render.artifacts import BuildError

    game = _game(tmp_path / "game")
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "new"

    def fail(*args, **kwargs):
        raise BuildError("the last step failed")

    monkeypatch.setattr(png, "rulebook_pngs", fail)
    result = run_cli("export", "png", str(game), "--out", str(out), "--dpi", "30")
    assert result.exit_code == 1
    assert list((tmp_path / "out").rglob("*")) == []


def test_add_language_killed_between_its_renames_is_finished_by_the_next_run(
    tmp_path, run_cli, monkeypatch
):
    # `i18n add-language` writes the PO, the POT and game.yaml together; a run killed between
    # two renames left a new PO beside an old POT and a staged file no one put in place (no
    # journal, as a build's PDFs have). Now the output folder holds a journal until the
    # renames are done, and game.yaml is renamed last (the language is not added yet)
    import os

    from toolkit import fileio

    assert run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "fr").exit_code == 0
    root, out = tmp_path / "my-game", tmp_path / "po"
    out.mkdir()
    (out / "my-game.pot").write_text("old\n")
    real = os.replace

    def killed(src, dst, **kwargs):
        if str(dst).endswith(".pot"):
            raise KeyboardInterrupt  # kill -9 between the PO's rename and the POT's
        return real(src, dst, **kwargs)

    monkeypatch.setattr(fileio.os, "replace", killed)
    result = run_cli("i18n", "add-language", "de", str(root), "--out", str(out))
    assert result.exit_code != 0
    monkeypatch.setattr(fileio.os, "replace", real)
    assert (out / ".playset-build-journal.json").is_file()
    assert "  - de\n" not in (root / "game.yaml").read_text(encoding="utf-8")

    result = run_cli("i18n", "add-language", "de", str(root), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "finished the interrupted build" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["de.po", "my-game.pot"]
    assert (out / "my-game.pot").read_text() != "old\n"
    assert "  - de\n" in (root / "game.yaml").read_text(encoding="utf-8")


# --- commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("other", [["--back-offset", "1,1"], ["--printer", "home"]])
def test_calibrate_save_with_an_offset_is_refused(other, tmp_path, run_cli, monkeypatch):
    # `calibrate --save NAME X,Y --back-offset 1,1` saved X,Y and ignored the offset silently
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    result = run_cli("calibrate", "--save", "office", "0.5,0.5", *other)
    assert result.exit_code == 2
    assert "--save takes the X,Y read on the sheet" in result.stderr
    assert not (tmp_path / "config").exists()


def test_a_percentage_target_for_a_metric_that_is_no_rate_is_refused():
    # `tune --objective turns_median=10%` tuned towards a median of 0.1 turns ("misses the
    # target 0.1"): a % only means something for a rate
    from toolkit.sim.options import SetupError
    from toolkit.sim.tune import parse_objective, parse_tolerance

    with pytest.raises(SetupError, match=r"turns_median \(turns, median\) is a number, not a rate"):
        parse_objective("turns_median=10%")
    assert parse_objective("team_win=50%") == ("team_win", 0.5)
    assert parse_objective("turns_median=10") == ("turns_median", 10.0)
    with pytest.raises(SetupError, match="write it without %, e.g. 5"):
        parse_tolerance("turns_median", "5%")
    assert parse_tolerance("team_win", "5%") == 0.05


def test_the_preview_takes_an_ipv6_host_in_brackets(tmp_path, run_cli, monkeypatch):
    # `preview --host '[::1]'` (as URLs write it) said "'[::1]' is not an address of this
    # machine"; `--host ::1` worked
    from tests.test_hardening_probe10_files import _game
    from toolkit.preview import serve

    asked = []

    def bind(host, port):
        asked.append(host)
        raise serve.PortInUse("stop here")

    monkeypatch.setattr(serve, "bind", bind)
    game = _game(tmp_path / "game")
    run_cli("preview", str(game), "--host", "[::1]", "--port", "0")
    assert asked == ["::1"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--help"], 0),
        (["rules"], 0),
        (["validate", "tests/fixtures/broken/duplicate-question"], 1),
    ],
)
def test_a_reader_that_stops_reading_leaves_the_commands_own_exit_code(args, code):
    # `| head -1` / `| true`: the exit code was 0 when the command wrote everything before the
    # reader went and 1 (click's broken pipe) when a write came after; now the command's own
    import subprocess
    import sys

    from tests.conftest import REPO

    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first write
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=REPO,
            timeout=60,
        )
    finally:
        os.close(write)
    assert done.returncode == code, done.stderr
    assert b"Traceback" not in done.stderr


def test_a_websocket_upgrade_attempt_logs_no_advice():
    # uvicorn logged "Unsupported upgrade request." and "No supported WebSocket library
    # detected. Please use pip install 'uvicorn[standard]'" for each attempt (another site's
    # page can make them with `new WebSocket(...)`); the preview needs no websocket
    from toolkit.preview.connections import GuardedH11Protocol

    said: list[str] = []

    class Connection:
        ws_protocol_class = None
        logger = type("Logger", (), {"warning": staticmethod(said.append)})()

        def _should_upgrade_to_ws(self):
            return False

    GuardedH11Protocol._unsupported_upgrade_warning(Connection())  # type: ignore[arg-type]
    assert said == []


def test_a_jpeg_is_counted_once_however_often_it_is_opened(tmp_path, monkeypatch):
    # pictures.opened read a JPEG file whole to count its scans each time it was opened (up
    # to three times a picture in validate: a file of the 256 MB bound read three times)
    import io

    from PIL import Image

    from toolkit.render import pictures

    buffer = io.BytesIO()
    Image.new("L", (64, 48), 255).save(buffer, "JPEG", progressive=True)
    path = tmp_path / "art.jpg"
    path.write_bytes(buffer.getvalue())
    counted = []
    real = pictures._data_problem
    monkeypatch.setattr(pictures, "_data_problem", lambda data: counted.append(1) or real(data))
    assert pictures.pixels(path) == (64, 48)  # validate: its size, its check, its contrast
    for _ in range(2):
        with pictures.opened(path) as image:
            image.load()
    assert len(counted) == 1
    path.write_bytes(buffer.getvalue() + b"\0")  # another file: counted again
    with pictures.opened(path):
        pass
    assert len(counted) == 2


@pytest.mark.parametrize(("mode", "kept"), [(0o777, False), (0o1777, True), (0o755, True)])
def test_a_cache_in_a_folder_others_may_write_is_not_used(mode, kept, tmp_path, monkeypatch):
    # only the store's own folder was checked: with PLAYSET_CACHE in a folder others may write
    # (no sticky bit), another user could rename our store folders and put theirs in place
    from toolkit import usercache

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    monkeypatch.setenv("PLAYSET_CACHE", str(shared))
    folder = usercache.cache_dir("jinja")
    assert (folder is not None) == kept


def test_a_cache_folder_inside_the_game_is_no_change_to_the_game(tmp_path, monkeypatch):
    # PLAYSET_CACHE (or XDG_CACHE_HOME) set to a folder inside the game: every run wrote its
    # cache there, so the game's digest changed each time and validate never hit its cache
    from typer.testing import CliRunner

    from tests.conftest import FIXTURES, build_case
    from toolkit.cli import app
    from toolkit.content import validate_cache

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(game / ".cache"))
    monkeypatch.chdir(game)
    CliRunner().invoke(app, ["validate", "."], catch_exceptions=False)
    before = validate_cache.inputs_digest(game, ("o",), validate_cache.StatCache())
    CliRunner().invoke(app, ["validate", "."], catch_exceptions=False)
    (game / ".cache" / "playset" / "another").mkdir()  # and whatever else it writes there
    assert validate_cache.inputs_digest(game, ("o",), validate_cache.StatCache()) == before


def test_a_relative_tmpdir_is_ignored(tmp_path, monkeypatch):
    # `TMPDIR=.` in a game folder: the LSP mirror and the pictures' private copies were made
    # inside the game (tempfile takes the variable as given)
    import tempfile

    from toolkit import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", ".")
    monkeypatch.setenv("TMP", "tmp")
    monkeypatch.setattr(tempfile, "tempdir", None)
    cli.absolute_temp_folder()
    assert os.path.isabs(tempfile.gettempdir())
    assert not tempfile.gettempdir().startswith(str(tmp_path))
    assert "TMPDIR" not in os.environ and "TMP" not in os.environ


# --- engines ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["import", "compile_game"])
def test_an_engine_that_sets_the_umask_leaves_the_reports_mode(where, tmp_path, run_cli):
    # os.umask(0o777) in the engine made `simulate --json` write its report with mode 000
    from tests.starter_games import engine_game

    if where == "import":
        extra = "import os\nos.umask(0o777)\n"
    else:
        extra = (
            "import os\n_compile = compile_game\n\n\n"
            "def compile_game(content):\n    os.umask(0o777)\n    return _compile(content)\n"
        )
    game = engine_game(tmp_path, extra)
    mask = os.umask(0o022)
    try:
        result = run_cli("simulate", str(game), "-n", "3", "--json", str(tmp_path / "r.json"))
        assert os.umask(0o022) == 0o022  # the test process's mask, as it was
    finally:
        os.umask(mask)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o644


def _check_json(game, *more: str):
    """`playset check GAME -n 10 -f json` in a process of its own (an engine may fork it)."""
    import subprocess
    import sys

    from tests.conftest import REPO

    args = [
        sys.executable,
        "-m",
        "toolkit",
        "check",
        str(game),
        "-n",
        "10",
        "-p",
        "2",
        "-f",
        "json",
        *more,
    ]
    return subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)


def test_an_engine_that_forks_at_import_gives_one_report(tmp_path):
    # os.fork() at import: the child came back into the command and ran it as well, so
    # `check -f json` printed `[]` twice (and `simulate` two reports)
    import json

    from tests.starter_games import engine_game

    game = engine_game(tmp_path, "import os\nos.fork()\n")
    done = _check_json(game)
    assert json.loads(done.stdout) == [], done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_an_engine_exit_handler_that_raises_is_one_line(tmp_path):
    # an atexit handler that raised printed Python's "Exception ignored in atexit callback"
    # and a traceback after the report
    import json

    from tests.starter_games import engine_game

    extra = "import atexit\n\n\n@atexit.register\ndef _bye():\n    raise RuntimeError('bye')\n"
    done = _check_json(engine_game(tmp_path, extra))
    assert json.loads(done.stdout) == []
    assert "Traceback" not in done.stderr, done.stderr
    assert "warning: the engine's exit handler _bye raised RuntimeError: bye" in done.stderr
