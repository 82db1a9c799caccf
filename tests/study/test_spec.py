"""Study specifications: TOML, flags and presets end as one validated Study; bad input is exit 2."""

import pytest

from optsched.errors import InputError
from optsched.limits import NODE_LIMIT, WORK_LIMIT
from optsched.registry import families
from optsched.study import PRESETS, load, study
from optsched.study.spec import parse_seeds

from ..cli_helpers import run


@pytest.mark.parametrize("text, seeds", [(3, (0, 1, 2)), ("3", (0, 1, 2)), ("2-4", (2, 3, 4)),
                                         ("5,1,9", (5, 1, 9)), ([7, 8], (7, 8))])
def test_seeds_are_a_count_a_range_or_a_list(text, seeds):
    assert parse_seeds(text, "x") == seeds


@pytest.mark.parametrize("text", ["4-2", "a", "", [1, 1], [], -1, True, "1-", 0])
def test_bad_seeds_are_refused(text):
    with pytest.raises(InputError):
        parse_seeds(text, "x")


def test_a_toml_study_file_is_read_with_typed_parameters(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('''
name = "mine"
workers = 1
[[part]]
family = "oasis"
seeds = "0-2"
jobs = [3, 4]
options = { mode = "chunks" }
algorithms = ["fifo", { name = "rrh", params = { theta = 0.5 } }, "oasis:u_scale=2"]
[part.reference]
time_limit = 5
cross_check = true
''')
    s = load(str(path))
    (part,) = s.parts
    assert s.name == "mine" and s.execution.workers == 1 and str(s.output) == "study-mine"
    assert part.seeds == (0, 1, 2) and part.jobs == (3, 4) and part.options["mode"] == "chunks"
    assert [m.label for m in part.methods] == ["fifo", "rrh:theta=0.5", "oasis:u_scale=2"]
    assert part.methods[1].params["theta"] == 0.5 and part.methods[2].params["u_scale"] == 2.0
    assert part.reference.formulation == "best" and part.reference.time_limit == 5.0  # the measured choice
    assert part.reference.cross_check and part.reference.relax
    assert part.reference.node_limit == NODE_LIMIT and "5 s of wall clock" in part.reference.budget()


def test_a_reference_has_a_node_budget_and_no_wall_clock_by_default():
    (part,) = study({"part": [{"family": "single", "reference": {"node_limit": 7}}]}, "x").parts
    assert part.reference.node_limit == 7 and part.reference.time_limit is None
    assert part.reference.work_limit == WORK_LIMIT
    assert part.reference.budget() == f"7 nodes (MILP) or {WORK_LIMIT:g} units of CP-SAT's deterministic time"
    (part,) = study(PRESETS["demo"](), "demo").parts[:1]
    assert part.reference.node_limit == NODE_LIMIT and part.reference.time_limit is None


def test_the_demo_preset_covers_every_family_with_every_algorithm():
    s = study(PRESETS["demo"](), "demo")
    assert [p.family for p in s.parts] == list(families())
    for part in s.parts:
        assert [m.algorithm for m in part.methods] == list(families()[part.family].algorithms)
        assert part.instances == "tiny" and part.reference.cross_check


@pytest.mark.parametrize("content, message", [
    ("[[part]]\nfamily = 'nope'", "unknown family 'nope'"),
    ("[[part]]\nfamily = 'single'\ninstances = 'huge'", "no preset 'huge'"),
    ("[[part]]\nfamily = 'single'\nalgorithms = ['magic']", "no algorithm 'magic'"),
    ("[[part]]\nfamily = 'oasis'\nalgorithms = [{name = 'rrh', params = {theta = 'x'}}]", "expected a number"),
    ("[[part]]\nfamily = 'edge'\nreference = {formulation = 'dual'}", "its optimum is a lower bound"),
    ("[[part]]\nfamily = 'single'\nreference = {time_limit = -1}", "positive number"),
    ("[[part]]\nfamily = 'single'\nreference = {node_limit = 0}", "node_limit: must be a whole number"),
    ("[[part]]\nfamily = 'single'\nreference = {node_limit = 2.5}", "node_limit: must be a whole number"),
    ("[[part]]\nfamily = 'single'\ncolour = 'red'", "unknown key(s) colour"),
    ("[[part]]\nfamily = 'single'\nalgorithms = ['wspt', 'wspt']", "labels repeat"),
    ("name = 'x'", "at least one [[part]]"),
    ("executor = 'slurm'\n[[part]]\nfamily = 'single'", "executor: must be one of local, dask"),
    ("[[part\n", "not valid TOML"),
])
def test_bad_study_files_exit_2_with_one_line_and_write_nothing(capfd, tmp_path, content, message):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    code, out, err = run(capfd, "study", path, "-o", tmp_path / "out")
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, message", [
    ((), "give one of a study file, --preset NAME or --family NAME"),
    (("--preset", "demo", "--family", "single"), "give one of"),
    (("--preset", "huge"), "no preset 'huge'"),
    (("--family", "single", "--seeds", "x"), "expected N, A-B or a,b,c"),
    (("--family", "single", "--jobs", "3,x"), "expected job counts"),
    (("--family", "single", "--algorithm", "wspt:colour=red"), "has no parameter 'colour'"),
    (("missing.toml",), "missing.toml: no such file"),
])
def test_bad_study_flags_exit_2(capfd, tmp_path, argv, message):
    code, out, err = run(capfd, "study", *argv, "-o", tmp_path / "out")
    assert code == 2 and message in err and not (tmp_path / "out").exists()


def test_an_output_folder_whose_parent_is_missing_is_refused_before_any_work(capfd, tmp_path):
    code, _, err = run(capfd, "study", "--family", "single", "-o", tmp_path / "no" / "out")
    assert code == 2 and "does not exist" in err


def test_the_from_python_example_of_docs_study_md_runs(tmp_path, monkeypatch):
    """The docs' example, as printed there (its study file replaced by a small one)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "study.md").read_text()
    example = text.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my-study.toml").write_text('name = "file"\n[[part]]\nfamily = "single"\nseeds = 2\n')
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(example, "docs/study.md", "exec"), scope)
    assert scope["outcome"].problems == [] and len(scope["outcome"].results) == 5 * 2


def test_a_family_request_is_the_study_file_it_stands_for():
    """What ``optsched study --family`` builds from its flags is a typed request; its table is the one a
    study file with the same content gives (spec.py knows no command-line flag)."""
    from pathlib import Path

    from optsched.study.spec import FamilyRequest, study

    request = FamilyRequest("single", seeds="3", jobs=(3, 4), algorithms=("wspt",), reference="cp-sat",
                            relax=False)
    built = study(request.table(), "flags", Path("out"))
    (part,) = built.parts
    assert built.name == "single" and part.seeds == (0, 1, 2) and part.jobs == (3, 4)
    assert [m.label for m in part.methods] == ["wspt"] and part.reference.formulation == "cp-sat"
    assert part.reference.solver == "cp-sat" and part.reference.relax is False
    source = Path(__import__("optsched.study.spec", fromlist=["x"]).__file__).read_text()
    assert '"--' not in source  # no flag names in the spec
