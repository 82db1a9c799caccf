"""The command-line contract where users meet it: the installed ``optsched`` console script, run as
a subprocess, every verb on every registered family.

In-process tests (``cli.main`` with ``capsys``) never see what native libraries write to file
descriptors 1 and 2; these do. They check the exit code, that standard output is exactly one JSON
document with ``--json``, that human output carries no solver chatter, and that a success leaves
standard error empty. Bad input is covered by tests/test_bad_input.py, through the same runner.
"""

from __future__ import annotations

import json

import pytest

from optsched.jsonio import fingerprint
from optsched.registry import FAMILY_PACKAGES, get

from .contract_helpers import optsched

FAMILIES = list(FAMILY_PACKAGES)
FORMULATIONS = [(f, name) for f in FAMILIES for name in get(f).formulations]
ALGORITHMS = [(f, name) for f in FAMILIES for name in get(f).algorithms]

SOLVE_KEYS = {"family", "formulation", "relaxed", "answers", "solver", "status", "objective", "bound", "gap",
              "runtime_s", "sense"}
RUN_KEYS = {"family", "algorithm", "objective", "feasible", "violations", "runtime_s"}
VERIFY_KEYS = {"feasible", "objective", "violations"}


def generate_args(family: str) -> list[str]:
    sizes = get(family).demo_sizes
    return ["generate", family, "--preset", "tiny", "--seed", "1"] + (["--jobs", str(sizes[0])] if sizes else [])


@pytest.fixture(scope="module")
def instances(tmp_path_factory):
    """One tiny instance file per family, written by the installed command."""
    folder = tmp_path_factory.mktemp("instances")
    paths = {}
    for family in FAMILIES:
        paths[family] = folder / f"{family}.json"
        done = optsched(*generate_args(family), "-o", paths[family])
        assert done.code == 0 and done.out == "" and done.err == "", done
    return paths


def strict(text: str):
    """``text`` as one strict JSON document: anything before or after it, and NaN or Infinity, fail."""
    def refuse(literal):
        raise AssertionError(f"{literal} in --json output: not JSON")

    return json.loads(text, parse_constant=refuse)


def json_output(done):
    """The one JSON document on stdout (json.loads refuses anything before or after it)."""
    assert done.err == "", done.err
    return strict(done.out)


def test_families_json_is_one_document_listing_every_family():
    listed = json_output(optsched("families", "--json"))
    assert [f["name"] for f in listed] == FAMILIES
    for entry in listed:
        family = get(entry["name"])
        assert entry["sense"] == family.sense in ("min", "max")
        assert entry["formulations"] == list(family.formulations)
        assert entry["formulation_answers"] == {name: family.answer(name) for name in family.formulations}
        side = "lower bound" if family.sense == "min" else "upper bound"
        assert {entry["formulation_answers"][name] == side for name, f in family.formulations.items()
                if f.answers == "bound"} <= {True}
        assert entry["algorithms"] == list(family.algorithms)


@pytest.mark.parametrize("family", FAMILIES)
def test_generate_prints_one_instance_document(family):
    document = json_output(optsched(*generate_args(family)))
    assert document["family"] == family and document["format"] == 1 and "instance" in document


@pytest.mark.parametrize("relax", [False, True], ids=["exact", "relax"])
@pytest.mark.parametrize(("family", "formulation"), FORMULATIONS)
def test_solve_json_is_one_document(instances, family, formulation, relax):
    done = optsched("solve", instances[family], "--formulation", formulation, "--json", *(["--relax"] if relax else []))
    if relax and get(family).formulation(formulation).engine == "cp-sat":  # a CP-SAT model has no LP: bad input
        assert (done.code, done.out) == (2, "") and done.err == f"optsched: error: formulation {formulation} has no LP relaxation\n"
        return
    data = json_output(done)
    assert SOLVE_KEYS <= set(data)
    assert data["family"] == family and data["formulation"] == formulation and data["relaxed"] is relax
    assert data["status"] == "optimal", data
    # a bound says it is one, however optimal its own model's status
    side = "lower bound" if get(family).sense == "min" else "upper bound"
    registered = get(family).formulation(formulation).answers
    expected = {"optimum": side if relax else "optimum", "bound": side, "other": "other objective"}[registered]
    assert data["answers"] == expected
    if not relax:
        first = optsched("solve", instances[family], "--formulation", formulation).out.splitlines()[0]
        assert (f"{formulation} (" in first) and (("bound on the optimum" in first) == (expected == side))
    assert done.code == 0
    if "verified" in data:
        assert data["verified"]["feasible"] and data["verified"]["matches_solver"], data


@pytest.mark.parametrize(("family", "algorithm"), ALGORITHMS)
def test_run_json_and_verify_json_agree(instances, tmp_path, family, algorithm):
    schedule = tmp_path / "schedule.json"
    ran = optsched("run", instances[family], "--algorithm", algorithm, "--json", "-o", schedule)
    data = json_output(ran)
    assert RUN_KEYS <= set(data) and data["family"] == family and data["algorithm"] == algorithm
    assert ran.code == 0 and data["feasible"] is True and data["violations"] == []
    checked = optsched("verify", instances[family], schedule, "--json")
    verdict = json_output(checked)
    assert VERIFY_KEYS <= set(verdict) and checked.code == 0
    assert verdict["feasible"] is True and verdict["objective"] == pytest.approx(data["objective"], rel=1e-9)


