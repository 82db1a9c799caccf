"""The family registry and algorithm parameters (optsched/registry.py)."""

import pytest

from optsched.errors import InputError
from optsched.registry import Algorithm, families, get


def test_every_family_is_complete():
    for family in families().values():
        assert family.sense in ("min", "max")
        assert family.formulations and family.algorithms and family.presets
        instance = family.generate(family.presets[0], seed=0)
        assert family.instance_from_dict(instance.to_dict(), "instance") == instance


def test_unknown_names_are_input_errors():
    with pytest.raises(InputError, match="unknown family 'nope'"):
        get("nope")
    with pytest.raises(InputError, match="no formulation"):
        get("single").formulation("nope")


def test_params_are_coerced_to_the_defaults_types():
    algorithm = Algorithm("a", lambda instance, seed: None, "",
                          {"alpha": 1.5, "k": 3, "fast": False, "mode": "paper", "rule": ("timeline", "eq5")})
    bound = algorithm.bind({"alpha": "2", "k": "7", "fast": "yes", "mode": "exact", "rule": "eq5"})
    assert bound == {"alpha": 2.0, "k": 7, "fast": True, "mode": "exact", "rule": "eq5"}
    assert algorithm.bind({}) == {"alpha": 1.5, "k": 3, "fast": False, "mode": "paper", "rule": "timeline"}
    for given, message in (({"k": "2.5"}, "expected an integer"), ({"alpha": "inf"}, "finite"),
                           ({"fast": "maybe"}, "true or false"), ({"beta": "1"}, "no parameter 'beta'"),
                           ({"rule": "other"}, "must be one of timeline, eq5")):
        with pytest.raises(InputError, match=message):
            algorithm.bind(given)
