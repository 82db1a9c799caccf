"""A_online (paper Alg. 1-5) for edge-cloud preemptive scheduling, as corrected in spec §3.

Jobs arrive through an :class:`~optsched.arrivals.ArrivalStream`. On arrival, A_greedy (Alg. 2)
dispatches the job's chunks one at a time to the option with the smallest dispatch cost ``Q`` (eq.
(5)): a qualified edge worker, where the chunk is inserted into the worker's plan in order of highest
average processing rate first (HAPRF, ``γ = 1/(D p)``), or the cloud, which then takes every
remaining chunk of the job. Plans are fixed at dispatch and only shift when a later chunk is inserted
(UpdateVariables, Alg. 4). A_ps (Alg. 5) gives every running job one PS per slot.

Corrections of the printed algorithms, always applied because the printed versions produce
inconsistent plans (spec §3.9): the cloud entry after the first chunk goes to the edge uses ``p^0``
[E11]; the chosen worker's ``Q`` is recomputed after the insertion [E12]; ``α_jd`` is the ``Q`` of the
selected option at selection time [E13]; postponed chunks move by the new chunk's length [E14]; ``β``
is computed from the final completions [E15]; A_ps serves the active jobs and checks that a PS is
free [E26, E27]. Options, as parameters: ``q_mode`` ``"timeline"`` (default, [E16]) or ``"eq5"`` (the
printed formula); ``edge_only`` (A_online-E: no cloud candidate, except as a fallback for a job with
no qualified edge worker); ``repaired`` (spec L2-c: the delay a chunk imposes on a postponed chunk is
weighted by that chunk's remaining fraction, ``p Σ (1/D_c) rem(c, t*)/p_c``; a different algorithm,
whose fractional dual fitting is feasible, kept apart from the paper-faithful results).

``α``, ``Q`` and ``γ`` are exact fractions: Lemma 4 (``Σα = Σβ``) is an exact identity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..arrivals import ArrivalStream
from .instance import Instance
from .schedule import JobRun, Schedule

CLOUD = -1
Q_MODES = ("timeline", "eq5")


@dataclass
class Chunk:
    """One data chunk of a job in A_online's plan (Alg. 1-2): its weight 1/D_j, slots ``p``, rate γ, where and when it
    runs, and its dual variable α."""
    job: int
    index: int
    weight: Fraction  #: 1/D_j
    p: int  #: slots it needs where it runs
    rate: Fraction  #: γ = 1/(D_j p)
    location: int  #: position of its edge worker in ``Instance.workers``, or CLOUD
    segments: list[list[int]]  #: end-exclusive [start, end) pieces, in time order
    alpha: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        # the weight and the rate as integer pairs: CalcQ compares and sums them for every chunk of a
        # plan, exactly, and Fraction's own operators were most of A_online's time at 300 jobs
        self._weight = (self.weight.numerator, self.weight.denominator)
        self._rate = (self.rate.numerator, self.rate.denominator)

    def rate_at_least(self, gamma: tuple[int, int]) -> bool:
        """Whether γ_jd >= ``gamma`` (a numerator-denominator pair), exactly."""
        return self._rate[0] * gamma[1] >= gamma[0] * self._rate[1]

    @property
    def end(self) -> int:
        """``C_jd``: the end of its last piece."""
        return self.segments[-1][1]

    def remaining(self, t: int) -> int:
        """Planned work at or after slot ``t``."""
        return sum(max(0, b - max(a, t)) for a, b in self.segments)


@dataclass
class Candidate:
    """A place where A_online could insert a chunk (Alg. 2): the marginal increase ``q`` of the fractional flow time,
    the start slot t*, and the planned chunks the insertion postpones (A_2)."""
    q: Fraction
    start: int  #: t*: where the chunk would start
    postponed: list[Chunk]  #: A_2: planned chunks the insertion pushes back


@dataclass
class Counters:
    """Operation counts for Theorem 4's checks (spec §4.8)."""

    calc_q: dict[int, int] = field(default_factory=dict)  #: CalcQ_edge calls per job
    insertions: int = 0


