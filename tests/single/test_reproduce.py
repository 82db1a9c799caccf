"""The template reproduction (optsched/single/reproduce.py), run as the family walk-through is: fast,
end to end, through the command line's entry point."""

import csv

from optsched.cli import main
from optsched.single import reproduce as template


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_template_runs_its_quick_preset_and_reports_every_claim_of_its_sweep(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["reproduce", "single-wspt", "--preset", "quick", "--workers", "1", "--quiet", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(template.TITLE) and "smoke test" in printed
    jobs = template.PRESETS["quick"].jobs
    results = _rows(out / "results.csv")
    assert len(results) == len(jobs) * 5 * len(template.METHODS)
    claims = [r for r in _rows(out / "summary.csv") if r["method"] == "claim"]
    assert [r["claim"] for r in claims] == [*(f"{template.PAIRED.format(margin=template.MARGIN)} at {n} jobs"
                                              for n in jobs), template.TREND]
    assert all(r["verdict"] == "not resolved" for r in claims)  # 5 seeds never resolve, by design
    assert {p.name for p in out.iterdir()} >= {"report.md", "means.svg", "gains.svg", "results.csv", "summary.csv"}


def test_tasks_have_named_fields_and_their_runs_are_verified():
    row = template._task(template.Task(jobs=4, seed=1, method="FIFO", instances="small"))
    assert row["method"] == "FIFO" and row["weighted_completion"] > 0


def test_at_thirty_seeds_the_templates_trend_is_resolved(tmp_path):
    """The default preset decides: the gain grows with the sweep (computed, not typed)."""
    out = tmp_path / "d"
    assert main(["reproduce", "single-wspt", "--workers", "1", "--quiet", "-o", str(out)]) == 0
    (trend,) = [r for r in _rows(out / "summary.csv") if r.get("claim") == template.TREND]
    assert trend["verdict"] == "held" and int(trend["n_seeds"]) == 30
