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


# The Python API's contract (issue 49): a bad argument raises InputError where it enters, naming the
# argument, before any work; another family's instance or schedule is named as such. Each row:
# a call on the fixtures (single: instance and schedule; oasis: the same), and the text expected.
def _fixtures():
    single, oasis = optsched.get("single"), optsched.get("oasis")
    i, oi = single.generate("tiny", seed=1), oasis.generate("tiny", seed=1)
    return {"single": single, "oasis": oasis, "i": i, "oi": oi, "s": single.run(i, "wspt").schedule,
            "os": oasis.run(oi, "oasis").schedule}


BAD_CALLS = {
    "get(123)": (lambda f: optsched.get(123), "expected a name (a string), got 123"),
    "get(None)": (lambda f: optsched.get(None), "expected a name (a string), got None"),
    "get('sngle')": (lambda f: optsched.get("sngle"), "did you mean 'single'?"),
    "algorithm(None)": (lambda f: f["single"].algorithm(None), "single's algorithm: expected a name"),
    "formulation(3)": (lambda f: f["single"].formulation(3), "single's formulation: expected a name"),
    "solve(fam, inst, None)": (lambda f: optsched.solve(f["single"], f["i"], None), "formulation: expected a name"),
    "solve(3, inst, ...)": (lambda f: optsched.solve(3, f["i"], "time-indexed"), "family: expected a Family"),
    "solve('single', inst, ...)": (lambda f: optsched.solve("single", f["i"], "time-indexed"),
                                   "pass optsched.get('single')"),
    "solve(single, an oasis instance)": (lambda f: optsched.solve(f["single"], f["oi"], "time-indexed"),
                                         "instance: an instance of family oasis, not an instance of family single"),
    "solve(single, a dict)": (lambda f: optsched.solve(f["single"], {"jobs": []}, "time-indexed"),
                              "instance: a dict, not an instance of family single"),
    "run(single, an oasis instance)": (lambda f: f["single"].run(f["oi"], "wspt"), "instance of family oasis"),
    "judge(single, inst, an oasis schedule)": (lambda f: f["single"].judge(f["i"], f["os"]),
                                               "schedule: a schedule of family oasis"),
    "judge(single, inst, None)": (lambda f: optsched.judge(f["single"], f["i"], None), "schedule: a NoneType"),
    "generate('nosuch')": (lambda f: f["single"].generate("nosuch"), "has no preset 'nosuch'"),
    "generate(None)": (lambda f: f["single"].generate(None), "preset: expected a name"),
    "generate(seed=-1)": (lambda f: f["single"].generate("tiny", seed=-1), "seed: must be >= 0"),
    "generate(seed=1.5)": (lambda f: f["single"].generate("tiny", seed=1.5), "seed: expected an integer"),
    "generate(jobs=0)": (lambda f: f["single"].generate("tiny", jobs=0), "jobs: must be >= 1"),
    "generate(jobs=10**6)": (lambda f: f["single"].generate("tiny", jobs=10**6), "jobs: must be >= 1 and <= 100000"),
    "generate(an unknown option)": (lambda f: f["single"].generate("tiny", bogus=1), "has no parameter 'bogus'"),
    "generate(oasis, mode=3)": (lambda f: f["oasis"].generate("tiny", mode=3), "mode: must be one of"),
    "run(u_scale=nan)": (lambda f: f["oasis"].run(f["oi"], "oasis", u_scale=float("nan")),
                         "u_scale: expected a finite number"),
    "run(u_scale=0)": (lambda f: f["oasis"].run(f["oi"], "oasis", u_scale=0.0), "u_scale: must be > 0"),
    "run(u_scale='2')": (lambda f: f["oasis"].run(f["oi"], "oasis", u_scale="2"), "u_scale: expected a number"),
    "run(an unknown parameter)": (lambda f: f["single"].run(f["i"], "wspt", nope=1), "has no parameter 'nope'"),
    "run(seed=-1)": (lambda f: f["single"].run(f["i"], "wspt", seed=-1), "seed: must be >= 0"),
    "run(seed=True)": (lambda f: f["single"].run(f["i"], "wspt", seed=True), "seed: expected an integer"),
    "run(algorithm=None)": (lambda f: optsched.run(f["single"], f["i"], None), "algorithm: expected a name"),
    "solve(time_limit=-1)": (lambda f: f["single"].solve(f["i"], "time-indexed", time_limit=-1),
                             "time_limit: must be > 0"),
    "solve(time_limit=inf)": (lambda f: f["single"].solve(f["i"], "time-indexed", time_limit=float("inf")),
                              "time_limit: expected a finite number"),
    "solve(threads=0)": (lambda f: f["single"].solve(f["i"], "time-indexed", threads=0), "threads: must be >= 1"),
    "solve(threads=-1)": (lambda f: f["single"].solve(f["i"], "time-indexed", threads=-1), "threads: must be >= 1"),
    "solve(threads='4')": (lambda f: f["single"].solve(f["i"], "time-indexed", threads="4"),
                           "threads: expected an integer"),
    "solve(threads=2**31)": (lambda f: f["single"].solve(f["i"], "cp-sat", threads=2**31), "threads: must be >= 1"),
    "solve(node_limit=2**40)": (lambda f: f["single"].solve(f["i"], "time-indexed", node_limit=2**40),
                                "node_limit: must be >= 1 and <= 2,000,000,000"),
    "solve(work_limit=0)": (lambda f: f["single"].solve(f["i"], "cp-sat", work_limit=0), "work_limit: must be > 0"),
    "solve(gap=-0.1)": (lambda f: f["single"].solve(f["i"], "time-indexed", gap=-0.1), "gap: must be >= 0"),
    "solve(relax='yes')": (lambda f: f["single"].solve(f["i"], "time-indexed", relax="yes"),
                           "relax: expected True or False"),
    "solve(solver='gurobi')": (lambda f: f["single"].solve(f["i"], "time-indexed", solver="gurobi"),
                               "solver: must be one of highs, cbc, cp-sat"),
    "solve(cross_check='twice')": (lambda f: f["single"].solve(f["i"], "time-indexed", cross_check="twice"),
                                   "cross_check: must be one of auto, solver, model"),
}


