"""optsched.plot: Gantt charts of every family, interval and ratio plots, and figures saved in every
format in the project's style."""

import matplotlib
import pytest

import optsched
from optsched import plot
from optsched.errors import InputError
from optsched.registry import families

matplotlib.use("Agg")

#: The algorithm whose schedule each family's chart is drawn from.
ALGORITHM = {"single": "wspt", "oasis": "oasis", "edge": "aonline", "hetero": "aonline", "placement": "heavy-edge",
             "asrpt": "asrpt"}
SIGNATURE = {"png": b"\x89PNG", "pdf": b"%PDF", "svg": b"<?xml"}


@pytest.mark.parametrize("name", sorted(families()))
def test_gantt_draws_a_schedule_of_every_family_in_every_format(name, tmp_path):
    family = optsched.get(name)
    instance = family.generate("tiny", seed=2)
    ran = optsched.run(family, instance, ALGORITHM[name])
    ax = plot.gantt(instance, ran.schedule)
    assert ax.patches and ax.get_yticklabels()
    if family.bars is not None:  # every scheduled job has a bar of its own colour
        drawn = plot.bars(instance, ran.schedule)
        assert {b.job for b in drawn} <= set(range(len(instance.jobs))) and drawn
        assert all(b.end > b.start for b in drawn)
    for fmt in plot.FORMATS:
        path = plot.save(ax.figure, tmp_path / f"gantt.{fmt}")
        assert path.read_bytes().startswith(SIGNATURE[fmt])


def test_a_preemption_is_a_gap_and_a_killed_run_is_hatched():
    """Consecutive slots merge into one bar, so a job with two bars on one row was preempted; a
    preemptive baseline's killed runs are marked."""
    merged = plot._merged([plot.Bar("w", 0, 1, 0), plot.Bar("w", 1, 2, 0), plot.Bar("w", 4, 5, 0)])
    assert merged == [plot.Bar("w", 0, 2, 0), plot.Bar("w", 4, 5, 0)]
    family = optsched.get("hetero")
    for seed in range(30):
        instance = family.generate("small", seed=seed)
        ran = optsched.run(family, instance, "antman", seed=seed)
        if ran.schedule.killed:
            break
    else:
        pytest.fail("no AntMan run killed a job on 30 small instances")
    drawn = plot.bars(instance, ran.schedule)
    assert any(b.killed for b in drawn) and any(not b.killed for b in drawn)
    ax = plot.gantt(instance, ran.schedule)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["killed run"]


def test_plot_imports_no_family_and_each_family_says_how_its_schedules_are_drawn():
    """Per-family drawing lives in the families (``Family.bars`` in schedule.py, or ``Family.chart``):
    plot.py names no family package, and every family registers one of the two."""
    import ast
    from pathlib import Path

    from optsched.registry import FAMILY_PACKAGES

    tree = ast.parse(Path(plot.__file__).read_text())
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    named = {package.rsplit(".", 1)[1] for package in FAMILY_PACKAGES.values()}
    assert not {m for m in imported if m.split(".")[0] in named or m.split(".")[-1] in named}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in FAMILY_PACKAGES]
    for name, family in families().items():
        assert (family.bars is None) != (family.chart is None), name


def test_lanes_stack_jobs_that_share_a_row_at_the_same_time():
    lane, lanes = plot._lanes([plot.Bar("s", 0, 4, 0), plot.Bar("s", 1, 2, 1), plot.Bar("s", 2, 3, 2),
                               plot.Bar("s", 4, 5, 3)])
    assert lanes == 2 and lane == {0: 0, 1: 1, 2: 1, 3: 0}


def test_intervals_and_ratios_render_and_leave_the_style_as_it_was(tmp_path):
    before = dict(matplotlib.rcParams)
    rows = [{"method": m, "value": v, "mean": 1.0 + k + v, "ci_low": 0.5 + k + v, "ci_high": 1.5 + k + v,
             "n_seeds": 5, "summary": "total completion time"} for k, m in enumerate(("a", "b")) for v in (1, 2, 4)]
    ax = plot.intervals(rows, "value", xlog=True)
    assert len(ax.get_legend().get_texts()) == 2 and ax.get_title() == "mean and 95% interval over 5 seeds"
    results = [{"family": f, "method": m, "ratio": 1.0 + 0.1 * s} for f in ("single", "edge") for m in ("x", "y")
               for s in range(4)]
    axis = plot.ratios(results)
    for fmt in plot.FORMATS:
        assert plot.save(axis.figure, tmp_path / f"r.{fmt}").stat().st_size > 0
    assert dict(matplotlib.rcParams) == before


