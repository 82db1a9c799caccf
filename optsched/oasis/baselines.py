"""The baselines of OASiS's evaluation (paper §V-A), as reconstructed in spec §5.2 [A17].

All four run on one slot simulator: a job progresses by its worker count each slot (worker-slots,
or chunks ``⌊n/ρ⌋`` in the ``chunks`` mode), completes in the first slot its work is done, and
frees its servers from the next slot on. Decisions happen at events: an arrival, or a completion
in the previous slot. PS counts are always ``m = ⌈n b/B⌉`` unless a knob says otherwise.

* ``fifo``: every job queues in arrival order with a fixed size ``n_i ~ U{1..min(30, N_i)}``; the
  head starts when it fits (round-robin placement); strict head-of-line blocking unless
  ``backfill``. A job that could not fit even on the empty cluster is rejected at arrival.
* ``drf``: at each event, all unfinished jobs are re-sized by progressive filling on dominant
  shares (pooled capacities), one worker at a time, placed round-robin.
* ``rrh`` (Irwin et al. 2004): fixed sizes; admit a job iff its estimated utility exceeds the
  delay it imposes on waiting jobs by more than ``theta``; at each event run jobs in decreasing
  risk-reward score while they fit, pause the rest.
* ``dorm`` (Sun et al. 2017): at each event a MILP re-places all unfinished jobs to maximise
  normalised utilisation, with fairness (each job gets at least ``fairness`` × its DRF worker count,
  a linear reconstruction of ``ds_i >= φ_f ds_i^DRF``) and at most ``⌈adjust · #jobs⌉`` jobs
  changing size; fairness is dropped if infeasible; each solve stops at a time limit or a relative
  gap (default 1%: the objective has many symmetric optima, and proving one costs most of the time).

A job unfinished at ``T`` earns nothing; the returned schedule lists it as not admitted and leaves
its resource use out, which keeps the schedule a solution of (1) with the same utility.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from .. import pipeline
from ..arrivals import ArrivalStream
from ..numeric import ceil_tol
from .formulations import dorm_milp
from .instance import Instance
from .schedule import REJECTED, JobPlan, Schedule


@dataclass
class _Job:
    i: int
    workers: np.ndarray  #: (H,) current placement
    ps: np.ndarray  #: (K,)
    progress: float = 0.0
    log: list = field(default_factory=list)  #: (t, workers, ps) per slot run

    @property
    def n(self) -> int:
        return int(self.workers.sum())


class _Cluster:
    """Free capacity of both pools, with a round-robin pointer each (spec §5.2)."""

    def __init__(self, instance: Instance):
        self.capacity = {"w": np.asarray(instance.worker_servers, float), "p": np.asarray(instance.ps_servers, float)}
        self.free = {pool: cap.copy() for pool, cap in self.capacity.items()}
        self.pointer = {"w": 0, "p": 0}

    def place(self, pool: str, demand: np.ndarray, units: int) -> np.ndarray | None:
        """Place ``units`` one at a time, each on the next server at the pointer where it fits;
        None (and nothing placed) if a full cycle places nothing before all are placed."""
        # the same float arithmetic as on the arrays, on Python floats: one unit at a time, numpy's
        # per-call cost was most of DRF's time
        free, size = self.free[pool].tolist(), len(self.free[pool])
        need = demand.tolist()
        counts = [0] * size
        placed = misses = 0
        while placed < units:
            s = self.pointer[pool]
            self.pointer[pool] = (s + 1) % size
            c = counts[s]
            if all(f - c * d >= d - 1e-9 for f, d in zip(free[s], need)):
                counts[s] += 1
                placed += 1
                misses = 0
            else:
                misses += 1
                if misses >= size:
                    return None
        taken = np.asarray(counts, dtype=np.int64)
        self.free[pool] -= taken[:, None] * demand
        return taken

    def release(self, pool: str, counts: np.ndarray, demand: np.ndarray) -> None:
        self.free[pool] += counts[:, None] * demand

    def take(self, pool: str, counts: np.ndarray, demand: np.ndarray) -> bool:
        """Claim an exact placement if it fits (keeping a job on its servers)."""
        if np.all(self.free[pool] - counts[:, None] * demand >= -1e-9):
            self.free[pool] -= counts[:, None] * demand
            return True
        return False


class _Simulator:
    """The slot loop shared by the baselines; ``decide(t, sim)`` re-plans at events."""

    def __init__(self, instance: Instance):
        self.instance = instance
        self.cluster = _Cluster(instance)
        self.jobs: dict[int, _Job] = {}
        self.done: dict[int, int] = {}  # job -> completion slot
        self.arrived: list[int] = []

    def demand(self, i: int, pool: str) -> np.ndarray:
        job = self.instance.jobs[i]
        return np.asarray(job.worker_demand if pool == "w" else job.ps_demand, float)

    def ps_for(self, i: int, n: int) -> int:
        job = self.instance.jobs[i]
        return ceil_tol(n * job.b / job.B)

    def gain(self, i: int, n: int) -> float:
        facts = self.instance.facts[i]
        return float(n) if self.instance.mode == "worker_slots" else float(facts.chunks_of(n))

    def target(self, i: int) -> float:
        facts = self.instance.facts[i]
        return float(facts.W if self.instance.mode == "worker_slots" else facts.chunk_target)

    def start(self, i: int, n: int, m: int | None = None) -> bool:
        """Place ``n`` workers and ``m`` PSs (default ``⌈n b/B⌉``) for job ``i`` round-robin;
        False, with nothing placed, if they do not fit."""
        workers = self.cluster.place("w", self.demand(i, "w"), n)
        if workers is None:
            return False
        ps = self.cluster.place("p", self.demand(i, "p"), self.ps_for(i, n) if m is None else m)
        if ps is None:
            self.cluster.release("w", workers, self.demand(i, "w"))
            return False
        state = self.jobs.setdefault(i, _Job(i, workers, ps))
        state.workers, state.ps = workers, ps
        return True

    def stop(self, i: int) -> None:
        state = self.jobs[i]
        self.cluster.release("w", state.workers, self.demand(i, "w"))
        self.cluster.release("p", state.ps, self.demand(i, "p"))
        state.workers = np.zeros_like(state.workers)
        state.ps = np.zeros_like(state.ps)

    def unfinished(self) -> list[int]:
        return [i for i in self.arrived if i not in self.done]

    def remaining_slots(self, i: int, n: int) -> float:
        """Slots job ``i`` still needs at ``n`` workers (``Rem`` of RRH); ``inf`` when ``n`` gains nothing."""
        per_slot = self.gain(i, n)
        state = self.jobs.get(i)
        left = self.target(i) - (state.progress if state else 0.0)
        return math.inf if per_slot <= 0 else max(1, ceil_tol(left / per_slot))

    def run(self, decide) -> Schedule:
        event = True
        stream = ArrivalStream(range(len(self.instance.jobs)), lambda i: self.instance.jobs[i].arrival)
        for t in range(1, self.instance.T + 1):
            arrivals = [i for _, i in stream.advance_to(t)]
            if arrivals:
                self.arrived.extend(arrivals)
                event = True
            if event:
                decide(t, self)
            event = False
            for i in self.unfinished():
                state = self.jobs.get(i)
                if state is None or state.n == 0:
                    continue
                state.log.append((t, state.workers.copy(), state.ps.copy()))
                state.progress += self.gain(i, state.n)
                if state.progress >= self.target(i) - 1e-9:
                    self.done[i] = t
                    self.stop(i)
                    event = True
        return self.schedule()

    def schedule(self) -> Schedule:
        """Completed jobs as admitted plans; a job that ran but did not finish by ``T`` earns nothing
        and is rejected in the solution, its runs kept in ``Schedule.unfinished``."""
        plans, unfinished = [], []
        for i in range(len(self.instance.jobs)):
            log = self.jobs[i].log if i in self.jobs else []
            workers = tuple((t, h, int(n)) for t, y, _ in log for h, n in enumerate(y) if n)
            ps = tuple((t, k, int(m)) for t, _, z in log for k, m in enumerate(z) if m)
            if i in self.done:
                plans.append(JobPlan(True, workers, ps))
            else:
                plans.append(REJECTED)
                if log:
                    unfinished.append((i, JobPlan(False, workers, ps)))
        return Schedule(tuple(plans), tuple(unfinished))


def _fixed_sizes(instance: Instance, rng: np.random.Generator, random_ps: bool) -> dict[int, tuple[int, int]]:
    """Per job ``(n_i, m_i)``: ``n_i ~ U{1..min(30, N_i)}``; ``m_i = ⌈n b/B⌉``, or with ``random_ps``
    drawn in 1..30 and clipped to ``[⌈n b/B⌉, n]``."""
    sizes = {}
    for i, job in enumerate(instance.jobs):
        n = int(rng.integers(1, min(30, job.chunks), endpoint=True))
        m = ceil_tol(n * job.b / job.B)
        if random_ps:
            m = int(np.clip(rng.integers(1, 30, endpoint=True), m, n))
        sizes[i] = (n, m)
    return sizes


def _fits_empty(instance: Instance, i: int, n: int, m: int) -> bool:
    facts = instance.facts[i]
    return n <= sum(facts.worker_cap) and m <= sum(facts.ps_cap) and m <= n


def fifo(instance: Instance, *, seed: int = 0, backfill: bool = False, random_ps: bool = False) -> Schedule:
    """First in, first out with fixed sizes (Hadoop/Spark's default; spec §5.2, item 1)."""
    sizes = _fixed_sizes(instance, np.random.default_rng(seed), random_ps)
    queue: list[int] = []
    seen: set[int] = set()

    def decide(t: int, sim: _Simulator) -> None:
        for i in sim.arrived:
            if i not in seen:
                seen.add(i)
                if _fits_empty(instance, i, *sizes[i]):
                    queue.append(i)
        for i in list(queue):
            if sim.start(i, *sizes[i]):
                queue.remove(i)
            elif not backfill:
                break

    return _Simulator(instance).run(decide)


def _dominant_share(instance: Instance, i: int, n: int, m: int, pooled: dict[str, np.ndarray]) -> float:
    job = instance.jobs[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(pooled["w"] > 0, n * np.asarray(job.worker_demand) / pooled["w"], 0.0)
        s = np.where(pooled["p"] > 0, m * np.asarray(job.ps_demand) / pooled["p"], 0.0)
    return float(max(w.max(), s.max()))


def _progressive_filling(instance: Instance, sim: _Simulator, jobs: list[int]) -> dict[int, int]:
    """DRF worker counts for ``jobs`` by progressive filling on dominant shares (ties by arrival),
    placed round-robin on the (already emptied) cluster; the placements are left in ``sim``."""
    pooled = {pool: cap.sum(axis=0) for pool, cap in sim.cluster.capacity.items()}
    counts = {i: 0 for i in jobs}
    for i in jobs:
        state = sim.jobs.setdefault(i, _Job(i, np.zeros(instance.H, np.int64), np.zeros(instance.K, np.int64)))
        state.workers, state.ps = np.zeros(instance.H, np.int64), np.zeros(instance.K, np.int64)
    heap = [(0.0, i) for i in jobs]
    heapq.heapify(heap)
    while heap:
        _, i = heapq.heappop(heap)
        n = counts[i]
        if n >= instance.jobs[i].chunks:
            continue
        worker = sim.cluster.place("w", sim.demand(i, "w"), 1)
        if worker is None:
            continue
        extra = sim.ps_for(i, n + 1) - sim.ps_for(i, n)
        ps = sim.cluster.place("p", sim.demand(i, "p"), extra)
        if ps is None:
            sim.cluster.release("w", worker, sim.demand(i, "w"))
            continue
        state = sim.jobs[i]
        state.workers, state.ps = state.workers + worker, state.ps + ps
        counts[i] = n + 1
        heapq.heappush(heap, (_dominant_share(instance, i, n + 1, sim.ps_for(i, n + 1), pooled), i))
    return counts


def drf(instance: Instance, *, seed: int = 0) -> Schedule:
    """Dominant Resource Fairness by progressive filling at every event (YARN/Mesos; item 2)."""

    def decide(t: int, sim: _Simulator) -> None:
        jobs = [i for i in sim.unfinished() if instance.facts[i].max_workers > 0]
        for i in jobs:
            if i in sim.jobs:
                sim.stop(i)
        _progressive_filling(instance, sim, jobs)

    return _Simulator(instance).run(decide)


def rrh(instance: Instance, *, seed: int = 0, theta: float = 0.0, random_ps: bool = False) -> Schedule:
    """The Risk-Reward Heuristic (Irwin et al., HPDC 2004; spec §5.2, item 3)."""
    sizes = _fixed_sizes(instance, np.random.default_rng(seed), random_ps)
    admitted: list[int] = []
    seen: set[int] = set()

    def f(i: int, slot: float) -> float:
        return instance.jobs[i].utility.value(slot - instance.jobs[i].arrival)

    def decide(t: int, sim: _Simulator) -> None:
        running = [i for i in admitted if i not in sim.done and i in sim.jobs and sim.jobs[i].n > 0]
        for i in sim.arrived:
            if i in seen:
                continue
            seen.add(i)
            n, m = sizes[i]
            if not _fits_empty(instance, i, n, m):
                continue
            rem_i = sim.remaining_slots(i, n)
            waiting = [j for j in admitted if j not in sim.done and j not in running]
            finish = _estimate_completions(instance, sim, t, running, waiting + [i], sizes)
            delay_cost = sum(f(j, finish[j]) - f(j, finish[j] + rem_i) for j in waiting)
            if finish[i] <= instance.T and f(i, finish[i]) - delay_cost > theta:
                admitted.append(i)
        active = [j for j in admitted if j not in sim.done]
        rem = {j: sim.remaining_slots(j, sizes[j][0]) for j in active}
        running_now = {j for j in active if j in sim.jobs and sim.jobs[j].n > 0}

        def score(j: int) -> float:
            others = [k for k in active if k != j and k not in running_now]
            return f(j, t + rem[j] - 1) - sum(f(k, t + rem[k] - 1) - f(k, t + rem[j] + rem[k] - 1) for k in others)

        ranked = sorted(active, key=lambda j: (-score(j), j))
        held = {j: (sim.jobs[j].workers.copy(), sim.jobs[j].ps.copy()) for j in running_now}
        for j in running_now:  # release everything, then re-claim in score order
            sim.stop(j)
        for j in ranked:
            if score(j) <= 0:
                continue
            if j in held:  # prefer keeping a running job on its servers
                workers, ps = held[j]
                if sim.cluster.take("w", workers, sim.demand(j, "w")):
                    if sim.cluster.take("p", ps, sim.demand(j, "p")):
                        sim.jobs[j].workers, sim.jobs[j].ps = workers, ps
                        continue
                    sim.cluster.release("w", workers, sim.demand(j, "w"))
            sim.start(j, *sizes[j])

    return _Simulator(instance).run(decide)


def _estimate_completions(instance: Instance, sim: _Simulator, t: int, running: list[int], queue: list[int],
                          sizes: dict[int, tuple[int, int]]) -> dict[int, float]:
    """Predicted completion slot of each job if running jobs go on and ``queue`` starts in order,
    each at the first slot where its fixed size fits the capacity the plan leaves (pooled check)."""
    pooled_w = sim.cluster.capacity["w"].sum(axis=0)
    pooled_p = sim.cluster.capacity["p"].sum(axis=0)
    horizon = instance.T + 1
    use_w = np.zeros((horizon + 1, instance.R))
    use_p = np.zeros((horizon + 1, instance.R))
    finish: dict[int, float] = {}
    for j in running:
        n = sim.jobs[j].n
        end = min(horizon, t + sim.remaining_slots(j, n) - 1)
        use_w[t:end + 1] += n * sim.demand(j, "w")
        use_p[t:end + 1] += sim.jobs[j].ps.sum() * sim.demand(j, "p")
        finish[j] = end
    for j in queue:
        n, m = sizes[j]
        length = sim.remaining_slots(j, n)
        need_w, need_p = n * sim.demand(j, "w"), m * sim.demand(j, "p")
        start = None
        for s in range(t, horizon + 1):
            end = s + length - 1
            if end > horizon:
                break
            if (np.all(use_w[s:end + 1] + need_w <= pooled_w + 1e-9)
                    and np.all(use_p[s:end + 1] + need_p <= pooled_p + 1e-9)):
                start = s
                break
        if start is None:
            finish[j] = math.inf
            continue
        use_w[start:start + length] += need_w
        use_p[start:start + length] += need_p
        finish[j] = start + length - 1
    return finish


def dorm(instance: Instance, *, seed: int = 0, fairness: float = 0.8, adjust: float = 0.5,
         node_limit: int = 1, time_limit: float = 0.0, gap: float = 0.01) -> Schedule:
    """Dorm's utilisation-maximising MILP at every event (Sun et al. 2017; spec §5.2, item 4).

    Each MILP stops at relative gap ``gap`` or after ``node_limit`` branch-and-bound nodes (1: the
    root node), solved by HiGHS on one thread: a budget that gives the same schedule on every
    machine. ``time_limit`` > 0 adds a wall-clock limit per MILP (the paper's Dorm ran on a time
    budget); the schedule may then change with the machine's speed, and the run record says so.
    """
    previous: dict[int, int] = {}
    budget = {"node_limit": node_limit, "time_limit": time_limit or None, "gap": gap, "threads": 1}

    def decide(t: int, sim: _Simulator) -> None:
        jobs = [i for i in sim.unfinished() if instance.facts[i].max_workers > 0]
        for i in jobs:
            if i in sim.jobs:
                sim.stop(i)
        if not jobs:
            return
        drf_counts = _progressive_filling(instance, sim, jobs)
        for i in jobs:
            sim.stop(i)
        placement = _dorm_placement(instance, jobs, drf_counts, previous, fairness, adjust, budget)
        if placement is None:
            placement = _dorm_placement(instance, jobs, drf_counts, previous, 0.0, adjust, budget)
        if placement is None:  # no incumbent within the budget: keep DRF's allocation
            _progressive_filling(instance, sim, jobs)
            placement = {i: (sim.jobs[i].workers.copy(), sim.jobs[i].ps.copy()) for i in jobs}
            for i in jobs:
                sim.stop(i)
        for i, (workers, ps) in placement.items():
            sim.cluster.take("w", workers, sim.demand(i, "w"))
            sim.cluster.take("p", ps, sim.demand(i, "p"))
            state = sim.jobs.setdefault(i, _Job(i, workers, ps))
            state.workers, state.ps = workers, ps
            previous[i] = int(workers.sum())

    return _Simulator(instance).run(decide)


def _dorm_placement(instance: Instance, jobs: list[int], drf_counts: dict[int, int], previous: dict[int, int],
                    fairness: float, adjust: float, budget: dict) -> dict[int, tuple[np.ndarray, np.ndarray]] | None:
    """Dorm's MILP (:func:`~optsched.oasis.formulations.dorm_milp`) solved within ``budget`` (options of
    :func:`~optsched.solvers.solve`): per job, workers and PSs per server; None if no incumbent was
    found within it."""
    return pipeline.decide(dorm_milp(instance, jobs, drf_counts, previous, fairness, adjust), **budget)
