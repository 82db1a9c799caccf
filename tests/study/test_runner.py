"""A study from spec to tables: certified rows, a report, resuming, refusals, bound ratios, recorded errors, kill -9 (optsched/study/runner.py)."""

import dataclasses
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

import optsched.solvers as solvers_module
from optsched.citations import PAPERS
from optsched.errors import InputError
from optsched.study import run, study

from ..cli_helpers import run as run_cli
from .helpers import cached_rows, small, stable


def test_a_study_writes_certified_tables_a_report_and_resumes_from_its_cache(tmp_path):
    s = small(tmp_path)
    first = run(s, progress=False)
    assert first.cached == 0 and first.units == 8 * 4  # reference, LP, wspt, fifo per instance
    results = pd.read_csv(tmp_path / "s" / "results.csv")
    assert len(results) == 16 and set(results["method"]) == {"wspt", "fifo"}
    assert (results["ratio_kind"] == "exact").all() and (results["ratio"] >= 1).all()
    assert (results["status"] == "feasible").all() and not results["beats_reference"].any()
    refs = pd.read_csv(tmp_path / "s" / "references.csv")
    assert (refs["status"] == "optimal").all() and (refs["cross_check"] == "agree").all()
    assert (refs["integrality_gap"] >= 1 - 1e-9).all() and set(refs["size"]) == {3, 4}
    for name in ("report.md", "ratios.svg", "ratio_vs_size.svg", "integrality_gap.svg", "runtime_vs_size.svg",
                 "summary.csv", "study.json"):
        assert (tmp_path / "s" / name).stat().st_size > 0
    assert first.problems == []
    smith = PAPERS["smith1956"].text()  # the family's papers, cited in the report and on every summary row
    assert smith in (tmp_path / "s" / "report.md").read_text()
    assert (pd.read_csv(tmp_path / "s" / "summary.csv")["paper"].str.contains(smith, regex=False)).all()
    again = run(s, progress=False)
    assert again.cached == again.units == first.units
    pd.testing.assert_frame_equal(stable(again.results), stable(first.results))


def test_changing_a_parameter_runs_only_the_new_method(tmp_path):
    run(small(tmp_path, algorithms=["wspt"]), progress=False)
    more = run(small(tmp_path, algorithms=["wspt", "fifo"]), progress=False)
    assert more.units - more.cached == 8  # fifo on the 8 instances; references and wspt are cached


def test_other_instances_into_the_same_folder_are_refused_not_merged(tmp_path):
    run(small(tmp_path), progress=False)
    before = (tmp_path / "s" / "results.csv").read_bytes()
    with pytest.raises(InputError, match="holds the output of another run"):
        run(small(tmp_path, seeds=5), progress=False)
    assert (tmp_path / "s" / "results.csv").read_bytes() == before


def test_a_time_limited_reference_is_reported_and_gives_bound_ratios_only(tmp_path, monkeypatch):
    """The time limit reaches the solver; a run it stops is 'feasible', and ratios become bounds."""
    limits = []
    real = solvers_module.solve

    def stopped_early(model, **options):
        result = real(model, **options)
        if result.is_mip:
            limits.append(options["time_limit"])
            return dataclasses.replace(result, status="feasible", bound=result.objective * 0.9)
        return result

    monkeypatch.setattr(solvers_module, "solve", stopped_early)  # the pipeline's solver call
    s = small(tmp_path, reference={"time_limit": 7, "relax": False})
    outcome = run(s, progress=False)
    assert len(limits) == 8 and all(6.0 < limit <= 7.0 for limit in limits)  # 7 s less what building took
    assert (outcome.references["status"] == "feasible").all() and (outcome.references["time_limit"] == 7).all()
    assert (outcome.results["ratio_kind"] == "upper bound").all()
    assert outcome.method_summary["exact_ratios"].sum() == 0 and outcome.method_summary["bound_ratios"].sum() == 16


def test_a_crashing_algorithm_is_a_recorded_error_not_a_lost_study(tmp_path, monkeypatch):
    from optsched.registry import get

    family = get("single")
    broken = dataclasses.replace(family.algorithms["fifo"], run=lambda *a, **k: 1 / 0)
    monkeypatch.setitem(family.algorithms, "fifo", broken)
    outcome = run(small(tmp_path), progress=False)
    fifo = outcome.results[outcome.results["method"] == "fifo"]
    assert (fifo["status"] == "error").all() and fifo["message"].str.contains("ZeroDivisionError").all()
    assert "8 algorithm runs crashed" in outcome.problems


