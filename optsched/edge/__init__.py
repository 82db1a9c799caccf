"""Family ``edge``: online preemptive scheduling of distributed ML jobs (workers and parameter
servers) in an edge-cloud system; minimise total job completion time. A_online dispatches chunks
greedily by their marginal weighted flow time and orders each worker by highest average processing
rate first. Spec: edge-preemptive.md; docs: docs/edge.md.

Modules: ``instance`` (model, JSON, time scaling), ``generate`` (presets F1-F7, testbed, traces),
``schedule`` (verifier of problem (2)), ``formulations`` (MILP-2, ILP-4, LP-4R, dual (6)),
``online`` (A_online, A_online-E), ``baselines`` (SRTF, Tiresias-L, BatchSche), ``theory`` (dual
fitting, Lemma 1, Theorem 3's factors).
"""

from ..citations import PAPERS
from ..params import at_least
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

FAMILY = Family(
    name="edge",
    sense="min",
    summary="edge-cloud preemptive scheduling of PS jobs, chunk dispatch by marginal flow time, min total JCT",
    papers=(PAPERS["wang2022"],),
    presets=("tiny", "small", "f1", "f2", "f3", "f4", "f5", "f6", "testbed", "paper", "synthetic"),
    generator=here("generate:generate"),
    instance_from_dict=here("instance:Instance.from_dict"),
    schedule_from_dict=here("schedule:Schedule.from_dict"),
    bars=here("schedule:bars"),
    releases=here("schedule:releases"),
    time_unit="time (slots)",
    verify=here("schedule:verify"),
    objective=here("schedule:objective"),
    formulations={
        "time-indexed": Formulation("time-indexed", here("formulations:time_indexed"),
                                    "MILP-2: the exact optimum of problem (2), total JCT"),
        "fractional-flow": Formulation("fractional-flow", here("formulations:fractional_flow"),
                                       "ILP (4), chunk-level fractional flow time (<= OPT(2), Lemma 1); "
                                       "--relax gives LP-4R", answers="bound"),
        "cp-sat": Formulation("cp-sat", here("formulations:cp_sat"),
                              "problem (2) as a CP-SAT model (completion, ζ and reified work per job); exact",
                              engine="cp-sat"),
        "pooled": Formulation("pooled", here("formulations:pooled"),
                              "MILP-2 with each worker type pooled across servers: a relaxation, <= OPT(2)",
                              answers="bound"),
        "dual": Formulation("dual", here("formulations:dual"), "the dual (6) of LP-4R, built directly",
                            answers="bound"),
    },
    algorithms={
        "aonline": Algorithm("aonline", here("online:aonline"), "A_online: greedy chunk dispatch by Q, HAPRF, A_ps",
                             {"q_mode": ("timeline", "eq5"), "repaired": False}),
        "aonline-edge": Algorithm("aonline-edge", here("online:aonline_edge"), "A_online-E: A_online without the cloud",
                                  {"q_mode": ("timeline", "eq5")}),
        "srtf": Algorithm("srtf", here("baselines:srtf"), "shortest remaining time first, preemptive, rigid gangs",
                          {"gang": ("trace", "demand")}),
        "tiresias-l": Algorithm("tiresias-l", here("baselines:tiresias_l"),
                                "least attained service queues, rigid gangs",
                                {"queues": at_least(1, 2), "gang": ("trace", "demand")}),
        "batchsche": Algorithm("batchsche", here("baselines:batchsche"),
                               "batches placed by least resource cost, elastic",
                               {"cloud_price": at_least(0, 0.5)}),
        "earliest-completion": Algorithm("earliest-completion", here("baselines:earliest_completion"),
                                         "offline reference: each job at its earliest completion in the "
                                         "capacity left, by gain over the cloud", {"order": ("gain", "release")},
                                         offline=True),
    },
    generator_options={"servers": at_least(0, 0), "epsilon": at_least(0, 0.0), "copy": ("offline", "online"),
                       "slot_hours": at_least(0.01, 1.0)},
    reproductions={
        "edge-sec5": Reproduction("edge-sec5", "Section V: JCT rate vs jobs and servers, preemptions, "
                                  "communication, utilisation, makespan", here("reproduce:reproduce_sec5")),
        "edge-ratio": Reproduction("edge-ratio", "Figs. 12/13: ratio to the exact optimum for ε in {0, 0.2, 0.5}",
                                   here("reproduce:reproduce_ratio")),
        "edge-theory": Reproduction("edge-theory", "the theorems and lemmas on random instances: counterexamples, "
                                    "or how rare one can be", here("reproduce:reproduce_theory")),
    },
    space=here("mutate:space"),
    bound_route="pooled",
    bound_relax=True,
    checks={"lemma2b": Check("lemma2b", "Lemma 2(b): A_online's fitted duals satisfy (6a) everywhere [E19]",
                             ("aonline", "aonline-edge"), here("checks:lemma2b_slack")),
            "lemma1": Check("lemma1", "Lemma 1: fractional flow <= chunk-weighted flow <= total JCT",
                            ("aonline", "aonline-edge"), here("checks:lemma1_slack")),
            "lemma2a": Check("lemma2a", "Lemma 2(a), Theorem 2: A_online's plans are correct and its schedule "
                             "feasible", ("aonline", "aonline-edge"), here("checks:lemma2a_slack")),
            "lemma3": Check("lemma3", "Lemma 3: A_ps keeps one qualified PS per running job",
                            ("aonline", "aonline-edge"), here("checks:lemma3_slack")),
            "theorem4": Check("theorem4", "Theorem 4: CalcQ calls and pieces per worker within their bounds",
                              ("aonline", "aonline-edge"), here("checks:theorem4_slack")),
            "lemma4": Check("lemma4", "Lemma 4: Σα = Σ(1/D)(C − r) = Σβ [E15, E16]", ("aonline", "aonline-edge"),
                            here("checks:lemma4_slack")),
            "theorem3": Check("theorem3", "Theorem 3: at speed 1 + ε, Σf <= (1 + 1/ε) OPT(4) and "
                              "JCT <= D_max (1 + 1/ε) OPT(2)", ("aonline",), here("checks:theorem3_slack"))},
)
