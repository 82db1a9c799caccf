"""Study benchmarks (issue: study, item 8). Prints Markdown tables for docs/benchmarks.md.

1. Throughput: the same study (oasis and edge tiny instances of 6 jobs, references cross-checked)
   run from an empty cache with 1 and with 2 local workers; units per second while running units,
   and the speed-up (target >= 1.8x on 2 cores).
2. The demo: ``optsched study --preset demo`` from an empty cache, then again from its cache, as a
   user runs it (a fresh process each time); target <= 3 minutes on 2 cores.

    python benchmarks/bench_study.py [--seeds 40] [--repeats 2]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_single import machine

from optsched.study import run, study


def throughput_study(seeds: int, workers: int, out: Path):
    parts = [{"family": f, "instances": "tiny", "seeds": seeds, "jobs": [6], "reference": {"cross_check": True}}
             for f in ("oasis", "edge")]
    return study({"name": f"bench-{workers}", "workers": workers, "part": parts}, "bench", out)


def throughput(seeds: int, repeats: int) -> None:
    print("### Study throughput, 1 vs 2 local workers\n")
    print("| workers | units | compute (s), median | units/s | speed-up |")
    print("|---|---|---|---|---|")
    rates = {}
    for workers in (1, 2):
        times = []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as tmp:
                outcome = run(throughput_study(seeds, workers, Path(tmp) / "s"), progress=False)
                times.append(outcome.compute_s)
        rates[workers] = outcome.units / statistics.median(times)
        speedup = "1 (reference)" if workers == 1 else f"**{rates[2] / rates[1]:.2f}x**"
        print(f"| {workers} | {outcome.units} | {statistics.median(times):.2f} | {rates[workers]:.0f} | {speedup} |")
    print()


def demo() -> None:
    print("### `optsched study --preset demo`\n")
    print("| run | wall (s) |")
    print("|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in (("from an empty cache", ["--fresh"]), ("again, from the cache", [])):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "optsched.cli", "study", "--preset", "demo", "--quiet",
                            "-o", str(Path(tmp) / "demo"), *extra], check=True, capture_output=True)
            print(f"| {label} | {time.perf_counter() - started:.1f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    throughput(args.seeds, args.repeats)
    demo()


if __name__ == "__main__":
    main()
