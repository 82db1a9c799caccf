"""Decoders never guess: every formulation that gives a schedule reads integer variables through
``numeric.integral``, so a solution with a fractional integer variable is refused with ValueError
rather than read as 0 or as "not chosen".

The test watches which variables a decoder reads, then makes each of them (up to 40, spread over
the model) fractional in turn: every one must be refused."""

from __future__ import annotations

from dataclasses import replace

import pulp
import pytest

from optsched.registry import FAMILY_PACKAGES, get
from optsched.solvers import CpSatModel, Model, solve

DECODED = [(family, name) for family in FAMILY_PACKAGES for name, formulation in get(family).formulations.items()
           if formulation.gives_schedule]


@pytest.mark.parametrize("family, formulation", DECODED)
def test_a_fractional_solution_is_refused_by_the_decoder(family, formulation):
    fam = get(family)
    sizes = fam.demo_sizes
    instance = fam.generate("tiny", seed=1, jobs=sizes[0] if sizes else None)
    model = fam.formulation(formulation).build(instance)
    assert isinstance(model, (Model, CpSatModel)) and model.decoder is not None
    result = solve(model)
    assert result.optimal, result.message
    watched = Watched(result.values)
    model.decoder(replace(result, values=watched))  # the solver's own (integral) solution decodes
    if isinstance(model, CpSatModel):  # every CP-SAT variable is integral
        integers = set(model.read)
    else:
        integers = {v.name for v in model.problem.variables() if v.cat == pulp.LpInteger}
    read = sorted(watched.read & integers)
    assert read, "the decoder reads no integer variable"
    for name in read[::max(1, len(read) // 40)]:
        shaken = replace(result, values={**result.values, name: result.values[name] + 0.5})
        with pytest.raises(ValueError, match="not integral"):
            model.decoder(shaken)


class Watched(dict):
    """Solution values that remember which names were read."""

    def __init__(self, values):
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, name):
        self.read.add(name)
        return super().__getitem__(name)
