"""The command-line contract of docs/design.md: every verb, JSON fields, bad input, exit codes."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli_helpers import run, run_json


@pytest.fixture
def instance(tmp_path, capfd):
    path = tmp_path / "instance.json"
    assert run(capfd, "generate", "single", "--seed", 3, "-o", path)[0] == 0
    return path


def test_families_lists_single_with_its_formulations_and_algorithms(capfd):
    code, families, _ = run_json(capfd, "families")
    single = next(f for f in families if f["name"] == "single")
    assert code == 0 and single["sense"] == "min"
    assert single["formulations"] == ["time-indexed", "reduced-time-indexed", "cp-sat", "mean-busy-time"]
    assert single["algorithms"] == ["wspt", "fifo"]
    code, out, _ = run(capfd, "families")
    assert "single (min)" in out and "time-indexed" in out


def test_generate_writes_to_stdout_or_a_file(capfd, tmp_path):
    code, out, _ = run(capfd, "generate", "single", "--preset", "small", "--seed", 5, "--jobs", 7)
    document = json.loads(out)
    assert code == 0 and document["family"] == "single" and len(document["instance"]["jobs"]) == 7
    assert document["meta"]["seed"] == 5 and document["meta"]["preset"] == "small"
    path = tmp_path / "i.json"
    run(capfd, "generate", "single", "--preset", "small", "--seed", 5, "--jobs", 7, "-o", path)
    assert json.loads(path.read_text()) == document


@given(seed=st.integers(0, 10**6))
@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture])  # capfd is drained per call
def test_done_when_for_any_seed(seed, tmp_path_factory, capfd):
    """The foundation's 'done when': generate -> solve (HiGHS, CBC, relaxed) -> verify -> run."""
    folder = tmp_path_factory.mktemp("seed")
    inst, sched, wspt = folder / "i.json", folder / "s.json", folder / "w.json"
    assert run(capfd, "generate", "single", "--preset", "tiny", "--seed", seed, "-o", inst)[0] == 0
    code, highs, _ = run_json(capfd, "solve", inst, "--formulation", "time-indexed", "-o", sched)
    assert code == 0 and highs["status"] == "optimal" and highs["gap"] == 0
    for field in ("family", "formulation", "relaxed", "solver", "status", "objective", "bound", "gap",
                  "runtime_s", "sense"):
        assert field in highs
    _, cbc, _ = run_json(capfd, "solve", inst, "--formulation", "time-indexed", "--solver", "cbc")
    assert cbc["solver"] == "cbc" and cbc["status"] == "optimal"
    assert cbc["objective"] == pytest.approx(highs["objective"])
    _, lp, _ = run_json(capfd, "solve", inst, "--formulation", "time-indexed", "--relax")
    assert lp["relaxed"] and lp["objective"] <= highs["objective"] + 1e-6  # a lower bound (min)
    code, verified, _ = run_json(capfd, "verify", inst, sched)
    assert code == 0 and verified["feasible"] and verified["violations"] == []
    assert verified["objective"] == pytest.approx(highs["objective"])
    code, ran, _ = run_json(capfd, "run", inst, "--algorithm", "wspt", "-o", wspt)
    assert code == 0 and ran["feasible"] and ran["violations"] == []
    assert ran["objective"] >= highs["objective"] - 1e-6
    for field in ("family", "algorithm", "objective", "feasible", "violations", "runtime_s"):
        assert field in ran
    code, verified, _ = run_json(capfd, "verify", inst, wspt)
    assert code == 0 and verified["objective"] == pytest.approx(ran["objective"])


def test_solve_human_output_and_cross_check(capfd, instance):
    code, out, _ = run(capfd, "solve", instance, "--formulation", "time-indexed", "--cross-check")
    assert code == 0
    assert "optimal" in out and "cross-check cp-sat with cp-sat 9" in out and "agree" in out  # the other model, by default
    assert "schedule verified: feasible" in out
    code, out, _ = run(capfd, "solve", instance, "--formulation", "time-indexed", "--cross-check", "solver")
    assert code == 0 and "cross-check cbc 2" in out and "agree" in out
    code, out, _ = run(capfd, "solve", instance, "--formulation", "cp-sat", "--cross-check")
    assert code == 0 and "(CP-SAT model) with cp-sat" in out and "cross-check time-indexed with highs 1" in out and "agree" in out


