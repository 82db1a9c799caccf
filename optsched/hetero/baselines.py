"""The baselines of Section 7 (spec §5.3) as slot simulators, and the Jain-style greedy for one batch.

Every baseline gives each job its *ideal configuration* [P]: the worker type, PS type and worker
count of its fastest schedule on the empty cluster (ties to the smaller footprint). Placement is
first fit [D]: all on one server if possible, else a PS server (lowest index first, with as many
workers next to it as fit) and the other workers on the lowest-index servers; PSs are the minimal
bandwidth cover (W3). A running job keeps its placement until it completes.

Preemption [D]: the schedules are schedules of problem (2) (one run per job, fixed placement), so
the verifier and the offline optimum apply to them unchanged. A preempted run is therefore killed
and its progress lost; the job runs again later from the start. The spec's default penalty is one
slot of lost progress per resume; losing the whole run is the harsher end of the same assumption.
Each baseline records how many runs it killed (``stats``).

* :func:`fifo`: strict arrival order, non-preemptive; job ``k`` starts at the first slot
  ``>= max(a_k, start of job k−1)`` where it fits for its whole run; the worker count is drawn
  uniformly in ``1..min(30, D_j)`` (seeded), with the ideal types.
* :func:`drf`: at each slot with waiting jobs, progressive filling over them: one more worker (and
  the PSs it needs) to the waiting job with the smallest dominant share, capped at ``D_j``, until
  nothing more fits; jobs that got workers start. Allocations are fixed once started [D].
* :func:`antman`: each job is resource-guarantee (RG) with probability ``guaranteed`` (seeded,
  drawn when it arrives; a fixed share of all jobs would need their number in advance), the rest
  opportunistic (OP). RG jobs start first with their ideal configuration, killing the most recently started OP
  runs when that makes room; an RG job waiting longer than ``threshold`` slots becomes OP. OP jobs
  use what is left.
* :func:`tiresias`: at every arrival and completion, jobs are ranked by remaining work times the
  GPUs (resource 0) of the ideal configuration, smallest first; they start in that order while they
  fit and lower-ranked running jobs that no longer fit are preempted.
* :func:`jain_greedy` (for A_maxweight's batch problem only): by value density ``w_j / volume``,
  each job at the latest start with ``t + d <= τ`` that fits, else rejected.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import numpy as np

from ..arrivals import ArrivalStream
from .instance import Instance
from .schedule import JobSchedule, Schedule

TOL = 1e-9


@dataclass(frozen=True)
class Config:
    """A job's ideal configuration [P]: worker type ``m``, PS type ``p`` (None for Ring-AllReduce) and worker count."""
    m: int
    p: int | None
    workers: int


def _volume(instance: Instance, shape) -> float:
    """Per-slot resource use of a shape with one PS, summed over resources (for tie-breaking and
    value density)."""
    ps = sum(instance.ps_demand[shape.p]) if shape.p is not None else 0.0
    return shape.workers * sum(instance.worker_demand[shape.m]) + ps


def ideal(instance: Instance) -> list[Config]:
    """Per job, the configuration of its fastest shape that first fit places on the empty cluster;
    ties go to the smaller footprint, then to the first in shape order. First fit tries every PS
    server and co-located count, so it places a configuration on the empty cluster exactly when
    some placement fits it (:attr:`Instance.empty_fit`, either flag)."""
    if instance.framework == "ps":
        return [_fastest_ps(instance, j) for j in range(len(instance.jobs))]
    return _ideal_from_shapes(instance)


def _ideal_from_shapes(instance: Instance) -> list[Config]:
    """:func:`ideal` from :attr:`Instance.shapes`, one shape at a time."""
    fit = instance.empty_fit
    out = []
    for j, shapes in enumerate(instance.shapes):
        placeable = [s for s in shapes if fit[s.m, s.p, 1][s.workers] or fit[s.m, s.p, 0][s.workers]]
        if not placeable:
            raise ValueError(f"job {j} fits the empty cluster in no configuration")
        best = min(placeable, key=lambda s: (s.d, _volume(instance, s)))
        out.append(Config(best.m, best.p, best.workers))
    return out


