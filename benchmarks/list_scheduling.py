"""Online list scheduling on one machine (`single`'s WSPT) at sizes up to the job limit (100,000).

The package's rule keeps the waiting jobs in a heap; the reference, measured in the same run, picks
the best waiting job by a scan of all of them at every start, as optsched did before (quadratic in
the jobs, in `Fraction` arithmetic). Both must give the same schedule wherever the reference runs;
the reference is skipped above `--reference-max` jobs, where it takes minutes.

    python benchmarks/list_scheduling.py
    python benchmarks/list_scheduling.py --sizes 1000 10000 100000 --reference-max 20000

Prints a Markdown table for docs/benchmarks.md, with the machine it ran on.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from bench_single import machine

from optsched.arrivals import ArrivalStream
from optsched.single.generate import generate
from optsched.single.online import wspt


def scanned_wspt(instance) -> tuple[float, ...]:
    """WSPT choosing by a scan of every waiting job at each start (the reference)."""
    stream = ArrivalStream(instance.jobs, lambda job: job.r)
    start = [0.0] * instance.n
    waiting = dict(stream.advance_to(0))
    t = 0.0
    while waiting or not stream.exhausted:
        if not waiting:
            waiting.update(stream.wait())
            t = stream.now
            continue
        j = min(waiting, key=lambda i: (-Fraction(waiting[i].w) / waiting[i].p, waiting[i].r, i))
        job = waiting.pop(j)
        start[j] = float(t)
        t += job.p
        waiting.update(stream.advance_to(t))
    return tuple(start)


def seconds(fn) -> tuple[float, object]:
    begun = time.perf_counter()
    value = fn()
    return time.perf_counter() - begun, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000, 100000])
    parser.add_argument("--reference-max", type=int, default=20000)
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    print("| jobs | WSPT (heap) s | reference (scan) s | reference / heap | same schedule |")
    print("|---:|---:|---:|---:|---|")
    for n in args.sizes:
        instance = generate("small", seed=0, jobs=n)
        heap_s, schedule = seconds(lambda instance=instance: wspt(instance))
        if n <= args.reference_max:
            scan_s, reference = seconds(lambda instance=instance: scanned_wspt(instance))
            same = "yes" if reference == schedule.start else "NO"
            print(f"| {n:,} | {heap_s:.2f} | {scan_s:.2f} | {scan_s / heap_s:.0f} | {same} |")
        else:
            print(f"| {n:,} | {heap_s:.2f} | not run | - | - |")


if __name__ == "__main__":
    main()
