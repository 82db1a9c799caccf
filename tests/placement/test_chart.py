"""The placement family's chart (optsched/placement/chart.py): each server's GPUs by stage."""

import matplotlib

import optsched
from optsched import plot

matplotlib.use("Agg")


def test_the_chart_draws_every_server_with_its_stages_and_free_gpus():
    family = optsched.get("placement")
    instance = family.generate("tiny", seed=2)
    placement = family.run(instance, "heavy-edge").schedule
    ax = plot.gantt(instance, placement)
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"server {m}" for m in range(len(instance.available))]
    widths = sum(p.get_width() for p in ax.patches)
    assert widths == instance.gpus * len(instance.available)  # every GPU drawn once: a stage, free or unavailable
    stages = [t.get_text() for t in ax.get_legend().get_texts() if t.get_text().startswith("stage")]
    used = {s for counts in placement.counts for s, count in enumerate(counts) if count}
    assert stages == [f"stage {s}" for s in sorted(used)]