@dataclass
class EdgeRun:
    """A run of A_online: its chunks, the cloud decisions ζ_j, the PS of each (job, slot), and the
    operation counters."""
    instance: Instance
    chunks: list[Chunk]
    zeta: list[bool]
    ps: dict[tuple[int, int], tuple[int, int] | None]  #: (job, slot) -> (server, PS) on the edge, None = cloud
    counters: Counters
    cloud_fallbacks: int = 0  #: jobs sent to the cloud only because no edge worker qualifies (A_online-E)

    @property
    def completions(self) -> list[int]:
        """C_j per job: the end of its last chunk."""
        ends: dict[int, int] = {}
        for c in self.chunks:
            ends[c.job] = max(ends.get(c.job, 0), c.end)
        return [ends[j] for j in range(len(self.instance.jobs))]

    @property
    def total_jct(self) -> int:
        """Σ_j (C_j − r_j), the objective."""
        return sum(c - job.release for c, job in zip(self.completions, self.instance.jobs))

    @property
    def alpha_sum(self) -> Fraction:
        """Σ α over the chunks: the dual objective's first term (Lemma 2)."""
        return sum((c.alpha for c in self.chunks), Fraction(0))

    @property
    def beta_sum(self) -> Fraction:
        """``Σ_{s,w,t} β_sw(t)`` with β from the final completions: each chunk's weight over
        ``[r_j, C_jd)`` (spec §3.8)."""
        return sum((c.weight * (c.end - self.instance.jobs[c.job].release) for c in self.chunks), Fraction(0))

    @property
    def preemptions(self) -> int:
        """Interruptions of started chunks in the executed schedule: Σ (pieces − 1) (spec §5.4)."""
        return sum(len(c.segments) - 1 for c in self.chunks)

    @property
    def fractional_flow(self) -> Fraction:
        """``Σ_{j,d} f_jd(y)``, eq. (3): each slot of a chunk carries ``γ (t − r_j)``."""
        total = Fraction(0)
        for c in self.chunks:
            r = self.instance.jobs[c.job].release
            total += c.rate * sum(t - r for a, b in c.segments for t in range(a, b))
        return total

    def schedule(self) -> Schedule:
        """The job-level solution of (2) this run produced."""
        edge: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(list)
        cloud: defaultdict[int, defaultdict[int, int]] = defaultdict(lambda: defaultdict(int))
        workers = self.instance.workers
        for c in self.chunks:
            for a, b in c.segments:
                for t in range(a, b):
                    if c.location == CLOUD:
                        cloud[c.job][t] += 1
                    else:
                        edge[c.job].append((t, *workers[c.location]))
        ps_by_job: dict[int, list] = defaultdict(list)
        for (j, t), ps in sorted(self.ps.items()):
            ps_by_job[j].append((t, ps))
        runs = []
        for j in range(len(self.instance.jobs)):
            runs.append(JobRun(
                edge=tuple(sorted(edge[j])), cloud=tuple(sorted(cloud[j].items())),
                edge_ps=tuple((t, *ps) for t, ps in ps_by_job[j] if ps is not None),
                cloud_ps=tuple(t for t, ps in ps_by_job[j] if ps is None)))
        return Schedule(tuple(runs))


