"""Seeded placement instances (optsched/placement/generate.py; spec asrpt.md §5): tiny and small
random jobs that fit their free GPUs, Table II's paper cases, and the exact fill."""

import pytest

from optsched.errors import InputError
from optsched.placement.generate import generate
from optsched.placement.online import allot


@pytest.mark.parametrize("preset,g,servers", [("tiny", 4, (2, 4)), ("small", 8, (4, 8))])
def test_random_presets_fit_their_free_gpus(preset, g, servers):
    for seed in range(6):
        instance = generate(preset, seed)
        assert instance.gpus == g and servers[0] <= len(instance.available) <= servers[1]
        assert all(0 <= a <= g for a in instance.available) and sum(instance.available) >= instance.job.gpus
        assert instance.job.stages[-1].send == 0.0  # the last stage sends nothing
        assert generate(preset, seed) == instance


def test_the_paper_preset_configures_a_table_i_model_on_8_to_16_servers():
    instance = generate("paper", 2, model="gpt-175b", gpus=16)
    assert instance.job.gpus == 16 and 8 <= len(instance.available) <= 16 and instance.gpus == 8


def test_exact_fill_offers_the_most_allotment_of_the_free_gpus():
    at_most, exact = generate("small", 5), generate("small", 5, fill="exact")
    assert exact.fill == "exact" and sum(exact.available) == exact.job.gpus
    assert sorted(m for m, a in enumerate(exact.available) if a) == \
        sorted(m for m, _ in allot(at_most.available, at_most.job.gpus, "most"))


def test_impossible_paper_sizes_are_one_line_errors():
    with pytest.raises(InputError, match="do not fit"):
        generate("paper", 0, gpus=1000)
    with pytest.raises(InputError, match="stages <= gpus"):
        generate("paper", 0, gpus=4, stages=5)
