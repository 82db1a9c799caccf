"""Where units run: this process, local worker processes, or a Dask distributed cluster.

Each executor takes the units still to do and yields ``(unit, result)`` as units finish, in any
order; the caller stores each result as it arrives. Every executor runs the same
:func:`units.run_unit`, so a study gives the same rows wherever it runs.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from ..errors import Failure, InputError
from .units import Unit, run_unit

#: How long to try to reach a Dask scheduler before giving up.
CONNECT_TIMEOUT = "10s"


def _exit_with_parent() -> None:
    """Worker initialiser: leave when the coordinating process dies (even by ``kill -9``), which a
    forked worker blocked on its task queue would otherwise never notice."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


#: How often a local pool whose worker died (killed, out of memory) is replaced before the study stops.
POOL_RESTARTS = 3


def local(units: Sequence[Unit], workers: int) -> Iterator[tuple[Unit, dict]]:
    """In this process when ``workers`` is 1, otherwise on ``workers`` local processes.

    A worker process that dies breaks the whole pool; the pool is then replaced and every unit not
    yet finished runs again (up to :data:`POOL_RESTARTS` times; finished units are already stored).
    """
    if workers <= 1:
        for unit in units:
            yield unit, run_unit(unit.payload)
        return
    left = list(units)
    for restart in range(POOL_RESTARTS + 1):
        finished: set[int] = set()
        try:
            for index, result in _pool_run(left, workers):
                finished.add(index)
                yield left[index], result
            return
        except BrokenProcessPool:
            left = [unit for i, unit in enumerate(left) if i not in finished]
            if restart == POOL_RESTARTS:
                raise Failure(f"worker processes died {POOL_RESTARTS + 1} times; the study stopped with "
                                    f"{len(left)} unit(s) left (the finished ones are cached: run it again)") from None
            print(f"optsched: a worker process died; {len(left)} unit(s) run again on a new pool",
                  file=sys.stderr, flush=True)


def _pool_run(units: Sequence[Unit], workers: int) -> Iterator[tuple[int, dict]]:
    """``(index, result)`` as the units finish on a pool of ``workers`` processes."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_exit_with_parent)
    try:
        futures = {pool.submit(run_unit, unit.payload): i for i, unit in enumerate(units)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def dask(units: Sequence[Unit], workers: int, scheduler: str | None) -> Iterator[tuple[Unit, dict]]:
    """On the Dask scheduler at ``scheduler``, or on a local cluster of ``workers`` single-threaded
    worker processes on loopback when no address is given. Connects at once (an unreachable
    scheduler is reported before any unit is planned to run), then yields as units finish."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--executor dask needs dask.distributed: pip install 'optsched[dask]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"cannot reach the Dask scheduler at {scheduler or 'a local cluster'}: {reason}") from None
    return _dask_results(client, cluster, units)


def _dask_results(client, cluster, units: Sequence[Unit]) -> Iterator[tuple[Unit, dict]]:
    from distributed import as_completed as dask_completed

    try:
        futures = client.map(run_unit, [u.payload for u in units], key=[f"optsched-{u.key}" for u in units],
                             pure=False)
        by_key = {future.key: unit for future, unit in zip(futures, units)}
        for future, result in dask_completed(futures, with_results=True):
            yield by_key[future.key], result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
