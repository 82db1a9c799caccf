"""The edge paper's claims as slacks for ``optsched search edge --target theorem:NAME`` (a negative
slack is a counterexample). Theorem 3's ratio is every family's ``theorem:bound`` where declared.

* ``lemma2b`` (Lemma 2(b), [E19]): the fitted duals ``(α, β)`` of A_online satisfy (6a) for every
  chunk, worker and slot. The slack is ``−max(α − rhs)`` over all of them
  (:func:`theory.fitted_dual_check`, exact in fractions; CE1 and CE2 violate it).
* ``lemma1`` (Lemma 1): on A_online's run, ``Σ f_jd <= Σ (1/D_j)(C_jd − r_j) <= Σ_j (C_j − r_j)``
  (:func:`theory.lemma1_chain`). The slack is the smaller of the two margins over the total JCT.
* ``lemma2a`` (Lemma 2(a) and Theorem 2): A_online's plans are correct: the schedule verifies, each
  chunk gets exactly ``p`` slots on one worker, none before its upload, no worker runs two chunks in
  a slot, and ``ζ_j = 1`` iff every chunk of ``j`` is in the cloud. Slack 0, or −1 with the first
  failure.
* ``lemma3`` (Lemma 3): A_ps gives a running job one PS of its type in every slot it runs (a cloud
  PS for an all-cloud job), no PS serves two jobs in a slot, and a job keeps its PS while it runs.
  Slack 0, or −1 with the first failure.
* ``theorem4`` (Theorem 4, as operation counts): CalcQ calls per job at most its qualified workers
  plus ``D_j``, and pieces per worker at most twice the chunks placed on it. The slack is the least
  spare share of a count to its bound.
* ``lemma4`` (Lemma 4, with β from the final completions [E15] and the timeline ``Q`` [E16]):
  ``Σα = Σ (1/D)(C − r) = Σβ``, exactly. The slack is minus the two differences over ``Σα``.
* ``theorem3`` (Theorem 3): A_online at speed ``1 + ε`` against the speed-1 optima on the same grid
  (:func:`instance.speed_augmented`): ``Σ f <= (1 + 1/ε) OPT(4)`` (i) and
  ``JCT <= D_max (1 + 1/ε) OPT(2)`` (ii), for ε in :data:`EPSILONS`. The slack is the least
  ``(bound − value)/max(bound, value)`` over both parts and every ε; it does not apply where an
  optimum is not proven within the node budget.
"""

from __future__ import annotations

from fractions import Fraction

from ..limits import NODE_LIMIT
from ..registry import get
from .instance import Instance, speed_augmented
from .online import CLOUD, EdgeRun, run_aonline
from .theory import fitted_dual_check, flow_bound, jct_bound, lemma1_chain

#: The speed-ups ``1 + ε`` Theorem 3 is checked at (the paper's Figs. 12/13 sweep ε up to 0.5).
EPSILONS = (Fraction(1, 2), Fraction(1))


def _run(instance: Instance, algorithm: str, params: dict) -> EdgeRun:
    return run_aonline(instance, q_mode=params.get("q_mode", "timeline"), repaired=params.get("repaired", False),
                       edge_only=algorithm == "aonline-edge")


def lemma2b_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """Lemma 2(b) as a search target: minus the largest violation of dual constraint (6a) by the fitted duals of
    A_online's run (positive slack: the lemma held), with the violations' details."""
    run = _run(instance, algorithm, params)
    check = fitted_dual_check(run, repaired=params.get("repaired", False))
    worst = None if check.worst is None else [str(part) for part in check.worst]
    return -float(check.max_violation), {"violations": check.violations, "on_selected": check.on_selected,
                                         "max_violation": str(check.max_violation), "worst": worst,
                                         "checked": check.checked}


def lemma1_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma1`` check (module docstring), exact in fractions."""
    chain = lemma1_chain(_run(instance, algorithm, params))
    margin = min(chain.chunk_weighted - chain.fractional_flow, chain.jct - chain.chunk_weighted)
    return float(margin / max(1, chain.jct)), {"fractional_flow": str(chain.fractional_flow),
                                                "chunk_weighted": str(chain.chunk_weighted), "jct": chain.jct}


def lemma4_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma4`` check (module docstring), exact in fractions."""
    run = _run(instance, algorithm, params)
    weighted = lemma1_chain(run).chunk_weighted
    beta_gap = fitted_dual_check(run).dual_objective  # Σα − Σβ at speed 1
    off = abs(run.alpha_sum - weighted) + abs(beta_gap)
    return 0.0 - float(off) / max(1.0, float(run.alpha_sum)), {"alpha": str(run.alpha_sum), "weighted": str(weighted),
                                                  "alpha_minus_beta": str(beta_gap)}


