"""Size limits (optsched/limits.py): a quantity above its limit is one clear InputError naming it,
and the node budget fits HiGHS's 32-bit node limit."""

import pytest

from optsched.errors import InputError
from optsched.limits import MAX_MODEL_VARIABLES, MAX_NODES, NODE_LIMIT, model_variables, refuse_above


def test_refuse_above_names_the_quantity_and_the_limit():
    refuse_above(10, 10, "jobs")  # at the limit: fine
    with pytest.raises(InputError, match=r"^jobs is 11, more than optsched handles \(10\)$"):
        refuse_above(11, 10, "jobs")


def test_model_variables_refuses_a_model_too_big_to_build():
    model_variables(MAX_MODEL_VARIABLES, "time-indexed")
    with pytest.raises(InputError, match="the time-indexed model's variable count"):
        model_variables(MAX_MODEL_VARIABLES + 1, "time-indexed")


def test_node_budgets_fit_highs():
    assert NODE_LIMIT <= MAX_NODES < 2**31
