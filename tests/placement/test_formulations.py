"""F1 (the placement ILP) and F2 (the least graph cut) (optsched/placement/formulations.py; spec asrpt.md §2.2, §2.3)."""

import pytest
from hypothesis import given, settings

from optsched.placement.formulations import cut_placement, graph_cut, placement_ilp
from optsched.placement.generate import generate as generate_placement
from optsched.placement.graph import weights
from optsched.placement.instance import Instance
from optsched.placement.online import allot, assign, heavy_edge
from optsched.placement.schedule import objective as placement_objective
from optsched.placement.schedule import verify as verify_placement
from optsched.placement.strategies import placements, spread_matrices
from optsched.placement.timing import alpha, alpha_max
from optsched.solvers import solve


def cut_weight(job, counts_by_vertex):
    w = weights(job)
    return sum(w[u, v] for u in range(len(w)) for v in range(u + 1, len(w)) if counts_by_vertex[u] != counts_by_vertex[v])


@given(placements())
@settings(max_examples=60)
def test_ilp_is_the_brute_force_optimum_and_at_most_heavy_edge(instance):
    model = placement_ilp(instance)
    result = solve(model)
    assert result.optimal
    placement = model.decoder(result)
    assert verify_placement(instance, placement) == []
    assert placement_objective(instance, placement) == pytest.approx(result.objective, rel=1e-6)
    cluster = instance.cluster
    brute = min(alpha(instance.job, rows, cluster)
                for rows in spread_matrices(instance.job, len(instance.available), instance.job.gpus)
                if all(sum(r) <= a for r, a in zip(rows, instance.available)))
    assert result.objective == pytest.approx(1000 * brute, rel=1e-6)
    heavy = heavy_edge(instance)
    assert verify_placement(instance, heavy) == []
    assert result.objective <= placement_objective(instance, heavy) * (1 + 1e-6)
    assert placement_objective(instance, heavy) <= 1000 * alpha_max(instance.job, cluster) * (1 + 1e-9)
    relaxed = solve(placement_ilp(instance, relax=True))
    assert relaxed.objective <= result.objective * (1 + 1e-6)


@given(placements(fill="at_most"))
@settings(max_examples=25)
def test_sandwich_at_most_exact_heavy_edge_and_min_cut(instance):
    """α*(availability) <= α*(HE's allotment) <= α(HE) and cut* <= cut(HE) (spec §4.6)."""
    allotment = dict(allot(instance.available, instance.job.gpus, "most"))
    exact = Instance(instance.job, instance.gpus, instance.inter_bw, instance.intra_bw,
                              tuple(allotment.get(m, 0) for m in range(len(instance.available))), "exact")
    free_best = solve(placement_ilp(instance)).objective
    exact_best = solve(placement_ilp(exact)).objective
    heavy = placement_objective(exact, heavy_edge(exact))
    assert free_best <= exact_best * (1 + 1e-6) and exact_best <= heavy * (1 + 1e-6)
    cut = solve(graph_cut(exact))
    assert cut.optimal
    assert verify_placement(exact, cut_placement(exact, cut)) == []
    assert cut.objective <= cut_weight(exact.job, assign(exact.job, sorted(allotment.items()))) + 1e-6


def test_ilp_agrees_across_solvers_and_modes_on_tiny_presets():
    for seed in range(4):
        for fill in ("at_most", "exact"):
            instance = generate_placement("tiny", seed, fill=fill)
            result = solve(placement_ilp(instance), cross_check=True)
            assert result.optimal and result.cross_check.verdict == "agree", result.cross_check
            heavy = heavy_edge(instance)
            assert result.objective <= placement_objective(instance, heavy) * (1 + 1e-6)



@given(placements())
@settings(max_examples=60, deadline=None)
def test_heavy_edge_is_f1s_mip_start_and_satisfies_every_row(instance):
    from optsched.placement.online import heavy_edge
    from optsched.solvers import max_violation
    from optsched.solvers.model import variables

    model = placement_ilp(instance)
    values = {v.name: model.start.get(v.name, 0.0) for v in variables(model.problem)}
    assert max_violation(model.problem, values) <= 1e-9
    assert model.start["A"] == pytest.approx(placement_objective(instance, heavy_edge(instance)), rel=1e-12)
