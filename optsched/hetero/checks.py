"""Zhou et al.'s claims as slacks for ``optsched search hetero --target theorem:NAME`` (a negative
slack is a counterexample). Theorem 5 (``ALG <= 4α OPT``) is every family's ``theorem:bound``.

* ``mincost1`` (Theorem 1, [E5]): the printed distributed oracle A_mincost1 (E1-E4 applied)
  returns the cheapest distributed schedule. On the markets A_online meets (each sub-round's final
  prices, on the empty cluster, as in :func:`sub_round_markets`, and each round's jobs at zero
prices), the slack is the least
  ``min(exact, w_j) − min(A_mincost1, w_j)``: what the greedy loses against the exact oracle
  (:func:`oracles.distributed_exact`), capped at the job's weight, the most a miss can cost in
  A_maxweight (golden cases A.1, cost 10 where 9 exists, and A.5, nothing found at zero prices).
  The slack is 0 until it is violated, so the search orders instances of equal slack by a guide,
  how full A_mincost1's parameter servers leave their server (:func:`ps_load`), the road to A.5.
* ``lemma2`` (Lemma 2): A_dual is a dual α-approximation of the batch problem: in every round of
  A_online's run, the weight A_dual accepts within its α sub-rounds is at least the batch optimum
  ``OPT_MW`` of (7) with the round's deadline (:func:`formulations.mwsp`, solved within the node
  budget). The slack is the least ``(accepted − OPT_MW)/OPT_MW``; it does not apply where a batch
  optimum is not proven. The proof has a gap (D4), rigorous when α is at least the batch.
* ``theorem2`` (Theorems 2 and 7, primal side, and the price range P1): in every sub-round of
  A_online's run, the schedules A_maxweight accepts fit the cluster together (the family's verifier
  on the sub-round's jobs alone), and every price stays in ``[0, λ − 1]``. The slack is −1 when a
  sub-round's schedules do not fit, else the least margin of a price to its range over ``λ − 1``.
* ``theorem6`` (Theorem 6, errata E6-E9): for Ring-AllReduce jobs the co-located and distributed
  oracles together find the cheapest schedule: on every market of the run (as ``mincost1``), the
  cheaper of the two equals the brute-force optimum (:func:`oracles.brute_force`). The slack is the
  least ``(brute − oracles)/max(1, brute)``; it does not apply to a PS instance.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from ..limits import NODE_LIMIT
from ..registry import get
from ..solvers import solve
from . import oracles
from .formulations import mwsp
from .instance import Instance
from .online import OnlineRun, run_aonline
from .oracles import Market
from .schedule import JobSchedule, Schedule


def sub_round_markets(instance: Instance, run: OnlineRun) -> Iterator[tuple[Market, int, float]]:
    """``(market, job, payoff)`` for every job each sub-round of ``run`` processed: the sub-round's
    final prices on an empty cluster with the round's deadline (Theorem 2's dual (9) and Theorem 1
    are claims about every such market)."""
    for r in run.rounds:
        if not r.result:
            continue
        for sub in r.result.subrounds:
            market = Market.empty(instance, r.tau)
            market.price = sub.price.copy()
            market.changed()
            for j, payoff in sub.payoff.items():
                yield market, j, payoff


def ps_load(instance: Instance, schedule: JobSchedule) -> float:
    """How full the parameter servers leave their servers: the largest share of a server's
    capacity, over servers and resources other than the bandwidth, that the schedule's PSs take.
    A_mincost1 fails (golden case A.5) when the PSs its remote workers need no longer fit next to
    its workers."""
    if schedule.p is None:
        return 0.0
    z = instance.ps_demand[schedule.p]
    return max((s * z[r] / c[r] for s, c in zip(schedule.s, instance.capacity) for r in range(instance.R)
                if c[r] > 0 and r != instance.bandwidth), default=0.0)


def _run(instance: Instance, params: dict) -> OnlineRun:
    """A_online's run with the check's parameters (the oracle is the check's own business)."""
    return run_aonline(instance, **{k: v for k, v in params.items() if k not in ("seed", "oracle")})


def _markets(instance: Instance, run: OnlineRun) -> Iterator[tuple[Market, int]]:
    """``(market, job)``: every job of every round on the empty cluster at zero prices, then every
    job each sub-round processed at its final prices (:func:`sub_round_markets`), the markets the
    oracle checks (``mincost1``, ``theorem6``) examine."""
    for r in run.rounds:
        if r.result:
            for j in r.batch:
                yield Market.empty(instance, r.tau), j
    for market, j, _ in sub_round_markets(instance, run):
        yield market, j


def mincost1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``mincost1`` check (module docstring). ``guide`` (the largest :func:`ps_load` of
    A_mincost1's schedules) only orders instances of equal slack for the search."""
    if instance.framework != "ps":
        return 0.0, {"applies": False, "why": "A_mincost1 is the PS framework's oracle"}
    run = _run(instance, params)
    slack, worst, calls, guide = 0.0, None, 0, 0.0
    for market, j in _markets(instance, run):
        w = instance.jobs[j].weight
        exact = min(oracles.distributed_exact(market, j)[0], w)
        cost, greedy = oracles.distributed_paper(market, j)
        paper = min(cost, w)
        calls += 1
        if greedy is not None:
            guide = max(guide, ps_load(instance, greedy))
        if exact - paper < slack:
            slack, worst = exact - paper, {"job": j, "tau": market.tau, "exact": exact, "greedy": paper, "weight": w}
    return slack, {"calls": calls, "worst": worst, "guide": guide}


def theorem2_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem2`` check (module docstring)."""
    run = _run(instance, params)
    top = run.lam - 1
    slack, subrounds = 1.0, 0
    for r in run.rounds:
        for sub in (r.result.subrounds if r.result else []):
            subrounds += 1
            alone = replace(instance, jobs=tuple(replace(instance.jobs[j], arrival=1) for j in sub.accepted))
            problems = get("hetero").judge(alone, Schedule(tuple(sub.schedules[j] for j in sub.accepted))).violations
            if problems:
                return -1.0, {"round": r.i, "violation": problems[0]}
            if top > 0 and sub.price.size:
                slack = min(slack, float(np.min(sub.price)) / top, float(top - np.max(sub.price)) / top)
    return slack, {"subrounds": subrounds, "lambda": run.lam}


def theorem6_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem6`` check (module docstring)."""
    if instance.framework != "allreduce":
        return 1.0, {"applies": False, "why": "Theorem 6 is about Ring-AllReduce jobs"}
    run = _run(instance, params)
    slack, calls, worst = 1.0, 0, None
    for market, j in _markets(instance, run):
        found = min(oracles.colocated_allreduce(market, j)[0], oracles.distributed_allreduce(market, j)[0])
        brute = oracles.brute_force(market, j)[0]
        calls += 1
        if brute == found:
            continue
        gap = (brute - found) / max(1.0, abs(brute)) if np.isfinite(brute) and np.isfinite(found) else -1.0
        if gap < slack:
            slack, worst = gap, {"job": j, "tau": market.tau, "oracles": found, "brute_force": brute}
    return (slack if slack < 0 and abs(slack) > ROUNDING else 0.0), {"calls": calls, "worst": worst}


#: A cost difference within this (relative) is floating-point rounding.
ROUNDING = 1e-9


def lemma2_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma2`` check (module docstring)."""
    run = _run(instance, params)
    slack, worst = 1.0, None
    for r in run.rounds:
        if not r.result:
            continue
        best = solve(mwsp(instance, r.batch, r.tau), node_limit=NODE_LIMIT, threads=1)
        if not best.optimal or best.objective is None:
            return 1.0, {"applies": False, "why": f"the batch optimum of round {r.i} not proven"}
        accepted = sum(instance.jobs[j].weight for j in r.result.accepted)
        if best.objective > 0 and (accepted - best.objective) / best.objective < slack:
            slack = (accepted - best.objective) / best.objective
            worst = {"round": r.i, "alpha": r.alpha, "batch": len(r.batch), "accepted": accepted,
                     "optimum": best.objective}
    return (0.0 if -ROUNDING < slack < 0 else slack), {"worst": worst}
