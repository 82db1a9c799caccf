"""A study's report (optsched/study/report.py): tables as markdown and text, the summary tables
from a run, and report.md with its figures."""

import json
from pathlib import Path

import pytest

from optsched.study import run
from optsched.study.report import FIGURES, Table, summary_tables, write_report

from .helpers import small


def test_a_table_renders_as_markdown_and_as_aligned_text():
    table = Table("Ratios", ["method", "ratio"], [["wspt", 1.23456], ["fifo", 2.0]], note="1 is best")
    assert table.markdown().splitlines() == ["### Ratios", "", "| method | ratio |", "|---|---|",
                                             "| wspt | 1.235 |", "| fifo | 2 |", "", "1 is best"]
    assert table.text().splitlines() == ["Ratios", "method  ratio", "wspt    1.235", "fifo        2", "1 is best"]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    return run(small(tmp_path_factory.mktemp("study"), seeds=2, jobs=[3]), progress=False)


def test_summary_tables_have_a_row_per_family_and_per_method(outcome):
    refs, methods = summary_tables(outcome)
    assert [row[:4] for row in refs.rows] == [["single", "cp-sat", 2, 2]]
    assert sorted(row[1] for row in methods.rows) == ["fifo", "wspt"]
    assert all(row[4] >= 1.0 for row in methods.rows)  # ratio mean against proven optima


def test_the_report_links_every_figure_it_draws(outcome, tmp_path):
    write_report(outcome, tmp_path, {})
    text = (tmp_path / "report.md").read_text()
    for name, caption in FIGURES:  # SVG by default (optsched.plot.REPORT_FORMAT)
        drawn = Path(name).with_suffix(".svg").name
        assert (tmp_path / drawn).stat().st_size > 0 and f"![{caption}]({drawn})" in text
    assert "every schedule verified" in text


@pytest.mark.parametrize("fmt", ["png", "pdf", "svg"])
def test_the_report_draws_every_figure_in_every_format(outcome, tmp_path, fmt):
    from optsched.plot import report_format

    signature = {"png": b"\x89PNG", "pdf": b"%PDF", "svg": b"<?xml"}[fmt]
    with report_format(fmt):
        write_report(outcome, tmp_path, {})
    for name, _ in FIGURES:
        drawn = tmp_path / Path(name).with_suffix(f".{fmt}").name
        assert drawn.read_bytes().startswith(signature)
    text = (tmp_path / "report.md").read_text()
    assert ("[" + FIGURES[0][1] + "](ratios.pdf)" in text) if fmt == "pdf" else ("](ratios." + fmt + ")" in text)


def test_a_cached_rerun_keeps_the_figures_drawn_from_the_same_data(tmp_path):
    """A rerun whose tables are the same keeps each figure file as it is (not drawn again: same inode
    and bytes, still recorded as optsched's); new data redraws the figures it feeds; another format
    draws new files and the old ones go."""
    from optsched.plot import report_format
    from optsched.study import run

    from .helpers import small

    first = small(tmp_path)
    run(first, progress=False)
    folder = tmp_path / "s"
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.svg")}
    assert len(before) == 4
    run(first, progress=False)
    assert {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.svg")} == before
    owner = json.loads((folder / ".optsched.json").read_text())["files"]
    assert set(before) <= set(owner)
    more = small(tmp_path, algorithms=["wspt"])  # fewer methods: the results change, and every figure drawn from them
    run(more, progress=False)
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.svg")}
    assert after["ratios.svg"] != before["ratios.svg"] and after["integrality_gap.svg"] == before["integrality_gap.svg"]
    with report_format("png"):
        run(more, progress=False)
    assert sorted(p.name for p in folder.glob("*.svg")) == [] and len(list(folder.glob("*.png"))) == 4
