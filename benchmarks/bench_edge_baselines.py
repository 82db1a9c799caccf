"""edge's rigid baselines (SRTF, Tiresias-L) at the paper's scale: seconds per baseline on one
'paper' instance, and a digest of its schedule and preemption count, for the optsched on the path.
Run it with ``PYTHONPATH=TREE`` for this tree and for a reference tree (an older optsched, for
example ``git worktree add /tmp/ref <commit>``), one after the other under the same load: equal
digests mean the same decisions.

    PYTHONPATH=TREE python benchmarks/bench_edge_baselines.py LABEL [--jobs 250] [--servers 100] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from optsched.edge import baselines
from optsched.edge.generate import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", help="a name for the tree measured (a table column)")
    parser.add_argument("--jobs", type=int, default=250)
    parser.add_argument("--servers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    instance = generate("paper", args.seed, jobs=args.jobs, servers=args.servers)
    for name, run in (("srtf", baselines.run_srtf), ("tiresias-l", baselines.run_tiresias)):
        start = time.perf_counter()
        schedule, preemptions = run(instance)
        seconds = time.perf_counter() - start
        doc = {"s": schedule.to_dict(), "p": preemptions}
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
        print(f"| {args.label} | {name} | {seconds:.1f} | {digest} |", flush=True)


if __name__ == "__main__":
    main()
