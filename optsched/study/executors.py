"""Where units run: this process, local worker processes, or a Dask distributed cluster.

Each executor takes the units still to do and yields ``(unit, result)`` as units finish, in any
order; the caller stores each result as it arrives. Every executor runs the same
:func:`units.run_unit`, so a study gives the same rows wherever it runs.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Iterator, Sequence

from ..errors import InputError
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


def local(units: Sequence[Unit], workers: int) -> Iterator[tuple[Unit, dict]]:
    """In this process when ``workers`` is 1, otherwise on ``workers`` local processes."""
    if workers <= 1:
        for unit in units:
            yield unit, run_unit(unit.payload)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_exit_with_parent)
    try:
        futures = {pool.submit(run_unit, unit.payload): unit for unit in units}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def dask(units: Sequence[Unit], workers: int, scheduler: str | None) -> Iterator[tuple[Unit, dict]]:
    """On the Dask scheduler at ``scheduler``, or on a local cluster of ``workers`` single-threaded
    worker processes on loopback when no address is given."""
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
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
        raise InputError(f"cannot reach the Dask scheduler at {scheduler or 'a local cluster'}: {exc}") from None
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
