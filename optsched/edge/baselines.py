"""The baselines of the edge paper's evaluation (§V), as reconstructed in spec §5.3.

All run on one job-level slot simulator that respects problem (2):

* A job's rate is global [(2g)/(2h)]: while it has only ever used the cloud (workers and PS), it needs
  ``D p^1`` worker-slots; once it touches the edge it needs ``D p^0`` in total, wherever it ran.
* Data: a job's chunks reach server ``s`` ``Δ_js`` slots after the job is first placed there (never
  before ``r_j + Δ_js``); a job placed on servers its data has not reached holds the workers but
  trains only once the data is there. Moving to new servers (after a preemption) therefore pays the
  upload again: the data migration the paper blames for SRTF's and Tiresias-L's communication time.
* A job that trains in a slot gets one PS: a cloud PS if all its workers are in the cloud, else a free
  qualified edge PS, else a cloud PS.

* ``srtf``: every slot, active jobs in order of least remaining time (remaining worker-slots over the
  gang size ``k_j``, [E34]); each gets its whole gang of qualified free workers (all or nothing; the
  cloud counts as a server of unlimited workers), preferring servers that hold its data, then small
  ``Δ``; a running job not chosen is preempted.
* ``tiresias-l``: least attained service with ``queues`` priority queues split at multiples of the
  median total demand (``D p^0`` worker-slots) of the jobs released so far (the spec's [R] takes the
  whole workload's median, which an online scheduler cannot know), FIFO within a queue; gangs and
  placement as SRTF.
* ``batchsche``: every slot the waiting jobs form a batch; each gets, for good, the placement of least
  resource cost (worker-slots × price, cloud price ``cloud_price`` × the edge price): all its chunks
  in the cloud, or as many free qualified edge workers as it can use; when the edge is cheaper but
  busy, the job waits for the next batch (waiting costs no resource). At the default cloud price the
  cloud is always cheaper, so every job goes to the cloud ("cloud-heavy", as the paper reports).

``earliest-completion`` is not the paper's: an offline reference schedule, the best known at the
paper's sizes (docs/edge.md), planned on problem (2) itself rather than on the simulator. Jobs are
taken one at a time (``order``: by ``gain``, the slots a job alone on an empty edge saves over the
cloud, largest first; or by ``release``), and each gets the sooner of two plans in the capacity the
earlier jobs left: wholly in the cloud (``r + Δ_c + p^1``), or at the edge rate ``p^0`` on the
qualified edge workers still free from ``r + Δ_js`` on, the cloud's workers adding up to ``D`` once
the data reaches it (``r + Δ_c``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import islice

from ..arrivals import ArrivalStream
from .formulations import with_ps
from .instance import Instance
from .schedule import JobRun, Schedule

CLOUD = -1


@dataclass
class _State:
    j: int
    placement: list[int] = field(default_factory=list)  #: edge worker positions; CLOUD entries for cloud workers
    data_at: dict[int, int] = field(default_factory=dict)  #: server (CLOUD = -1) -> slot its data is there
    edge_slots: int = 0
    cloud_slots: int = 0
    touched_edge: bool = False
    done_at: int | None = None
    attained: int = 0  #: worker-slots received (Tiresias-L)
    log: list = field(default_factory=list)  #: (slot, edge worker positions, cloud workers)
    preemptions: int = 0
    #: what :meth:`_Simulator.split` computed for the placement object ``_split[0]``
    _split: tuple = field(default=((), [], 0, 0), repr=False)


#: The rigid baselines' gang size [E34]: the trace's GPU count (the paper's set-up) or the job's own
#: worker demand ``D_j`` (one worker per data chunk, as many as A_online may use).
GANGS = ("trace", "demand")


class _Simulator:
    def __init__(self, instance: Instance, gang: str = "trace"):
        if gang not in GANGS:
            raise ValueError(f"gang must be one of {GANGS}, got {gang!r}")
        self.instance = instance
        self.states = [_State(j) for j in range(len(instance.jobs))]
        self.stream = ArrivalStream(range(len(instance.jobs)), lambda j: instance.jobs[j].release)
        self.released: set[int] = set()
        self.gangs = [job.chunks if gang == "demand" else min(job.gang, job.chunks) for job in instance.jobs]

    def remaining(self, j: int) -> int:
        """Worker-slots still needed at the job's current rate."""
        st, job = self.states[j], self.instance.jobs[j]
        if st.touched_edge:
            return job.chunks * job.p_edge - st.edge_slots - st.cloud_slots
        return job.chunks * job.p_cloud - st.cloud_slots

    def gang(self, j: int) -> int:
        """Job ``j``'s gang size (:data:`GANGS`): its chunk count, or the trace's GPU count capped by it."""
        return self.gangs[j]

    def place(self, j: int, free: set[int], size: int) -> list[int] | None:
        """``size`` qualified workers for job ``j``, ranked by (data already there, upload delay), the
        cloud counting as one server of unlimited workers. None if the instance has no cloud and too
        few edge workers are free."""
        job, st = self.instance.jobs[j], self.states[j]

        def rank(e):
            s = self.instance.workers[e][0]
            return (0 if s in st.data_at else 1, job.delay_edge[s])

        edge = sorted((e for e in self.instance.qualified[j] if e in free), key=lambda e: (rank(e), e))
        cloud_rank = (0 if CLOUD in st.data_at else 1, job.delay_cloud)
        chosen: list[int] = []
        for e in edge:
            if len(chosen) == size or (self.instance.cloud and rank(e) > cloud_rank):
                break
            chosen.append(e)
        if len(chosen) < size:
            if not self.instance.cloud:
                return None
            chosen += [CLOUD] * (size - len(chosen))
        return chosen

    def split(self, st: _State) -> tuple[list[int], int, int]:
        """The job's current placement as its edge workers, its cloud worker count and the slot from
        which its data is on every server it uses. A placement is replaced, never edited, and a
        server's data slot never changes once set, so these are kept per placement object."""
        if st._split[0] is not st.placement:
            edge = [e for e in st.placement if e != CLOUD]
            servers = {CLOUD if e == CLOUD else self.instance.workers[e][0] for e in st.placement}
            ready = max((st.data_at[s] for s in servers), default=0)
            st._split = (st.placement, edge, len(st.placement) - len(edge), ready)
        return st._split[1], st._split[2], st._split[3]

    def commit(self, j: int, t: int, placement: list[int]) -> None:
        st, job = self.states[j], self.instance.jobs[j]
        if placement is st.placement:  # kept: nothing changes
            return
        if st.placement and sorted(st.placement) != sorted(placement):
            st.preemptions += 1
        st.placement = placement
        for e in placement:
            s = CLOUD if e == CLOUD else self.instance.workers[e][0]
            if s not in st.data_at:
                delay = job.delay_cloud if s == CLOUD else job.delay_edge[s]
                st.data_at[s] = max(t, job.release) + delay

    def train(self, t: int) -> None:
        """Run one slot for every placed job whose data is in place on all its servers."""
        for st in self.states:
            if not st.placement or st.done_at is not None:
                continue
            edge, cloud, ready = self.split(st)
            if t < ready:
                continue  # holding workers while the data uploads
            if edge:
                st.touched_edge = True
            st.edge_slots += len(edge)
            st.cloud_slots += cloud
            st.attained += len(st.placement)
            st.log.append((t, edge, cloud))
            if self.remaining(st.j) <= 0:
                st.done_at = t + 1
                st.placement = []

    def schedule(self) -> Schedule:
        """The job-level schedule, with a PS in every training slot (see the module docstring): the
        first free edge PS of the job's type in (server, position) order. PSs are only ever taken in
        that order within a slot, so the taken ones of a type are a prefix of its list, and a counter
        per (slot, type) finds the next one."""
        positions: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for s, server in enumerate(self.instance.servers):
            for p, kind in enumerate(server.ps):
                positions[kind].append((s, p))
        used: dict[tuple[int, str], int] = defaultdict(int)  #: (slot, type) -> how many of the type are taken
        runs = []
        for st in self.states:
            job = self.instance.jobs[st.j]
            edge_entries, cloud_entries, edge_ps, cloud_ps = [], [], [], []
            all_cloud = not st.touched_edge
            mine = positions[job.ps_type]
            for t, edge, cloud in st.log:
                edge_entries += [(t, *self.instance.workers[e]) for e in edge]
                if cloud:
                    cloud_entries.append((t, cloud))
                ps = None if all_cloud or used[t, job.ps_type] == len(mine) else mine[used[t, job.ps_type]]
                if ps is None and not self.instance.cloud:
                    raise RuntimeError(f"slot {t}: no free PS for job {st.j} and no cloud")
                if ps is None:
                    cloud_ps.append(t)
                else:
                    used[t, job.ps_type] += 1
                    edge_ps.append((t, *ps))
            runs.append(JobRun(tuple(sorted(edge_entries)), tuple(cloud_entries), tuple(edge_ps), tuple(cloud_ps)))
        return Schedule(tuple(runs))

    def active(self, t: int) -> list[int]:
        """Jobs released by ``t`` (learnt through the arrival stream) and not done, by index."""
        self.released.update(j for _, j in self.stream.advance_to(t))
        return [st.j for st in self.states if st.j in self.released and st.done_at is None]

    def finished(self) -> bool:
        return all(st.done_at is not None for st in self.states)