def test_a_sweeps_values_stay_its_ticks_when_many_methods_sit_offset_from_them(tmp_path):
    """Seven methods at 1,000, 2,000 and 4,000 jobs are drawn at whole-number offsets (1,000 ± 30):
    the figure's finish must keep the sweep's three ticks rather than count 21 integer positions and
    put a locator of its own (which showed 2,000 and 4,000 only, among unlabelled ticks)."""
    rows = [{"method": m, "value": v, "mean": 1.0 + k, "ci_low": 0.5, "ci_high": 2.0 + k, "n_seeds": 30}
            for k, m in enumerate("abcdefg") for v in (1000, 2000, 4000)]
    with plot.figure(tmp_path / "sweep.png", format="png") as (fig, ax):
        plot.intervals(rows, "value", ax=ax, log=True)
    assert list(ax.get_xticks()) == [1000, 2000, 4000]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1000", "2000", "4000"]


@pytest.mark.parametrize(("values", "scale"), [((50, 100, 200, 400, 800), "log"),
                                                ((50, 100, 150, 200, 250, 300), "linear"),
                                                ((1, 2, 3), "linear")])
def test_a_sweep_whose_ticks_would_run_together_gets_a_log_axis(tmp_path, values, scale):
    """Jobs 50-800 doubling: on a linear axis "50" and "100" overlap (the least gap is a sixteenth
    of the range), so the axis is logarithmic, with the sweep's values still its ticks; an evenly
    spaced sweep stays linear."""
    rows = [{"method": m, "jobs": v, "mean": 1.0 + k, "ci_low": 0.5, "ci_high": 2.0 + k, "n_seeds": 30}
            for k, m in enumerate("ab") for v in values]
    with plot.figure(tmp_path / "sweep.png", format="png") as (fig, ax):
        plot.intervals(rows, "jobs", ax=ax)
    assert ax.get_xscale() == scale
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in values]


def test_gains_draw_the_paired_effects_and_go_symmetric_log_when_a_gain_is_huge():
    """plot.gains draws the summary rows paired against the reference (not the reference's own
    row); a gain of 20 (a maximised objective near 0 on some seed) turns the axis symmetric-log so
    that gains of a few percent stay visible; 5 pairs give no interval, so none is drawn."""
    rows = [{"method": "oasis", "jobs": 25, "mean": 10.0, "n_seeds": 30}]
    rows += [{"method": m, "jobs": 25, "reference": "oasis", "effect": e, "effect_ci_low": e - 0.1,
              "effect_ci_high": e + 0.1, "n_seeds": 30} for m, e in (("fifo", 20.0), ("dorm", -0.05))]
    ax = plot.gains(rows, "jobs")
    assert ax.get_yscale() == "symlog" and ax.get_ylim()[0] <= -1.0
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["fifo", "dorm"]
    small = [{**r, "effect": 0.1, "effect_ci_low": float("-inf"), "effect_ci_high": float("inf"), "n_seeds": 5}
             for r in rows[1:]]
    bare = plot.gains(small, "jobs")
    assert bare.get_yscale() == "linear" and "fewer than 6 pairs" in bare.get_title(loc="left")
    with plot.figure() as (fig, ax):  # a caller's title keeps the warning, wrapped to the panel's width
        plot.gains(small, "jobs", ax=ax, title="every method")
    title = ax.get_title(loc="left")
    assert title.startswith("every method; ") and "fewer than 6" in title.replace("\n", " ") and "\n" in title
    with pytest.raises(InputError, match="paired"):
        plot.gains(rows[:1], "jobs")


def test_a_method_keeps_its_colour_from_the_means_figure_to_the_gains_figure():
    """plot.gains leaves out the reference's own row; its methods still take the colours
    plot.intervals gives them from the same rows, so 'dorm' is the same colour in both figures."""
    rows = [{"method": m, "jobs": j, "mean": 10.0 + k, "ci_low": 9.0 + k, "ci_high": 11.0 + k, "n_seeds": 30,
             **({"reference": "oasis", "effect": 0.1 * k, "effect_ci_low": 0.1 * k - 0.05,
                 "effect_ci_high": 0.1 * k + 0.05} if m != "oasis" else {})}
            for j in (10, 20) for k, m in enumerate(("oasis", "fifo", "dorm"))]

    def colours(ax):
        return {bars.get_label(): bars.lines[0].get_color() for bars in ax.containers}

    means, paired = colours(plot.intervals(rows, "jobs")), colours(plot.gains(rows, "jobs"))
    assert set(paired) == {"fifo", "dorm"} and len(set(means.values())) == 3
    assert all(paired[m] == means[m] for m in paired)


