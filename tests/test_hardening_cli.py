"""Hardening, round 2 (issue 33): the preview answers only its own address and drops
connections that never finish a request; the CLI's files, servers and counts are bounded,
and every refusal is one clear line (exit 2 for a usage error, 1 otherwise), no traceback.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, preview_server_on_free_port

# --- the preview: Host and Origin ---------------------------------------------------------


class FakePreview:
    """The little of a preview session the web app's state route needs."""

    stopping = False

    def state(self) -> dict:
        return {"revision": 1, "secret": "the game's state"}


def _client(host: str, port: int | None = 8765):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from toolkit.preview.app import make_app
    from toolkit.preview.hosts import AllowedHosts

    app = make_app(FakePreview(), AllowedHosts.for_server(host, port))  # type: ignore[arg-type]
    return TestClient(app, base_url="http://127.0.0.1:8765")


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"]
)
def test_the_preview_answers_its_own_addresses(host):
    response = _client("127.0.0.1").get("/api/state", headers={"Host": host})
    assert response.status_code == 200 and response.json()["secret"]


@pytest.mark.parametrize(
    "host",
    [
        "attacker.example:8765",  # DNS rebinding: the attacker's name resolved to 127.0.0.1
        "attacker.example",
        "localhost.attacker.example:8765",
        "127.0.0.1:9999",  # another port: another server's page
        "127.0.0.1:8765@attacker.example",
        "192.168.1.20:8765",  # an IP is fine only when listening on every interface
        "",
    ],
)
def test_the_preview_refuses_any_other_host(host):
    client = _client("127.0.0.1")
    for url in ("/api/state", "/events", "/img/back/x/en", "/"):
        response = client.get(url, headers={"Host": host})
        assert response.status_code == 421, (url, host)
        assert "secret" not in response.text


def test_the_host_given_to_listen_on_is_answered():
    client = _client("preview.lan")
    assert client.get("/api/state", headers={"Host": "preview.lan:8765"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "other.lan:8765"}).status_code == 421


def test_listening_everywhere_answers_ip_addresses_but_no_other_name():
    client = _client("0.0.0.0")
    assert client.get("/api/state", headers={"Host": "192.168.1.20:8765"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "[fe80::1]:8765"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "attacker.example:8765"}).status_code == 421


def test_another_sites_origin_is_refused():
    client = _client("127.0.0.1")
    for origin in ("http://attacker.example", "http://127.0.0.1:9999", "null"):
        response = client.get("/events", headers={"Origin": origin})
        assert response.status_code == 403 and "secret" not in response.text
    own = client.get("/api/state", headers={"Origin": "http://127.0.0.1:8765"})
    assert own.status_code == 200


# --- the preview: connections ---------------------------------------------------------------


@pytest.fixture
def server(monkeypatch):
    """The preview's uvicorn settings serving a tiny app on a free port, in a thread."""
    pytest.importorskip("uvicorn")
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from toolkit.preview.connections import GuardedH11Protocol

    monkeypatch.setattr(GuardedH11Protocol, "head_seconds", 0.3)
    monkeypatch.setattr(GuardedH11Protocol, "max_connections", 3)

    async def hello(request):
        return PlainTextResponse("hello")

    with preview_server_on_free_port(Starlette(routes=[Route("/", hello)])) as port:
        yield port