def theorem3_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem3`` check (module docstring): both parts at every ε of :data:`EPSILONS`."""
    edge = get("edge")
    slack, parts = 1.0, []
    for epsilon in EPSILONS:
        offline, online = speed_augmented(instance, epsilon)
        run = _run(online, algorithm, params)
        for part, formulation, value, bound in (
                ("i", "fractional-flow", run.fractional_flow, flow_bound(epsilon)),
                ("ii", "time-indexed", Fraction(run.total_jct), jct_bound(instance.max_chunks, epsilon))):
            solved = edge.solve(offline, formulation, node_limit=NODE_LIMIT, threads=1).result
            if not solved.optimal or solved.objective is None:
                return 1.0, {"applies": False, "why": f"OPT of {formulation} not proven at ε = {epsilon}"}
            big = float(bound) * solved.objective
            part_slack = (big - float(value)) / max(big, float(value)) if max(big, float(value)) > 0 else 0.0
            parts.append({"epsilon": str(epsilon), "part": part, "value": float(value), "opt": solved.objective,
                          "factor": float(bound)})
            slack = min(slack, part_slack)
    return slack, {"parts": parts}


def _plan_failure(instance: Instance, run: EdgeRun) -> str:
    """The first way ``run``'s plans break Lemma 2(a) (empty: none)."""
    problems = get("edge").judge(instance, run.schedule()).violations
    if problems:
        return problems[0]
    for c in run.chunks:
        job = instance.jobs[c.job]
        delay = job.delay_cloud if c.location == CLOUD else job.delay_edge[instance.workers[c.location][0]]
        if sum(b - a for a, b in c.segments) != c.p:
            return f"chunk {c.index} of job {c.job} runs {sum(b - a for a, b in c.segments)} slots, not p = {c.p}"
        if c.segments[0][0] < job.release + delay:
            return f"chunk {c.index} of job {c.job} starts before its upload ends"
    for e in range(len(instance.workers)):
        busy = [t for c in run.chunks if c.location == e for a, b in c.segments for t in range(a, b)]
        if len(busy) != len(set(busy)):
            return f"worker {e} runs two chunks in one slot"
    for j in range(len(instance.jobs)):
        if run.zeta[j] != all(c.location == CLOUD for c in run.chunks if c.job == j):
            return f"job {j}: ζ does not say whether every chunk is in the cloud"
    return ""


def lemma2a_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma2a`` check (module docstring)."""
    failure = _plan_failure(instance, _run(instance, algorithm, params))
    return (-1.0 if failure else 0.0), {"failure": failure}


def _ps_failure(instance: Instance, run: EdgeRun) -> str:
    """The first way ``run``'s PS assignment breaks Lemma 3 (empty: none)."""
    busy = {(c.job, t) for c in run.chunks for a, b in c.segments for t in range(a, b)}
    if set(run.ps) != busy:
        return "a job has a PS in a slot it does not run, or none in one it runs"
    serving: dict[tuple, int] = {}
    for (j, t), ps in sorted(run.ps.items(), key=lambda item: (item[0][1], item[0][0])):
        if run.zeta[j] != (ps is None):
            return f"job {j}: a cloud PS exactly when every chunk is in the cloud fails at slot {t}"
        if ps is not None:
            if instance.servers[ps[0]].ps[ps[1]] != instance.jobs[j].ps_type:
                return f"job {j} gets a PS of another type at slot {t}"
            if serving.setdefault((t, ps), j) != j:
                return f"PS {ps} serves two jobs at slot {t}"
        if (j, t - 1) in run.ps and run.ps[j, t - 1] != ps:
            return f"job {j} changes its PS between slots {t - 1} and {t} while running"
    return ""


def lemma3_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``lemma3`` check (module docstring)."""
    failure = _ps_failure(instance, _run(instance, algorithm, params))
    return (-1.0 if failure else 0.0), {"failure": failure}


def theorem4_slack(instance: Instance, algorithm: str, params: dict, optimum: float | None) -> tuple[float, dict]:
    """The ``theorem4`` check (module docstring)."""
    run = _run(instance, algorithm, params)
    spare = []
    for j, job in enumerate(instance.jobs):
        bound = len(instance.qualified[j]) + job.chunks
        spare.append((bound - run.counters.calc_q.get(j, 0)) / bound)
    for e in range(len(instance.workers)):
        placed = sum(c.location == e for c in run.chunks)
        if placed:
            spare.append((2 * placed - sum(len(c.segments) for c in run.chunks if c.location == e)) / (2 * placed))
    return min(spare, default=0.0), {"calc_q": dict(run.counters.calc_q)}
