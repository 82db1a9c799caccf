"""Family ``oasis``: Bao et al., "Online Job Scheduling in Distributed Machine Learning Clusters"
(INFOCOM 2018). Maximise the total utility of admitted jobs; OASiS admits and schedules each job at
arrival with a primal-dual price mechanism. Spec: oasis.md; docs: docs/oasis.md.

Modules: ``instance`` (model, JSON), ``generate`` (presets), ``schedule`` (verifier of problem (1)),
``columns`` (enumerated schedules ``L_i``), ``formulations`` (MILP (1), ILP (14), dual (19), column
generation, the pooled bound), ``pooled`` (the pooled LP, its priced bound and schedules),
``subroutine`` (Algorithm 2), ``online`` (Algorithm 1), ``baselines`` (FIFO, DRF,
RRH, Dorm), ``theory`` (constants (23)-(26), α, dual checks).
"""

from ..citations import PAPERS
from ..limits import MAX_NODES
from ..params import at_least, between, positive
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

FAMILY = Family(
    name="oasis",
    sense="max",
    summary="OASiS (Bao et al. 2018): admit and schedule PS-based training jobs online, max total utility",
    papers=(PAPERS["bao2018"],),
    presets=("tiny", "small", "paper", "paper-literal", "trace"),
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
                                    "problem (1) as a MILP (x-free encoding); exact"),
        "compact-exponential": Formulation("compact-exponential", here("formulations:compact_exponential"),
                                           "ILP (14) over enumerated schedules; --relax gives LP(14)"),
        "cp-sat": Formulation("cp-sat", here("formulations:cp_sat"),
                              "problem (1) as a CP-SAT model (completion literals, element tables for (6) and "
                              "(2B)); exact for utilities rounded to 1e-9", engine="cp-sat"),
        "dual": Formulation("dual", here("formulations:dual"), "the dual LP (19)/(20), built directly; = LP(14)",
                            answers="bound"),
        "column-generation": Formulation("column-generation", here("formulations:column_generation"),
                                         "LP(14) by column generation priced by Algorithm 2; >= the optimum",
                                         answers="bound"),
        "pooled": Formulation("pooled", here("formulations:pooled"),
                              "problem (1) with the servers pooled and time cumulated, an LP: an upper bound "
                              "certified by the dual (19) at its prices, and the schedule they give",
                              answers="bound"),
    },
    algorithms={
        "oasis": Algorithm("oasis", here("online:oasis"),
                           "Algorithm 1 with the Algorithm 2 subroutine and price functions (22)",
                           {"u_scale": positive(1.0), "l_scale": positive(1.0), "literal": False},
                           here("theory:theorem4")),
        "fifo": Algorithm("fifo", here("baselines:fifo"), "first in first out, fixed sizes, round-robin placement",
                          {"backfill": False, "random_ps": False}),
        "drf": Algorithm("drf", here("baselines:drf"),
                         "dominant resource fairness by progressive filling at each event"),
        "rrh": Algorithm("rrh", here("baselines:rrh"), "risk-reward heuristic: admission by delay cost, run by score",
                         {"theta": 0.0, "random_ps": False}),
        "dorm": Algorithm("dorm", here("baselines:dorm"),
                          "utilisation-maximising MILP with fairness and adjustment limits",
                          {"fairness": between(0, 1, 0.8), "adjust": between(0, 1, 0.5),
                           "node_limit": between(1, MAX_NODES, 1), "time_limit": at_least(0, 0.0),
                           "gap": at_least(0, 0.01)},
                          wall_clock=("time_limit",)),
    },
    generator_options={"mode": ("worker_slots", "chunks"), "slots": at_least(0, 0), "servers": at_least(0, 0),
                       "slot_hours": at_least(0.01, 1.0)},
    reproductions={"oasis-sec5": Reproduction("oasis-sec5", "Section V: utility vs jobs, completion vs target, "
                                              "OPT/OASiS, misestimated constants", here("reproduce:reproduce")),
                   "oasis-theory": Reproduction("oasis-theory", "the theorems and lemmas on random instances: "
                                                "counterexamples, or how rare one can be",
                                                here("reproduce:reproduce_theory"))},
    space=here("mutate:space"),
    bound_route="pooled",
    checks={"dual": Check("dual", "Theorem 2: OASiS's payoffs and final prices are feasible for the dual "
                                  "(19)/(20) [A10]", ("oasis",), here("checks:dual_slack")),
            "prices": Check("prices", "Appendix A (1): prices stay between L and U and never fall", ("oasis",),
                            here("checks:prices_slack")),
            "first-admitted": Check("first-admitted", "Appendix A (2): the first runnable job is admitted with "
                                    "payoff at least half its utility", ("oasis",),
                                    here("checks:first_admitted_slack")),
            "full-server": Check("full-server", "Appendix A (3): a full server slot prices out every schedule "
                                 "through it", ("oasis",), here("checks:full_server_slack")),
            "theorem1": Check("theorem1", "Theorem 1: Algorithm 2 returns each job's best schedule", ("oasis",),
                              here("checks:theorem1_slack")),
            "theorem3": Check("theorem3", "Theorem 3: Algorithm 2's operation counts within their polynomial bounds",
                              ("oasis",), here("checks:theorem3_slack")),
            "initial-dual": Check("initial-dual", "(33)-(35): D_0 <= OPT/2", ("oasis",),
                                  here("checks:initial_dual_slack"), needs_optimum=True),
            "lemma1": Check("lemma1", "Lemma 1, certified form: P_I >= (OPT/2 - Δ)/α_disc", ("oasis",),
                            here("checks:lemma1_slack"), needs_optimum=True),
            "lemma2": Check("lemma2", "Lemma 2: each admitted job raises the primal by at least 1/α of the "
                            "dual's rise (the paper's α)", ("oasis",), here("checks:lemma2_slack"))},
)
