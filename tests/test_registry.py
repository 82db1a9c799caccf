"""The family registry and algorithm parameters (optsched/registry.py)."""

import pytest

from optsched.errors import InputError
from optsched.params import default_of
from optsched.registry import families, get


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


def test_registration_imports_no_numeric_or_solver_library():
    """Families are registered lazily: loading every registration imports neither numpy, pulp nor
    highspy (so that `optsched families` starts fast); their functions are imported when called."""
    import subprocess
    import sys

    code = ("import sys; from optsched.registry import families; families(); "
            "print(sorted(m for m in ('numpy', 'pulp', 'highspy', 'scipy', 'networkx', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_lazy_reference_resolves():
    from optsched.pipeline import judging_functions
    from optsched.registry import Lazy

    for family in families().values():
        named = [family.generator, family.instance_from_dict, family.schedule_from_dict,
                 *judging_functions(family), *(f.build for f in family.formulations.values()),
                 *(a.run for a in family.algorithms.values()), *(a.theorem for a in family.algorithms.values()),
                 *(r.run for r in family.reproductions.values()), *(c.slack for c in family.checks.values()),
                 family.space]
        for reference in named:
            if isinstance(reference, Lazy):
                assert callable(reference.resolve()), reference


def test_registered_constants_equal_the_modules_that_use_them():
    """The registrations spell out presets and choices so as not to import their modules; these are
    the modules' own values."""
    from optsched.asrpt import generate as asrpt_generate
    from optsched.asrpt import online as asrpt_online
    from optsched.edge import generate as edge_generate
    from optsched.hetero import generate as hetero_generate
    from optsched.hetero import online as hetero_online
    from optsched.hetero import oracles
    from optsched.oasis import generate as oasis_generate
    from optsched.placement import generate as placement_generate
    from optsched.placement import templates
    from optsched.single import generate as single_generate

    assert get("single").presets == tuple(single_generate.PRESETS)
    assert get("oasis").presets == oasis_generate.PRESETS
    assert get("edge").presets == edge_generate.PRESETS
    assert get("hetero").presets == hetero_generate.PRESETS
    assert get("asrpt").presets == asrpt_generate.PRESETS
    assert get("placement").presets == placement_generate.PRESETS
    aonline = get("hetero").algorithm("aonline").params
    assert aonline["alpha_mode"] == hetero_online.ALPHA_MODES and aonline["oracle"] == hetero_online.ORACLES
    assert aonline["tie_break"] == oracles.TIE_BREAKS
    assert default_of(get("asrpt").algorithm("asrpt").params["comm_heavy"]) == asrpt_online.COMM_HEAVY
    assert get("placement").generator_options["model"] == tuple(templates.MODELS)


def test_registered_defaults_equal_the_functions_defaults():
    """Every generator option and algorithm parameter defaults, in the registry, to what the function
    itself defaults to, so that a library call and a CLI call with no flags do the same thing."""
    import inspect

    for family in families().values():
        signature = inspect.signature(family.generator.resolve()).parameters
        for key, value in family.generator_options.items():
            assert signature[key].default == default_of(value), (family.name, key)
        for algorithm in family.algorithms.values():
            signature = inspect.signature(algorithm.run.resolve()).parameters
            for key, value in algorithm.params.items():
                assert signature[key].default == default_of(value), (family.name, algorithm.name, key)




def test_the_documented_examples_run():
    import doctest

    import optsched.registry

    outcome = doctest.testmod(optsched.registry, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_the_readme_family_table_lists_every_formulation_and_algorithm():
    """README's table of families names what the registry holds, in the registry's order."""
    import re
    from pathlib import Path

    rows = {}
    for line in (Path(__file__).parents[1] / "README.md").read_text().splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]  # "\|" is a pipe inside a cell
        if len(cells) > 6 and cells[1].startswith("`") and cells[1].strip("`") in families():
            rows[cells[1].strip("`")] = (cells[4], cells[5])
    assert set(rows) == set(families())
    for name, family in families().items():
        assert rows[name] == (", ".join(f"`{f}`" for f in family.formulations),
                              ", ".join(f"`{a}`" for a in family.algorithms)), name
