"""Family ``placement``: one distributed DL job's GPU mapping, from Luo et al. (A-SRPT's placement
step, Table II). Spec: asrpt.md §1-§3.3; docs: docs/asrpt.md.

Modules: ``instance`` (cluster, job chain of stages, the placement instance, JSON), ``timing``
(eqs. 4-7, α^max), ``graph`` (the job graph Ω), ``online`` (Heavy-Edge, the family's algorithm,
and the allotment rules), ``patterns`` (best counts per split, the true α^min), ``schedule``
(placements, verifier), ``formulations`` (F1, F2), ``templates`` (Table I models), ``generate``,
``mutate`` (search space), ``checks`` (claims for the search), ``reproduce`` (Table II).
"""

from ..citations import PAPERS
from ..params import at_least
from ..registry import Algorithm, Check, Family, Formulation, Reproduction, lazy_from

here = lazy_from(__name__)

PRESETS = ("tiny", "small", "paper")

PLACEMENT = Family(
    name="placement",
    sense="min",
    summary="one job's GPU mapping (stages x replicas over servers), min per-iteration time (ms), Table II",
    papers=(PAPERS["luo2025"],),
    presets=PRESETS,
    generator=here("generate:generate"),
    instance_from_dict=here("instance:Instance.from_dict"),
    schedule_from_dict=here("schedule:Schedule.from_dict"),
    chart=here("chart:draw"),
    verify=here("schedule:verify"),
    objective=here("schedule:objective"),
    formulations={
        "ilp": Formulation("ilp", here("formulations:placement_ilp"),
                           "F1: count-level MILP of the bottleneck (7), at-most or exact fill"),
        "graph-cut": Formulation("graph-cut", here("formulations:graph_cut"),
                                 "F2: least cut weight (MB/iteration) of the job graph; a placement, "
                                 "not the family's objective", answers="other"),
    },
    algorithms={
        "heavy-edge": Algorithm("heavy-edge", here("online:heavy_edge"),
                                "Heavy-Edge on the MOST allotment (spec §3.3)",
                                {"criterion": ("heaviest", "sum")}),
    },
    generator_options={"model": ("vgg19", "resnet152", "inception-v3", "bert-large", "xlnet-large", "t5", "gpt-6.7b",
                                 "gpt-13b", "gpt-175b"),
                       "gpus": at_least(1, 16), "stages": at_least(0, 0), "fill": ("at_most", "exact")},
    demo_sizes=(),
    space=here("mutate:space"),
    checks={"alpha-max": Check("alpha-max", "alpha^max bounds Heavy-Edge's per-iteration time (spec §1.3, [A23])",
                               ("heavy-edge",), here("checks:alpha_max_slack"))},
    reproductions={
        "asrpt-table2": Reproduction("asrpt-table2", "Table II: Heavy-Edge vs the placement ILP, VGG19 and GPT-175B, "
                                     "20 availability cases", here("reproduce:reproduce_table2")),
    },
)

FAMILY = PLACEMENT
