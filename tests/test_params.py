"""Parameter declarations and binding: types from defaults, choices, ranges, and did-you-mean (optsched/params.py)."""

import pytest

from optsched.errors import InputError
from optsched.params import at_least, between, default_of, did_you_mean, positive
from optsched.registry import Algorithm


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


def test_bounded_params_are_range_checked():
    algorithm = Algorithm("a", lambda instance, seed: None, "",
                          {"scale": positive(1.0), "share": between(0, 1, 0.5)})
    assert algorithm.bind({"scale": "2.5", "share": "1"}) == {"scale": 2.5, "share": 1.0}
    for given, message in (({"scale": "0"}, "must be > 0, got 0"), ({"scale": "-1"}, "must be > 0"),
                           ({"share": "1.5"}, "must be >= 0 and <= 1, got 1.5")):
        with pytest.raises(InputError, match=message):
            algorithm.bind(given)



def test_did_you_mean_names_the_closest_known_name_or_nothing():
    assert did_you_mean("aonlin", ["aonline", "srtf"]) == ": did you mean 'aonline'?"
    assert did_you_mean("zzzz", ["aonline", "srtf"]) == ""


def test_default_of_reads_through_choices_and_ranges():
    assert default_of(("timeline", "eq5")) == "timeline"
    assert default_of(between(0, 1, 0.25)) == 0.25 and default_of(3) == 3
    assert at_least(2, 5).admits(2) and not at_least(2, 5).admits(1.5)