def _fastest_ps(instance: Instance, j: int) -> Config:
    """:func:`ideal` for one job of a ps instance, on the arrays :attr:`Instance.shapes` is made
    from (the same shapes in the same order, the same footprints in the same float arithmetic),
    without making a ``Shape`` of each: ties still go to the first in shape order (a stable sort)."""
    fit = instance.empty_fit
    durations, volumes, blocks = [], [], []
    for m in range(instance.M):
        per_worker = sum(instance.worker_demand[m])
        for p in range(instance.P):
            per_ps = sum(instance.ps_demand[p])
            for q in (1, 0) if instance.H >= 2 else (1,):
                n, d = instance._ps_durations(j, m, p, q)
                ok = fit[m, p, 1][n] | fit[m, p, 0][n]
                durations.append(d[ok])
                volumes.append(n[ok] * per_worker + per_ps)
                blocks.append((m, p, n[ok]))
    d = np.concatenate(durations)
    if not len(d):
        raise ValueError(f"job {j} fits the empty cluster in no configuration")
    first = int(np.lexsort((np.concatenate(volumes), d))[0])
    ends = np.cumsum([len(n) for _, _, n in blocks])
    b = int(np.searchsorted(ends, first, side="right"))  # the block holding candidate ``first``
    m, p, n = blocks[b]
    return Config(m, p, int(n[first - (ends[b - 1] if b else 0)]))


