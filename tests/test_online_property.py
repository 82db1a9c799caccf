"""Online means online, for every online algorithm and baseline of every family: changing a job that
arrives after ``t``, or adding one, never changes what the schedule does before ``t``.

Instances come from each family's generator (hypothesis draws the seed, the cut-off and the job),
and ``assume`` keeps only cut-offs with a job arriving after them, so the property is never vacuous.
A deliberately clairvoyant copy of WSPT shows the check catching an algorithm that reads the future.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from optsched.online_views import KNOWN_IN_ADVANCE, VIEWS, violation
from optsched.registry import FAMILY_PACKAGES, get
from optsched.single.schedule import Schedule

ONLINE = [(family, name) for family in FAMILY_PACKAGES if VIEWS.get(family)
          for name, algorithm in get(family).algorithms.items() if not algorithm.offline]


def test_every_registered_family_says_what_online_means_for_it():
    assert set(VIEWS) == set(FAMILY_PACKAGES), "add the new family to optsched/online_views.py"


@pytest.mark.parametrize(("family", "algorithm"), ONLINE)
@given(data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_jobs_arriving_after_t_never_change_decisions_before_t(family, algorithm, data):
    fam, view = get(family), VIEWS[family]
    preset = data.draw(st.sampled_from(["tiny", "small"]), label="preset")
    instance = fam.generate(preset, seed=data.draw(st.integers(0, 10_000), label="seed"))
    arrivals = view.arrivals(instance)
    later = sorted(set(arrivals))[1:]
    assume(later)  # at least two distinct arrival times
    cut = data.draw(st.sampled_from(later), label="a later arrival")
    t = data.draw(st.floats(min(arrivals), cut, exclude_max=True), label="t")
    j = data.draw(st.sampled_from([k for k, a in enumerate(arrivals) if a > t]), label="job arriving after t")
    seed = data.draw(st.integers(0, 3), label="algorithm seed")

    def run(inst):
        if (family, algorithm) in KNOWN_IN_ADVANCE:
            return KNOWN_IN_ADVANCE[family, algorithm](inst, instance, seed)
        return fam.algorithm(algorithm).run(inst, seed=seed)

    assert violation(view, run, instance, t, j) is None


def _clairvoyant_wspt(instance) -> Schedule:
    """WSPT over every job from the start, as if the future were known: not online."""
    order = sorted(range(instance.n), key=lambda j: (-instance.jobs[j].w / instance.jobs[j].p, j))
    start, now = [0.0] * instance.n, 0.0
    for j in order:
        now = max(now, instance.jobs[j].r)
        start[j] = float(now)
        now += instance.jobs[j].p
    return Schedule(tuple(start))


def test_the_check_catches_an_algorithm_that_reads_the_future():
    family, view = get("single"), VIEWS["single"]
    found = None
    for seed in range(30):
        instance = family.generate("tiny", seed=seed)
        arrivals = view.arrivals(instance)
        for t in sorted(set(arrivals))[1:]:
            for j in (k for k, a in enumerate(arrivals) if a >= t):
                found = found or violation(view, _clairvoyant_wspt, instance, t - 0.5, j)
        assert family.judge(instance, _clairvoyant_wspt(instance)).feasible  # wrong only in what it knows
    assert found is not None
    # ... and the same check passes the real, online WSPT on those instances
    for seed in range(30):
        instance = family.generate("tiny", seed=seed)
        arrivals = view.arrivals(instance)
        for t in sorted(set(arrivals))[1:]:
            for j in (k for k, a in enumerate(arrivals) if a >= t):
                assert violation(view, lambda inst: family.algorithm("wspt").run(inst), instance, t - 0.5, j) is None


def test_every_online_method_takes_its_jobs_through_the_arrival_stream():
    """Statically: each registered algorithm's module uses ArrivalStream, or imports a module of its
    own package that does (single's FIFO is online.list_schedule with another key)."""
    import ast
    import importlib
    import inspect

    for family, name in ONLINE:
        module_name = get(family).algorithm(name).run.target.partition(":")[0]
        tree = ast.parse(inspect.getsource(importlib.import_module(module_name)))
        uses = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
        package = module_name.rpartition(".")[0]
        helpers = [f"{package}.{node.module}" for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module]
        assert "ArrivalStream" in uses or any(
            "ArrivalStream" in inspect.getsource(importlib.import_module(h)) for h in helpers), (family, name)