def _gang_scheduler(instance: Instance, order, gang: str) -> tuple[Schedule, int]:
    """Preemptive gang scheduling: every slot, jobs in ``order(sim, t, active)`` get their whole gang
    (of size ``gang``: see :data:`GANGS`) or wait; a job that keeps running keeps its workers. Returns
    the schedule and the preemptions."""
    sim = _Simulator(instance, gang)
    t = int(sim.stream.next_arrival)  # the first release (an instance has at least one job)
    limit = instance.horizon() * 4 + 10
    while not sim.finished():
        if t > limit:
            raise RuntimeError("gang scheduler made no progress (a gang can never fit)")
        free = set(range(len(instance.workers)))
        chosen: dict[int, list[int]] = {}
        active = sim.active(t)
        for j in order(sim, t, active):
            st = sim.states[j]
            if st.placement and free.issuperset(kept := sim.split(st)[0]):
                placement, taken = st.placement, kept
            else:
                placement = sim.place(j, free, sim.gang(j))
                if placement is None:
                    continue
                taken = [e for e in placement if e != CLOUD]
            chosen[j] = placement
            free.difference_update(taken)
        for j in active:
            if j in chosen:
                sim.commit(j, t, chosen[j])
            elif sim.states[j].placement:
                sim.states[j].preemptions += 1
                sim.states[j].placement = []
        sim.train(t)
        t += 1
    return sim.schedule(), sum(st.preemptions for st in sim.states)


