"""Random small MILPs for cross-checking solvers (optsched/testing.py): reproducible by seed, of
the documented shape, and solved to the same optimum by HiGHS and CBC."""

from optsched.solvers import solve
from optsched.testing import random_milp


def test_the_same_seed_gives_the_same_model_and_shapes_stay_small():
    for seed in range(20):
        a, b = random_milp(seed), random_milp(seed)
        assert str(a) == str(b)
        assert 2 <= len(a.variables()) <= 7 and 1 <= len(a.constraints()) <= 5
        assert all(v.lowBound == 0 and 1 <= v.upBound <= 4 for v in a.variables())
    assert str(random_milp(1)) != str(random_milp(2))


def test_both_solvers_agree_on_a_dozen_of_them():
    for seed in range(12):
        result = solve(random_milp(seed), cross_check=True)
        assert result.cross_check.verdict == "agree", (seed, result.cross_check)
        assert result.status in ("optimal", "infeasible", "unbounded")


def _clairvoyant_wspt(instance, *, seed=0):
    """WSPT over every job from the start, as if the future were known: not online."""
    from optsched.single.schedule import left_shifted

    return left_shifted(instance, tuple(sorted(range(instance.n), key=lambda j: (-instance.jobs[j].w / instance.jobs[j].p, j))))


def test_check_online_passes_online_algorithms_and_catches_one_that_reads_the_future():
    """optsched.testing.check_online, the online property as a public check: registered algorithms
    (OASiS with the constants its paper grants it), a researcher's function, and a clairvoyant one."""
    import optsched
    from optsched.testing import check_online

    single = optsched.get("single")
    for family, name in (("single", "wspt"), ("single", "fifo"), ("oasis", "oasis"), ("edge", "aonline")):
        found = check_online(optsched.get(family), name, instances=4)
        assert found.online and found.cases > 4, found
    caught = check_online(single, _clairvoyant_wspt)
    assert not caught.online and ("changed job" in caught.violation or "made job" in caught.violation)
    assert check_online(single, _clairvoyant_wspt) == caught  # seeded: the same answer
    assert check_online(optsched.get("placement"), "heavy-edge").cases == 0  # one job: nothing arrives later


def test_check_online_catches_the_offline_reference_it_is_not_asked_of():
    """edge's earliest-completion plans jobs by their gain, later jobs first where they gain more:
    registered as offline, left out of the online property, and caught by the check."""
    import optsched
    from optsched.testing import check_online

    edge = optsched.get("edge")
    assert edge.algorithm("earliest-completion").offline
    assert not check_online(edge, "earliest-completion", instances=50).online
    assert check_online(edge, "earliest-completion", params={"order": "release"}, instances=50).online
