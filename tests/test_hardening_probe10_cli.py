"""Tenth probe of issue 33, the commands surface: a closed or full standard stream is one
line and an exit code, never a traceback; `python -m toolkit` run inside a game folder
imports none of the folder's files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.starter_games import engine_game as _game


def _run(
    args: list[str],
    cwd: Path,
    stdout: object = None,
    close: int | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """`python -m toolkit ARGS` with stdout sent to `stdout`, or with file descriptor
    `close` closed before the command starts (`>&-`, `<&-`)."""

    def closed() -> None:
        if close is not None:
            os.close(close)

    return subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL if close != 0 else None,
        stdout=stdout if stdout is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        preexec_fn=closed,  # noqa: PLW1509 - the child closes its own descriptor, nothing else
    )


FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")


@needs_full
@pytest.mark.parametrize(
    "args",
    [
        ["list", "{game}"],
        ["rules"],
        ["--version"],
        ["validate", "{game}", "-f", "json"],
        ["check", "{game}", "-n", "10", "-p", "2", "-f", "json"],
    ],
    ids=["list", "rules", "version", "validate-json", "check-json"],
)
def test_a_full_stdout_is_one_line_and_exit_1(tmp_path, args):
    # `playset list > /dev/full` ended in an OSError traceback (No space left on device)
    game = _game(tmp_path)
    with FULL.open("w") as full:
        done = _run([a.format(game=game) for a in args], tmp_path, stdout=full)
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 1, done.stderr[-800:]
    assert "cannot write" in done.stderr and "No space left" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "args",
    [["list", "{game}"], ["validate", "{game}", "-f", "json"]],
    ids=["list", "validate-json"],
)
def test_a_closed_stdout_is_no_traceback(tmp_path, args):
    # `playset list >&-`: AttributeError: 'NoneType' object has no attribute 'isatty'
    game = _game(tmp_path)
    done = _run([a.format(game=game) for a in args], tmp_path, close=1)
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 0, done.stderr[-800:]


def test_a_closed_stdout_plays_and_keeps_its_exit_code(tmp_path):
    # `playset simulate … >&-` printed three tracebacks and exited 120
    game = _game(tmp_path)
    done = _run(["simulate", str(game), "-n", "5", "-p", "2"], tmp_path, close=1)
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 0, done.stderr[-800:]


def test_the_language_server_with_stdin_closed_ends_without_traceback(tmp_path):
    # `playset lsp <&-`: AttributeError: 'NoneType' object has no attribute 'buffer'
    done = _run(["lsp"], tmp_path, close=0)
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode in (0, 1), done.stderr[-800:]


def test_python_m_toolkit_in_a_game_folder_imports_none_of_its_files(tmp_path):
    # `python -m toolkit validate` put the current folder first on sys.path: a game folder
    # holding typer.py (or pydantic.py, ruamel/) ran it, from a read-only command
    game = _game(tmp_path)
    marker = tmp_path / "MARKER"
    for name in ("typer", "pydantic", "rich", "jinja2"):
        (game / f"{name}.py").write_text(
            f"import pathlib\npathlib.Path({str(marker)!r}).write_text({name!r})\n",
            encoding="utf-8",
        )
    done = _run(["validate"], game)
    assert not marker.exists(), f"imported the game folder's {marker.read_text()}.py"
    assert "Traceback" not in done.stderr, done.stderr[-1500:]


def test_another_sites_frame_is_refused_as_its_other_requests():
    # a cross-site page's <iframe src=".../img/<key>"> is a navigation (Sec-Fetch-Mode:
    # navigate), which the preview let through for links: it drew the card on request and
    # the frame's load time told which keys exist
    from tests.test_hardening_cli import _client

    client = _client("127.0.0.1")
    for dest in ("iframe", "frame", "embed", "object"):
        headers = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
        for url in ("/api/state", "/img/card/cards/advance/en/front", "/"):
            response = client.get(url, headers={**headers, "Sec-Fetch-Dest": dest})
            assert response.status_code == 403, (dest, url)
    link = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    assert client.get("/", headers={**link, "Sec-Fetch-Dest": "document"}).status_code == 200


@pytest.mark.parametrize(("to", "out"), [("csv", "cards.xlsx"), ("xlsx", "cards.ods")])
def test_convert_refuses_an_out_whose_suffix_names_another_format(tmp_path, run_cli, to, out):
    # `convert cards.yaml --to csv --out cards.xlsx` wrote CSV text into cards.xlsx
    game = _game(tmp_path)
    target = tmp_path / out
    result = run_cli(
        "convert", str(game / "decks" / "cards.yaml"), "--to", to, "--out", str(target)
    )
    assert result.exit_code == 2, result.output
    assert f"--to {to}" in result.output
    assert not target.exists()


def test_the_editors_mirror_writes_through_no_link_it_made(tmp_path):
    # a game entry mirrored as a dangling link (extra -> /abs/dir) that became a folder of
    # the game later (a checkout), once /abs/dir existed: the next sync linked the folder's
    # files into /abs/dir, removing the file there of the same name first
    from toolkit.lsp.mirror import Mirror

    game = _game(tmp_path)
    victim = tmp_path / "victim"
    (game / "extra").symlink_to(victim)
    mirror = Mirror(game)
    try:
        mirror.sync()
        victim.mkdir()
        (victim / "planted.yaml").write_text("theirs\n", encoding="utf-8")
        (game / "extra").unlink()
        (game / "extra").mkdir()
        (game / "extra" / "planted.yaml").write_text("x: 1\n", encoding="utf-8")
        mirror.set_buffer("extra/open.yaml", "y: 2\n")
        mirror.sync()
        assert (victim / "planted.yaml").read_text(encoding="utf-8") == "theirs\n"
        assert sorted(p.name for p in victim.iterdir()) == ["planted.yaml"]
        mirrored = mirror.path / "extra"
        assert mirrored.is_dir() and not mirrored.is_symlink()
        assert (mirrored / "planted.yaml").read_text(encoding="utf-8") == "x: 1\n"
        assert (mirrored / "open.yaml").read_text(encoding="utf-8") == "y: 2\n"
        mirror.sync()  # and again: nothing of the old link is removed twice
    finally:
        mirror.close()
