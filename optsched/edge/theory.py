"""The edge paper's analysis, as checkable quantities (paper §IV, App. C-D; spec §2.5 (d), §4).

* :func:`fitted_dual_check`: the paper's dual fitting (§3.8): ``α_jd`` = the selected ``Q``, ``β_e(t)``
  = total weight ``1/D`` of the chunks on ``e`` unfinished at ``t`` counted from their job's release.
  Lemma 2(b) claims (6a) ``α_jd <= (t − r_j)/D_j + p β_e(t)`` for every column; it is false [E19]
  (CE1, CE2), so this *measures* the violations, exactly (fractions).
* :func:`lemma1_chain`: ``Σ f_jd <= Σ (1/D_j)(C_jd − r_j) <= Σ_j (C_j − r_j)`` for a run (Lemma 1).
* :func:`jct_bound` and :func:`flow_bound`: Theorem 3's factors ``D_max (1 + 1/ε)`` and ``(1 + 1/ε)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .instance import Place
from .online import CLOUD, Chunk, EdgeRun


@dataclass(frozen=True)
class DualFitCheck:
    """Dual constraint (6a) checked on A_online's fitted duals (Lemma 2): how many (chunk, worker, slot) triples
    violate it, how many on the worker the chunk went to, the largest violation and where, and how many triples
    were checked."""
    violations: int  #: (chunk, worker, slot) triples where (6a) fails
    on_selected: int  #: of those, on the worker the chunk was sent to
    max_violation: Fraction  #: max α − rhs
    worst: tuple | None  #: (job, chunk, worker or ("cloud", j, d), slot) of the max
    checked: int  #: triples examined
    dual_objective: Fraction  #: D_I = Σα − Σβ / speed


def _place(c: Chunk) -> Place:
    return ("cloud", c.job, c.index) if c.location == CLOUD else c.location


def _beta(run: EdgeRun) -> dict[Place, list[tuple[int, int, Fraction]]]:
    """β per worker as intervals ``[r_j, C_c)`` with weight ``1/D_j`` (from the final completions)."""
    intervals: dict[Place, list[tuple[int, int, Fraction]]] = {}
    for c in run.chunks:
        intervals.setdefault(_place(c), []).append((run.instance.jobs[c.job].release, c.end, c.weight))
    return intervals


def fitted_dual_check(run: EdgeRun, speed: Fraction = Fraction(1), repaired: bool = False) -> DualFitCheck:
    """Evaluate (6a) for the paper's fitted duals on every column of LP-4R (spec §2.5 (d)): each
    chunk against every qualified edge worker and its own private cloud worker (cloud rate ``p^1``),
    for ``t`` from ``r_j + Δ`` to where the inequality holds trivially. ``speed`` (``1 + ε``) only
    scales β in the dual objective; (11a) holds iff (6a) does (Lemma 5).

    ``repaired=True`` checks spec L2-c instead, for a run of the repaired algorithm:
    ``α <= (t − r)/D + p/D + p β(t)`` (LP-4R+'s own-processing term) with the fractional
    ``β_e(t) = Σ_c (1/D_c) rem_c(t)/p_c`` over chunks on ``e`` released by ``t``."""
    instance = run.instance
    beta = _beta(run)
    on: dict[Place, list[Chunk]] = {}
    for c in run.chunks:
        on.setdefault(_place(c), []).append(c)

    def beta_at(place, t):
        if repaired:
            return sum((c.weight * Fraction(c.remaining(t), c.p) for c in on.get(place, ())
                        if instance.jobs[c.job].release <= t), Fraction(0))
        return sum((w for a, b, w in beta.get(place, ()) if a <= t < b), Fraction(0))

    count = selected = checked = 0
    worst, worst_value = None, Fraction(0)
    for c in run.chunks:
        job = instance.jobs[c.job]
        r, D = job.release, job.chunks
        options: list[tuple[Place, int, int]] = [(e, job.p_edge, job.delay_edge[instance.workers[e][0]])
                                                 for e in instance.qualified[c.job]]
        if instance.cloud:
            options.append((("cloud", c.job, c.index), job.p_cloud, job.delay_cloud))
        for place, p, delay in options:
            last = max((b for a, b, _ in beta.get(place, ())), default=0)
            t_max = max(last, c.end, r + -(-D * c.alpha.numerator // c.alpha.denominator) + 1) + 1
            for t in range(r + delay, t_max):
                checked += 1
                own = Fraction(p, D) if repaired else 0
                gap = c.alpha - (Fraction(t - r, D) + own + p * beta_at(place, t))
                if gap > 0:
                    count += 1
                    chosen = place == c.location or (c.location == CLOUD and isinstance(place, tuple))
                    selected += chosen
                    if gap > worst_value:
                        worst, worst_value = (c.job, c.index, place, t), gap
    beta_total = sum((w * (b - a) for intervals in beta.values() for a, b, w in intervals), Fraction(0))
    return DualFitCheck(count, selected, worst_value, worst, checked, run.alpha_sum - beta_total / speed)


@dataclass(frozen=True)
class Lemma1:
    """Lemma 1's chain on one run: the fractional flow time (3) <= the chunk-weighted flow time <= the total JCT."""
    fractional_flow: Fraction  #: Σ f_jd(y), eq. (3)
    chunk_weighted: Fraction  #: Σ (1/D_j)(C_jd − r_j)
    jct: int  #: Σ_j (C_j − r_j)

    @property
    def holds(self) -> bool:
        """Whether both inequalities of the chain hold (exactly, in fractions)."""
        return self.fractional_flow <= self.chunk_weighted <= self.jct


def lemma1_chain(run: EdgeRun) -> Lemma1:
    """Lemma 1's inequalities on a run (L1-a)."""
    weighted = sum((c.weight * (c.end - run.instance.jobs[c.job].release) for c in run.chunks), Fraction(0))
    return Lemma1(run.fractional_flow, weighted, run.total_jct)


def jct_bound(d_max: int, epsilon: Fraction) -> Fraction:
    """Theorem 3 (ii): A_online at speed ``1 + ε`` is within ``D_max (1 + 1/ε)`` of the optimum of (2)."""
    return d_max * (1 + 1 / Fraction(epsilon))


def flow_bound(epsilon: Fraction) -> Fraction:
    """Theorem 3 (i): within ``1 + 1/ε`` of the optimum of ILP (4)."""
    return 1 + 1 / Fraction(epsilon)
