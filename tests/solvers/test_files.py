"""Models out and solutions in (optsched/solvers/files.py, `optsched export`, `verify --solution`):
HiGHS, reading the file optsched wrote, proves the optimum optsched proves, for MPS and LP, for a
minimisation and a maximisation and an objective with a constant; its solution file, and the
solution files of other solvers' styles, go back through the decoder and the verifier."""

from __future__ import annotations

import json

import highspy
import pytest

from optsched.solvers.files import read_solution
from optsched.testing import random_milp

from ..contract_helpers import optsched

CASES = [("oasis", "time-indexed", False), ("edge", "time-indexed", False), ("hetero", "time-indexed", False),
         ("asrpt", "time-indexed", False), ("single", "time-indexed", False), ("placement", "ilp", False),
         ("asrpt", "single-machine", True)]  # the last: an LP whose objective has a constant


def _highs(path, solution=None) -> float:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    if solution is not None:
        h.writeSolution(str(solution), 0)
    return h.getInfo().objective_function_value


@pytest.mark.parametrize(("family", "formulation", "relax"), CASES)
def test_highs_reading_the_exported_file_proves_optscheds_optimum_and_its_solution_verifies(tmp_path, family,
                                                                                           formulation, relax):
    instance = tmp_path / "i.json"
    assert optsched("generate", family, "--preset", "tiny", "--seed", "2", "-o", instance).code == 0
    flags = ["--relax"] if relax else []
    solved = json.loads(optsched("solve", instance, "--formulation", formulation, *flags, "--json").out)
    for suffix in (".mps", ".lp"):
        model = tmp_path / f"model{suffix}"
        done = optsched("export", instance, "--formulation", formulation, *flags, "-o", model, "--json")
        assert done.code == 0, done.err
        assert json.loads(done.out)["variables"] > 0
        assert _highs(model, tmp_path / "highs.sol") == pytest.approx(solved["objective"], rel=1e-7)
    if relax:
        return
    back = optsched("verify", instance, "--solution", tmp_path / "highs.sol", "--formulation", formulation, "--json")
    verdict = json.loads(back.out)
    assert back.code == 0 and verdict["verified"]["feasible"], back.out
    assert verdict["verified"]["objective"] == pytest.approx(solved["objective"], rel=1e-7)
    assert verdict["status"] == "feasible"  # a file proves nothing about optimality


def test_solution_files_in_other_solvers_styles_read_the_same_values():
    """Gurobi (`name value`, `#` comments), SCIP (`name value (obj:c)`, zeros left out) and CBC
    (`index name value reduced-cost`) styles; HiGHS's duals after `# Dual` are not values."""
    problem = random_milp(3)
    names = [v.name for v in problem.variables()]
    values = {name: float(k + 1) for k, name in enumerate(names)}
    styles = {
        "gurobi": "# Objective value = 7\n" + "".join(f"{n} {v}\n" for n, v in values.items()),
        "scip": "solution status: optimal\nobjective value: 7\n"
                + "".join(f"{n}   {v}   (obj:2)\n" for n, v in values.items()),
        "cbc": "Optimal - objective value 7.0\n"
               + "".join(f"  {k} {n}  {v}  0\n" for k, (n, v) in enumerate(values.items())),
        "highs": "# Primal solution values\n" + "".join(f"{n} {v}\n" for n, v in values.items())
                 + "# Dual solution values\n" + "".join(f"{n} -99\n" for n in names),
    }
    for style, text in styles.items():
        read, named = read_solution(problem, f"{style}.sol", text)
        assert read == values and named == len(names), style
    partial, named = read_solution(problem, "scip.sol", f"{names[0]} 2\n")
    assert named == 1 and partial[names[0]] == 2 and all(partial[n] == 0 for n in names[1:])


@pytest.mark.parametrize(("argv", "message"), [
    (["export", "{i}", "--formulation", "cp-sat", "-o", "{d}/m.mps"], "formulation cp-sat has no MILP model"),
    (["export", "{i}", "--formulation", "time-indexed", "-o", "{d}/m.txt"], "must end in .mps or .lp"),
    (["verify", "{i}", "--solution", "{d}/junk.sol", "--formulation", "time-indexed"], "names none of the model's"),
    (["verify", "{i}", "--solution", "{d}/junk.sol"], "--solution and --formulation go together"),
    (["verify", "{i}"], "give a schedule file, or --solution FILE"),
])
def test_bad_files_and_flags_are_one_line_of_bad_input(tmp_path, argv, message):
    instance = tmp_path / "i.json"
    assert optsched("generate", "oasis", "--preset", "tiny", "--seed", "1", "-o", instance).code == 0
    (tmp_path / "junk.sol").write_text("hello 1\n")
    done = optsched(*(a.format(i=instance, d=tmp_path) for a in argv))
    assert done.code == 2 and done.out == "" and done.err.count("\n") == 1 and message in done.err, done.err
    assert not (tmp_path / "m.mps").exists() and not (tmp_path / "m.txt").exists()


def test_a_solution_that_breaks_the_model_is_rejected_not_decoded(tmp_path):
    instance, model, solution = tmp_path / "i.json", tmp_path / "m.mps", tmp_path / "s.sol"
    assert optsched("generate", "single", "--preset", "tiny", "--seed", "2", "-o", instance).code == 0
    assert optsched("export", instance, "--formulation", "time-indexed", "-o", model).code == 0
    _highs(model, solution)
    lines = solution.read_text().splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("x_") and line.split()[1] == "1")
    lines[first] = f"{lines[first].split()[0]} 0"  # a job left unassigned
    solution.write_text("\n".join(lines) + "\n")
    done = optsched("verify", instance, "--solution", solution, "--formulation", "time-indexed")
    assert done.code == 1 and "REJECTED" in done.out and "breaks the model" in done.out
