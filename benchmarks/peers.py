"""Peer models for the exact frontier (issue 51, item 1): the same problems modelled as a researcher
who doubts optsched would, in PyJobShop (a CP-SAT scheduling library; ``pip install -e '.[bench]'``)
and as an untuned CP-SAT model written from the family's docs. No hints, no symmetry breaking, no
deadlines, OR-Tools' default search; one worker and the budget optsched gets, as CP-SAT parameters
(``limits``: ``max_time_in_seconds``, or ``max_deterministic_time`` for the deterministic frontier).

* ``single`` (1|r_j|Σ w_j C_j, docs/single.md): one machine; a task per job released at ``r_j``
  of duration ``p_j``. PyJobShop minimises the weighted flow time ``Σ w_j (C_j − r_j)``; the
  constant ``Σ w_j r_j`` is added back.
* ``asrpt`` (problem (8), docs/asrpt.md): a renewable resource per server (its GPUs); a task per
  job with one mode per split of its GPUs over the servers, of the duration that split gives
  (``n_i α_i``, in the instance's slots: the splits and durations of ``formulations.stream``, which
  writes the paper's physics down once); the sum of completion times.

* ``hetero`` (objective (2), docs/hetero.md): a renewable resource per server and resource type (its
  capacity); a task per job released at its arrival, with one mode per placed shape of the job (the
  shapes and placements of ``columns.options``, which write the paper's physics down once), of the
  shape's duration, demanding its workers' and parameter servers' use on each server; the weighted
  sum of completion times (a start at slot ``S`` of a ``d``-slot shape completes at ``S + d``).
  Demands and weights are scaled to integers as optsched's own CP-SAT model scales them.

Each returns ``{"proven", "objective", "bound", "time"}`` with the objective in the family's units and
the time from the model's first line to the solver's answer (optsched's is its whole call: online
schedules, building, solving, decoding, verifying).
"""

from __future__ import annotations

import time
from typing import Any

PEER_FAMILIES = ("single", "asrpt", "hetero")


def _pyjobshop_result(result: Any, scale: float, offset: float, took: float) -> dict:
    status = str(result.status).rsplit(".", 1)[-1].upper()
    objective = None if result.objective is None or status not in ("OPTIMAL", "FEASIBLE") else \
        result.objective * scale + offset
    bound = None if getattr(result, "lower_bound", None) is None else result.lower_bound * scale + offset
    return {"proven": status == "OPTIMAL", "objective": objective, "bound": bound, "time": took}


def single_pyjobshop(instance: Any, limits: dict) -> dict:
    from pyjobshop import Model

    started = time.perf_counter()
    model = Model()
    machine = model.add_machine()
    for job in instance.jobs:
        owner = model.add_job(weight=int(job.w), release_date=int(job.r))
        task = model.add_task(owner, earliest_start=int(job.r))
        model.add_mode(task, machine, int(job.p))
    model.set_objective(weight_total_flow_time=1)
    result = model.solve("ortools", display=False, num_workers=1, **_pyjobshop_limits(limits))
    return _pyjobshop_result(result, 1.0, float(sum(job.w * job.r for job in instance.jobs)),
                             time.perf_counter() - started)


def single_cp_sat(instance: Any, limits: dict) -> dict:
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    horizon = max(job.r for job in instance.jobs) + sum(job.p for job in instance.jobs)
    starts, intervals = [], []
    for j, job in enumerate(instance.jobs):
        start = model.new_int_var(int(job.r), int(horizon), f"s{j}")
        intervals.append(model.new_fixed_size_interval_var(start, int(job.p), f"i{j}"))
        starts.append(start)
    model.add_no_overlap(intervals)
    model.minimize(sum(int(job.w) * (s + int(job.p)) for s, job in zip(starts, instance.jobs)))
    return _cp_sat(model, limits, 1.0, started)


def asrpt_pyjobshop(instance: Any, limits: dict) -> dict:
    from pyjobshop import Model

    from optsched.asrpt.formulations import stream

    started = time.perf_counter()
    shared = stream(instance, "peer")
    model = Model()
    servers = [model.add_renewable(capacity=instance.cluster.gpus) for _ in range(instance.cluster.servers)]
    for release, choices in zip(shared.releases, shared.options):
        owner = model.add_job(release_date=release)
        task = model.add_task(owner, earliest_start=release)
        for pattern, _, slots in choices:
            used = [m for m, gpus in enumerate(pattern) if gpus]
            model.add_mode(task, [servers[m] for m in used], slots, [pattern[m] for m in used])
    model.set_objective(weight_total_flow_time=1)
    result = model.solve("ortools", display=False, num_workers=1, **_pyjobshop_limits(limits))
    return _pyjobshop_result(result, instance.slot, float(sum(shared.releases)) * instance.slot,
                             time.perf_counter() - started)


