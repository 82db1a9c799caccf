"""Families ``placement`` and ``asrpt``: Luo et al., prediction-assisted online scheduling of
distributed DL jobs in GPU clusters (A-SRPT with Heavy-Edge placement). Spec: asrpt.md;
docs: docs/asrpt.md.

Modules: ``instance`` (cluster, job chain of stages, both instance kinds, JSON), ``timing``
(eqs. 4-7, α^max), ``graph`` (the job graph Ω), ``heavy_edge`` (Heavy-Edge, allotment rules),
``patterns`` (best counts per split, the true α^min), ``schedule`` (placements, stream schedules,
verifiers), ``formulations`` (F1-F4), ``srpt`` (the virtual single machine), ``cluster_state``
(the simulated cluster, estimates), ``online`` (A-SRPT), ``baselines`` (SPJF, SPWF, WCS-*),
``predict`` (random forest, mean, median), ``templates`` (Table I models), ``workload`` (the
recurring-job Philly stand-in), ``generate``, ``theory`` (Lemmas 1-3, Theorem 1), ``reproduce``.
"""

import random

from ..registry import Algorithm, Family, Formulation, Theorem
from ..reproduce import Reproduction
from . import baselines, formulations, online, reproduce, theory
from .generate import (
    ASRPT_OPTIONS,
    PLACEMENT_OPTIONS,
    PRESETS,
    generate_placement,
    generate_stream,
)
from .heavy_edge import allot, place
from .instance import Instance, PlacementInstance
from .schedule import (
    Placement,
    Schedule,
    objective,
    placement_objective,
    verify,
    verify_placement,
)

SOURCE = "Prediction-assisted online distributed deep learning workload scheduling in GPU clusters (paper 004)"


def heavy_edge(instance: PlacementInstance, *, seed: int = 0, criterion: str = "heaviest") -> Placement:
    """Heavy-Edge on the MOST allotment of the free GPUs (with ``fill = "exact"``, on all of them)."""
    counts, _ = place(instance.job, allot(instance.available, instance.job.gpus, "most"), instance.cluster,
                      random.Random(seed), criterion)
    return Placement.from_rows(counts, instance)


def _theorem(perfect: bool):
    def hook(instance: Instance, *, tau: float = 1.0, blocking: bool = True, **_) -> Theorem | None:
        """Theorem 1's bound; none for the non-blocking variant, which is outside its proof [A14]."""
        return theory.theorem1_hook(instance, tau, perfect) if blocking else None

    return hook


PLACEMENT = Family(
    name="placement",
    sense="min",
    summary="one job's GPU mapping (stages x replicas over servers), min per-iteration time (ms), Table II",
    source=SOURCE,
    presets=PRESETS,
    generate=generate_placement,
    instance_from_dict=PlacementInstance.from_dict,
    schedule_from_dict=Placement.from_dict,
    verify=verify_placement,
    objective=placement_objective,
    formulations={
        "ilp": Formulation("ilp", formulations.placement_ilp,
                           "F1: count-level MILP of the bottleneck (7), at-most or exact fill"),
        "graph-cut": Formulation("graph-cut", formulations.graph_cut,
                                 "F2: least cut weight (MB/iteration) of the job graph; a placement, "
                                 "not the family's objective", gives_schedule=False),
    },
    algorithms={
        "heavy-edge": Algorithm("heavy-edge", heavy_edge, "Heavy-Edge on the MOST allotment (spec §3.3)",
                                {"criterion": ("heaviest", "sum")}),
    },
    generator_options=PLACEMENT_OPTIONS,
    demo_sizes=(),
    reproductions={
        "asrpt-table2": Reproduction("asrpt-table2", "Table II: Heavy-Edge vs the placement ILP, VGG19 and GPT-175B, "
                                     "20 availability cases", reproduce.reproduce_table2),
    },
)

_ASRPT_PARAMS = {"tau": 1.0, "comm_heavy": online.COMM_HEAVY, "blocking": True}

ASRPT = Family(
    name="asrpt",
    sense="min",
    summary="online non-preemptive GPU-cluster scheduling with predicted iterations, min total completion time",
    source=SOURCE,
    presets=PRESETS,
    generate=generate_stream,
    instance_from_dict=Instance.from_dict,
    schedule_from_dict=Schedule.from_dict,
    verify=verify,
    objective=objective,
    formulations={
        "time-indexed": Formulation("time-indexed", formulations.time_indexed,
                                    "F4: the exact offline optimum of (8), best counts per server split"),
        "single-machine": Formulation("single-machine", formulations.single_machine,
                                      "F3 on A_1^min: preemptive single machine, a lower bound on (8)",
                                      gives_schedule=False),
    },
    algorithms={
        "asrpt": Algorithm("asrpt", online.asrpt, "A-SRPT (Algorithm 1) with the instance's predictions",
                           _ASRPT_PARAMS, _theorem(False)),
        "asrpt-perfect": Algorithm("asrpt-perfect", online.asrpt_perfect, "A-SRPT with perfect predictions",
                                   _ASRPT_PARAMS, _theorem(True)),
        "spjf": Algorithm("spjf", baselines.spjf, "shortest predicted job first, no backfilling"),
        "spwf": Algorithm("spwf", baselines.spwf, "shortest predicted workload first, no backfilling"),
        "wcs-duration": Algorithm("wcs-duration", baselines.wcs_duration, "work-conserving, by predicted duration"),
        "wcs-workload": Algorithm("wcs-workload", baselines.wcs_workload, "work-conserving, by predicted workload"),
        "wcs-subtime": Algorithm("wcs-subtime", baselines.wcs_subtime, "work-conserving, by submission time"),
    },
    generator_options=ASRPT_OPTIONS,
    demo_sizes=(2, 3, 4, 5),  # the time-indexed model takes seconds from 6 jobs on
    reproductions={
        "asrpt-sim": Reproduction("asrpt-sim", "Figs. 6-9: total completion time vs jobs, single-GPU share, NIC "
                                  "bandwidth, predictor (and τ)", reproduce.reproduce_sim),
    },
)

FAMILIES = (PLACEMENT, ASRPT)
