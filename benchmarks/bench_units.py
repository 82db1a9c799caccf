"""A reproduction's units at the paper's scale: seconds per method for one unit (the method's run,
the verifier and what the unit measures), and a digest of the unit's result, for the optsched on the
path. ``edge``: a unit of ``edge-sec5`` (``_sim_task``); ``oasis``: a unit of ``oasis-sec5``'s Fig. 3
(``_fig3_task``, T and servers of the ``paper`` preset); ``hetero``: a unit of ``hetero-sec7``'s
simulations (``_online_task``, ps, F = 1). Run it with ``PYTHONPATH=TREE`` for this tree
and for a reference tree (an older optsched, for example ``git worktree add --detach /tmp/ref
<commit>``), one after the other under the same load: equal digests mean the same results. Prints
one Markdown row per method.

    PYTHONPATH=TREE python benchmarks/bench_units.py edge LABEL [--jobs 300] [--servers 20] [--seed 0]
    PYTHONPATH=TREE python benchmarks/bench_units.py oasis LABEL [--jobs 400] [--seed 0] [--methods drf ...]
    PYTHONPATH=TREE python benchmarks/bench_units.py hetero LABEL [--jobs 200] [--servers 150] [--methods fifo ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable


def _edge(args) -> tuple[list[str], Callable[[str], dict]]:
    from optsched.edge.reproduce import ALGORITHMS, PRICED, SimTask, _sim_task

    return [*ALGORITHMS, *PRICED], lambda name: _sim_task(SimTask(args.jobs, args.servers, args.seed, name))


def _oasis(args) -> tuple[list[str], Callable[[str], dict]]:
    from optsched.oasis.reproduce import SCALES, Fig3Task, _fig3_task, methods

    p = SCALES["paper"]
    args.servers = p.servers
    return list(methods(args.jobs, p)), lambda name: _fig3_task(Fig3Task(args.jobs, args.seed, p.T, p.servers, name))


def _hetero(args) -> tuple[list[str], Callable[[str], dict]]:
    from optsched.hetero.reproduce import ALGORITHMS, OnlineTask, _online_task

    return list(ALGORITHMS), lambda name: _online_task(OnlineTask("ps", args.jobs, args.servers, 1.0, args.seed, name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=["edge", "oasis", "hetero"])
    parser.add_argument("label", help="a name for the tree measured (a table column)")
    parser.add_argument("--jobs", type=int, default=300)
    parser.add_argument("--servers", type=int, default=20, help="edge and hetero (oasis: the paper preset's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--methods", nargs="+", help="these methods only (default: every method of the units)")
    args = parser.parse_args()
    methods, unit = {"edge": _edge, "oasis": _oasis, "hetero": _hetero}[args.family](args)
    total = 0.0
    for name in args.methods or methods:
        start = time.perf_counter()
        row = unit(name)
        seconds = time.perf_counter() - start
        total += seconds
        digest = hashlib.sha256(json.dumps(row, sort_keys=True).encode()).hexdigest()[:12]
        print(f"| {args.label} | {args.jobs} | {args.servers} | {name} | {seconds:.2f} | {digest} |", flush=True)
    print(f"| {args.label} | {args.jobs} | {args.servers} | all | {total:.2f} | |")


if __name__ == "__main__":
    main()
