"""edge-sec5's units at the paper's scale: seconds per method for one unit of the reproduction (the
method's run, the verifier and the metrics: ``_sim_task``), and a digest of the unit's result, for
the optsched on the path. Run it with ``PYTHONPATH=TREE`` for this tree and for a reference tree (an
older optsched, for example ``git worktree add --detach /tmp/ref <commit>``), one after the other
under the same load: equal digests mean the same results. Prints one Markdown row per method.

    PYTHONPATH=TREE python benchmarks/bench_edge_units.py LABEL [--jobs 300] [--servers 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from optsched.edge.reproduce import ALGORITHMS, PRICED, _sim_task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", help="a name for the tree measured (a table column)")
    parser.add_argument("--jobs", type=int, default=300)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = 0.0
    for name in (*ALGORITHMS, *PRICED):
        start = time.perf_counter()
        row = _sim_task((args.jobs, args.servers, args.seed, name))
        seconds = time.perf_counter() - start
        total += seconds
        digest = hashlib.sha256(json.dumps(row, sort_keys=True).encode()).hexdigest()[:12]
        print(f"| {args.label} | {args.jobs} | {args.servers} | {name} | {seconds:.2f} | {digest} |", flush=True)
    print(f"| {args.label} | {args.jobs} | {args.servers} | all | {total:.2f} | |")


if __name__ == "__main__":
    main()
