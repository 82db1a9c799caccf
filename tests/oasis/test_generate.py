"""Seeded OASiS instances: tiny, small, the calibrated paper preset and the literal one [A14] (optsched/oasis/generate.py)."""

import numpy as np
import pytest

from optsched.errors import InputError
from optsched.oasis.generate import PRESETS, generate


def test_presets():
    assert set(PRESETS) == {"tiny", "small", "paper", "paper-literal", "trace"}
    tiny = generate("tiny", 4)
    assert (tiny.T, tiny.H, tiny.K, tiny.R, len(tiny.jobs)) == (4, 2, 2, 2, 4)
    assert generate("small", 1, jobs=7) == generate("small", 1, jobs=7) and len(generate("small", 1, jobs=7).jobs) == 7
    paper = generate("paper", 0)
    assert (paper.T, paper.H, paper.K, paper.R) == (300, 50, 50, 5)
    assert np.median([f.n_min for f in paper.facts]) <= 10  # calibrated: most jobs finish within γ3's range
    literal = generate("paper-literal", 0)
    assert np.median([f.n_min for f in literal.facts]) > 100  # [A14]: the printed ranges make long jobs
    with pytest.raises(InputError, match="unknown oasis preset"):
        generate("huge", 0)



@pytest.mark.parametrize("hours", [0.5, 2.0])
def test_slot_hours_keeps_the_jobs_and_utilities_in_hours(hours):
    """[A15]: the same instance in slots of ``hours``: horizon, arrivals, work and utilities in hours."""
    hourly, other = generate("paper", 3, jobs=20, slots=48), generate("paper", 3, jobs=20, slots=48, slot_hours=hours)
    assert other.T == int(np.ceil(48 / hours)) and other.slot_seconds == 3600 * hours
    for a, b, fa, fb in zip(hourly.jobs, other.jobs, hourly.facts, other.facts):
        assert (b.arrival - 1) * hours <= a.arrival - 1 < b.arrival * hours  # the slot holding the hour's start
        assert fb.work * hours == pytest.approx(fa.work)  # worker-hours kept
        for delay_hours in (1.0, 6.0, 30.0):
            assert b.utility.value(delay_hours / hours) == pytest.approx(a.utility.value(delay_hours))
    with pytest.raises(InputError, match="slot_hours"):
        generate("small", 0, slot_hours=2.0)
