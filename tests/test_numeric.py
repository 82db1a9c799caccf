"""Tolerant comparisons and the decoders' integral check (optsched/numeric.py)."""






import pytest

from optsched.numeric import integral


def test_integral_accepts_solver_noise_and_refuses_a_fraction():
    assert integral(2.0 + 1e-9) == 2 and integral(-1.0 - 1e-9) == -1
    with pytest.raises(ValueError, match="not integral"):
        integral(2.4)