def srtf(instance: Instance, *, seed: int = 0, gang: str = "trace") -> Schedule:
    """Shortest remaining time first, preemptive, rigid gangs of size ``gang`` (spec §5.3, [E34])."""
    return run_srtf(instance, gang)[0]


def run_srtf(instance: Instance, gang: str = "trace") -> tuple[Schedule, int]:
    """SRTF (§V-A): at each slot, the released jobs by remaining work per gang worker, each run as a gang of ``gang``
    workers (``trace``: the trace's, [E34]; ``demand``: its own chunk count), preemptively."""
    release = [job.release for job in instance.jobs]

    def order(sim, t, active):
        remaining, gangs = sim.remaining, sim.gangs
        return sorted(active, key=lambda j: (remaining(j) / gangs[j], release[j], j))

    return _gang_scheduler(instance, order, gang)


def tiresias_l(instance: Instance, *, seed: int = 0, queues: int = 2, gang: str = "trace") -> Schedule:
    """Tiresias, least attained service, rigid gangs of size ``gang`` (spec §5.3, [E34])."""
    return run_tiresias(instance, queues, gang)[0]


def run_tiresias(instance: Instance, queues: int = 2, gang: str = "trace") -> tuple[Schedule, int]:
    """Tiresias-L (§V-A): least attained service with ``queues`` priority queues split at the median demand of the
    released jobs, gangs as in ``run_srtf``."""
    release = [job.release for job in instance.jobs]
    medians: dict[int, float] = {}  #: the released jobs' median demand, by their count (the set only grows)

    def order(sim, t, active):
        # active = sim.active(t), so sim.released holds every job released by t
        released = len(sim.released)
        if released not in medians:
            medians[released] = statistics.median(instance.jobs[j].chunks * instance.jobs[j].p_edge
                                                  for j in sim.released)
        unit, states = max(medians[released], 1), sim.states
        return sorted(active, key=lambda j: (min(queues - 1, int(states[j].attained // unit)), release[j], j))

    return _gang_scheduler(instance, order, gang)


def batchsche(instance: Instance, *, seed: int = 0, cloud_price: float = 0.5) -> Schedule:
    """Batch scheduling by least resource cost, elastic, non-preemptive (spec §5.3)."""
    sim = _Simulator(instance)
    t = int(sim.stream.next_arrival)  # the first release (an instance has at least one job)
    waiting: list[int] = []
    queued: set[int] = set()  # every job ever put in ``waiting`` (the started ones included)
    limit = instance.horizon() * 4 + 10
    # each job's qualified workers by (upload delay, index): the order in which it takes the free ones
    nearest = [sorted(instance.qualified[j], key=lambda e: (job.delay_edge[instance.workers[e][0]], e))
               for j, job in enumerate(instance.jobs)]
    while not sim.finished():
        if t > limit:
            raise RuntimeError("batchsche made no progress")
        busy = {e for st in sim.states if st.placement for e in st.placement if e != CLOUD}
        free = set(range(len(instance.workers))) - busy
        arrived = [j for j in sim.active(t) if j not in queued]
        waiting += arrived
        queued.update(arrived)
        for j in list(waiting):
            job = instance.jobs[j]
            edge = list(islice((e for e in nearest[j] if e in free), job.chunks))
            cloud_cheaper = instance.cloud and cloud_price * job.p_cloud < job.p_edge
            if cloud_cheaper or (instance.cloud and not instance.qualified[j]):
                placement = [CLOUD] * job.chunks
            elif edge:
                placement = edge
            else:
                continue  # the edge is cheaper but busy: waiting costs nothing; try the next batch
            sim.commit(j, t, placement)
            free -= {e for e in placement if e != CLOUD}
            waiting.remove(j)
        sim.train(t)
        t += 1
    return sim.schedule()


def earliest_completion(instance: Instance, *, seed: int = 0, order: str = "gain") -> Schedule:
    """Each job, one at a time, at its earliest completion in the capacity left (module docstring):
    an offline reference, not an algorithm of the paper."""
    taken: set[tuple[int, int]] = set()  # (edge worker position, slot) already given to a job
    if order == "release":
        jobs = sorted(range(len(instance.jobs)), key=lambda j: (instance.jobs[j].release, j))
    else:
        alone = [_cloud_end(instance, j) - _plan(instance, j, set())[0] for j in range(len(instance.jobs))]
        jobs = sorted(range(len(instance.jobs)), key=lambda j: (-alone[j], j))
    edge: dict[int, list] = {}
    cloud: dict[int, list] = {}
    for j in jobs:
        _, workers, cloud[j] = _plan(instance, j, taken)
        taken.update(workers)
        edge[j] = [(t, *instance.workers[e]) for e, t in workers]
    return with_ps(instance, edge, cloud)


def _cloud_end(instance: Instance, j: int) -> int:
    """When job ``j`` ends wholly in the cloud (ζ = 1); no cloud: never."""
    job = instance.jobs[j]
    return job.release + job.delay_cloud + job.p_cloud if instance.cloud else instance.horizon() + 1


def _plan(instance: Instance, j: int, taken: set[tuple[int, int]]) -> tuple[int, list, list]:
    """Job ``j``'s sooner plan in the free capacity, as ``(end, [(edge worker, slot)], [(slot, cloud
    workers)])``: wholly in the cloud, or ``D p^0`` worker-slots at most ``D`` a slot on the free
    qualified edge workers its data has reached and, from ``r + Δ_c``, the cloud's."""
    job = instance.jobs[j]
    in_cloud = _cloud_end(instance, j)
    reach = [(e, job.release + job.delay_edge[instance.workers[e][0]]) for e in instance.qualified[j]]
    cloud_from = job.release + job.delay_cloud if instance.cloud else None
    need, t, workers, cloud = job.chunks * job.p_edge, job.release, [], []
    while need > 0 and t < in_cloud:
        if cloud_from is not None and t >= cloud_from:
            cloud.append((t, min(job.chunks, need)))
            need -= cloud[-1][1]
        else:
            free = [e for e, start in reach if start <= t and (e, t) not in taken][:min(job.chunks, need)]
            workers += [(e, t) for e in free]
            need -= len(free)
        t += 1
    if need <= 0 and t < in_cloud:  # a tie goes to the cloud, leaving the edge to later jobs
        return t, workers, cloud
    if cloud_from is None:  # the horizon leaves room for every job's work after all the others'
        raise RuntimeError(f"earliest-completion: job {j} did not fit within the horizon")
    return in_cloud, [], [(t, job.chunks) for t in range(cloud_from, in_cloud)]
