"""hetero's Section 7 baselines (FIFO, DRF, AntMan, Tiresias) at the paper's scale: seconds per
baseline on one 'paper' instance, for this tree and, in the same run, for a reference tree (an
older optsched, for example ``git worktree add /tmp/ref <commit>``), with a digest of every
schedule so that a faster baseline that decides differently is caught.

    python benchmarks/bench_hetero_baselines.py [--jobs 200] [--servers 150] [--seed 0]
                                                [--reference /tmp/ref]

Each tree runs in its own process (``PYTHONPATH=TREE``), one after the other. Prints Markdown for
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench_single import machine

NAMES = ("fifo", "drf", "antman", "tiresias")
#: Runs in a child process: the baselines of the optsched on its path, timed, with digests.
CHILD = """
import hashlib, json, sys, time
from optsched.hetero import baselines
from optsched.hetero.generate import generate
jobs, servers, seed, framework = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
instance = generate("paper", seed, jobs=jobs, servers=servers, framework=framework)
out = {}
for name in __NAMES__:
    start = time.perf_counter()
    run = getattr(baselines, "run_" + name)(instance)
    seconds = time.perf_counter() - start
    doc = {"jobs": [l.to_dict() for l in run.schedule.jobs],
           "killed": [[j, l.to_dict(), t] for j, l, t in run.schedule.killed]}
    out[name] = [seconds, hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()]
print(json.dumps(out))
""".replace("__NAMES__", repr(NAMES))


def measure(tree: Path, args) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(args.jobs), str(args.servers), str(args.seed),
                           args.framework], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--servers", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--framework", default="ps", choices=("ps", "allreduce"))
    parser.add_argument("--reference", type=Path, help="an older source tree to compare with")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    now = measure(here, args)
    before = measure(args.reference, args) if args.reference else None
    print(machine())
    print(f"\n'paper' instance, {args.jobs} jobs, {args.servers} servers, seed {args.seed}, {args.framework}\n")
    print("| baseline | this tree (s) | reference (s) | speed-up | same schedule |")
    print("|---|---|---|---|---|")
    for name in NAMES:
        seconds, digest = now[name]
        if before:
            old, old_digest = before[name]
            print(f"| {name} | {seconds:.2f} | {old:.2f} | {old / seconds:.1f}x | {digest == old_digest} |")
        else:
            print(f"| {name} | {seconds:.2f} | | | |")
    total = sum(v[0] for v in now.values())
    if before:
        old_total = sum(v[0] for v in before.values())
        same = all(now[n][1] == before[n][1] for n in NAMES)
        print(f"| all four | {total:.2f} | {old_total:.2f} | {old_total / total:.1f}x | {same} |")
        return 0 if same else 1
    print(f"| all four | {total:.2f} | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
