"""docs/own-algorithm.md, run as a new user would: its `policies.py` written into a temporary folder
outside the repository, each `$ optsched ...` line run there with the installed console script, and
the numbers the page states compared with what the commands print and write."""

from __future__ import annotations

import csv
import json
import shlex
import subprocess
from pathlib import Path

import pytest

from .contract_helpers import Done, console_script, optsched

PAGE = Path(__file__).resolve().parents[1] / "docs" / "own-algorithm.md"


def _blocks(text: str, language: str) -> list[str]:
    """The page's fenced blocks opened with ``` and ``language`` (empty: none), in order."""
    blocks, current = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current = [] if line.strip() == "```" + language else ["<other>"]
            else:
                if current[:1] != ["<other>"]:
                    blocks.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """The page's file, and every command of its console blocks, in order; their results."""
    text = PAGE.read_text()
    folder = tmp_path_factory.mktemp("own-algorithm")
    (folder / "policies.py").write_text(_blocks(text, "python")[0])
    for block in _blocks(text, "python"):  # a block opened by "# NAME.py" is that file
        first = block.partition("\n")[0]
        if first.startswith("# ") and first.endswith(".py"):
            (folder / first.removeprefix("# ")).write_text(block)
    done = {}
    for block in _blocks(text, "console"):
        for line in block.splitlines():
            argv = shlex.split(line.removeprefix("$ "))
            if argv[0] == "python":
                run = subprocess.run([str(_python()), *argv[1:], "-p", "no:cacheprovider"], cwd=folder,
                                     capture_output=True, text=True, timeout=300)
                result = Done(run.returncode, run.stdout, run.stderr)
            else:
                assert argv[0] == "optsched", line
                result = optsched(*argv[1:], "--quiet", cwd=folder) if argv[1] in ("study", "search") \
                    else optsched(*argv[1:], cwd=folder)
            assert result.code == 0, (line, result.out, result.err)
            done[line] = result
    return text, folder, done


def _python() -> Path:
    """The Python next to the installed optsched script."""
    return Path(console_script()).with_name("python")


def test_every_command_of_the_page_runs_and_the_function_is_verified(ran):
    _, _, done = ran
    runs = [r for line, r in done.items() if " run " in line]
    assert len(runs) == 2 and all("policies.py:delayed_wspt: objective" in r.out and "feasible" in r.out for r in runs)


def test_the_study_table_the_page_shows_is_the_one_the_study_prints(ran):
    text, folder, done = ran
    shown = next(b for b in _blocks(text, "") if b.startswith("Empirical competitive ratios"))
    printed = next(r.out for line, r in done.items() if " study " in line)
    for row in shown.splitlines()[2:]:
        assert row.removesuffix("...").rstrip() in printed, row
    held = " ".join(text.split()).split("it prints `")[1].split("`")[0]  # the online check's line, as the page has it
    assert held in " ".join(printed.split()), held
    rows = list(csv.DictReader((folder / "study-mine" / "results.csv").open()))
    assert {r["status"] for r in rows} == {"feasible"} and {r["ratio_kind"] for r in rows} == {"exact"}
    assert (folder / "study-mine" / "ratio_vs_size.svg").exists() and (folder / "study-mine" / "ratios.svg").exists()


def test_the_worst_cases_the_page_states_are_the_ones_the_searches_certify(ran):
    text, folder, _ = ran
    delayed = json.loads((folder / "search-single-delayed_wspt" / "result.json").read_text())
    wspt = json.loads((folder / "search-single-wspt" / "result.json").read_text())
    assert delayed["certificate"]["cross_check"] == wspt["certificate"]["cross_check"] == "agree"

    def certified(result: dict) -> float:
        return result["certificate"]["alg"] / result["certificate"]["opt"]

    def jobs(name: str) -> int:
        return len(json.loads((folder / name / "instance.json").read_text())["instance"]["jobs"])

    assert certified(delayed) == pytest.approx(2.0) and jobs("search-single-delayed_wspt") == 1
    assert f"WSPT's is {certified(wspt):.2f} on three jobs" in " ".join(text.split())
    assert jobs("search-single-wspt") == 3


def test_the_python_block_prints_what_the_page_says(ran):
    """The "From Python" block, run as a script in the same folder by the installed Python."""
    text, folder, _ = ran
    script = next(b for b in _blocks(text, "python") if b.startswith("import optsched"))
    done = subprocess.run([str(_python()), "-c", script], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    check = next(line for line in done.stdout.splitlines() if line.startswith("OnlineCheck("))
    assert check in " ".join(text.split()).replace("`", ""), check


def test_the_property_file_of_the_page_runs_and_passes(ran):
    _, folder, done = ran
    result = next(r for line, r in done.items() if "pytest" in line)
    assert (folder / "test_delayed_wspt.py").exists() and "1 passed" in result.out, result.out
