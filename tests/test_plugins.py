"""A researcher's own algorithm (optsched/plugins.py) through `run`, `study` and `search` and from
Python: named `file.py:function` or `module:function`, bound like a registered one, verified like
one, keyed in the cache by its own source; bad names are bad input (exit 2, one line), a function
that raises or returns something else fails its run (exit 1, one line), a study records the crash
and goes on."""

from __future__ import annotations

import csv
import textwrap

import pytest

import optsched
from optsched.errors import InputError
from optsched.plugins import AlgorithmFailure

from .contract_helpers import optsched as run_installed

POLICIES = '''
"""A researcher's schedulers for the single family."""
from optsched.single.schedule import Schedule, left_shifted


def by_length(instance, *, seed=0, longest: bool = True):
    """Jobs by processing time, longest first unless told otherwise."""
    order = sorted(range(instance.n), key=lambda j: (instance.jobs[j].p, j), reverse=longest)
    return left_shifted(instance, tuple(order))


def without_seed(instance):
    return left_shifted(instance, tuple(range(instance.n)))


def first_come(instance):
    """Jobs in release order: online."""
    return left_shifted(instance, tuple(sorted(range(instance.n), key=lambda j: (instance.jobs[j].r, j))))


def boom(instance):
    return 1 / 0


def a_list(instance):
    return [0] * instance.n


def too_early(instance):
    return Schedule(tuple(-1.0 for _ in range(instance.n)))


def required(instance, alpha):
    return None


def listed(instance, alpha=[1]):
    return None


def forever(instance):
    """Never returns, and swallows what it can."""
    import time
    while True:
        try:
            time.sleep(0.01)
        except Exception:
            pass


def clairvoyant(instance):
    """WSPT over every job from the start, as if the future were known: not online."""
    order = sorted(range(instance.n), key=lambda j: (-instance.jobs[j].w / instance.jobs[j].p, j))
    return left_shifted(instance, tuple(order))


NOT_A_FUNCTION = 3
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "policies.py").write_text(textwrap.dedent(POLICIES))
    (tmp_path / "broken.py").write_text("def f(:\n")
    done = run_installed("generate", "single", "--preset", "tiny", "--seed", "0", "-o", "inst.json", cwd=tmp_path)
    assert done.code == 0, done.err
    return tmp_path


def test_a_function_in_a_file_runs_verified_with_its_parameters(folder):
    longest = run_installed("run", "inst.json", "--algorithm", "policies.py:by_length", "--json", cwd=folder)
    shortest = run_installed("run", "inst.json", "--algorithm", "policies.py:by_length", "--param", "longest=false",
                             "--json", cwd=folder)
    plain = run_installed("run", "inst.json", "--algorithm", "policies.py:without_seed", cwd=folder)
    assert longest.code == shortest.code == plain.code == 0, (longest.err, shortest.err, plain.err)
    import json

    a, b = json.loads(longest.out), json.loads(shortest.out)
    assert a["feasible"] and b["feasible"] and a["params"] == {"longest": True} and b["params"] == {"longest": False}
    wspt = json.loads(run_installed("run", "inst.json", "--algorithm", "wspt", "--json", cwd=folder).out)
    assert b["objective"] < a["objective"] and wspt["objective"] <= a["objective"]
    by_module = run_installed("run", "inst.json", "--algorithm", "policies:by_length", "--json", cwd=folder,
                              env={"PYTHONPATH": str(folder)})
    assert by_module.code == 0 and json.loads(by_module.out)["objective"] == a["objective"]


@pytest.mark.parametrize("name, message", [
    ("nope.py:f", "no such file nope.py"),
    ("policies.py:nope", "policies.py has no 'nope'"),
    ("policies.py:NOT_A_FUNCTION", "NOT_A_FUNCTION is a int, not a function"),
    ("broken.py:f", "cannot load broken.py"),
    ("no_such_package.policies:f", "cannot import no_such_package.policies: No module named 'no_such_package'"),
    ("policies.py:required", "parameter 'alpha' needs a default"),
    ("policies.py:listed", "parameter 'alpha' has a default of type list"),
    (":f", "expected module.path:function or file.py:function"),
])
def test_a_bad_name_is_one_line_of_bad_input(folder, name, message):
    done = run_installed("run", "inst.json", "--algorithm", name, cwd=folder)
    assert done.code == 2 and done.out == ""
    assert done.err.count("\n") == 1 and message in done.err and "Traceback" not in done.err, done.err


def test_an_unknown_parameter_of_a_function_is_bad_input(folder):
    done = run_installed("run", "inst.json", "--algorithm", "policies.py:by_length", "--param", "x=1", cwd=folder)
    assert done.code == 2 and "has no parameter 'x' (parameters: longest)" in done.err


@pytest.mark.parametrize("name, message", [
    ("policies.py:boom", "algorithm policies.py:boom raised ZeroDivisionError: division by zero (policies.py:"),
    ("policies.py:a_list", "algorithm policies.py:a_list returned a list, not a schedule of family single"),
])
def test_a_function_that_misbehaves_fails_its_run_in_one_line(folder, name, message):
    done = run_installed("run", "inst.json", "--algorithm", name, cwd=folder)
    assert done.code == 1 and done.err.count("\n") == 1 and message in done.err, done.err
    assert "internal error" not in done.err and "Traceback" not in done.err


def test_an_infeasible_schedule_is_judged_as_any_other(folder):
    done = run_installed("run", "inst.json", "--algorithm", "policies.py:too_early", cwd=folder)
    assert done.code == 1 and "INFEASIBLE" in done.out and "before its release date" in done.out


def test_a_study_runs_functions_beside_registered_algorithms_and_records_a_crash(folder):
    (folder / "mine.toml").write_text(textwrap.dedent('''
        name = "mine"
        [[part]]
        family = "single"
        instances = "tiny"
        seeds = "0-2"
        jobs = [4]
        algorithms = ["wspt", { name = "lpt", function = "policies.py:by_length" },
                      { name = "spt", function = "policies.py:by_length", params = { longest = false } },
                      "policies.py:by_length:longest=false", { name = "crash", function = "policies.py:boom" }]
        '''))
    done = run_installed("study", "mine.toml", "-o", "out", "--workers", "2", "--quiet", cwd=folder)
    assert done.code == 1 and "3 algorithm runs crashed" in done.out, (done.out, done.err)
    rows = list(csv.DictReader((folder / "out" / "results.csv").open()))
    by = {(r["method"], r["seed"]): r for r in rows}
    assert {r["method"] for r in rows} == {"wspt", "lpt", "spt", "policies.py:by_length:longest=false", "crash"}
    assert all(by["spt", s]["objective"] == by["policies.py:by_length:longest=false", s]["objective"] for s in "012")
    assert all(by["lpt", s]["status"] == "feasible" and float(by["lpt", s]["ratio"]) >= 1 for s in "012")
    crash = by["crash", "0"]
    assert crash["status"] == "error" and crash["message"].startswith(
        "algorithm policies.py:boom raised ZeroDivisionError: division by zero (policies.py:")
    again = run_installed("study", "mine.toml", "-o", "out", "--workers", "1", "--json", cwd=folder)
    import json

    counts = json.loads(again.out)
    assert counts["cached"] == counts["units"]  # a crash is a result too, until the file changes


def test_editing_the_file_runs_its_units_again_and_nothing_else(folder):
    argv = ("study", "--family", "single", "--instances", "tiny", "--seeds", "0-1", "--jobs", "4", "--algorithm",
            "wspt", "--algorithm", "policies.py:by_length", "-o", "out", "--workers", "1", "--json")
    import json

    first = json.loads(run_installed(*argv, cwd=folder).out)
    with (folder / "policies.py").open("a") as fh:
        fh.write("\n# an edit\n")
    second = json.loads(run_installed(*argv, cwd=folder).out)
    assert first["cached"] == 0 and second["units"] - second["cached"] == 2  # the function's 2 runs


def test_a_function_from_python_runs_as_a_registered_algorithm_does():
    family = optsched.get("single")
    instance = family.generate("tiny", seed=0)

    def spt(instance, *, seed=0, reverse=False):
        from optsched.single.schedule import left_shifted

        return left_shifted(instance, tuple(sorted(range(instance.n), key=lambda j: instance.jobs[j].p,
                                                   reverse=reverse)))

    ran = family.run(instance, spt)
    assert ran.feasible and ran.algorithm.endswith("spt")
    assert family.run(instance, spt, reverse=True).objective >= ran.objective
    with pytest.raises(InputError, match="has no parameter 'alpah'"):
        family.run(instance, spt, alpah=3)

    def broken(instance):
        raise ValueError("not yet")

    with pytest.raises(AlgorithmFailure, match="raised ValueError: not yet"):
        family.run(instance, broken)


def test_an_installed_package_registers_an_algorithm_by_name(folder):
    """An entry point of the group optsched.algorithms (`single.by-length = mine.policies:by_length`)
    makes `--algorithm by-length` work in run and study, listed in `families --json`; a name no
    package registers is still bad input."""
    import json

    package = folder / "site" / "mine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "policies.py").write_text(textwrap.dedent(POLICIES))
    info = folder / "site" / "mine-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mine\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[optsched.algorithms]\nsingle.by-length = mine.policies:by_length\n"
                                           "single.first-come = mine.policies:first_come\n")
    env = {"PYTHONPATH": str(folder / "site")}
    ran = run_installed("run", "inst.json", "--algorithm", "by-length", "--param", "longest=false", "--json",
                        cwd=folder, env=env)
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["algorithm"] == "by-length" and json.loads(ran.out)["feasible"]
    listed = json.loads(run_installed("families", "--json", cwd=folder, env=env).out)
    single = next(f for f in listed if f["name"] == "single")
    assert single["installed_algorithms"] == {"by-length": "mine.policies:by_length",
                                              "first-come": "mine.policies:first_come"}
    studied = run_installed("study", "--family", "single", "--instances", "tiny", "--seeds", "0-1", "--jobs", "3",
                            "--algorithm", "first-come", "-o", "out", "--quiet", cwd=folder, env=env)
    assert studied.code == 0 and "online: first-come held on" in studied.out, (studied.out, studied.err)
    unknown = run_installed("run", "inst.json", "--algorithm", "by-length", cwd=folder)  # not installed here
    assert unknown.code == 2 and "has no algorithm 'by-length'" in unknown.err


def test_a_study_checks_each_function_is_online_and_names_one_that_is_not(folder):
    """optsched.testing.check_online runs for each researcher's function of a study, as a cached unit:
    one that reads jobs before they arrive is a PROBLEM line (exit 1), an online one is reported
    held; registered algorithms are left to optsched's own tests."""
    import json

    argv = ("study", "--family", "single", "--instances", "tiny", "--seeds", "0-2", "--jobs", "4", "--algorithm",
            "wspt", "--algorithm", "policies.py:first_come", "--algorithm", "policies.py:clairvoyant", "-o", "out",
            "--workers", "1")
    done = run_installed(*argv, "--quiet", cwd=folder)
    assert done.code == 1, done.err
    assert "online: policies.py:first_come held on" in done.out
    assert "PROBLEM: policies.py:clairvoyant is not online: " in done.out
    online = json.loads(run_installed(*argv, "--json", cwd=folder).out)["online"]
    assert set(online) == {"policies.py:first_come", "policies.py:clairvoyant"}
    assert online["policies.py:first_come"]["violation"] is None and online["policies.py:clairvoyant"]["violation"]


def test_an_edited_file_is_loaded_and_keyed_again_in_the_same_process(tmp_path, monkeypatch):
    """In a notebook the process lives on: after an edit of the file, the next run uses the new code
    and a study's key for its runs changes (the file's change time is part of both caches' keys)."""
    import os

    from optsched.study.depends import code_of

    monkeypatch.chdir(tmp_path)
    source = tmp_path / "mine.py"
    source.write_text("from optsched.single.schedule import left_shifted\n\n"
                      "def rule(instance):\n    return left_shifted(instance, tuple(range(instance.n)))\n")
    family = optsched.get("single")
    instance = family.generate("tiny", seed=1)
    payload = {"kind": "algorithm", "family": "single", "spec": {"algorithm": "mine.py:rule"}}
    first, key = family.run(instance, "mine.py:rule").objective, code_of(payload)
    source.write_text(source.read_text().replace("tuple(range(instance.n))", "tuple(reversed(range(instance.n)))"))
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a later edit, whatever the clock's grain
    assert family.run(instance, "mine.py:rule").objective != first
    assert code_of(payload) != key


def test_a_study_built_in_python_takes_an_importable_function_and_refuses_a_local_one(folder, monkeypatch):
    from optsched.study import run, study

    monkeypatch.syspath_prepend(str(folder))
    import policies  # the fixture's file, importable by name for the study's workers

    built = study({"name": "py", "workers": 1, "part": [{"family": "single", "seeds": 2, "jobs": [3],
                                                          "algorithms": ["wspt", policies.first_come]}]},
                  "mine", folder / "out")
    outcome = run(built, progress=False)
    assert set(outcome.results["method"]) == {"wspt", "policies:first_come"}
    assert (outcome.results["status"] == "feasible").all() and outcome.online["policies:first_come"]["violation"] is None

    def local(instance):
        return None

    with pytest.raises(InputError, match="cannot import; put it in a file"):
        study({"name": "py", "part": [{"family": "single", "seeds": 2, "jobs": [3], "algorithms": [local]}]},
              "mine", folder / "other")


def test_a_function_past_its_budget_is_stopped_and_fails_its_run_in_one_line(folder):
    import time

    started = time.perf_counter()
    done = run_installed("run", "inst.json", "--algorithm", "policies.py:forever", "--algorithm-budget", "0.5",
                         cwd=folder)
    assert time.perf_counter() - started < 30
    assert done.code == 1 and done.out == "" and done.err.count("\n") == 1, (done.out, done.err)
    assert "algorithm policies.py:forever ran past its per-run budget of 0.5 s (wall clock" in done.err
    within = run_installed("run", "inst.json", "--algorithm", "policies.py:first_come", "--algorithm-budget", "60",
                           cwd=folder)
    assert within.code == 0 and "feasible" in within.out


@pytest.mark.parametrize("argv, message", [
    (("run", "inst.json", "--algorithm", "wspt", "--algorithm-budget", "0"), "--algorithm-budget: must be a positive"),
    (("run", "inst.json", "--algorithm", "wspt", "--algorithm-budget", "inf"), "--algorithm-budget: must be a positive"),
    (("study", "bad-budget.toml"), "bad-budget.toml.algorithm_budget: must be a positive number of seconds, got -1"),
])
def test_a_bad_budget_is_one_line_of_bad_input(folder, argv, message):
    (folder / "bad-budget.toml").write_text('algorithm_budget = -1\n[[part]]\nfamily = "single"\n')
    done = run_installed(*argv, cwd=folder)
    assert done.code == 2 and done.out == "" and done.err.count("\n") == 1 and message in done.err, done.err


def test_a_study_records_a_run_past_its_budget_goes_on_and_tries_it_again_next_time(folder):
    """The budget's failure is a crashed row (the study finishes every other unit), its online check
    names the budget, and neither is cached: a rerun, perhaps with a larger budget, runs them again."""
    import json

    argv = ("study", "--family", "single", "--instances", "tiny", "--seeds", "0-1", "--jobs", "4", "--algorithm",
            "wspt", "--algorithm", "policies.py:forever", "--algorithm-budget", "0.3", "-o", "out", "--workers", "2")
    done = run_installed(*argv, "--quiet", cwd=folder)
    assert done.code == 1 and "PROBLEM: 2 algorithm runs crashed" in done.out, (done.out, done.err)
    assert "PROBLEM: policies.py:forever could not be checked for online: algorithm policies.py:forever ran past " \
           "its per-run budget of 0.3 s" in done.out
    rows = list(csv.DictReader((folder / "out" / "results.csv").open()))
    forever = [r for r in rows if r["method"] == "policies.py:forever"]
    assert len(forever) == 2 and all(r["status"] == "error" and "per-run budget" in r["message"] for r in forever)
    assert all(r["status"] == "feasible" for r in rows if r["method"] == "wspt")
    again = json.loads(run_installed(*argv, "--json", cwd=folder).out)
    assert again["units"] - again["cached"] == 2  # the two stopped runs, not cached


def test_a_budget_from_python():
    from optsched.plugins import OverBudget

    family = optsched.get("single")
    instance = family.generate("tiny", seed=0)

    def stuck(instance):
        while True:
            pass

    with pytest.raises(OverBudget, match="ran past its per-run budget of 0.2 s"):
        family.run(instance, stuck, budget_s=0.2)
    assert family.run(instance, "wspt", budget_s=0.2).feasible  # a registered algorithm ignores it
    with pytest.raises(InputError, match="budget_s: expected a number, got 'soon'"):
        family.run(instance, stuck, budget_s="soon")


def test_a_search_stops_naming_a_function_past_its_budget(folder):
    done = run_installed("search", "single", "--algorithm", "policies.py:forever", "--budget", "2", "--shrink-budget",
                         "0", "--algorithm-budget", "0.3", "-o", "s", "--workers", "1", "--quiet", cwd=folder)
    assert done.code == 1 and done.err.count("\n") == 1, done.err
    assert "scoring an instance failed: algorithm policies.py:forever ran past its per-run budget of 0.3 s" in done.err
