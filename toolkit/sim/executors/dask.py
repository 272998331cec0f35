"""`dask:local:N` starts a Dask LocalCluster of N workers here; `dask:tcp://HOST:PORT` joins a
running scheduler (an optional extra: `pip install "playset[dask]"`). Games go through the
Client's own `concurrent.futures.Executor`, watched for a cluster left without workers."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any

from toolkit.sim.executors.base import (
    MAX_LOCAL_WORKERS,
    ExecutorError,
    ExecutorKind,
    Idle,
    worker_count,
)

PROBE_SECONDS = 10.0  # a scheduler answers in milliseconds; anything else is refused by then
LOCAL_WORKERS_PER_CPU = 4


MAX_ADDRESS = 256
"""Characters of a `--dask` value: `local:N` or a scheduler's address."""


@contextlib.contextmanager
def _open(arg: str, workers: int, idle: Idle) -> Iterator[Executor]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ExecutorError('Dask is not installed: pip install "playset[dask]"') from None
    if len(arg) > MAX_ADDRESS:  # said in full, 100,000 letters were the whole message
        raise ExecutorError(
            f"--dask {arg[:40]}… is {len(arg):,} characters long: an address has at most"
            f" {MAX_ADDRESS}"
        )
    cluster = None
    if arg == "local" or arg.startswith("local:"):
        _, _, count = arg.partition(":")
        try:
            n = worker_count(count) if count else workers
        except ValueError:
            raise ExecutorError(f"--dask {arg} (expected local:N with N a number)") from None
        if n < 1:
            raise ExecutorError(f"--dask {arg} (a cluster needs at least one worker)")
        if n > max_local_workers():
            raise ExecutorError(
                f"--dask {arg}: at most {max_local_workers()} local workers on this machine"
                f" ({LOCAL_WORKERS_PER_CPU} per CPU core, {MAX_LOCAL_WORKERS} in all)"
            )
        import dask

    client = None
    try:  # a hang-up held back during the start arrives at its end: the cluster is closed
        if arg == "local" or arg.startswith("local:"):
            # a game that ended its worker ends the next one too (the same seed, the same
            # moves): told once, not after Dask's three retries
            with dask.config.set({"distributed.scheduler.allowed-failures": 0}), _no_hangup():
                from multiprocessing import resource_tracker

                resource_tracker.ensure_running()  # now, so that it never takes SIGHUP
                cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # no fixed port: clusters side by side never clash
                    silence_logs=50,
                )
            client = Client(cluster)
        else:
            probe_scheduler(arg)
            try:
                client = Client(arg, timeout=PROBE_SECONDS)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ExecutorError(f"--dask {arg} (cannot reach the scheduler: {exc})") from None
        yield Watched(client.get_executor(pure=False), client, idle)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _no_hangup() -> Iterator[None]:
    """Start the cluster's processes with SIGHUP blocked: a closed terminal signals the
    whole process group, and multiprocessing's resource tracker, which a local cluster
    starts, died of it and was started again, printing a dozen tracebacks over the
    "interrupted" line. The mask is inherited across fork and exec, so the tracker and the
    workers never act on a hang-up (this process stops the cluster itself, as on SIGTERM).
    Blocked, not ignored: a hang-up during the start (1-2 s) is held and delivered to this
    process once the start is over (ignored, it was lost and the run went on)."""
    import signal
    import threading

    hup = getattr(signal, "SIGHUP", None)
    if hup is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {hup})
    try:
        yield
    finally:
        if hup not in previous:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {hup})


def max_local_workers() -> int:
    """How many workers `--dask local:N` may start: each is a process of its own."""
    return min(MAX_LOCAL_WORKERS, LOCAL_WORKERS_PER_CPU * (os.cpu_count() or 1))


def probe_scheduler(address: str) -> None:
    """Ask the server at `address` what it is before Dask's Client connects: a server that
    is not a Dask scheduler makes the Client wait for ever (one that never answers) or try to
    allocate exabytes (its reply read as a frame length). Bounded by PROBE_SECONDS.

    The address is checked first, so that what goes wrong after is the server's reply (a
    reply Dask cannot decode raised ValueErrors such as "4294967295 exceeds max_array_len",
    once shown as if the address were wrong, after Dask's own logged traceback)."""
    import asyncio
    import logging

    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.core import rpc

    try:
        scheme, _ = parse_address(address)
        port = None if scheme == "inproc" else get_address_host_port(address)[1]
    except ValueError as exc:
        raise ExecutorError(
            f"--dask {address}: {exc} (expected local:N or tcp://HOST:PORT)"
        ) from None
    if port is not None and not 0 < port < 65536:
        raise ExecutorError(f"--dask {address}: port {port} is not a port (1 to 65535)")

    async def identity() -> Any:
        async with rpc(address) as remote:
            return await remote.identity()

    protocol = logging.getLogger("distributed.protocol")
    level = protocol.level
    protocol.setLevel(logging.CRITICAL + 1)  # it logs a traceback for a reply it cannot read
    try:
        info = asyncio.run(asyncio.wait_for(identity(), PROBE_SECONDS))
    except TimeoutError:
        raise ExecutorError(
            f"--dask {address}: no Dask scheduler answered within {PROBE_SECONDS:g} s"
        ) from None
    except OSError as exc:
        raise ExecutorError(f"--dask {address} (cannot reach the scheduler: {exc})") from None
    except (Exception, MemoryError):  # a reply in another protocol, or another Dask version
        raise ExecutorError(
            f"--dask {address}: not a Dask scheduler, or one of another Dask version"
            " (its reply is not the Dask protocol this machine speaks)"
        ) from None
    finally:
        protocol.setLevel(level)
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        kind = info.get("type") if isinstance(info, dict) else None
        raise ExecutorError(f"--dask {address}: not a Dask scheduler (it is a {kind or 'server'})")


class Watched(Executor):
    """A cluster's executor that notices when no worker is left: `stream_records` calls
    `idle_check` while it waits for a batch, and a cluster whose workers are all gone says so
    after a while (Dask itself would wait in silence for one to join)."""

    def __init__(self, inner: Executor, client: Any, idle: Idle) -> None:
        self._inner, self._client, self._idle = inner, client, idle
        self._since: float | None = None  # when the cluster was first seen without workers
        self._said = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)

    def idle_check(self, now: float | None = None) -> None:
        """Say (once per outage) or stop when the cluster has had no worker for idle.after s."""
        now = time.monotonic() if now is None else now
        try:
            workers = len(self._client.nthreads())
        except Exception:  # a scheduler that does not answer is no news of its workers
            return
        if workers:
            if self._said:
                self._idle.say(f"Dask: {workers} worker(s) connected again; going on")
            self._since, self._said = None, False
            return
        if self._since is None:
            self._since = now
        waited = now - self._since
        if waited < self._idle.after or self._said:
            return
        where = getattr(self._client.scheduler, "address", "the scheduler")
        if self._idle.stop:
            raise ExecutorError(
                f"Dask: no worker connected to {where} for {waited:.0f} s; stopped "
                "(start workers with `dask worker ADDRESS`; --dask-idle wait keeps waiting)"
            )
        self._said = True
        self._idle.say(
            f"Dask: no worker connected to {where} for {waited:.0f} s; waiting for one to "
            "join (`dask worker ADDRESS`), Ctrl-C to stop"
        )


EXECUTOR = ExecutorKind(
    "dask",
    "Dask distributed, dask:local:N starts a LocalCluster of N workers here, "
    "dask:tcp://HOST:PORT joins a running scheduler",
    _open,
    30,
)