class _Dispatcher:
    """A_greedy's state: every edge worker's plan (the chunks placed on it)."""

    def __init__(self, instance: Instance, q_mode: str, counters: Counters, repaired: bool = False):
        if q_mode not in Q_MODES:
            raise ValueError(f"q_mode must be one of {', '.join(Q_MODES)}, got {q_mode!r}")
        self.instance, self.q_mode, self.counters, self.repaired = instance, q_mode, counters, repaired
        self.plans: list[list[Chunk]] = [[] for _ in instance.workers]

    def calc_q(self, j: int, e: int, now: int) -> Candidate:
        """CalcQ for edge worker ``e`` (Alg. 3 lines 9-13; spec §3.4): the exact increase of the total
        weighted completion time if chunk ``d`` of job ``j`` is inserted there."""
        job = self.instance.jobs[j]
        self.counters.calc_q[j] = self.counters.calc_q.get(j, 0) + 1
        plan = self.plans[e] = [c for c in self.plans[e] if c.end > now]  # finished chunks never matter again
        p, gamma, D = job.p_edge, job.rate, job.chunks
        delta = job.delay_edge[self.instance.workers[e][0]]
        t0 = job.release + delta
        pending = [c for c in plan if c.end > t0]
        rate = (gamma.numerator, gamma.denominator)
        served_first = [c for c in pending if c.rate_at_least(rate)]  # A_1: equal rates keep FIFO [E17]
        start = max([t0] + [c.end for c in served_first])
        postponed = [c for c in plan if c.end > start]  # A_2: all of lower rate
        if self.repaired:  # L2-c: each postponed chunk weighs its remaining fraction
            q = Fraction(delta + (start - t0) + p, D) + p * _exact_sum(
                (c._weight[0] * c.remaining(start), c._weight[1] * c.p) for c in postponed)
        elif self.q_mode == "timeline":
            q = Fraction(delta + (start - t0) + p, D) + p * _exact_sum(c._weight for c in postponed)
        else:  # eq. (5) as printed: waiting = remaining work of higher-rate pending chunks at t_0
            waiting = sum(c.remaining(t0) for c in served_first)
            q = Fraction(delta + waiting + p, D) + p * _exact_sum(c._weight for c in pending
                                                                  if not c.rate_at_least(rate))
        return Candidate(q, start, postponed)

    def insert(self, chunk: Chunk, e: int, start: int) -> None:
        """UpdateVariables (Alg. 4, corrected [E14]): every piece at or after ``t*`` moves ``p`` later
        (a piece that straddles ``t*`` is split: a preemption), and the chunk takes ``[t*, t* + p)``."""
        p = chunk.p
        for c in self.plans[e]:
            moved = []
            for a, b in c.segments:
                if b <= start:
                    moved.append([a, b])
                elif a >= start:
                    moved.append([a + p, b + p])
                else:
                    moved += [[a, start], [start + p, b + p]]
            c.segments = moved
        chunk.segments = [[start, start + p]]
        self.plans[e].append(chunk)
        self.counters.insertions += 1


def _exact_sum(terms: Iterable[tuple[int, int]]) -> Fraction:
    """The exact sum of the fractions ``numerator / denominator``: the numerators are added per
    denominator, so that only one Fraction is made per distinct denominator (a plan's chunks share few)."""
    by_denominator: dict[int, int] = defaultdict(int)
    for numerator, denominator in terms:
        by_denominator[denominator] += numerator
    return sum((Fraction(n, d) for d, n in by_denominator.items()), Fraction(0))


def run_aonline(instance: Instance, *, q_mode: str = "timeline", edge_only: bool = False,
                repaired: bool = False, seed: int = 0) -> EdgeRun:
    """A_online (Alg. 1): A_greedy for each arriving job, then A_ps for every slot.

    References
    ----------
    .. [1] N. Wang, R. Zhou, L. Jiao, R. Zhang, B. Li, and Z. Li, “Preemptive Scheduling for Distributed Machine
       Learning Jobs in Edge-Cloud Networks,” IEEE Journal on Selected Areas in Communications, vol. 40, no. 8, pp.
       2411-2425, 2022. doi:10.1109/JSAC.2022.3180772; Algorithms 1-5.
    """
    counters = Counters()
    dispatcher = _Dispatcher(instance, q_mode, counters, repaired)
    chunks: list[Chunk] = []
    zeta = [False] * len(instance.jobs)
    fallbacks = 0
    stream = ArrivalStream(list(range(len(instance.jobs))), lambda j: instance.jobs[j].release)
    while not stream.exhausted:
        for _, j in stream.wait():
            qualified = instance.qualified[j]
            use_cloud = instance.cloud and (not edge_only or not qualified)
            fallbacks += edge_only and not qualified and instance.cloud
            new, zeta[j] = _greedy(dispatcher, j, qualified, use_cloud)
            chunks += new
    return EdgeRun(instance, chunks, zeta, _assign_ps(instance, chunks, zeta, seed), counters, fallbacks)