def _closed_by_server(conn: socket.socket, within: float = 5.0) -> bool:
    conn.settimeout(within)
    try:
        return conn.recv(100) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_half_sent_request_is_dropped(server):
    with socket.create_connection(("127.0.0.1", server)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never ends
        assert _closed_by_server(conn)
    with socket.create_connection(("127.0.0.1", server)) as conn:  # nothing sent at all
        assert _closed_by_server(conn)


def test_a_complete_request_is_answered_then_its_idle_keep_alive_dropped(server):
    with socket.create_connection(("127.0.0.1", server)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        conn.settimeout(5)
        answer = b""
        while not answer.endswith(b"hello"):
            answer += conn.recv(1000)
        conn.sendall(b"GET / HTTP/1.1\r\n")  # the next request, half-sent
        assert _closed_by_server(conn)


def test_a_connection_beyond_the_cap_takes_the_place_of_the_oldest_waiting_one(server, monkeypatch):
    # probe 51 L4: connections past the cap were closed at once, so a local program holding
    # the cap's number of half-sent requests had every request of the page refused
    from toolkit.preview.connections import GuardedH11Protocol

    monkeypatch.setattr(GuardedH11Protocol, "head_seconds", 10.0)
    held = [socket.create_connection(("127.0.0.1", server)) for _ in range(3)]
    try:
        for conn in held:
            conn.sendall(b"GET / HTTP/1.1\r\n")  # half sent, held
        time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", server)) as page:
            assert _closed_by_server(held[0], within=5.0)  # well before the request deadline
            page.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            page.settimeout(5)
            answer = b""
            while not answer.endswith(b"hello"):
                answer += page.recv(1000)
        held[1].settimeout(0.2)
        with pytest.raises(TimeoutError):
            held[1].recv(100)  # the others stay (until their deadline)
    finally:
        for conn in held:
            conn.close()


def test_running_out_of_file_descriptors_is_one_line_not_a_traceback_a_second(capsys):
    import asyncio

    from toolkit.preview.connections import quiet_accept_errors

    loop = asyncio.new_event_loop()
    try:
        quiet_accept_errors(loop)
        failed = OSError(errno.EMFILE, "Too many open files")
        for _ in range(50):
            loop.call_exception_handler(
                {"message": "socket.accept() out of system resource", "exception": failed}
            )
    finally:
        loop.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot take more connections" in err
    assert "Traceback" not in err


# --- calibrate --save ------------------------------------------------------------------------


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "config" / "playset"
    folder.mkdir(parents=True)
    return folder / "printers.yaml"


def _save(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`calibrate --save` in a process of its own: a FIFO must not hang the test run."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(config.parent.parent), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "calibrate", "--save", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.symlink_to(p.parent / "missing.yaml"), "symlink to a missing file"),
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: p.symlink_to("/dev/zero"), "not a regular file"),
    ],
    ids=["dangling-link", "fifo", "device"],
)
def test_calibrate_save_refuses_a_printers_file_that_is_no_file(config, make, message):
    make(config)
    result = _save(config, "office", "1,1")
    assert result.returncode == 1, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_calibrate_save_on_a_full_disk_is_a_clear_error(config, run_cli, monkeypatch):
    from toolkit.render import printers

    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(printers, "atomic_write_text", full)
    result = run_cli("calibrate", "--save", "office", "1,1")
    assert result.exit_code == 1
    assert "not saved" in result.stderr and "No space left on device" in result.stderr


@pytest.mark.parametrize(
    ("name", "offset", "message"),
    [
        ("office\n", "1,1", "printer name"),
        ("office", "1_5,0", "offset must be X,Y"),
        ("office", "\uff11.\uff15,0", "offset must be X,Y"),  # fullwidth digits
    ],
)
def test_calibrate_refuses_names_and_numbers_python_alone_would_take(
    config, run_cli, name, offset, message
):
    result = run_cli("calibrate", "--save", name, offset)
    assert result.exit_code == 1 and message in result.stderr
    assert not config.exists()


def test_messages_show_emoji_codes_as_written(run_cli):
    result = run_cli("calibrate", "--paper", ":id:")
    assert result.exit_code == 2 and "':id:'" in result.stderr and "\U0001f194" not in result.stderr


# --- new ---------------------------------------------------------------------------------------


def test_new_on_a_full_disk_is_a_clear_error_and_leaves_nothing(run_cli, tmp_path, monkeypatch):
    from toolkit.scaffold import new as scaffold

    written = []
    real = scaffold.atomic_write_text

    def fills_up(path, text, **options):
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, text, **options)
        written.append(path)

    monkeypatch.setattr(scaffold, "atomic_write_text", fills_up)
    result = run_cli("new", "my-game", "--into", str(tmp_path))
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and "no game written" in result.stderr
    assert list(tmp_path.iterdir()) == []  # a second try does not meet a half-made game


def test_new_refuses_a_language_given_twice(run_cli, tmp_path):
    result = run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "fr,fr")
    assert result.exit_code == 2 and "fr twice" in result.stderr
    assert list(tmp_path.iterdir()) == []


# --- simulate, sweep, tune: counts and executors ----------------------------------------------


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_zero_players_is_refused_not_the_default(run_cli, command):
    extra = ["--vary", "hand_size=4,5"] if command == "sweep" else []
    result = run_cli(command, "muckle-stoater", "-n", "10", "-p", "0", *extra)
    assert result.exit_code == 2 and "not 0" in result.stderr