def asrpt_cp_sat(instance: Any, limits: dict) -> dict:
    from ortools.sat.python import cp_model

    from optsched.asrpt.formulations import stream

    started = time.perf_counter()
    shared = stream(instance, "peer")
    model = cp_model.CpModel()
    horizon = max(shared.releases) + sum(max(D for _, _, D in choices) for choices in shared.options)
    per_server: dict[int, list] = {m: [] for m in range(instance.cluster.servers)}
    ends = []
    for i, (release, choices) in enumerate(zip(shared.releases, shared.options)):
        start = model.new_int_var(release, horizon, f"s{i}")
        end = model.new_int_var(release, horizon, f"e{i}")
        chosen = []
        for u, (pattern, _, slots) in enumerate(choices):
            b = model.new_bool_var(f"b{i}_{u}")
            interval = model.new_optional_fixed_size_interval_var(start, slots, b, f"i{i}_{u}")
            model.add(end == start + slots).only_enforce_if(b)
            for m, gpus in enumerate(pattern):
                if gpus:
                    per_server[m].append((interval, gpus))
            chosen.append(b)
        model.add_exactly_one(chosen)
        ends.append(end)
    for items in per_server.values():
        model.add_cumulative([iv for iv, _ in items], [g for _, g in items], instance.cluster.gpus)
    model.minimize(sum(ends))
    return _cp_sat(model, limits, instance.slot, started)


def _hetero_modes(instance: Any) -> tuple[list[int], list[int], list[list[tuple[int, dict[tuple[int, int], int]]]]]:
    """Integer capacities per (server, resource), integer job weights, and per job its modes:
    ``(duration, {(server, resource): demand})`` (the module docstring's hetero model)."""
    from optsched.hetero.columns import options
    from optsched.numeric import integer_scale

    H, R = instance.H, instance.R
    rows = [*instance.capacity, *instance.worker_demand, *instance.ps_demand]
    scale = [integer_scale((row[r] for row in rows), f"peer: resource {r}") for r in range(R)]
    weight = integer_scale((job.weight for job in instance.jobs), "peer: job weights")
    capacity = [round(instance.capacity[h][r] * scale[r]) for h in range(H) for r in range(R)]
    modes = []
    for opts in options(instance):
        mine = []
        for option in opts:
            sh = option.shape
            worker = instance.worker_demand[sh.m]
            server = instance.ps_demand[sh.p] if sh.p is not None else [0.0] * R
            use = {(h, r): round((option.y[h] * worker[r] + option.s[h] * server[r]) * scale[r])
                   for h in range(H) for r in range(R)}
            mine.append((sh.d, {key: v for key, v in use.items() if v > 0}))
        modes.append(mine)
    return capacity, [round(job.weight * weight) for job in instance.jobs], modes


def hetero_pyjobshop(instance: Any, limits: dict) -> dict:
    from pyjobshop import Model

    started = time.perf_counter()
    capacity, weights, modes = _hetero_modes(instance)
    model = Model()
    resources = [model.add_renewable(capacity=c) for c in capacity]
    for job, weight, mine in zip(instance.jobs, weights, modes):
        owner = model.add_job(weight=weight, release_date=job.arrival)
        task = model.add_task(owner, earliest_start=job.arrival)
        for duration, use in mine:
            keys = sorted(use)
            model.add_mode(task, [resources[h * instance.R + r] for h, r in keys], duration, [use[k] for k in keys])
    model.set_objective(weight_total_flow_time=1)
    result = model.solve("ortools", display=False, num_workers=1, **_pyjobshop_limits(limits))
    scale = weights[0] / instance.jobs[0].weight
    return _pyjobshop_result(result, 1 / scale, sum(job.weight * job.arrival for job in instance.jobs),
                             time.perf_counter() - started)


def hetero_cp_sat(instance: Any, limits: dict) -> dict:
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    capacity, weights, modes = _hetero_modes(instance)
    model = cp_model.CpModel()
    horizon = max(job.arrival for job in instance.jobs) + sum(max(d for d, _ in mine) for mine in modes)
    per_resource: dict[int, list] = {k: [] for k in range(len(capacity))}
    ends = []
    for j, (job, mine) in enumerate(zip(instance.jobs, modes)):
        start = model.new_int_var(job.arrival, horizon, f"s{j}")
        end = model.new_int_var(job.arrival, horizon, f"e{j}")
        chosen = []
        for k, (duration, use) in enumerate(mine):
            b = model.new_bool_var(f"b{j}_{k}")
            interval = model.new_optional_fixed_size_interval_var(start, duration, b, f"i{j}_{k}")
            model.add(end == start + duration).only_enforce_if(b)
            for (h, r), demand in use.items():
                per_resource[h * instance.R + r].append((interval, demand))
            chosen.append(b)
        model.add_exactly_one(chosen)
        ends.append(end)
    for k, items in per_resource.items():
        if items:
            model.add_cumulative([iv for iv, _ in items], [d for _, d in items], capacity[k])
    model.minimize(sum(w * e for w, e in zip(weights, ends)))
    return _cp_sat(model, limits, instance.jobs[0].weight / weights[0], started)


def _pyjobshop_limits(limits: dict) -> dict:
    """CP-SAT parameters as PyJobShop's ``solve`` takes them (its own ``time_limit``, the rest as is)."""
    return {("time_limit" if key == "max_time_in_seconds" else key): value for key, value in limits.items()}


def _cp_sat(model: Any, limits: dict, scale: float, started: float) -> dict:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    for key, value in limits.items():
        setattr(solver.parameters, key, value)
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    took = time.perf_counter() - started
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return {"proven": status == cp_model.OPTIMAL, "objective": solver.objective_value * scale if found else None,
            "bound": solver.best_objective_bound * scale if found or status == cp_model.UNKNOWN else None,
            "time": took}


PEERS = {
    "single": {"pyjobshop": single_pyjobshop, "plain cp-sat": single_cp_sat},
    "asrpt": {"pyjobshop": asrpt_pyjobshop, "plain cp-sat": asrpt_cp_sat},
    "hetero": {"pyjobshop": hetero_pyjobshop, "plain cp-sat": hetero_cp_sat},
}