class ClusterUsage:
    """Per-slot usage ``used[h, r, t]`` that grows as runs are booked, with first-fit placement.

    Usage changes only where a booking starts or ends (``points``, sorted), so the most used in a
    window is the most used at the window's first slot and at the points inside it. :meth:`room`
    keeps, for the last start asked and until the next booking, the running maxima over those
    columns: the same numbers as the maximum over the whole window, at a fraction of the reads."""

    def __init__(self, instance: Instance):
        self.instance = instance
        self.capacity = np.asarray(instance.capacity, float)
        self.origin = 0  #: ``used[:, :, k]`` is slot ``origin + k`` (a tentative copy keeps the future only)
        self.used = np.zeros((instance.H, instance.R, 64))
        self.points: list[int] = []  #: slots where some booking starts or ends, sorted, each once
        self._shared = False  #: ``used`` is the parent's, read-only until the first booking copies it
        self._maxima: tuple[int, int, list[np.ndarray]] | None = None  #: (start, first point, running maxima)
        self._durations: dict[tuple, int] = {}
        self._failed: dict[tuple[int, Config], tuple[np.ndarray, np.ndarray | None]] = {}
        self._demand = (np.asarray(instance.worker_demand, float), np.asarray(instance.ps_demand, float))

    def _grow(self, end: int) -> None:
        end -= self.origin
        if end > self.used.shape[2]:
            extra = max(end, 2 * self.used.shape[2]) - self.used.shape[2]
            self.used = np.concatenate([self.used, np.zeros((*self.used.shape[:2], extra))], axis=2)
            self._shared = False

    def tentative(self, since: int) -> ClusterUsage:
        """A copy to plan on from slot ``since`` on (earlier slots are left out: plans never read
        them). It reads this cluster's usage until its first booking copies it, so this cluster
        must not book while the copy is in use."""
        trial = ClusterUsage.__new__(ClusterUsage)
        trial.instance, trial.capacity, trial._demand, trial._durations = (self.instance, self.capacity, self._demand,
                                                                            self._durations)
        trial._failed = self._failed  # a cache of a pure function of (job, configuration, free capacity)
        trial.origin = since
        trial.points = self.points[bisect_left(self.points, since):]
        last = trial.points[-1] if trial.points else since  # every slot from the last point on is unused
        trial.used = self.used[:, :, since - self.origin:max(last, since + 1) - self.origin]
        trial._shared, trial._maxima = True, None
        return trial

    def _mark(self, slot: int) -> None:
        at = bisect_left(self.points, slot)
        if at == len(self.points) or self.points[at] != slot:
            self.points.insert(at, slot)

    def _column(self, slot: int) -> np.ndarray:
        """Usage at ``slot`` on every server (zero past the stored slots: every booking ends before)."""
        k = slot - self.origin
        return self.used[:, :, k] if k < self.used.shape[2] else np.zeros(self.used.shape[:2])

    def room(self, start: int, d: int) -> np.ndarray:
        """Capacity minus the most used in slots ``[start, start + d)``."""
        points = self.points
        if self._maxima is None or self._maxima[0] != start:
            self._maxima = (start, bisect_right(points, start), [self._column(start)])
        _, first, maxima = self._maxima
        inside = bisect_left(points, start + d) - first  # points in (start, start + d)
        while len(maxima) <= inside:
            maxima.append(np.maximum(maxima[-1], self._column(points[first + len(maxima) - 1])))
        return self.capacity - maxima[inside]

    def footprints(self, l: JobSchedule) -> np.ndarray:
        """``f_h(l)`` of every server, as rows (:meth:`JobSchedule.footprint`, the same arithmetic)."""
        workers, ps = self._demand
        use = np.asarray(l.y, float)[:, None] * workers[l.m][None, :]
        if l.p is not None:
            use = use + np.asarray(l.s, float)[:, None] * ps[l.p][None, :]
        return use

    def book(self, l: JobSchedule, sign: float = 1.0, since: int | None = None) -> None:
        """Add (or with ``sign = −1`` remove, from slot ``since`` on) a run's usage."""
        first = l.start if since is None else since
        if self._shared:
            self.used, self._shared = self.used.copy(), False
        self._grow(l.completion)
        use = self.footprints(l)
        busy = np.flatnonzero(use.any(axis=1))
        self.used[busy, :, first - self.origin:l.completion - self.origin] += sign * use[busy, :, None]
        self._mark(first)
        self._mark(l.completion)
        self._maxima = None

    def duration(self, j: int, m: int, p: int | None, q: int, workers: int) -> int:
        """:meth:`Instance.duration`, remembered (it is exact arithmetic on fractions)."""
        key = (j, m, p, q, workers)
        if key not in self._durations:
            self._durations[key] = self.instance.duration(j, m, p, q, workers)
        return self._durations[key]

    def place(self, j: int, c: Config, start: int, room: np.ndarray | None = None) -> JobSchedule | None:
        """First-fit placement of ``c`` for job ``j`` starting at ``start`` (see the module doc);
        ``room`` overrides the free capacity (for tentative plans). Whether it fits depends on the
        job, the configuration and the free capacity only, so a placement that failed is not
        tried again while the free capacity it saw is the same (``_failed``)."""
        inst, H, N = self.instance, self.instance.H, c.workers
        d1 = self.duration(j, c.m, c.p, 1, N)
        free1 = self.room(start, d1) if room is None else room
        seen = self._failed.get((j, c)) if room is None else None
        if seen is not None and np.array_equal(seen[0], free1):
            if seen[1] is None:
                return None  # it failed alone, and had nothing else to try
            if np.array_equal(seen[1], self.room(start, self.duration(j, c.m, c.p, 0, N))):
                return None
        e = np.asarray(inst.worker_demand[c.m])
        z = np.asarray(inst.ps_demand[c.p]) if c.p is not None else np.zeros(inst.R)
        alone = np.flatnonzero(np.all(N * e + (1 if c.p is not None else 0) * z <= free1 + TOL, axis=1))
        if len(alone):
            h = int(alone[0])
            return JobSchedule(start, d1, c.m, c.p, 1, tuple(N if k == h else 0 for k in range(H)),
                               tuple(1 if (k == h and c.p is not None) else 0 for k in range(H)))
        if H < 2 or (c.p is None and N < 2):
            if room is None:
                self._failed[j, c] = (free1, None)
            return None
        d0 = self.duration(j, c.m, c.p, 0, N)
        free = self.room(start, d0) if room is None else room
        placed = self._split(j, c, start, d0, free, e, z)
        if placed is None and room is None:
            self._failed[j, c] = (free1, free)
        return placed

    def _split(self, j: int, c: Config, start: int, d0: int, free: np.ndarray, e: np.ndarray,
               z: np.ndarray) -> JobSchedule | None:
        """:meth:`place` across servers: a PS server with as many workers as fit beside it, the
        other workers first fit elsewhere (the module doc)."""
        inst, H, N = self.instance, self.instance.H, c.workers
        cap = _counts(free, e)
        if c.p is None:
            y = _first_fit(cap, N, exclude=None)
            return None if y is None else JobSchedule(start, d0, c.m, None, 0, tuple(y), (0,) * H)
        g, spare = np.arange(N), np.maximum(cap, 0)
        need = np.maximum(1, np.ceil(inst.b(c.m) * (N - g) / inst.B(c.p) - 1e-9)).astype(np.int64)  # W3
        # ok[n, g]: g workers and their PSs fit on n, and the other N − g fit elsewhere
        ok = (np.all(g[None, :, None] * e + need[None, :, None] * z <= free[:, None, :] + TOL, axis=2)
              & (g[None, :] <= cap[:, None]) & (spare.sum() - spare[:, None] >= N - g[None, :]))
        rows = np.flatnonzero(ok.any(axis=1))
        if not len(rows):
            return None
        n = int(rows[0])  # the lowest PS server, with as many workers beside it as fit
        gg = int(np.flatnonzero(ok[n])[-1])
        y = _first_fit(cap, N - gg, exclude=n)
        assert y is not None  # ok[n, gg] says the other N − gg workers fit elsewhere
        y[n] = gg
        return JobSchedule(start, d0, c.m, c.p, 0, tuple(y), tuple(int(need[gg]) if k == n else 0 for k in range(H)))


