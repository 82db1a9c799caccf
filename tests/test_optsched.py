"""The public API (optsched/__init__.py): what it exports, loaded lazily, and its documented example."""

import doctest

import pytest

import optsched
import optsched.pipeline
import optsched.registry


def test_the_public_api_names_what_it_exports():
    for name in optsched.__all__:
        assert getattr(optsched, name) is not None
    with pytest.raises(AttributeError):
        optsched.no_such_thing  # noqa: B018



def test_the_documented_example_runs():
    outcome = doctest.testmod(optsched, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0
