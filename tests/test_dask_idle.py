"""A Dask cluster left without workers: Dask waits in silence for one to join; Playset says
so after --dask-idle's seconds and waits (wait) or ends the run with the reason (stop)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.test_executors import _config
from toolkit.sim.executors import ExecutorError, Idle, open_executor
from toolkit.sim.executors.dask import Watched
from toolkit.sim.executors.inline import InlineExecutor
from toolkit.sim.play import stream_records


class FakeClient:
    """A client whose cluster has the workers the test gives it."""

    def __init__(self) -> None:
        self.workers: dict[str, int] = {}
        self.scheduler = SimpleNamespace(address="tcp://10.0.0.5:8786")

    def nthreads(self) -> dict[str, int]:
        return self.workers


def test_waiting_says_so_once_per_outage_and_when_workers_come_back():
    said: list[str] = []
    client = FakeClient()
    watched = Watched(InlineExecutor(), client, Idle(30, False, said.append))
    watched.idle_check(now=0.0)
    watched.idle_check(now=29.0)
    assert said == []  # not yet: a worker may be restarting
    watched.idle_check(now=31.0)
    watched.idle_check(now=90.0)
    assert len(said) == 1 and "no worker connected to tcp://10.0.0.5:8786 for 31 s" in said[0]
    assert "waiting" in said[0]
    client.workers = {"w1": 1}
    watched.idle_check(now=95.0)
    assert said[1] == "Dask: 1 worker(s) connected again; going on"
    client.workers = {}
    watched.idle_check(now=100.0)
    watched.idle_check(now=131.0)
    assert len(said) == 3  # a new outage is said again


def test_stop_ends_the_run_with_the_reason():
    client = FakeClient()
    watched = Watched(InlineExecutor(), client, Idle(10, True, lambda _: None))
    watched.idle_check(now=0.0)
    with pytest.raises(ExecutorError, match="no worker connected .* for 12 s; stopped"):
        watched.idle_check(now=12.0)


def test_a_scheduler_without_workers_stops_the_run_with_the_reason():
    """A real scheduler with no worker: the batches wait, and `stop:0` ends the run at the
    first look instead of waiting forever."""
    distributed = pytest.importorskip("dask.distributed")
    said: list[str] = []
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=None, silence_logs=50
    ) as cluster:
        spec = f"dask:{cluster.scheduler_address}"
        with (
            open_executor(spec, 1, Idle(0, True, said.append)) as executor,
            pytest.raises(ExecutorError, match="no worker connected to .* stopped"),
        ):
            list(stream_records(_config(30), executor))
    assert said == []


def test_dask_idle_takes_wait_or_stop_and_seconds(run_cli):
    result = run_cli("simulate", "drinking-heroes", "-n", "10", "--dask-idle", "linger:5")
    assert result.exit_code == 2 and "--dask-idle linger:5" in result.output
