"""Price functions (22) and constants (spec §4.1): endpoints, monotonicity, log-affinity, α_disc."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from optsched.oasis.strategies import instances
from optsched.oasis.theory import Constants, alpha_discrete, constants


@given(log_L=st.floats(-30, 5), spread=st.floats(0.0, 40.0), capacity=st.floats(0.5, 100.0),
       shares=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=6))
def test_price_function_endpoints_monotonicity_and_log_affinity(log_L, spread, capacity, shares):
    c = Constants(log_L, log_L, (log_L + spread,), (log_L + spread,), 1.0, 1.0, (True,), (True,))
    cap = np.array([[capacity]])
    used = np.array(sorted(shares))[:, None, None] * capacity
    prices = c.prices(used, cap, "worker")[:, 0, 0]
    assert c.prices(np.zeros((1, 1, 1)), cap, "worker")[0, 0, 0] == pytest.approx(math.exp(log_L))  # P(0) = L
    assert c.prices(np.full((1, 1, 1), capacity), cap, "worker")[0, 0, 0] == pytest.approx(math.exp(log_L + spread))  # P(c) = U
    assert np.all(np.diff(prices) >= -1e-12 * prices[:-1])  # non-decreasing in use
    assert np.log(prices) == pytest.approx(log_L + np.array(sorted(shares)) * spread, abs=1e-9)  # log-affine in g/c


def test_a_resource_with_zero_capacity_keeps_the_floor_price():
    c = Constants(0.0, 0.0, (3.0,), (3.0,), 1.0, 1.0, (True,), (True,))
    assert c.prices(np.zeros((1, 1, 1)), np.zeros((1, 1)), "ps")[0, 0, 0] == 1.0  # exponent 0 [A5]


@given(instances())
def test_alpha_disc_is_at_least_alpha_and_U_at_least_L(instance):
    c = constants(instance)
    assert all(u >= c.log_L1 - 1e-12 for u in c.log_U1) and all(u >= c.log_L2 - 1e-12 for u in c.log_U2)
    assert c.alpha >= 1
    for delta in (0.1, 0.5, 1.0):
        assert alpha_discrete(c, delta) >= c.alpha - 1e-9
