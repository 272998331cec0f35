"""Executors: the local pool and Dask give the records the inline run gives, in game order,
even when a Dask worker dies mid-run; a stopped stream leaves nothing running."""

from __future__ import annotations

import contextlib
import os

import pytest

from toolkit.content.game import bundled_games
from toolkit.sim.engine import GameSetup
from toolkit.sim.executors import ExecutorError, open_executor
from toolkit.sim.executors.inline import InlineExecutor
from toolkit.sim.play import stream_records
from toolkit.sim.prepared import SimConfig


def _config(games=120):
    folder = bundled_games()["muckle-stoater"]
    return SimConfig(folder, GameSetup(4), ("greedy", "random"), seed=9, games=games, batch=15)


def test_unknown_executor_is_refused():
    with pytest.raises(ExecutorError), open_executor("ray:local"):
        pass


def test_stopping_a_stream_cancels_what_is_queued():
    with open_executor("pool:2") as pool:
        stream = stream_records(_config(600), pool, workers=2)
        first = next(stream)
        stream.close()  # as a Ctrl-C in the consumer would
        assert first.index == 0


# Slow by nature (seconds each): a Dask LocalCluster starts worker processes and a scheduler.
# One cluster serves the module's tests; the CLI test below starts its own two on purpose.
@pytest.fixture(scope="module")
def dask_executor():
    pytest.importorskip("dask.distributed")
    with open_executor("dask:local:2") as executor:
        yield executor


def test_dask_cluster_gives_the_inline_records(dask_executor):
    config = _config()
    expected = list(stream_records(config, InlineExecutor()))
    assert list(stream_records(config, dask_executor, workers=2)) == expected


def test_a_dead_dask_worker_changes_nothing(dask_executor):
    config = _config(150)
    expected = list(stream_records(config, InlineExecutor()))
    client = dask_executor._client
    killed = []

    def kill_one(_done: int) -> None:
        if not killed:
            victim = sorted(client.scheduler_info()["workers"])[0]
            killed.append(victim)
            with contextlib.suppress(Exception):  # the worker is gone before it answers
                client.run(os._exit, 1, workers=[victim], wait=False)

    got = list(stream_records(config, dask_executor, workers=2, progress=kill_one))
    assert killed and got == expected


@pytest.mark.slow
def test_cli_json_is_byte_identical_on_every_executor(run_cli, tmp_path):
    # Slow (5-10 s): what it checks is the command line's own `--dask local:N`, which starts
    # (and stops) a cluster of N worker processes. One cluster, of two workers: a second one
    # of one worker (local:1, dropped) ran the same dask path with less splitting of games.
    pytest.importorskip("dask.distributed")
    outputs = []
    for extra in ([], ["--workers", "2"], ["--dask", "local:2"]):
        out = tmp_path / f"r{len(outputs)}.json"
        args = ["simulate", "drinking-heroes", "-n", "80", "--players", "3", "--seed", "2"]
        result = run_cli(*args, *extra, "--json", str(out))
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert len(set(outputs)) == 1


def test_the_registry_lists_each_module_of_the_package_in_order():
    from toolkit.sim.executors import executors

    assert [k.name for k in executors()] == ["inline", "pool", "dask"]
    with pytest.raises(ExecutorError, match=r"choose from inline, pool, dask"), open_executor("x"):
        pass


def test_an_executor_is_one_module_added_to_the_package(tmp_path, monkeypatch, run_cli):
    """A module dropped into the package (here: a folder added to its path) is an executor
    the CLI's --executor reaches, with nothing else edited; it plays the same games."""
    from toolkit.sim import executors

    (tmp_path / "counted.py").write_text(
        "import contextlib\n"
        "from toolkit.sim.executors.base import ExecutorKind\n"
        "from toolkit.sim.executors.inline import InlineExecutor\n"
        "OPENED = []\n"
        "@contextlib.contextmanager\n"
        "def _open(arg, workers, idle):\n"
        "    OPENED.append(arg)\n"
        "    yield InlineExecutor()\n"
        "EXECUTOR = ExecutorKind('counted', 'inline, counted', _open, order=15)\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(executors, "__path__", [*executors.__path__, str(tmp_path)])
    executors.EXECUTORS.rediscover()
    try:
        assert [k.name for k in executors.executors()] == ["inline", "counted", "pool", "dask"]
        outs = [tmp_path / "a.json", tmp_path / "b.json"]
        argv = ["simulate", "muckle-stoater", "-n", "6", "-p", "3", "--seed", "3"]
        result = run_cli(*argv, "--executor", "counted:here", "--json", str(outs[0]))
        assert result.exit_code == 0, result.output
        import toolkit.sim.executors.counted as counted  # type: ignore[import-not-found]

        assert counted.OPENED == ["here"]
        assert run_cli(*argv, "--json", str(outs[1])).exit_code == 0
        assert outs[0].read_bytes() == outs[1].read_bytes()
    finally:
        import sys

        monkeypatch.undo()
        executors.EXECUTORS.unregister("counted")
        executors.EXECUTORS.rediscover()
        sys.modules.pop("toolkit.sim.executors.counted", None)


def test_executor_option_and_its_shorthands(run_cli, tmp_path):
    argv = ["simulate", "muckle-stoater", "-n", "8", "-p", "3", "--seed", "5", "--json"]
    outs = [tmp_path / f"{i}.json" for i in range(3)]
    assert run_cli(*argv, str(outs[0])).exit_code == 0
    assert run_cli(*argv, str(outs[1]), "--executor", "pool:2").exit_code == 0
    assert run_cli(*argv, str(outs[2]), "--workers", "2").exit_code == 0  # = pool of 2
    assert outs[0].read_bytes() == outs[1].read_bytes() == outs[2].read_bytes()
    both = run_cli(*argv, str(outs[0]), "--executor", "pool", "--dask", "local:1")
    assert both.exit_code == 2 and "choose one" in both.stderr
    bad = run_cli(*argv, str(outs[0]), "--executor", "pool:lots")
    assert bad.exit_code == 2 and "pool:N with N a number" in bad.stderr


def test_a_long_dask_value_is_said_short():
    # probe 28 L1: a 100,000-letter value was repeated whole in the message
    pytest.importorskip("dask.distributed")
    with pytest.raises(ExecutorError) as refused, open_executor("dask:" + "n" * 100_000):
        pass
    assert "100,000 characters" in str(refused.value) and len(str(refused.value)) < 200