def test_verify_reports_an_infeasible_schedule_with_exit_1(capfd, instance, tmp_path):
    sched = tmp_path / "s.json"
    run(capfd, "run", instance, "--algorithm", "fifo", "-o", sched)
    document = json.loads(sched.read_text())
    document["schedule"]["start"] = [0] * len(document["schedule"]["start"])
    sched.write_text(json.dumps(document))
    code, result, _ = run_json(capfd, "verify", instance, sched)
    assert code == 1 and not result["feasible"] and result["violations"]
    assert result["objective"] is None  # an infeasible schedule has no objective worth a number
    code, out, _ = run(capfd, "verify", instance, sched)
    assert code == 1 and out.startswith("INFEASIBLE (no objective)")


def test_run_accepts_a_seed_and_refuses_unknown_params(capfd, instance):
    assert run(capfd, "run", instance, "--algorithm", "fifo", "--seed", 4)[0] == 0
    code, _, err = run(capfd, "run", instance, "--algorithm", "fifo", "--param", "alpha=2")
    assert code == 2 and "no parameter 'alpha'" in err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def valid_instance_text(**job):
    return json.dumps({"family": "single", "format": 1, "instance": {"jobs": [{"p": 2, "w": 1, "r": 0, **job}]}})


BAD_INPUTS = {
    "missing file": (lambda t, i: ["solve", t / "nope.json", "--formulation", "time-indexed"], "no such file"),
    "malformed JSON": (lambda t, i: ["solve", write(t, "b.json", '{"family": "single",'), "--formulation", "time-indexed"], "malformed JSON"),
    "JSON of the wrong shape": (lambda t, i: ["solve", write(t, "b.json", "[1, 2]"), "--formulation", "time-indexed"], "expected a JSON object"),
    "missing instance field": (lambda t, i: ["solve", write(t, "b.json", '{"family": "single", "format": 1}'), "--formulation", "time-indexed"], "missing field 'instance'"),
    "unknown family in file": (lambda t, i: ["solve", write(t, "b.json", '{"family": "nope", "format": 1, "instance": {}}'), "--formulation", "x"], "unknown family 'nope'"),
    "unknown family": (lambda t, i: ["generate", "nope"], "unknown family 'nope'"),
    "unknown preset": (lambda t, i: ["generate", "single", "--preset", "huge"], "no preset 'huge'"),
    "unknown formulation": (lambda t, i: ["solve", i, "--formulation", "magic"], "no formulation 'magic'"),
    "unknown algorithm": (lambda t, i: ["run", i, "--algorithm", "magic"], "no algorithm 'magic'"),
    "unknown solver": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--solver", "gurobi"], "expected highs, cbc or pulp:NAME"),
    "negative size": (lambda t, i: ["solve", write(t, "b.json", valid_instance_text(p=-3)), "--formulation", "time-indexed"], "p: must be a positive integer"),
    "zero size": (lambda t, i: ["solve", write(t, "b.json", valid_instance_text(p=0)), "--formulation", "time-indexed"], "p: must be a positive integer"),
    "zero weight": (lambda t, i: ["run", write(t, "b.json", valid_instance_text(w=0)), "--algorithm", "wspt"], "w: must be positive"),
    "NaN": (lambda t, i: ["solve", write(t, "b.json", valid_instance_text().replace('"w": 1', '"w": NaN')), "--formulation", "time-indexed"], "NaN"),
    "Infinity": (lambda t, i: ["solve", write(t, "b.json", valid_instance_text().replace('"w": 1', '"w": Infinity')), "--formulation", "time-indexed"], "Infinity"),
    "negative time limit": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--time-limit", "-1"], "--time-limit"),
    "zero time limit": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--time-limit", "0"], "--time-limit"),
    "non-numeric time limit": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--time-limit", "soon"], "--time-limit"),
    "NaN time limit": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--time-limit", "nan"], "--time-limit"),
    "bad param syntax": (lambda t, i: ["run", i, "--algorithm", "wspt", "--param", "novalue"], "KEY=VALUE"),
    "negative jobs": (lambda t, i: ["generate", "single", "--jobs", "-2"], "--jobs"),
    "relaxation has no schedule": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "--relax", "-o", t / "out.json"], "LP relaxation"),
    "output directory missing": (lambda t, i: ["solve", i, "--formulation", "time-indexed", "-o", t / "no" / "out.json"], "does not exist"),
    "unknown verb": (lambda t, i: ["solv", i], "invalid choice"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_and_writes_nothing(case, capfd, tmp_path, instance):
    build, expected = BAD_INPUTS[case]
    argv = build(tmp_path, instance)
    before = set(tmp_path.rglob("*"))
    code, out, err = run(capfd, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("optsched: error: ") and expected in err, err
    assert "Traceback" not in err
    assert set(tmp_path.rglob("*")) == before


def test_a_schedule_for_another_instance_is_refused(capfd, tmp_path, instance):
    other, sched = tmp_path / "other.json", tmp_path / "s.json"
    run(capfd, "generate", "single", "--seed", 99, "-o", other)
    run(capfd, "run", instance, "--algorithm", "wspt", "-o", sched)
    code, out, err = run(capfd, "verify", other, sched)
    assert code == 2 and out == "" and "was made for instance" in err and err.count("\n") == 1


def test_a_schedule_of_the_wrong_length_is_refused(capfd, tmp_path, instance):
    sched = tmp_path / "s.json"
    run(capfd, "run", instance, "--algorithm", "wspt", "-o", sched)
    document = json.loads(sched.read_text())
    document["schedule"]["start"].pop()
    sched.write_text(json.dumps(document))
    # the fingerprint still matches the instance, so the shape check must catch it
    code, _, err = run(capfd, "verify", instance, sched)
    assert code == 2 and "start times" in err


def test_the_console_script_prints_no_traceback_on_bad_input(tmp_path):
    missing = tmp_path / "missing.json"
    proc = subprocess.run([sys.executable, "-m", "optsched.cli", "verify", str(missing), str(missing)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"optsched: error: {missing}: no such file"


def test_a_solver_schedule_that_fails_the_verifier_is_not_written(capfd, tmp_path, instance, monkeypatch):
    """If a formulation's decoding were wrong, the verifier catches it: exit 1, nothing written."""
    from optsched.registry import Formulation, get
    from optsched.single.formulations import time_indexed
    from optsched.single.schedule import Schedule
    from optsched.solvers import Model

    def broken_build(inst, relax=False):
        model = time_indexed(inst, relax)
        return Model(model.problem, lambda result: Schedule((0.0,) * inst.n))  # everyone at 0

    family = get("single")
    monkeypatch.setitem(family.formulations, "time-indexed", Formulation("time-indexed", broken_build, ""))
    out_path = tmp_path / "s.json"
    code, data, err = run_json(capfd, "solve", instance, "--formulation", "time-indexed", "-o", out_path)
    assert code == 1 and data["status"] == "optimal"
    assert data["verified"]["feasible"] is False and data["verified"]["violations"]
    assert not out_path.exists() and "fails the verifier" in err


def test_the_parser_offers_exactly_the_solvers_of_the_solver_layer():
    from optsched import cli, solvers

    assert cli.SOLVERS == solvers.SOLVERS


def test_a_solver_that_fails_a_computation_is_exit_1_not_bad_input(capfd, instance, monkeypatch):
    """A sub-solve that ends unproven is reported as the solver's failure (exit 1), never as exit 2."""
    from optsched.errors import SolverFailure
    from optsched.registry import Formulation, get

    def failing(inst, relax=False):
        raise SolverFailure("the placement ILP did not prove the best counts for split (2, 2) (feasible in 60 s)")

    monkeypatch.setitem(get("single").formulations, "time-indexed", Formulation("time-indexed", failing, ""))
    code, out, err = run(capfd, "solve", instance, "--formulation", "time-indexed", "--json")
    assert code == 1 and out == ""
    assert err == "optsched: failed: the placement ILP did not prove the best counts for split (2, 2) " \
                  "(feasible in 60 s)\n"


def test_best_counts_that_the_ilp_does_not_prove_raise_a_solver_failure(monkeypatch):
    from dataclasses import replace

    import optsched.solvers
    from optsched.errors import SolverFailure
    from optsched.placement import patterns
    from optsched.placement.templates import PAPER_CLUSTER, configure

    real = optsched.solvers.solve  # the pipeline's solver call
    monkeypatch.setattr(optsched.solvers, "solve", lambda model, **kw: replace(real(model, **kw), status="feasible"))
    monkeypatch.setattr(patterns, "ENUMERATION_LIMIT", 0)
    patterns._best_counts.cache_clear()
    job = configure("vgg19", 8, PAPER_CLUSTER, stages=2)
    try:
        with pytest.raises(SolverFailure, match="did not prove the best counts"):
            patterns.best_counts(job, (4, 4), PAPER_CLUSTER)
    finally:
        patterns._best_counts.cache_clear()


def test_solve_best_names_the_formulation_it_chose(capfd, instance, tmp_path):
    code, data, _ = run_json(capfd, "solve", instance, "--formulation", "best")
    assert code == 0 and data["formulation"] == "cp-sat" and data["status"] == "optimal"  # up to 12 jobs
    hetero = tmp_path / "h.json"
    assert run(capfd, "generate", "hetero", "--seed", 1, "-o", hetero)[0] == 0
    code, data, _ = run_json(capfd, "solve", hetero, "--formulation", "best", "--cross-check")
    assert code == 0 and data["formulation"] == "cp-sat" and data["cross_check"]["verdict"] == "agree"


def test_every_verbs_help_names_its_documentation_page(capsys):
    """--help ends with the verb's documentation page, and the page it names exists."""
    import re
    from pathlib import Path

    from optsched.cli import DOCS, build_parser

    root = Path(__file__).resolve().parents[1]
    for verb, page in DOCS.items():
        with pytest.raises(SystemExit):
            build_parser().parse_args([verb, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert f"Documentation: {page}." in text, verb
        for named in re.findall(r"docs/[\w]+\.md", page):
            assert (root / named).is_file(), named


def test_a_search_in_a_batch_job_prints_a_progress_line_now_and_then(capfd, tmp_path, monkeypatch):
    """Without a terminal the bar is off, and a plain line on stderr stands in for it (issue 50:
    the search printed none); --quiet silences it."""
    from optsched.study import engine

    monkeypatch.setattr(engine, "LOG_EVERY_S", 0.0)
    argv = ["search", "oasis", "--algorithm", "oasis", "--size-max", "2", "--budget", "4", "--shrink-budget", "0",
            "--workers", "1"]
    code, _, err = run(capfd, *argv, "-o", tmp_path / "a")
    assert code == 0 and "optsched: search: " in err and " of 4 units done" in err, err
    code, _, err = run(capfd, *argv, "--quiet", "-o", tmp_path / "b")
    assert code == 0 and "optsched: search" not in err, err


def test_the_verbs_that_run_many_units_declare_their_run_options_alike():
    from optsched.cli import build_parser

    verbs = {action.dest: action for action in build_parser()._actions if action.dest == "verb"}["verb"].choices
    shown = {name: {a.dest: (a.help, a.default, a.choices) for a in verbs[name]._actions
                    if a.dest in ("workers", "executor", "scheduler", "quiet")} for name in ("reproduce", "search")}
    assert shown["reproduce"] == shown["search"] and shown["reproduce"]["workers"][1] is None


def test_solve_relax_json_names_each_rows_dual_slack_and_each_columns_reduced_cost(tmp_path):
    """`solve --relax --json` (the installed optsched): per named constraint its dual, slack, whether
    it binds and its basis status; per variable its value and reduced cost. Complementary slackness
    holds row by row and every reduced cost of the minimisation is >= 0. A MILP's JSON has no rows."""
    from tests.contract_helpers import optsched

    assert optsched("generate", "single", "--preset", "tiny", "--seed", "3", "-o", tmp_path / "i.json").code == 0
    relaxed = optsched("solve", tmp_path / "i.json", "--formulation", "time-indexed", "--relax", "--json")
    exact = optsched("solve", tmp_path / "i.json", "--formulation", "time-indexed", "--json")
    assert relaxed.code == exact.code == 0, relaxed.err
    lp, milp = json.loads(relaxed.out), json.loads(exact.out)
    assert "rows" not in milp and "columns" not in milp
    rows, columns = lp["rows"], lp["columns"]
    assert {r["name"].rpartition("_")[0] for r in rows} == {"assign", "machine"} and all(r["basis"] for r in rows)
    assert all(r["slack"] >= 0 and (r["binding"] or r["dual"] == 0) for r in rows)
    assert 0 < sum(r["binding"] for r in rows) < len(rows)
    assert {c["name"] for c in columns} and all(c["reduced_cost"] >= -1e-9 for c in columns)  # min: priced out
    plain = optsched("solve", tmp_path / "i.json", "--formulation", "time-indexed", "--relax")
    bind = sum(r["binding"] for r in rows)
    assert f"{bind} of {len(rows)} constraints bind" in plain.out


def test_best_relaxed_is_the_lp_a_study_uses_for_a_cp_sat_reference(tmp_path):
    """hetero's `best` is its CP-SAT model on tiny instances, which has no LP: `--formulation best
    --relax` solves the LP of the family's first exact MILP, as a study's relaxation does."""
    from tests.contract_helpers import optsched

    assert optsched("generate", "hetero", "--preset", "tiny", "--seed", "0", "-o", tmp_path / "h.json").code == 0
    done = optsched("solve", tmp_path / "h.json", "--formulation", "best", "--relax", "--json")
    assert done.code == 0, done.err
    d = json.loads(done.out)
    assert d["formulation"] == "configuration" and d["relaxed"] and d["answers"] == "lower bound"
