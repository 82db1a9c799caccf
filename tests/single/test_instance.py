"""Instances of 1|r_j|Σ w_j C_j: validation, JSON round trip, seeded generator."""

import pytest
from hypothesis import given

from optsched.errors import InputError
from optsched.single.instance import Instance
from optsched.single.strategies import instances


@given(instances(max_jobs=10))
def test_json_round_trip(instance):
    assert Instance.from_dict(instance.to_dict()) == instance


@pytest.mark.parametrize("jobs, message", [
    ([], "must not be empty"),
    ([{"p": 0, "w": 1}], r"jobs\[0\]\.p: must be a positive integer, got 0"),
    ([{"p": -2, "w": 1}], "must be a positive integer"),
    ([{"p": 1.5, "w": 1}], "must be an integer"),
    ([{"p": True, "w": 1}], "must be an integer"),
    ([{"p": 1, "w": 0}], r"w: must be positive"),
    ([{"p": 1, "w": 1, "r": -1}], r"r: must be an integer >= 0"),
    ([{"p": 1}], "missing field 'w'"),
    ([{"p": 1, "w": 1, "d": 3}], "unknown field 'd'"),
    ([{"p": 1, "w": "heavy"}], "must be a number"),
    ([[1, 1]], "expected a JSON object"),
])
def test_bad_instances_are_refused_with_the_field_named(jobs, message):
    with pytest.raises(InputError, match=message):
        Instance.from_dict({"jobs": jobs})


def test_horizon_covers_every_left_shifted_schedule():
    instance = Instance.from_dict({"jobs": [{"p": 2, "w": 1, "r": 7}, {"p": 3, "w": 1}]})
    assert instance.horizon == 7 + 5