@pytest.mark.parametrize(
    ("dask", "message"),
    [("", "not an empty value"), ("local:100000", "local workers on this machine")],
)
def test_a_bad_dask_value_is_refused(run_cli, dask, message):
    pytest.importorskip("distributed")
    result = run_cli("simulate", "muckle-stoater", "-n", "10", "--dask", dask)
    assert result.exit_code == 2 and message in result.stderr


@pytest.fixture
def http_server():
    """A server that answers every connection as HTTP would, whatever it was sent."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for conn in held:
        conn.close()


def test_dask_at_a_server_that_is_no_scheduler_is_a_clear_error(run_cli, http_server):
    pytest.importorskip("distributed")
    result = run_cli("simulate", "muckle-stoater", "-n", "10", "--dask", http_server)
    assert result.exit_code == 2 and "not a Dask scheduler" in result.stderr
    assert "EiB" not in result.stderr


def test_dask_at_a_server_that_never_answers_gives_up(run_cli, monkeypatch):
    pytest.importorskip("distributed")
    from toolkit.sim.executors import dask

    monkeypatch.setattr(dask, "PROBE_SECONDS", 1.0)
    with socket.socket() as silent:  # listens, never accepts, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        result = run_cli("simulate", "muckle-stoater", "-n", "10", "--dask", address)
    assert result.exit_code == 2 and "no Dask scheduler answered within 1 s" in result.stderr


def test_a_sweep_grid_is_bounded(run_cli):
    vary = ["--vary", "hand_size=1..1000", "--vary", "a=1..1000", "--vary", "b=1..1000"]
    result = run_cli("sweep", "muckle-stoater", "-n", "10", *vary)
    assert result.exit_code == 2
    assert "1,000,000,000 points (1000 × 1000 × 1000); at most 10,000" in result.stderr
    result = run_cli("sweep", "muckle-stoater", "-n", "10", "--vary", "hand_size=4,5,6")
    assert result.exit_code == 0
    result = run_cli(
        "sweep", "muckle-stoater", "-n", "10", "--vary", "hand_size=4,5,6", "--max-points", "2"
    )
    assert result.exit_code == 2 and "--max-points" in result.stderr


TUNE = ["tune", "muckle-stoater", "--param", "hand_size=4..6", "--objective", "turns_median=40"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-n", "10000001"], "less than or equal to"),
        (["--confirm", "10000001"], "less than or equal to"),
        (["--budget", "100000", "-n", "10"], "10,000 trials; at most 1,000"),
        (["--tolerance", "-5%"], "a tolerance is zero or more"),
    ],
)
def test_tune_counts_and_tolerance_are_bounded(run_cli, extra, message):
    pytest.importorskip("optuna")
    result = run_cli(*TUNE, *extra)
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_ctrl_c_in_tunes_first_trial_is_a_clean_stop(run_cli, monkeypatch):
    pytest.importorskip("optuna")
    from toolkit.sim.session import Simulation

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    logged: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = logged.append  # type: ignore[method-assign]
    logging.getLogger("optuna").addHandler(handler)
    monkeypatch.setattr(Simulation, "play", interrupted)
    try:
        result = run_cli(*TUNE, "--budget", "40", "-n", "20", "-p", "4")
    finally:
        logging.getLogger("optuna").removeHandler(handler)
    assert result.exit_code == 130
    assert "interrupted after 0 of 2 trial(s)" in result.stderr
    assert not logged, [r.getMessage() for r in logged]  # Optuna's "Trial 0 failed" traceback


def test_ctrl_c_in_a_sweep_is_a_clean_stop(run_cli, monkeypatch):
    from toolkit.sim.session import Simulation

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Simulation, "play", interrupted)
    result = run_cli("sweep", "muckle-stoater", "-n", "10", "--vary", "hand_size=4,5")
    assert result.exit_code == 130 and "interrupted" in result.stderr


def test_a_printers_file_nested_too_deeply_is_said_not_a_traceback(config, run_cli):
    # 4 kB of `[[[…]]]` was a 2,800-line RecursionError traceback in calibrate and build
    config.write_text("a: " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    result = run_cli("calibrate", "--save", "home", "1,2")
    assert result.exit_code == 1, result.output
    assert "nested too deeply; not a printers file" in result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