def test_a_study_killed_with_sigkill_resumes_to_the_same_table_as_an_uninterrupted_run(tmp_path):
    argv = ["study", "--family", "single", "--seeds", "150", "--jobs", "4,5", "--workers", "2", "--quiet"]
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "optsched.cli", *argv, "-o", str(killed)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while cached_rows(killed / "cache.sqlite") < 200 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the study finished before it could be killed; make it longer"
    stored = cached_rows(killed / "cache.sqlite", recover=True)
    assert 200 <= stored < 1200 and not (killed / "results.csv").exists()
    resumed = subprocess.run([sys.executable, "-m", "optsched.cli", *argv, "-o", str(killed)],
                             capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert f"1200 units, {stored} from the cache, {1200 - stored} to run" in resumed.stderr
    clean = tmp_path / "clean"
    assert subprocess.run([sys.executable, "-m", "optsched.cli", *argv, "-o", str(clean)],
                          capture_output=True).returncode == 0
    for name in ("results.csv", "references.csv"):
        pd.testing.assert_frame_equal(stable(pd.read_csv(killed / name)), stable(pd.read_csv(clean / name)))
    assert cached_rows(killed / "cache.sqlite") == 1200
    time.sleep(1.5)  # the killed study's workers notice within 0.5 s and leave
    orphans = subprocess.run(["pgrep", "-f", str(killed)], capture_output=True, text=True).stdout.split()
    assert orphans == [], "worker processes of the killed study are still running"


def test_the_cli_prints_the_summary_and_json(capfd, tmp_path):
    code, out, err = run_cli(capfd, "study", "--family", "single", "--seeds", "3", "--workers", "1",
                             "--algorithm", "wspt", "--quiet", "-o", tmp_path / "c")
    assert code == 0 and "Empirical competitive ratios" in out and "wspt" in out and "from the cache" in err
    code, out, _ = run_cli(capfd, "study", "--family", "single", "--seeds", "3", "--workers", "1",
                           "--algorithm", "wspt", "--quiet", "--json", "-o", tmp_path / "c")
    import json

    summary = json.loads(out)
    assert code == 0 and summary["cached"] == summary["units"] == 9 and summary["problems"] == []
    assert summary["methods"][0]["method"] == "wspt" and summary["methods"][0]["exact_ratios"] == 3



def test_a_preset_is_owned_by_its_name_and_adopts_its_older_record():
    """What a preset holds is optsched's to change (a new default reference), so a newer optsched
    running it again renews the same folder; a study file is owned by what it says."""
    from optsched.study import PRESETS
    from optsched.study.runner import _same_preset, owner
    from optsched.study.spec import preset_table

    demo = study(preset_table("demo"), "demo")
    assert owner(demo) == {"verb": "study", "preset": "demo"}
    older = {"verb": "study", "name": "demo", "parts": [{"family": "single"}]}
    assert _same_preset(demo, older) and not _same_preset(demo, {**older, "name": "mine"})
    written = study(PRESETS["demo"](), "a file")  # the same table, from a study file: owned by its parts
    assert "parts" in owner(written) and not _same_preset(written, older)


def test_a_cp_sat_reference_is_solved_by_cp_sat_and_its_lp_is_a_milps(tmp_path):
    """Issue 49: ``--reference cp-sat`` failed every reference ('--solver highs applies to MILP
    formulations'); the solver now defaults to the formulation's own, and the relaxation is the LP of
    the family's exact MILP, keyed by that MILP."""
    outcome = run(small(tmp_path, reference={"formulation": "cp-sat"}), progress=False)
    refs = outcome.references
    assert (refs["status"] == "optimal").all() and (refs["solver"] == "cp-sat").all(), refs
    # single's best at 3 jobs is cp-sat, so the LP is that of the first exact MILP, the time-indexed one
    assert (refs["lp_formulation"] == "time-indexed").all() and (refs["lp_status"] == "optimal").all()
    assert outcome.problems == []
