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

