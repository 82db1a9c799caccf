"""The hetero model: exact durations (eqs. (1), (14)), shapes (W1/W2), JSON, the verifier V1-V9."""


import pytest

from optsched.errors import InputError
from optsched.hetero.columns import placements
from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, ps_type


def test_durations_follow_eq1_and_eq14_exactly():
    inst = generate("tiny", 1)
    job = inst.jobs[0]
    for m in range(inst.M):
        for p in range(inst.P):
            for n in range(1, job.chunks + 1):
                d = inst.duration(0, m, p, 1, n)
                assert inst.fast_enough(0, m, p, 1, n, d) and (d == 1 or not inst.fast_enough(0, m, p, 1, n, d - 1))
                assert inst.duration(0, m, p, 0, n) >= d  # communication only slows (1)
    ar = generate("tiny", 1, framework="allreduce")
    t2 = ar.time_per_batch(0, 0, None, 0, 2)
    job = ar.jobs[0]
    assert t2 == pytest.approx(job.train[0] + (job.update[0] + 2 * job.gradient / ar.b(0)) / 2)


def test_shapes_keep_the_fewest_workers_per_duration():
    inst = generate("small", 2)
    for j, shapes in enumerate(inst.shapes):
        keys = [(s.m, s.p, s.q, s.d) for s in shapes]
        assert len(keys) == len(set(keys))
        for s in shapes:
            assert all(inst.duration(j, s.m, s.p, s.q, n) > s.d for n in range(1, s.workers))


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
@pytest.mark.parametrize("seed", range(4))
def test_the_oracles_shape_tables_keep_exactly_the_shapes_that_fit_the_empty_cluster(framework, seed):
    """``Instance.empty_fit`` against enumerating placements; allreduce ``q = 0`` may also sit on
    one server in the oracles (W4), so there the enumeration (two servers or more) is one-sided."""
    inst = generate("tiny", seed, framework=framework, jobs=3)
    for j, shapes in enumerate(inst.shapes):
        for shape in shapes:
            kept = shape in inst.shape_tables[j][shape.q].shapes
            fits = bool(placements(inst, shape))
            if framework == "allreduce" and shape.q == 0:
                assert kept or not fits
            else:
                assert kept == fits, shape
        for q, table in inst.shape_tables[j].items():
            order = [(s.m, s.p, s.d) if framework == "ps" else (s.m, s.workers) for s in table.shapes]
            assert order == sorted(order) and all(s.q == q for s in table.shapes)


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
def test_json_round_trip(framework):
    inst = generate("small", 4, framework=framework)
    assert Instance.from_dict(inst.to_dict()) == inst


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(framework="mpi"), "must be one of ps, allreduce"),
    (lambda d: d["jobs"][0].update(weight=0), "must be positive"),
    (lambda d: d["jobs"][0].update(train=[1.0]), "one time per worker type"),
    (lambda d: d.update(bandwidth=5), "resource index"),
    (lambda d: d["capacity"][0].append(1.0), "one entry per resource"),
])
def test_bad_instances_are_refused_with_their_path(change, message):
    d = generate("tiny", 0).to_dict()
    change(d)
    with pytest.raises(InputError, match=message):
        Instance.from_dict(d)


def test_ps_type_is_the_ps_frameworks_type_and_refuses_allreduces_none():
    assert ps_type(0) == 0 and ps_type(2) == 2
    with pytest.raises(ValueError, match="allreduce"):
        ps_type(None)