def _greedy(dispatcher: _Dispatcher, j: int, qualified: tuple[int, ...], use_cloud: bool) -> tuple[list[Chunk], bool]:
    """A_greedy (Alg. 2, corrected as in spec §3.3) for job ``j``; returns its chunks and ``ζ_j``."""
    instance = dispatcher.instance
    job = instance.jobs[j]
    D, weight = job.chunks, Fraction(1, job.chunks)
    now = job.release
    table = {e: dispatcher.calc_q(j, e, now) for e in qualified}
    cloud_q = Fraction(job.delay_cloud + job.p_cloud, D) if use_cloud else None
    chunks: list[Chunk] = []
    for d in range(D):
        best = min(table, key=lambda e: (table[e].q, e)) if table else None
        if cloud_q is not None and (best is None or cloud_q < table[best].q):
            p_c = job.p_cloud if d == 0 else job.p_edge  # d = 0: the whole job is in the cloud [E37]
            t0 = job.release + job.delay_cloud
            for rest in range(d, D):
                chunks.append(Chunk(j, rest, weight, p_c, Fraction(1, D * p_c), CLOUD, [[t0, t0 + p_c]], cloud_q))
            return chunks, d == 0
        if best is None:
            raise ValueError(f"job {j} has no qualified edge worker and no cloud to run on")
        option = table[best]
        chunk = Chunk(j, d, weight, job.p_edge, job.rate, best, [], option.q)  # α at selection [E13]
        dispatcher.insert(chunk, best, option.start)
        chunks.append(chunk)
        table[best] = dispatcher.calc_q(j, best, now)  # after the insertion [E12]
        if d == 0 and cloud_q is not None:
            cloud_q = Fraction(job.delay_cloud + job.p_edge, D)  # the job is split: cloud chunks at p^0 [E11]
    return chunks, False


def _assign_ps(instance: Instance, chunks: list[Chunk], zeta: list[bool], seed: int):
    """A_ps (Alg. 5, corrected [E26, E27]) over the final plans (they are fixed at dispatch, so this
    equals running it slot by slot): a running job keeps last slot's PS; otherwise an all-cloud job
    gets a cloud PS and any other job a random free qualified edge PS, or a cloud PS if none is free."""
    rng = np.random.default_rng(seed)
    running: dict[int, set[int]] = defaultdict(set)
    for c in chunks:
        for a, b in c.segments:
            for t in range(a, b):
                running[t].add(c.job)
    edge_ps = [(s, p) for s, server in enumerate(instance.servers) for p in range(len(server.ps))]
    assignment: dict[tuple[int, int], tuple[int, int] | None] = {}
    held: dict[int, tuple[int, int] | None] = {}
    previous = None
    for t in sorted(running):
        if previous != t - 1:
            held = {}
        jobs = running[t]
        now = {j: ps for j, ps in held.items() if j in jobs}
        taken = {ps for ps in now.values() if ps is not None}
        for j in sorted(jobs - set(now)):
            if zeta[j]:
                now[j] = None
                continue
            ps_type = instance.jobs[j].ps_type
            free = [ps for ps in edge_ps if ps not in taken and instance.servers[ps[0]].ps[ps[1]] == ps_type]
            if free:
                picked = free[int(rng.integers(len(free)))]
                now[j] = picked
                taken.add(picked)
            elif instance.cloud:
                now[j] = None
            else:
                raise RuntimeError(f"slot {t}: no free PS of type {ps_type!r} for job {j} and no cloud")
        for j, ps in now.items():
            assignment[j, t] = ps
        held, previous = now, t
    return assignment


def aonline(instance: Instance, *, seed: int = 0, q_mode: str = "timeline", repaired: bool = False) -> Schedule:
    """A_online (registry entry); ``seed`` drives A_ps's random PS choice.

    References
    ----------
    .. [1] N. Wang, R. Zhou, L. Jiao, R. Zhang, B. Li, and Z. Li, “Preemptive Scheduling for Distributed Machine
       Learning Jobs in Edge-Cloud Networks,” IEEE Journal on Selected Areas in Communications, vol. 40, no. 8, pp.
       2411-2425, 2022. doi:10.1109/JSAC.2022.3180772; Algorithm 1 (A_online).
    """
    return run_aonline(instance, q_mode=q_mode, repaired=repaired, seed=seed).schedule()


def aonline_edge(instance: Instance, *, seed: int = 0, q_mode: str = "timeline") -> Schedule:
    """A_online-E: A_online without the cloud as a candidate (spec §5.3)."""
    return run_aonline(instance, q_mode=q_mode, edge_only=True, seed=seed).schedule()