@pytest.fixture(scope="module")
def api():
    return _fixtures()


@pytest.mark.parametrize("call", list(BAD_CALLS))
def test_a_bad_argument_to_the_python_api_is_an_input_error_naming_it(call, api):
    make, expected = BAD_CALLS[call]
    with pytest.raises(optsched.InputError) as raised:
        make(api)
    assert expected in str(raised.value) and "\n" not in str(raised.value), str(raised.value)


def test_the_plots_name_another_familys_schedule_and_a_table_without_its_columns(api):
    from optsched import plot

    with pytest.raises(optsched.InputError, match="schedule: a schedule of family oasis"):
        plot.gantt(api["i"], api["os"])
    with pytest.raises(optsched.InputError, match="results: expected a table"):
        plot.ratios(None)
    with pytest.raises(optsched.InputError, match="results: no column method, ratio"):
        plot.ratios([{"family": "single"}])


def test_good_arguments_of_the_kinds_the_api_accepts_still_work(api):
    """An integer where a number is declared; NumPy integers."""
    import numpy as np

    assert optsched.solve(api["single"], api["i"], "time-indexed", threads=np.int64(1)).result.status == "optimal"
    assert api["oasis"].run(api["oi"], "oasis", u_scale=2).feasible
    assert api["single"].generate("tiny", seed=np.int32(4), jobs=3).n == 3


def test_the_api_shows_itself_in_a_notebook():
    """A short repr, signatures with their options (Jupyter's help), the public API in dir(), and one
    public ratio helper (its doctest)."""
    import doctest
    import inspect

    import optsched.numeric

    family = optsched.get("hetero")
    assert len(repr(family)) < 300 and repr(family).startswith("<Family hetero (min)")
    assert {"relax", "time_limit", "node_limit", "cross_check"} <= set(inspect.signature(family.solve).parameters)
    assert list(inspect.signature(family.formulation("configuration").build).parameters)[:2] == ["instance", "relax"]
    assert "Any" not in dir(optsched) and "importlib" not in dir(optsched) and "ratio" in dir(optsched)
    outcome = doctest.testmod(optsched.numeric, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted and not outcome.failed
    assert optsched.ratio("max", 0, 5) == float("inf") and optsched.ratio(family, 10, 10 * (1 + 1e-9)) == 1.0
    with pytest.raises(optsched.InputError, match="sense"):
        optsched.ratio("minimise", 1, 2)
