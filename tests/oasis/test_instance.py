"""OASiS instances: validation, JSON round trip, derived quantities, generators."""

import numpy as np
import pytest
from hypothesis import given

from optsched.errors import InputError
from optsched.oasis.generate import generate
from optsched.oasis.instance import Instance, Sigmoid, TableUtility, job_from_rho
from optsched.oasis.strategies import instances


@given(instances())
def test_json_round_trip(instance):
    assert Instance.from_dict(instance.to_dict()) == instance


def base():
    return generate("tiny", 0).to_dict()


@pytest.mark.parametrize("path, value, message", [
    (("T",), 0, "T: must be a positive integer"),
    (("worker_servers", 0, 0), -1, r"worker_servers\[0\]\[0\]: must be >= 0"),
    (("jobs", 0, "chunks"), 0, r"chunks: must be a positive integer"),
    (("jobs", 0, "tau"), 0, "tau: must be positive"),
    (("jobs", 0, "arrival"), 99, "must be a slot in 1..4"),
    (("jobs", 0, "worker_demand"), [1.0], "must be a list of 2 numbers"),
    (("jobs", 0, "ps_demand", 1), 0, "bandwidth .* must be positive"),
    (("jobs", 0, "utility", "kind"), "cubic", "must be one of sigmoid, table"),
    (("mode",), "fast", "must be one of worker_slots, chunks"),
])
def test_bad_instances_are_refused_with_the_field_named(path, value, message):
    d = base()
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InputError, match=message):
        Instance.from_dict(d)


def test_a_rising_utility_table_is_refused():
    d = base()
    d["jobs"][0]["utility"] = {"kind": "table", "values": [1, 2]}
    with pytest.raises(InputError, match="non-increasing"):
        Instance.from_dict(d)


def test_jobs_must_come_in_arrival_order():
    d = base()
    d["jobs"][0]["arrival"], d["jobs"][-1]["arrival"] = 4, 1
    with pytest.raises(InputError, match="arrival order"):
        Instance.from_dict(d)


def test_derived_quantities_use_tolerant_ceilings():
    job = job_from_rho(1, 3, 10, 0.1, [1.0], [1.0], TableUtility((1.0,)))  # E N ρ = 3.0000000000000004
    instance = Instance(5, ("bandwidth",), ((10.0,),), ((10.0,),), (job,))
    facts = instance.facts[0]
    assert facts.W == 3 and facts.n_min == 1 and facts.chunk_target == 30 and facts.feasible


def test_communication_time_follows_the_slot_length():
    """ρ = M(τ + 2e/b), e in MB and b in Gbps converted with the slot length [A15]."""
    job = job_from_rho(1, 1, 1, 0.0001, [2.0], [4.0], TableUtility((1.0,)), minibatches=1)
    job = type(job)(**{**job.__dict__, "grad_mb": 250.0})
    instance = Instance(1, ("bandwidth",), ((4.0,),), ((4.0,),), (job,), slot_seconds=1.0)
    assert instance.facts[0].rho == pytest.approx(0.0001 + 2 * 250 * 8e6 / 2e9)


def test_sigmoid_is_evaluated_in_log_space_and_constant_when_gamma2_is_zero():
    critical = Sigmoid(50.0, 6.0, 3.0)
    assert critical.value(300) == 0.0 and critical.log_value(300) == pytest.approx(np.log(50) - 6 * 297)
    assert Sigmoid(50.0, 0.0, 3.0).value(123) == pytest.approx(25.0)  # [A23]


