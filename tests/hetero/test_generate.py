"""Seeded hetero instances (optsched/hetero/generate.py): the sizes of each preset, the recipe of
spec §6.1 for tiny ones, every job placeable on the empty cluster, and one-line refusals."""

import pytest

from optsched.errors import InputError
from optsched.hetero.columns import options
from optsched.hetero.generate import SIZES, generate


@pytest.mark.parametrize("framework", ["ps", "allreduce"])
@pytest.mark.parametrize("preset", ["tiny", "small"])
def test_sizes_seeding_and_every_job_placeable(preset, framework):
    instance = generate(preset, 3, framework=framework)
    jobs, servers, horizon = SIZES[preset]
    assert (len(instance.jobs), instance.H, instance.T, instance.framework) == (jobs, servers, horizon, framework)
    assert generate(preset, 3, framework=framework) == instance != generate(preset, 4, framework=framework)
    assert all(options(instance))  # redrawn until each job fits the empty cluster in some shape


def test_tiny_follows_the_recipe_of_spec_6_1():
    for seed in range(5):
        instance = generate("tiny", seed)
        assert all(3 <= c <= 6 for cap in instance.capacity for c in cap)
        assert all(z[0] == 0.0 and z[1] in (1.0, 2.0) for z in instance.ps_demand)  # a PS takes no GPU
        for job in instance.jobs:
            assert 1 <= job.arrival <= 4 and job.weight in range(1, 11) and job.epochs == 1
            assert 1 <= job.chunks <= 4 and 1 <= job.minibatches <= 3
            assert all(v in (0.5, 1.0, 1.5) for v in job.train)


def test_jobs_and_servers_override_the_preset():
    instance = generate("small", 0, jobs=2, servers=5)
    assert (len(instance.jobs), instance.H) == (2, 5)


@pytest.mark.parametrize("kwargs,message", [
    ({"preset": "huge"}, "no preset 'huge'"), ({"framework": "mpi"}, "framework must be ps or allreduce"),
    ({"servers": -1}, "servers must be >= 0"), ({"kappa": 0.0}, "kappa in"),
])
def test_bad_options_are_one_line_errors(kwargs, message):
    with pytest.raises(InputError, match=message):
        generate(**kwargs)
