"""Edge instances: validation, JSON, time scaling, generators."""

from fractions import Fraction

import pytest
from hypothesis import given

from optsched.edge.generate import generate
from optsched.edge.instance import Instance, Job, Server, speed_augmented, time_scaled
from optsched.edge.strategies import instances
from optsched.errors import InputError


@given(instances())
def test_json_round_trip(instance):
    assert Instance.from_dict(instance.to_dict()) == instance


@pytest.mark.parametrize("change, message", [
    (lambda d: d["jobs"][0].update(p_cloud=9), "p_cloud <= p_edge"),
    (lambda d: d["jobs"][0].update(delay_edge=[]), "one delay per edge server"),
    (lambda d: d["jobs"][0].update(chunks=0), "chunks: must be a positive integer"),
    (lambda d: d["jobs"][0].update(release=-1), "release: must be an integer >= 0"),
    (lambda d: d.update(cloud="yes"), "cloud: must be true or false"),
    (lambda d: d["servers"][0].update(workers=[3]), "list of type names"),
])
def test_bad_instances_are_refused(change, message):
    d = generate("tiny", 0).to_dict()
    change(d)
    with pytest.raises(InputError, match=message):
        Instance.from_dict(d)


def test_without_a_cloud_pss_must_not_run_out():
    with pytest.raises(InputError, match="edge PSs"):
        Instance((Server(("w", "w"), ("p",)),), (Job(0, 1, 1, 1, (0,), 0),), cloud=False)


def test_time_scaling_and_speed_augmentation():
    instance = generate("tiny", 1)
    offline, online = speed_augmented(instance, Fraction(1, 2))  # 1 + ε = 3/2: a = 3, b = 2
    for base, off, on in zip(instance.jobs, offline.jobs, online.jobs):
        assert off.release == on.release == 3 * base.release and off.delay_cloud == 3 * base.delay_cloud
        assert off.p_edge == 3 * base.p_edge and on.p_edge == 2 * base.p_edge
    assert time_scaled(instance, 1, 1) == instance