@pytest.mark.parametrize("family", FAMILIES)
def test_human_solve_output_carries_no_solver_chatter(instances, family):
    formulation = next(iter(get(family).formulations))
    done = optsched("solve", instances[family], "--formulation", formulation, "--cross-check")
    assert done.code == 0 and done.err == ""
    assert done.out.startswith(f"{family} / {formulation} (MILP) with highs ")
    assert "Copyright" not in done.out and "Running HiGHS" not in done.out and "Coin" not in done.out


def test_solver_log_goes_to_the_log_file_not_stdout(instances, tmp_path):
    log = tmp_path / "solver.log"
    done = optsched("solve", instances["single"], "--formulation", "time-indexed", "--cross-check", "solver", "--json",
                    "--log", log)
    assert json_output(done)["status"] == "optimal"
    text = log.read_text()
    assert "HiGHS" in text and "Coin" in text  # both solvers' logs, on request
    done = optsched("solve", instances["single"], "--formulation", "time-indexed", "--cross-check", "model", "--json",
                    "--log", log)
    assert json_output(done)["cross_check"]["formulation"] == "cp-sat"
    assert "Starting CP-SAT solver" in log.read_text()  # CP-SAT's log too


def test_solver_log_to_stderr_leaves_stdout_one_document(instances):
    done = optsched("solve", instances["single"], "--formulation", "time-indexed", "--json", "--log", "-")
    assert json.loads(done.out)["status"] == "optimal" and "HiGHS" in done.err


def test_a_tiny_study_prints_one_json_summary(tmp_path):
    out = tmp_path / "study"
    done = optsched("study", "--family", "single", "--seeds", "2", "--jobs", "3", "--workers", "1", "--quiet",
                    "--json", "-o", out)
    summary = strict(done.out)  # stderr carries the study's status lines
    assert done.code == 0 and summary["units"] > 0 and summary["problems"] == []
    assert None in [row["bound_ratio_max"] for row in summary["methods"]]  # NaN (no bound-only ratio) as null
    assert (out / "results.csv").exists()


def test_reproduce_list_names_every_reproduction():
    done = optsched("reproduce", "--list")
    assert done.code == 0 and done.err == ""
    names = [line.split(":")[0] for line in done.out.splitlines()]
    expected = [name for f in FAMILIES for name in get(f).reproductions]
    assert sorted(names) == sorted(set(expected))


def test_generate_json_with_output_describes_the_file_written(tmp_path):
    done = optsched("generate", "single", "--seed", "4", "-o", tmp_path / "i.json", "--json")
    described = json_output(done)
    assert done.code == 0 and described["output"] == str(tmp_path / "i.json") and described["seed"] == 4
    assert described["instance"] == fingerprint(json.loads((tmp_path / "i.json").read_text())["instance"])


def test_reproduce_json_is_one_strict_document(tmp_path):
    done = optsched("reproduce", "asrpt-table2", "--preset", "quick", "--workers", "1", "--quiet", "--json",
                    "-o", tmp_path / "rep")
    assert done.code == 0, done.err
    report = strict(done.out)
    assert report["name"] == "asrpt-table2" and report["tables"] and (tmp_path / "rep" / report["figures"][0]).exists()
    listed = json_output(optsched("reproduce", "--list", "--json"))
    assert "asrpt-table2" in [r["name"] for r in listed]


def test_search_json_is_one_strict_document(tmp_path):
    done = optsched("search", "oasis", "--algorithm", "oasis", "--size-max", "2", "--budget", "4", "--shrink-budget",
                    "2", "--workers", "1", "--quiet", "--json", "-o", tmp_path / "s")
    assert done.code == 0, done.err
    assert strict(done.out)["certificate"]


@pytest.mark.parametrize("family", list(FAMILY_PACKAGES))
def test_solve_best_with_a_five_second_limit_returns_a_verified_schedule_within_five_and_a_half(family, tmp_path):
    """Issue 51's Done-when: `optsched solve INST --formulation best --time-limit 5 --json` on a
    20-job instance of every family ends within 5.5 s with a verified schedule (the solver's, or the
    best verified online one where the solver had none as good)."""
    import time

    sized = ["--jobs", "20"] if get(family).demo_sizes else []
    assert optsched("generate", family, "--preset", "small", "--seed", "0", *sized, "-o", tmp_path / "i.json").code == 0
    started = time.perf_counter()
    done = optsched("solve", tmp_path / "i.json", "--formulation", "best", "--time-limit", "5", "--threads", "1",
                    "--json")
    took = time.perf_counter() - started
    data = json_output(done)
    assert done.code == 0 and took <= 5.5, (took, done.err)
    assert data["status"] in ("optimal", "feasible") and data["verified"]["feasible"]
    assert data["verified"]["matches_solver"]
