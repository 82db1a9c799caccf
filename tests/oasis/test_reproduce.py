"""``optsched reproduce oasis-sec5`` end to end, at a scale shrunk for the test run."""

import csv

from optsched.cli import main
from optsched.oasis import reproduce


def test_reproduce_writes_tables_figures_and_assumptions(monkeypatch, tmp_path, capfd):
    monkeypatch.setitem(reproduce.SCALES, "default", reproduce.Preset(
        T=12, servers=3, jobs=[4, 8], fig4_jobs=3, fig5_servers=[2], fig5_gamma1=[(1, 10)], fig5_instances=2,
        fig6_jobs=6))
    out = tmp_path / "report"
    assert main(["reproduce", "oasis-sec5", "--seeds", "1", "--workers", "1", "-o", str(out)]) == 0
    printed = capfd.readouterr().out
    assert "Fig. 3" in printed and "Assumed where the paper is silent" in printed
    for name in ("report.md", "results.csv", "fig3_utility_intervals.svg", "fig4_completion_vs_target.svg",
                 "fig5_ratio.svg", "fig6_estimates.svg"):
        assert (out / name).stat().st_size > 0
    rows = list(csv.DictReader(open(out / "results.csv")))
    fig3 = [r for r in rows if r["figure"] == "3"]
    assert {r["algorithm"] for r in fig3} == set(reproduce.ALGORITHMS) and len(fig3) == 2 * 5
    assert {r["setup"] for r in rows if r["figure"].startswith("3, ")} == set(reproduce.SETUPS)
    assert {float(r["pi"]) for r in rows if r["figure"] == "6"} == set(reproduce.PI + reproduce.WIDE_PI)
    fig5 = [r for r in rows if r["figure"] == "5"]
    assert all(float(r["ratio"]) >= 1 - 1e-6 for r in fig5 if r["ratio"])  # OASiS never beats OPT
    assert "What the paper reports" in (out / "report.md").read_text()
    assert len({r["seed"] for r in fig5}) == 2  # the preset's Fig. 5 instances, more than --seeds
    assert len(list((out / "worst").glob("fig5-servers-2-gamma1-1-10.*.json"))) == 4


def test_dorm_is_capped_only_where_the_preset_says(monkeypatch, tmp_path, capfd):
    assert all("dorm" in reproduce.methods(j, p) for name in ("quick", "default")
               for p in [reproduce.SCALES[name]] for j in p.jobs + [2 * p.fig4_jobs])
    paper = reproduce.SCALES["paper"]
    assert [j for j in paper.jobs if "dorm" in reproduce.methods(j, paper)] == [50, 100]
    monkeypatch.setitem(reproduce.SCALES, "default", reproduce.Preset(
        T=12, servers=3, jobs=[4, 6, 8], fig4_jobs=3, fig5_servers=[2], fig5_gamma1=[(1, 10)], fig5_instances=2,
        fig6_jobs=6, dorm_max_jobs=4))
    out = tmp_path / "report"
    assert main(["reproduce", "oasis-sec5", "--seeds", "2", "--workers", "1", "-o", str(out)]) == 0
    capfd.readouterr()
    rows = list(csv.DictReader(open(out / "results.csv")))
    dorm = {(r["figure"], r["jobs"]) for r in rows if r["algorithm"] == "dorm"}
    assert dorm == {("3", "4")}  # not at 6 or 8 jobs, not in the set-up sweeps (6 jobs) or Fig. 4 (6 jobs)
    assert {r["algorithm"] for r in rows if r["figure"] == "3" and r["jobs"] == "8"} == set(reproduce.ALGORITHMS[:-1])
    summary = list(csv.DictReader(open(out / "summary.csv")))
    trend = next(r for r in summary if r["family"] == "Fig. 3: OASiS's advantage grows with the number of jobs")
    assert "the best of fifo, drf, rrh" in trend["claim"]
    assert not any("dorm" in r["claim"] for r in summary if r["family"].startswith("Fig. 4"))
    text = (out / "report.md").read_text()
    assert "not run" in text and "Dorm runs only on instances of at most 4 jobs" in text


def test_unknown_reproduction_is_bad_input(capfd):
    assert main(["reproduce", "nope"]) == 2
    assert "unknown reproduction 'nope'" in capfd.readouterr().err
