"""hetero's Section 7 methods at the paper's scale: seconds per method on one 'paper' instance, for
this tree and, in the same run, for a reference tree (an older optsched, for example ``git worktree
add /tmp/ref <commit>``), with a digest of every schedule so that a faster method that decides
differently is caught. The methods: the baselines FIFO, DRF, AntMan and Tiresias (the default), and
A_online with earliest-completion ties (``aonline``, as the reproduction runs it) or the paper's
(``aonline-paper-ties``), and with α = 1 or 2 (``aonline-alpha-1``, ``aonline-alpha-2``: the
reproduction's set-up sweep, earliest-completion ties).

    python benchmarks/bench_hetero_baselines.py [--jobs 200] [--servers 150] [--seed 0]
                                                [--methods fifo drf ...] [--reference /tmp/ref]

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

BASELINES = ("fifo", "drf", "antman", "tiresias")
METHODS = (*BASELINES, "aonline", "aonline-paper-ties", "aonline-alpha-1", "aonline-alpha-2")
#: Runs in a child process: the methods (argv[5:]) of the optsched on its path, timed, with digests.
CHILD = """
import hashlib, json, sys, time
from optsched.hetero import baselines
from optsched.hetero.generate import generate
from optsched.hetero.online import run_aonline
jobs, servers, seed, framework = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
instance = generate("paper", seed, jobs=jobs, servers=servers, framework=framework)
out = {}
for name in sys.argv[5:]:
    start = time.perf_counter()
    if name.startswith("aonline"):
        run = run_aonline(instance, tie_break="paper" if name.endswith("paper-ties") else "earliest_completion",
                          alpha=int(name.rsplit("-", 1)[1]) if "alpha" in name else 4)
    else:
        run = getattr(baselines, "run_" + name)(instance)
    seconds = time.perf_counter() - start
    doc = {"jobs": [l.to_dict() for l in run.schedule.jobs],
           "killed": [[j, l.to_dict(), t] for j, l, t in getattr(run.schedule, "killed", ())]}
    out[name] = [seconds, hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()]
print(json.dumps(out))
"""


def measure(tree: Path, args) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(args.jobs), str(args.servers), str(args.seed),
                           args.framework, *args.methods], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--servers", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--framework", default="ps", choices=("ps", "allreduce"))
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(BASELINES))
    parser.add_argument("--reference", type=Path, help="an older source tree to compare with")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    now = measure(here, args)
    before = measure(args.reference, args) if args.reference else None
    print(machine())
    print(f"\n'paper' instance, {args.jobs} jobs, {args.servers} servers, seed {args.seed}, {args.framework}\n")
    print("| method | this tree (s) | reference (s) | speed-up | same schedule |")
    print("|---|---|---|---|---|")
    for name in args.methods:
        seconds, digest = now[name]
        if before:
            old, old_digest = before[name]
            print(f"| {name} | {seconds:.2f} | {old:.2f} | {old / seconds:.1f}x | {digest == old_digest} |")
        else:
            print(f"| {name} | {seconds:.2f} | | | |")
    total = sum(v[0] for v in now.values())
    if before:
        old_total = sum(v[0] for v in before.values())
        same = all(now[n][1] == before[n][1] for n in args.methods)
        print(f"| all | {total:.2f} | {old_total:.2f} | {old_total / total:.1f}x | {same} |")
        return 0 if same else 1
    print(f"| all | {total:.2f} | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
