"""Executors: the local pool and Dask give the records the inline run gives, in game order,
even when a Dask worker dies mid-run; a stopped stream leaves nothing running."""

from __future__ import annotations

import contextlib
import os

import pytest

from toolkit.content.game import bundled_games
from toolkit.sim.engine import GameSetup
from toolkit.sim.executors import ExecutorError, InlineExecutor, open_executor, stream_records
from toolkit.sim.runner import SimConfig


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


def test_cli_json_is_byte_identical_on_every_executor(run_cli, tmp_path):
    # The slowest test of the suite, and it stays so: what it checks is the command line's
    # own `--dask local:N`, which starts (and stops) a cluster of N worker processes each time.
    pytest.importorskip("dask.distributed")
    outputs = []
    for extra in ([], ["--workers", "2"], ["--dask", "local:1"], ["--dask", "local:2"]):
        out = tmp_path / f"r{len(outputs)}.json"
        args = ["simulate", "drinking-heroes", "-n", "80", "--players", "3", "--seed", "2"]
        result = run_cli(*args, *extra, "--json", str(out))
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert len(set(outputs)) == 1