def _counts(free: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """Per server (row of ``free``), how many items of ``demand`` fit."""
    used = demand > 0
    if not used.any():
        return np.full(len(free), 10**9, dtype=np.int64)
    return np.floor(free[:, used] / demand[used] + TOL).min(axis=1).astype(np.int64)


def _first_fit(cap: np.ndarray, count: int, exclude: int | None) -> list[int] | None:
    """``count`` items on the lowest-index servers first, skipping ``exclude``."""
    cap = np.maximum(cap, 0)
    if exclude is not None:
        cap = cap.copy()
        cap[exclude] = 0
    before = np.cumsum(cap) - cap
    y = np.clip(count - before, 0, cap)
    return None if y.sum() < count else [int(v) for v in y]


@dataclass
class BaselineRun:
    """A baseline's run: its schedule and its counters (``stats``: killed runs and the like)."""
    schedule: Schedule
    stats: dict = field(default_factory=dict)


class _Simulator:
    """Slot-by-slot event loop shared by DRF, AntMan and Tiresias: ``decide(t, event)`` is called at
    every slot with waiting jobs, ``event`` telling whether a job arrived or completed at ``t``; runs
    complete at ``start + d``."""

    def __init__(self, instance: Instance):
        self.instance = instance
        self.cluster = ClusterUsage(instance)
        self.config = ideal(instance)
        self.running: dict[int, JobSchedule] = {}
        self.done: dict[int, JobSchedule] = {}
        self.stream = ArrivalStream(range(len(instance.jobs)), lambda j: instance.jobs[j].arrival)
        self.arrived: set[int] = set()
        self.killed: list[tuple[int, JobSchedule, int]] = []

    def waiting(self) -> list[int]:
        """Arrived jobs neither running nor done, by index."""
        return [j for j in sorted(self.arrived) if j not in self.running and j not in self.done]

    def start(self, l: JobSchedule, j: int) -> None:
        self.cluster.book(l)
        self.running[j] = l

    def kill(self, j: int, t: int) -> None:
        run = self.running.pop(j)
        self.cluster.book(run, -1.0, since=t)
        self.killed.append((j, run, t))

    def run(self, decide) -> BaselineRun:
        t, jobs = 1, self.instance.jobs
        while len(self.done) < len(jobs):
            finished = [j for j, l in self.running.items() if l.completion <= t]
            for j in finished:
                self.done[j] = self.running.pop(j)
            arrivals = self.stream.advance_to(t)
            self.arrived.update(j for _, j in arrivals)
            if self.waiting():
                decide(t, bool(finished) or bool(arrivals))
            t += 1
        return BaselineRun(Schedule(tuple(self.done[j] for j in range(len(jobs))), tuple(self.killed)),
                   {"killed_runs": len(self.killed)})


def run_fifo(instance: Instance, seed: int = 0) -> BaselineRun:
    """FIFO (spec §5.3): jobs in arrival order, each with its ideal types and a worker count drawn in 1..min(30, D_j)
    (seeded), placed first-fit when it fits; never preempted."""
    rng = np.random.default_rng(seed)
    cluster = ClusterUsage(instance)
    configs = ideal(instance)
    stream = ArrivalStream(range(len(instance.jobs)), lambda j: instance.jobs[j].arrival)
    placed: dict[int, JobSchedule] = {}
    previous = 1
    while not stream.exhausted:
        for _, j in stream.wait():
            placed[j] = _fifo_place(instance, rng, cluster, configs[j], j, previous)
            previous = placed[j].start
    return BaselineRun(Schedule(tuple(placed[j] for j in range(len(instance.jobs)))), {"killed_runs": 0})


def _fifo_place(instance: Instance, rng: np.random.Generator, cluster: ClusterUsage, base: Config, j: int,
                previous: int) -> JobSchedule:
    """FIFO's job ``j``, booked: a drawn worker count (the most that fits the empty cluster), at the
    first slot from ``max(a_j, previous start)`` where it fits for its whole run."""
    workers = int(rng.integers(1, min(30, instance.jobs[j].chunks), endpoint=True))
    empty = ClusterUsage(instance)
    while workers > 1 and empty.place(j, Config(base.m, base.p, workers), 1) is None:
        workers -= 1  # the drawn count does not fit the empty cluster: the most that does
    config = Config(base.m, base.p, workers)
    if empty.place(j, config, 1) is None:
        config = base
    t = max(instance.jobs[j].arrival, previous)
    while (l := cluster.place(j, config, t)) is None:
        t += 1
    cluster.book(l)
    return l


def _dominant_share(instance: Instance, l: JobSchedule, totals: np.ndarray) -> float:
    use = sum(np.asarray(l.footprint(instance, h)) for h in range(instance.H))
    return float(np.max(np.divide(use, totals, out=np.zeros_like(use), where=totals > 0)))


def run_drf(instance: Instance) -> BaselineRun:
    """DRF: at each event, progressive filling of the waiting and running jobs by dominant share, each in its ideal
    configuration."""
    sim = _Simulator(instance)
    totals = sim.cluster.capacity.sum(axis=0)

    def decide(t: int, event: bool) -> None:
        plan: dict[int, JobSchedule] = {}
        trial = sim.cluster.tentative(t)  # the cluster with the plan booked
        # The open job of least (dominant share, arrival, index) next: a heap of those keys, one
        # entry per open job (an entry leaves when its job is served, and comes back with the
        # job's new share unless the job is full).
        heap = [(0.0, instance.jobs[k].arrival, k) for k in sim.waiting()]
        heapq.heapify(heap)
        while heap:
            _, arrival, j = heapq.heappop(heap)
            n = plan[j].workers + 1 if j in plan else 1
            if n > instance.jobs[j].chunks:
                continue  # full
            old = plan.pop(j, None)
            if old is not None:
                trial.book(old, -1.0)
            l = trial.place(j, Config(sim.config[j].m, sim.config[j].p, n), t)
            if l is not None:
                heapq.heappush(heap, (_dominant_share(instance, l, totals), arrival, j))
            else:
                l = old  # full
            if l is not None:
                plan[j] = l
                trial.book(l)
        for j, l in plan.items():
            sim.start(l, j)

    return sim.run(decide)


def run_antman(instance: Instance, seed: int = 0, guaranteed: float = 0.5, threshold: int = 5) -> BaselineRun:
    """AntMan: each job is resource-guaranteed with probability ``guaranteed`` (drawn on arrival, seeded) or
    opportunistic; guaranteed jobs run first, and an opportunistic run is killed (its progress lost) when a
    guaranteed job has waited ``threshold`` slots."""
    rng = np.random.default_rng(seed)
    sim = _Simulator(instance)
    rg: set[int] = set()  # resource-guarantee jobs
    drawn: set[int] = set()  # jobs whose role is drawn
    opportunistic: set[int] = set()  # running OP runs

    def make_room(j: int, t: int) -> None:
        """Kill the most recently started OP runs, fewest first, if that lets RG job ``j`` start."""
        victims = sorted(opportunistic & set(sim.running), key=lambda k: (-sim.running[k].start, k))
        trial = sim.cluster.tentative(t)
        for count, v in enumerate(victims, start=1):
            trial.book(sim.running[v], -1.0, since=t)
            if trial.place(j, sim.config[j], t) is not None:
                for k in victims[:count]:
                    sim.kill(k, t)
                    opportunistic.discard(k)
                return

    def decide(t: int, event: bool) -> None:
        waiting = sorted(sim.waiting(), key=lambda k: (instance.jobs[k].arrival, k))
        for j in waiting:
            if j not in drawn:  # its role, drawn on arrival: an online system cannot count the jobs to come
                drawn.add(j)
                if rng.random() < guaranteed:
                    rg.add(j)
            if j in rg and t - instance.jobs[j].arrival > threshold:
                rg.discard(j)  # waited too long: runs as OP from now on
        for j in [k for k in waiting if k in rg]:
            if sim.cluster.place(j, sim.config[j], t) is None:
                make_room(j, t)
            l = sim.cluster.place(j, sim.config[j], t)
            if l is not None:
                sim.start(l, j)
        for j in [k for k in waiting if k not in rg and k not in sim.running]:
            l = sim.cluster.place(j, sim.config[j], t)
            if l is not None:
                sim.start(l, j)
                opportunistic.add(j)

    run = sim.run(decide)
    run.stats["guaranteed"] = len(rg)
    return run


def run_tiresias(instance: Instance) -> BaselineRun:
    """Tiresias (spec §5.3): at every event the jobs by smallest remaining work x GPUs first, the running ones
    kept while they fit and the others killed (their progress lost), waiting jobs started when they fit."""
    sim = _Simulator(instance)
    gpus = [instance.worker_demand[c.m][0] * c.workers for c in sim.config]

    def remaining(j: int, t: int) -> float:
        work = instance.jobs[j].work
        if j in sim.running:
            l = sim.running[j]
            return work * (l.completion - t) / l.d
        return work

    def decide(t: int, event: bool) -> None:
        if not event:  # between events nothing is preempted; waiting jobs start if they fit
            for j in sorted(sim.waiting(), key=lambda k: (remaining(k, t) * gpus[k], k)):
                l = sim.cluster.place(j, sim.config[j], t)
                if l is not None:
                    sim.start(l, j)
            return
        active = sorted([*sim.running, *sim.waiting()], key=lambda k: (remaining(k, t) * gpus[k], k))
        trial = sim.cluster.tentative(t)
        for j in list(sim.running):
            trial.book(sim.running[j], -1.0, since=t)
        keep, start = [], []
        for j in active:
            if j in sim.running:
                l = sim.running[j]
                tail = JobSchedule(t, l.completion - t, l.m, l.p, l.q, l.y, l.s)
                need = np.array([tail.footprint(instance, h) for h in range(instance.H)])
                if np.all(trial.room(t, tail.d) >= need - TOL):
                    trial.book(tail)
                    keep.append(j)
            else:
                l = trial.place(j, sim.config[j], t)
                if l is not None:
                    trial.book(l)
                    start.append((j, l))
        for j in [k for k in sim.running if k not in keep]:
            sim.kill(j, t)
        for j, l in start:
            sim.start(l, j)

    return sim.run(decide)


def fifo(instance: Instance, *, seed: int = 0) -> Schedule:
    """FIFO's schedule (registry entry; ``run_fifo``)."""
    return run_fifo(instance, seed).schedule


def drf(instance: Instance, *, seed: int = 0) -> Schedule:
    """DRF's schedule (registry entry; ``run_drf``)."""
    return run_drf(instance).schedule


def antman(instance: Instance, *, seed: int = 0, guaranteed: float = 0.5, threshold: int = 5) -> Schedule:
    """AntMan's schedule (registry entry; ``run_antman``)."""
    return run_antman(instance, seed, guaranteed, threshold).schedule


def tiresias(instance: Instance, *, seed: int = 0) -> Schedule:
    """Tiresias's schedule (registry entry; ``run_tiresias``)."""
    return run_tiresias(instance).schedule


def jain_greedy(instance: Instance, jobs: list[int], tau: int) -> dict[int, JobSchedule]:
    """The batch problem (7) by the Jain-style greedy (§5.3 item 5): jobs by ``w_j`` over the least
    resource-time volume, descending; each at the latest start with ``t + d <= τ`` where its ideal
    configuration fits, else rejected."""
    cluster = ClusterUsage(instance)
    configs = ideal(instance)
    volume = {j: min(s.d * _volume(instance, s) for s in instance.shapes[j]) for j in jobs}
    chosen = {}
    for j in sorted(jobs, key=lambda k: (-instance.jobs[k].weight / volume[k], k)):
        for t in range(tau - 1, 0, -1):
            l = cluster.place(j, configs[j], t)
            if l is not None and l.completion <= tau:
                cluster.book(l)
                chosen[j] = l
                break
    return chosen