def test_methods_close_to_zero_beside_large_gains_are_found_and_drawn_alone_in_their_colours(tmp_path):
    """Gains of 0.5-0.98 beside gains within ±0.02 put the small ones on the zero line, where their
    sign cannot be read: close_to_zero names them, and gains(only=...) draws them alone in the colours
    the whole figure gives them. No split (every gain small, or every gain large) names none;
    gains_figure draws the second panel only when there is one."""
    def row(method, jobs, effect):
        return {"method": method, "jobs": jobs, "reference": "a", "effect": effect, "effect_ci_low": effect - 0.005,
                "effect_ci_high": effect + 0.005, "n_seeds": 30}

    rows = [{"method": "a", "jobs": 50, "mean": 1.0, "n_seeds": 30}]
    rows += [row(m, j, e + 0.0001 * j) for j in (50, 100) for m, e in (("big", 0.9), ("small", -0.02),
                                                                        ("mid", 0.5), ("tiny", 0.01))]
    assert plot.close_to_zero(plot.paired_gains(rows)) == ["small", "tiny"]
    assert plot.close_to_zero(plot.paired_gains([r for r in rows if r["method"] in ("a", "small", "tiny")])) == []
    assert plot.close_to_zero(plot.paired_gains([r for r in rows if r["method"] in ("a", "big", "mid")])) == []
    # a gain of 20 makes the axis symmetric-log, linear within ±1: a gain of 1.2 is readable there, 0.05 is not
    huge = [row("fifo", 50, 20.0), row("rrh", 50, 1.2), row("dorm", 50, -0.05)]
    assert plot.close_to_zero(plot.paired_gains(huge)) == ["dorm"]

    def colours(ax):
        return {bars.get_label(): bars.lines[0].get_color() for bars in ax.containers}

    every, zoomed = colours(plot.gains(rows, "jobs")), colours(plot.gains(rows, "jobs", only=["small", "tiny"]))
    assert set(zoomed) == {"small", "tiny"} and all(zoomed[m] == every[m] for m in zoomed)
    assert plot.gains_figure(rows, "jobs", tmp_path / "two.png", format="png") is True
    assert plot.gains_figure(rows[:1] + huge[:2], "jobs", tmp_path / "one.png", format="png") is False
    assert (tmp_path / "two.png").stat().st_size > 0 and (tmp_path / "one.png").stat().st_size > 0


def test_tick_labels_that_would_run_together_are_thinned(tmp_path):
    """Slots up to 18,000 on one column beside a legend: matplotlib's own locator put "0 2500 5000
    ... 17500" edge to edge; the figure's finish keeps fewer ticks, with room between their labels."""
    with plot.figure(tmp_path / "long.png", format="png") as (fig, ax):
        for name in ("aonline", "aonline-edge", "tiresias-l-demand"):
            ax.plot(range(18_000), [0.5] * 18_000, label=name)
        ax.legend()
    fig.draw_without_rendering()
    boxes = sorted((t.get_window_extent() for t in ax.get_xticklabels() if t.get_text()), key=lambda b: b.x0)
    assert len(boxes) >= 3 and all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:]))


def test_a_figure_in_the_projects_style_and_a_bad_format(tmp_path):
    with plot.figure(tmp_path / "f.pdf", format="pdf") as (fig, ax):
        ax.plot([0, 1], [0, 1])
        assert fig.get_figwidth() == plot.COLUMN_WIDTH and matplotlib.rcParams["font.family"] == ["serif"]
    assert (tmp_path / "f.pdf").read_bytes().startswith(b"%PDF")
    with plot.figure(tmp_path / "report-figure.png") as (_, ax):  # a report's figure: SVG unless --format says
        ax.plot([0, 1], [0, 1])
    with plot.report_format("png"), plot.figure(tmp_path / "as-png.png") as (_, ax):
        ax.plot([0, 1], [0, 1])
        assert plot.report_name("x.png") == "x.png" and plot.markdown_figure("x.png", "c") == "![c](x.png)"
    assert (tmp_path / "report-figure.svg").exists() and (tmp_path / "as-png.png").read_bytes().startswith(b"\x89PNG")
    with plot.report_format("pdf"):
        assert plot.markdown_figure("x.png", "c") == "[c](x.pdf)"  # viewers show no PDF inline: a link
    assert plot.save(fig, tmp_path / "g", format="svg").name == "g.svg"
    with pytest.raises(InputError, match="figure format must be one of png, pdf, svg"):
        plot.save(fig, tmp_path / "h.jpg")


@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_a_reproduction_writes_its_figures_in_the_format_asked(tmp_path, fmt, capfd):
    """--format reaches every figure of a report and its links (SVG, the default, is what the
    reproductions' own tests read)."""
    from optsched.cli import main

    out = tmp_path / "t2"
    assert main(["reproduce", "asrpt-table2", "--preset", "quick", "--seeds", "2", "--workers", "1", "--quiet",
                 "--format", fmt, "-o", str(out)]) == 0
    capfd.readouterr()
    drawn = sorted(p.name for p in out.iterdir() if p.suffix in (".png", ".pdf", ".svg"))
    assert drawn and all(name.endswith(f".{fmt}") for name in drawn)
    for name in drawn:
        assert (out / name).read_bytes().startswith(SIGNATURE[fmt]) and name in (out / "report.md").read_text()
