"""The exact frontier (issue 27, item 6): per family and exact formulation (MILP or CP-SAT), the
largest size at which every seed is proven optimal within the budget, the time ratio between
engines at the sizes both prove, and each engine's gap at the first size past its frontier.

Every solve runs through the public pipeline (``Family.solve``) with one thread and the budget as
a wall-clock ``time_limit`` for both engines, so that the engines are compared on the same clock;
the time reported is the whole call (building, solving, decoding, verifying). Instances come from
the family's own generator (``generate("small", seed, jobs=n)``), the same as
``optsched generate FAMILY --preset small --jobs N --seed S``. Each formulation climbs its size
ladder until a size where some seed is not proven; the first unproven size is recorded with its gaps.

    python benchmarks/frontier.py [--families hetero asrpt] [--budget 60] [--seeds 3] [--formulations cp-sat]
    python benchmarks/frontier.py --peers [--families single asrpt hetero] [--budget 60] [--seeds 3]
    python benchmarks/frontier.py --peers --deterministic 20000 60   # nodes, CP-SAT work units

``--deterministic NODES WORK`` (issue 51, item 5) replaces the wall clock by a budget that does not
move with the machine's load: a HiGHS node limit for MILPs and a CP-SAT work limit (deterministic
time) for CP-SAT models and the peers; the proven counts are then the same on every machine.

``--peers`` (issue 51, item 1) measures, on the same instances in the same run, optsched's
``--formulation best`` against the peer models of ``benchmarks/peers.py`` (PyJobShop, from the
``bench`` extra, and an untuned CP-SAT model): per size, each engine's proven count, the median
time ratio peer / optsched over the seeds both prove, and the gaps where none proves. Before
climbing, each peer's proven optimum is checked against optsched's on three smaller instances.

Prints Markdown for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import math
import time
from dataclasses import dataclass
from statistics import median

from bench_single import machine

import optsched

#: Job counts climbed per family, smallest first.
LADDERS = {
    "single": [10, 20, 30, 40, 50, 60, 80, 100, 120, 160],
    "oasis": [8, 16, 24, 32, 48, 64],
    "edge": [16, 32, 64, 96, 128, 160],
    "hetero": [4, 6, 8, 10, 12, 16, 20, 24],
    "asrpt": [6, 8, 10, 14, 20, 30, 40],
}


@dataclass(frozen=True)
class Budget:
    """Seconds of wall clock per solve, or a deterministic budget: a HiGHS node limit and a CP-SAT
    work limit (deterministic time), each applied where it can (a formulation's own inner solves get
    shares of both, ``pipeline.inner_solve``)."""

    seconds: float | None = None
    nodes: int | None = None
    work: float | None = None

    def options(self) -> dict:
        """``Family.solve``'s budget options."""
        if self.seconds is not None:
            return {"time_limit": self.seconds}
        return {"node_limit": self.nodes, "work_limit": self.work}

    def cp_sat(self) -> dict:
        """The peers' CP-SAT parameters."""
        return {"max_time_in_seconds": self.seconds} if self.seconds is not None else \
            {"max_deterministic_time": self.work}

    def __str__(self) -> str:
        return f"{self.seconds:g} s per solve" if self.seconds is not None else \
            f"a deterministic budget per solve ({self.nodes:,} HiGHS nodes, {self.work:g} CP-SAT work units)"


def measure(family: str, formulation: str, n: int, seed: int, budget: Budget) -> dict:
    fam = optsched.get(family)
    instance = fam.generate("small", seed=seed, jobs=n)
    started = time.perf_counter()
    try:
        solved = fam.solve(instance, formulation, threads=1, **budget.options())
    except optsched.InputError as refused:  # the formulation refuses an instance this large
        return {"proven": False, "time": time.perf_counter() - started, "gap": None, "objective": None,
                "status": "refused", "why": str(refused)}
    took = time.perf_counter() - started
    result = solved.result
    proven = result.optimal and solved.problem is None
    return {"proven": proven, "time": took, "gap": result.gap, "objective": solved.verdict.objective
            if solved.verdict else None, "status": result.status}


def ladder(family: str, least: int | None, most: int | None) -> list[int]:
    """The family's job counts from ``least`` to ``most`` (either None: no limit that side)."""
    return [n for n in LADDERS[family] if (least is None or n >= least) and (most is None or n <= most)]


def climb(family: str, formulation: str, seeds: int, budget: Budget, sizes: list[int]) -> list[tuple[int, list[dict]]]:
    rows = []
    for n in sizes:
        runs = [measure(family, formulation, n, seed, budget) for seed in range(seeds)]
        rows.append((n, runs))
        times = " ".join(f"{r['time']:.1f}s" for r in runs)
        print(f"  {family}/{formulation} n={n}: {sum(r['proven'] for r in runs)}/{seeds} proven, {times}", flush=True)
        if not all(r["proven"] for r in runs):
            break
    return rows


def gap_text(run: dict) -> str:
    if run["status"] == "refused":
        return "refused (too large to build)"
    gap = run["gap"]
    if gap is None:
        return "no bound"
    return "inf" if not math.isfinite(gap) else f"{100 * gap:.1f}%"


def check_peers(family: str, budget: Budget) -> None:
    """Each peer's proven optimum equals optsched's on three instances of the ladder's first size."""
    from peers import PEERS

    fam = optsched.get(family)
    for seed in range(3):
        instance = fam.generate("small", seed=seed, jobs=LADDERS[family][0])
        optimum = fam.solve(instance, "best", threads=1)
        assert optimum.result.optimal, f"{family} seed {seed}: optsched proves no optimum to check the peers against"
        for name, peer in PEERS[family].items():
            got = peer(instance, budget.cp_sat())
            if got["proven"] and not math.isclose(got["objective"], optimum.verdict.objective, rel_tol=1e-9):
                raise SystemExit(f"{family} seed {seed}: {name} proves {got['objective']}, optsched "
                                 f"{optimum.verdict.objective}: the peer model is not the same problem")
        print(f"  {family}: the peers agree with optsched's optimum on seed {seed}", flush=True)


