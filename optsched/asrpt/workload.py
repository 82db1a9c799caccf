"""A recurring-job workload on the Philly trace, standing in for the paper's Alibaba PAI trace (spec
asrpt.md §5.1, [A16], [A17]).

The PAI trace (group and user ids, 758k jobs) is not available; ``philly_adaptdl.csv`` (82,247 jobs,
submission, duration, GPUs, virtual cluster) has no group or user ids. This module adds them with a
documented, seeded model, and every result built on it says so:

1. **Cleaning.** Jobs with a positive duration and fewer GPUs than the cluster, in submission order.
2. **Groups.** Jobs of the same virtual cluster and GPU count whose durations fall in the same
   factor-of-two bucket are candidates for one recurring group; shuffled, they are cut into groups
   with Zipf-distributed sizes (exponent :data:`ZIPF`), so most jobs recur, at any time of the trace.
3. **Iterations.** A group trains one model with one configuration (:mod:`.templates`): single-GPU
   groups a model that fits one GPU, others any model. Its members share the iteration count
   ``round(median duration / α̃^min)``, except that each terminates early with probability
   :data:`EARLY` at a uniformly random point (users kill jobs). With ``spread`` σ > 0 each member's
   count is that times its own lognormal factor ``exp(σ z − σ²/2)`` (mean 1): the within-group
   variation the paper's prediction errors imply (a set-up swept by asrpt-sim).
4. **Users.** Each virtual cluster has :data:`USERS_PER_CLUSTER` users; each group belongs to one,
   drawn uniformly.

Predictors are trained on the first 80% of the cleaned jobs (the paper's protocol); a window of
scheduled jobs is taken from the last 20% when it fits there, else it is the last jobs of the trace
and overlaps the training period (the workload's ``provenance`` says which).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..placement.instance import Cluster, Job
from ..placement.online import alpha_tilde
from ..placement.templates import MEMORY_BYTES, MODELS, STATE_BYTES, configure
from ..traces import philly_jobs

ZIPF = 2.1  #: exponent of the group-size distribution: 66.8% of jobs recur >= 5 times (seed 0; paper: about 65%)
EARLY = 0.05  #: probability that a job of a group terminates early
USERS_PER_CLUSTER = 12
TRAIN_SHARE = 0.8
SINGLE_GPU_MODELS = tuple(name for name, m in MODELS.items() if m.params * STATE_BYTES <= MEMORY_BYTES)


@dataclass(frozen=True)
class WorkloadJob:
    """One job of the recurring-job workload: its submission time (s since the trace's first job), the DNN job, its
    true iteration count, its recurring group and its user."""
    submit: float  #: seconds since the trace's first job
    job: Job
    iterations: int
    group: int
    user: int


@lru_cache(maxsize=4)
def workload(cluster: Cluster, seed: int = 0, spread: float = 0.0) -> tuple[WorkloadJob, ...]:
    """Every cleaned Philly job with a synthetic group, user, model configuration and iteration count;
    ``spread`` > 0 varies the count within a group (step 3's lognormal factor; 0: none, the default)."""
    rng = np.random.default_rng(seed)
    noise = np.random.default_rng([seed, 1])  # its own stream: spread = 0 leaves every other draw as it was
    trace = [j for j in philly_jobs() if j.duration_s > 0 and j.gpus < cluster.total_gpus]
    buckets: dict[tuple, list[int]] = {}
    for k, j in enumerate(trace):
        buckets.setdefault((j.cluster, j.gpus, int(math.log2(j.duration_s))), []).append(k)
    group_of = np.empty(len(trace), dtype=int)
    groups: list[list[int]] = []
    for key in sorted(buckets):
        members = [buckets[key][k] for k in rng.permutation(len(buckets[key]))]
        at = 0
        while at < len(members):
            size = int(min(rng.zipf(ZIPF), len(members) - at))
            chosen = sorted(members[at:at + size])
            group_of[chosen] = len(groups)
            groups.append(chosen)
            at += size
    clusters = sorted({j.cluster for j in trace})
    user_base = {c: USERS_PER_CLUSTER * k for k, c in enumerate(clusters)}
    iterations = np.empty(len(trace), dtype=int)
    jobs: dict[int, Job] = {}  # every trace row is in exactly one group
    users = np.empty(len(trace), dtype=int)
    for members in groups:
        first = trace[members[0]]
        names = SINGLE_GPU_MODELS if first.gpus == 1 else tuple(MODELS)
        job = configure(names[int(rng.integers(len(names)))], first.gpus, cluster)
        base = max(1, round(float(np.median([trace[k].duration_s for k in members])) / alpha_tilde(job, cluster)))
        user = user_base[first.cluster] + int(rng.integers(USERS_PER_CLUSTER))
        for k in members:
            early = rng.random() < EARLY
            own = base * math.exp(spread * float(noise.standard_normal()) - spread ** 2 / 2) if spread else base
            iterations[k] = max(1, round(own * rng.uniform(0.0, 1.0))) if early else max(1, round(own))
            jobs[k], users[k] = job, user
    return tuple(WorkloadJob(j.submit_s, jobs[k], int(iterations[k]), int(group_of[k]), int(users[k]))
                 for k, j in enumerate(trace))


def write_csv(jobs: tuple[WorkloadJob, ...], out) -> None:
    """The workload as CSV (``instances/asrpt/philly_recurring.csv.gz`` holds seed 0 on the paper's cluster)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["submit_s", "gpus", "model", "stages", "iterations", "group", "user"])
    for j in jobs:
        writer.writerow([j.submit, j.job.gpus, j.job.model, len(j.job.stages), j.iterations, j.group, j.user])


def recurrence(jobs: tuple[WorkloadJob, ...], at_least: int = 5) -> float:
    """The share of jobs whose group has at least ``at_least`` members (the paper: about 65%)."""
    sizes: dict[int, int] = {}
    for j in jobs:
        sizes[j.group] = sizes.get(j.group, 0) + 1
    return sum(1 for j in jobs if sizes[j.group] >= at_least) / len(jobs)

