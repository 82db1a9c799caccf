"""Tolerant comparisons and the decoders' integral check (optsched/numeric.py)."""






import pytest

from optsched.errors import InputError
from optsched.numeric import integer_scale, integral


def test_integral_accepts_solver_noise_and_refuses_a_fraction():
    assert integral(2.0 + 1e-9) == 2 and integral(-1.0 - 1e-9) == -1
    with pytest.raises(ValueError, match="not integral"):
        integral(2.4)



def test_integer_scale_is_the_least_power_of_ten_that_makes_every_value_exact():
    assert integer_scale([3.0, 7], "w") == 1
    assert integer_scale([0.5, 2, 1.25], "w") == 100
    assert integer_scale([0.1, 0.2], "w") == 10  # read as the decimals they print as
    assert integer_scale([0.000001], "w") == 10**6
    with pytest.raises(InputError, match="w: 1e-07 has more than six decimal places"):
        integer_scale([1.0, 1e-7], "w")
    with pytest.raises(InputError, match="more than six"):
        integer_scale([1 / 3], "w")