def peer_table(family: str, seeds: int, budget: Budget, sizes: list[int]) -> list[list]:
    """Per size of the ladder, optsched's best and each peer on the same instances (module docstring)."""
    from peers import PEERS

    fam = optsched.get(family)
    rows = []
    for n in sizes:
        ours = [measure(family, "best", n, seed, budget) for seed in range(seeds)]
        theirs = {name: [peer(fam.generate("small", seed=seed, jobs=n), budget.cp_sat()) for seed in range(seeds)]
                  for name, peer in PEERS[family].items()}
        row = [family, n, f"{sum(r['proven'] for r in ours)}/{seeds}"]
        for name, runs in theirs.items():
            ratios = [t["time"] / o["time"] for o, t in zip(ours, runs) if o["proven"] and t["proven"]]
            row += [f"{sum(r['proven'] for r in runs)}/{seeds}", f"{median(ratios):.2f}" if ratios else "-"]
            for o, t in zip(ours, runs):
                if o["proven"] and t["proven"] and not math.isclose(o["objective"], t["objective"], rel_tol=1e-9):
                    raise SystemExit(f"{family} n={n}: {name} proves {t['objective']}, optsched {o['objective']}")
        unproven = [k for k in range(seeds) if not ours[k]["proven"] and not any(r[k]["proven"]
                                                                                 for r in theirs.values())]
        row.append(", ".join(f"seed {k}: " + "/".join(_peer_gap(run) for run in [ours[k], *(r[k] for r in
                                                                                        theirs.values())])
                             for k in unproven) or "-")
        rows.append(row)
        print("  " + " | ".join(str(x) for x in row), flush=True)
        if not any(r["proven"] for r in ours) and not any(t["proven"] for runs in theirs.values() for t in runs):
            break
    return rows


def _peer_gap(run: dict) -> str:
    if "gap" in run:  # optsched's own run (measure)
        return gap_text(run)
    objective, bound = run.get("objective"), run.get("bound")
    if objective is None or bound is None:
        return "no bound" if objective is not None else "none"
    return f"{100 * abs(objective - bound) / abs(objective):.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="+", default=list(LADDERS))
    parser.add_argument("--formulations", nargs="+", help="only these (default: every exact formulation)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per solve (default 60)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--min-size", type=int, help="start every ladder at this many jobs")
    parser.add_argument("--max-size", type=int, help="stop every ladder at this many jobs")
    parser.add_argument("--peers", action="store_true", help="optsched's best against PyJobShop and plain CP-SAT")
    parser.add_argument("--deterministic", nargs=2, metavar=("NODES", "WORK"), type=float,
                        help="a deterministic budget instead of --budget: HiGHS nodes and CP-SAT work units")
    args = parser.parse_args()
    budget = Budget(args.budget) if args.deterministic is None else \
        Budget(nodes=int(args.deterministic[0]), work=args.deterministic[1])
    print(f"Exact frontier, {datetime.date.today()}: {machine()}; one thread, {budget}, "
          f"{args.seeds} seeds a size\n", flush=True)
    if args.peers:
        from peers import PEER_FAMILIES, PEERS

        rows = []
        for family in [f for f in args.families if f in PEER_FAMILIES]:
            check_peers(family, budget)
            rows += peer_table(family, args.seeds, budget, ladder(family, args.min_size, args.max_size))
        names = list(PEERS[PEER_FAMILIES[0]])
        print("\n| family | jobs | optsched best proven | " + " | ".join(f"{n} proven | {n} / optsched time"
                                                                     for n in names) + " | gaps where none proves "
              "(optsched/" + "/".join(names) + ") |")
        print("|" + "---|" * (4 + 2 * len(names)))
        for row in rows:
            print("| " + " | ".join(str(x) for x in row) + " |")
        return
    table = []
    for family in args.families:
        fam = optsched.get(family)
        sizes = ladder(family, args.min_size, args.max_size)
        climbed = {}
        for name, form in fam.formulations.items():
            if form.gives_schedule and (args.formulations is None or name in args.formulations):
                climbed[name] = climb(family, name, args.seeds, budget, sizes)
        for name, rows in climbed.items():
            proven = [n for n, runs in rows if all(r["proven"] for r in runs)]
            past = [(n, runs) for n, runs in rows if not all(r["proven"] for r in runs)]
            frontier = max(proven, default=None)
            at = proven and next(runs for n, runs in rows if n == frontier)
            beyond = (f"{past[0][0]} jobs: {sum(r['proven'] for r in past[0][1])}/{args.seeds} proven, gaps "
                      f"{', '.join(gap_text(r) for r in past[0][1])}") if past else "-"
            table.append([family, name, fam.formulation(name).engine, frontier or "-",
                          f"{median(r['time'] for r in at):.1f}" if at else "-", beyond])
        names = list(climbed)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                both = [(n, ra, rb) for n, ra in climbed[a] for m, rb in climbed[b]
                        if n == m and all(r["proven"] for r in ra + rb)]
                for n, ra, rb in both:
                    ratio = sum(r["time"] for r in ra) / sum(r["time"] for r in rb)
                    print(f"  {family} n={n}: {a} / {b} time ratio {ratio:.2f}")
    print("\n| family | formulation | engine | proven up to (jobs) | median s there | first size past it |")
    print("|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()
