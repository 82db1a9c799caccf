"""Family ``asrpt``: Luo et al., prediction-assisted online scheduling of distributed DL jobs in
GPU clusters (A-SRPT). Spec: asrpt.md; docs: docs/asrpt.md. One job's placement (clusters, jobs,
timing, Heavy-Edge, best counts) is family ``placement`` (:mod:`optsched.placement`), which this
family builds on.

Modules: ``instance`` (the job stream, JSON), ``schedule`` (stream schedules, verifier),
``formulations`` (F3, F4), ``srpt`` (the virtual single machine), ``cluster_state`` (the simulated
cluster, estimates), ``online`` (A-SRPT), ``baselines`` (SPJF, SPWF, WCS-*, the offline SJF-packed),
``predict`` (random forest, mean, median), ``workload`` (the recurring-job Philly stand-in),
``generate``, ``theory`` (Lemmas 1-3, Theorem 1), ``reproduce`` (Figs. 6-9).
"""

from ..citations import PAPERS
from ..params import at_least, between, positive
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

PRESETS = ("tiny", "small", "paper")

_ASRPT_PARAMS = {"tau": at_least(0, 1.0), "comm_heavy": positive(1.5), "blocking": True}

ASRPT = Family(
    name="asrpt",
    sense="min",
    summary="online non-preemptive GPU-cluster scheduling with predicted iterations, min total completion time",
    papers=(PAPERS["luo2025"],),
    presets=PRESETS,
    generator=here("generate:generate_stream"),
    instance_from_dict=here("instance:Instance.from_dict"),
    schedule_from_dict=here("schedule:Schedule.from_dict"),
    bars=here("schedule:bars"),
    releases=here("schedule:releases"),
    time_unit="time (s)",
    verify=here("schedule:verify"),
    objective=here("schedule:objective"),
    formulations={
        "time-indexed": Formulation("time-indexed", here("formulations:time_indexed"),
                                    "F4: the exact offline optimum of (8), best counts per server split"),
        "cp-sat": Formulation("cp-sat", here("formulations:cp_sat"),
                              "F4 as a CP-SAT model: an interval per job, an optional copy per server, a cumulative "
                              "per server; exact",
                              engine="cp-sat"),
        "pool-and-place": Formulation("pool-and-place", here("formulations:pool_and_place"),
                                      "F4's CP-SAT model started from the pooled MILP: its bound added, its "
                                      "schedule placed on the servers as the hint; exact", engine="cp-sat"),
        "pooled": Formulation("pooled", here("formulations:pooled"),
                              "the GPUs pooled: each job in one piece on M g GPUs, time-indexed; a lower bound on (8)",
                              answers="bound"),
        "single-machine": Formulation("single-machine", here("formulations:single_machine"),
                                      "F3 on A_1^min: preemptive single machine, a lower bound on (8)",
                                      answers="bound"),
        "lower-bound": Formulation("lower-bound", here("formulations:lower_bound"),
                                   "the larger of F3 and each job alone (Σ r_i + n_i α_i^min): a lower bound on (8)",
                                   answers="bound"),
    },
    algorithms={
        "asrpt": Algorithm("asrpt", here("online:asrpt"), "A-SRPT (Algorithm 1) with the instance's predictions",
                           _ASRPT_PARAMS, here("theory:theorem1")),
        "asrpt-perfect": Algorithm("asrpt-perfect", here("online:asrpt_perfect"), "A-SRPT with perfect predictions",
                                   _ASRPT_PARAMS, here("theory:theorem1_perfect")),
        "spjf": Algorithm("spjf", here("baselines:spjf"), "shortest predicted job first, no backfilling"),
        "spwf": Algorithm("spwf", here("baselines:spwf"), "shortest predicted workload first, no backfilling"),
        "wcs-duration": Algorithm("wcs-duration", here("baselines:wcs_duration"),
                                  "work-conserving, by predicted duration"),
        "wcs-workload": Algorithm("wcs-workload", here("baselines:wcs_workload"),
                                  "work-conserving, by predicted workload"),
        "wcs-subtime": Algorithm("wcs-subtime", here("baselines:wcs_subtime"), "work-conserving, by submission time"),
        "sjf-packed": Algorithm("sjf-packed", here("baselines:sjf_packed"),
                                "offline reference (true n_i): shortest job first with backfilling, each job "
                                "started only where its placement is within `slack` of its best α",
                                {"slack": at_least(0, 0.2)}),
    },
    generator_options={"prediction": "", "servers": at_least(1, 250), "nic_gbps": positive(10.0),
                       "single_gpu_share": between(-1, 1, -1.0), "load": positive(1.0),
                       "arrivals": ("fixed-load", "trace"), "spread": between(0, 2, 0.0)},
    demo_sizes=(2, 3, 4, 5),
    space=here("mutate:space"),  # the time-indexed model takes seconds from 6 jobs on
    bound_route="lower-bound",
    best=here("formulations:best"),
    checks={"lemma2": Check("lemma2", "Lemma 2: A-SRPT's total completion time is within Lemma 2's bound of OPT_A",
                            ("asrpt", "asrpt-perfect"), here("checks:lemma2_slack"), needs_optimum=True),
            "lemma1": Check("lemma1", "Lemma 1: the virtual single-machine optimum is within ρ' of OPT_A",
                            ("asrpt", "asrpt-perfect"), here("checks:lemma1_slack"), needs_optimum=True),
            "lemma3": Check("lemma3", "Lemma 3: prediction errors move the virtual optimum by at most "
                            "I g^max α^max ε / G", ("asrpt", "asrpt-perfect"), here("checks:lemma3_slack"))},
    reproductions={
        "asrpt-sim": Reproduction("asrpt-sim", "Figs. 6-9: total completion time vs jobs, single-GPU share, NIC "
                                  "bandwidth, predictor (and τ)", here("reproduce:reproduce_sim")),
        "asrpt-theory": Reproduction("asrpt-theory", "the lemmas and Theorem 1 on random instances: "
                                     "counterexamples, or how rare one can be", here("reproduce:reproduce_theory")),
    },
)

FAMILY = ASRPT
