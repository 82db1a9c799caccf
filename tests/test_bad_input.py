"""Bad input, at the process boundary: every row runs the installed ``optsched`` and must exit 2 with
one line on stderr naming the problem, nothing on stdout, no traceback, and nothing written.

Rows are data. Per-family rows are derived from the registry (unknown names, every declared parameter
range, hostile documents), so a new family or parameter adds rows without new code; the rest are the
cases a new user found (issue 15).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from optsched.params import Bounded
from optsched.registry import FAMILY_PACKAGES, get

from .contract_helpers import console_script, optsched

FAMILIES = list(FAMILY_PACKAGES)
UNWRITABLE = "/proc/optsched-out"  # its folder exists, and nothing can be created in it, even as root


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Per family: a tiny instance and a schedule of it (from its first algorithm); built once."""
    folder = tmp_path_factory.mktemp("valid")
    made = {}
    for family in FAMILIES:
        sizes = get(family).demo_sizes
        instance, schedule = folder / f"{family}.json", folder / f"{family}-schedule.json"
        assert optsched("generate", family, "--seed", "2", *(["--jobs", sizes[0]] if sizes else []),
                        "-o", instance).code == 0
        algorithm = next(iter(get(family).algorithms))
        assert optsched("run", instance, "--algorithm", algorithm, "-o", schedule).code == 0
        made[family] = (instance, schedule)
    return made


def document(path: Path) -> dict:
    return json.loads(path.read_text())


def write(folder: Path, name: str, content) -> Path:
    path = folder / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_first_number(doc, value: str) -> str:
    """The document as text with its first numeric field (inside ``instance``) spelled as ``value``."""
    def first(node):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            if isinstance(child, (int, float)) and not isinstance(child, bool):
                return node, key
            found = first(child)
            if found:
                return found
        return None

    node, key = first(doc["instance"])
    node[key] = "@@NUMBER@@"
    return json.dumps(doc).replace('"@@NUMBER@@"', value)


def below(declared: Bounded) -> str:
    """A value just outside a declared range (below its low end)."""
    return str(declared.low if declared.open_low else declared.low - 1)


def family_rows():
    rows = {}
    for name in FAMILIES:
        family = get(name)
        algorithm = next(iter(family.algorithms))
        rows[f"{name}: unknown formulation"] = (
            lambda t, f, name=name: ["solve", f[name][0], "--formulation", "magic"], "no formulation 'magic'")
        rows[f"{name}: unknown algorithm"] = (
            lambda t, f, name=name: ["run", f[name][0], "--algorithm", "magic"], "no algorithm 'magic'")
        rows[f"{name}: unknown parameter"] = (
            lambda t, f, name=name, a=algorithm: ["run", f[name][0], "--algorithm", a, "--param", "nope=1"],
            "has no parameter 'nope'")
        rows[f"{name}: run -o an unwritable place"] = (
            lambda t, f, name=name, a=algorithm: ["run", f[name][0], "--algorithm", a, "-o", UNWRITABLE],
            "cannot write there")
        rows[f"{name}: run -o onto its own input"] = (
            lambda t, f, name=name, a=algorithm: ["run", f[name][0], "--algorithm", a, "-o", f[name][0]],
            "is the input file")
        rows[f"{name}: an integer too large for a float"] = (
            lambda t, f, name=name: ["verify", write(t, "big.json", with_first_number(document(f[name][0]), "1" + "0" * 400)),
                                     f[name][1]], "an integer of 401 digits")
        rows[f"{name}: an integer of 5,000 digits"] = (
            lambda t, f, name=name: ["verify", write(t, "big.json", with_first_number(document(f[name][0]), "1" + "0" * 5000)),
                                     f[name][1]], "an integer literal of more than")
        rows[f"{name}: a number near the float limit"] = (
            lambda t, f, name=name: ["verify", write(t, "big.json", with_first_number(document(f[name][0]), "1e308")),
                                     f[name][1]], "must be at most 1e+12")
        rows[f"{name}: an instance nested 100,000 deep"] = (
            lambda t, f, name=name: ["verify", write(t, "deep.json", f'{{"family": "{name}", "format": 1, '
                                                     f'"instance": {nested(100_000)}}}'), f[name][1]], "nested more than")
        rows[f"{name}: a schedule nested 100,000 deep"] = (
            lambda t, f, name=name: ["verify", f[name][0], write(t, "deep.json", nested(100_000))], "nested more than")
        rows[f"{name}: an unknown instance field"] = (
            lambda t, f, name=name: ["verify", write(t, "extra.json", {**document(f[name][0]),
                                     "instance": {**document(f[name][0])["instance"], "bogus": 1}}), f[name][1]],
            "unknown field 'bogus'")
        for a in family.algorithms.values():
            for key, declared in a.params.items():
                if isinstance(declared, Bounded) and declared.low is not None:
                    rows[f"{name}: {a.name} {key} out of range"] = (
                        lambda t, f, name=name, a=a.name, k=key, v=below(declared):  # noqa: B008 (bound per row)
                        ["run", f[name][0], "--algorithm", a, "--param", f"{k}={v}"], f"--param {key}: must be")
        for key, declared in family.generator_options.items():
            if isinstance(declared, Bounded) and declared.low is not None:
                rows[f"{name}: generator option {key} out of range"] = (
                    lambda t, f, name=name, k=key, v=below(declared):  # noqa: B008 (bound per row)
                    ["generate", name, "--option", f"{k}={v}", "-o", t / "g.json"], f"--option {key}: must be")
    return rows


def single_doc(**job) -> dict:
    return {"family": "single", "format": 1, "instance": {"jobs": [{"p": 2, "w": 1, "r": 0, **job}]}}


STUDY_TOML = """
[[part]]
family = "single"
seeds = {seeds}
jobs = {jobs}
"""

CASES = {
    **family_rows(),
    # output that cannot be written, found before any work
    "generate -o an unwritable place": (lambda t, f: ["generate", "single", "-o", UNWRITABLE], "cannot write there"),
    "solve -o an unwritable place": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed",
                                                   "-o", UNWRITABLE], "cannot write there"),
    "solve -o onto its own input": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed",
                                                  "-o", f["single"][0]], "is the input file"),
    "solve --log onto its input": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed",
                                                 "--log", f["single"][0]], "is the input file"),
    "study -o an unwritable place": (lambda t, f: ["study", "--family", "single", "--seeds", "1", "--jobs", "3",
                                                   "-o", UNWRITABLE], "cannot write there"),
    "reproduce -o an unwritable place": (lambda t, f: ["reproduce", "edge-ratio", "-o", UNWRITABLE + "/report"],
                                         "cannot write there"),
    # sizes that would exhaust memory or never finish
    "generate a billion jobs": (lambda t, f: ["generate", "single", "--jobs", "1000000000"], "--jobs: must be <="),
    "generate 10**30 jobs": (lambda t, f: ["generate", "hetero", "--jobs", "1" + "0" * 30], "--jobs: must be <="),
    "a study of 10**12 seeds": (lambda t, f: ["study", "--family", "single", "--seeds", "1000000000000",
                                             "-o", t / "s"], "the number of seeds"),
    "a study file with a huge seed range": (lambda t, f: ["study", write(t, "s.toml", STUDY_TOML.format(
        seeds='"0-99999999999"', jobs="[3]")), "-o", t / "s"], "the number of seeds"),
    "a study file with a huge job count": (lambda t, f: ["study", write(t, "s.toml", STUDY_TOML.format(
        seeds="2", jobs="[1000000000]")), "-o", t / "s"], "a job count"),
    "single p = 10**30": (lambda t, f: ["solve", write(t, "i.json", json.dumps(single_doc()).replace(
        '"p": 2', '"p": 1' + "0" * 30)), "--formulation", "time-indexed"], "must be at most 1e+12"),
    "single p = 10**9 (a billion slots)": (lambda t, f: ["solve", write(t, "i.json", single_doc(p=10**9)),
                                                         "--formulation", "time-indexed"], "the horizon"),
    "single, a model too large to build": (lambda t, f: ["solve", write(t, "i.json", {**single_doc(), "instance": {
        "jobs": [{"p": 1, "w": 1, "r": 0}] * 3 + [{"p": 1, "w": 1, "r": 900_000}]}}), "--formulation", "time-indexed"],
        "variable count"),
    "oasis T = 10**30": (lambda t, f: ["solve", write(t, "i.json", {**document(f["oasis"][0]), "instance": {
        **document(f["oasis"][0])["instance"], "T": 10**30}}), "--formulation", "time-indexed"], "must be at most"),
    "oasis T = 10**9": (lambda t, f: ["solve", write(t, "i.json", {**document(f["oasis"][0]), "instance": {
        **document(f["oasis"][0])["instance"], "T": 10**9}}), "--formulation", "time-indexed"], "instance.T is"),
    "edge p_edge = 10**9": (lambda t, f: ["run", write(t, "i.json", {**document(f["edge"][0]), "instance": {
        **document(f["edge"][0])["instance"], "jobs": [{**job, "p_edge": 10**9}
                                                      for job in document(f["edge"][0])["instance"]["jobs"]]}}),
        "--algorithm", "srtf"], "the horizon"),
    # a study with a bad method is refused before its folder exists
    "a study with an out-of-range algorithm parameter": (lambda t, f: [
        "study", "--family", "oasis", "--seeds", "1", "--algorithm", "oasis:u_scale=0", "-o", t / "s"],
        "u_scale: must be > 0"),
    "reproduce without a name": (lambda t, f: ["reproduce"], "name a reproduction"),
    "an unreachable Dask scheduler": (lambda t, f: ["study", "--family", "single", "--seeds", "1", "--jobs", "3",
                                                    "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9",
                                                    "-o", t / "s"], "cannot reach the Dask scheduler"),
    "a reproduction on an unreachable Dask scheduler": (lambda t, f: [
        "reproduce", "edge-ratio", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "-o", t / "r"],
        "cannot reach the Dask scheduler"),
}



def fifo(folder: Path, name: str) -> Path:
    path = folder / name
    os.mkfifo(path)
    return path


def dangling(folder: Path, name: str) -> Path:
    path = folder / name
    path.symlink_to(folder / "nowhere")
    return path


def blocked(folder: Path, name: str, inner: str) -> Path:
    """An output folder with a directory where the run would write the file ``inner``."""
    (folder / name / inner).mkdir(parents=True)
    return folder / name


def owned(folder: Path, name: str, owner: dict) -> Path:
    """An output folder written by the run ``owner`` describes."""
    (folder / name).mkdir()
    (folder / name / "result.json").write_text("{}")
    (folder / name / ".optsched.json").write_text(json.dumps({**owner, "files": ["result.json"]}))
    return folder / name


def sparse(folder: Path, name: str, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk."""
    path = folder / name
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def edge_schedule_without(files, folder: Path, key: str) -> Path:
    doc = document(files["edge"][1])
    for job in doc["schedule"]["jobs"]:
        job.pop(key)
    return write(folder, "s.json", doc)


SMALL_SEARCH = ["--size-max", "2", "--budget", "2", "--shrink-budget", "0", "--workers", "1", "--quiet"]
OASIS_SEARCH = {"verb": "search", "family": "oasis", "algorithm": "oasis"}
STUDY_FLAGS = [["--node-limit", "1"], ["--seeds", "3"], ["--algorithm", "wspt"], ["--jobs", "3"], ["--no-relax"],
               ["--cross-check"], ["--time-limit", "5"], ["--instances", "small"], ["--option", "a=b"],
               ["--reference", "time-indexed"], ["--solver", "cbc"]]

# Issue 28: the newer verbs and output folders, held to the same contract.
CASES.update({
    # the CP-SAT engine: exact integer data, no relaxation, its own budget
    "single cp-sat with a weight of seven decimals": (lambda t, f: ["solve", write(t, "i.json", single_doc(
        w=1.2345678)), "--formulation", "cp-sat"], "more than six decimal places"),
    "single cp-sat --relax": (lambda t, f: ["solve", f["single"][0], "--formulation", "cp-sat", "--relax"],
                              "has no LP relaxation"),
    "single cp-sat --node-limit": (lambda t, f: ["solve", f["single"][0], "--formulation", "cp-sat", "--node-limit",
                                                 "5"], "a node limit bounds MILP solves"),
    "single time-indexed --work-limit": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed",
                                                       "--work-limit", "5"], "no CP-SAT model is solved here"),
    "single cp-sat --cross-check solver": (lambda t, f: ["solve", f["single"][0], "--formulation", "cp-sat",
                                                         "--cross-check", "solver"], "solved by CP-SAT alone"),
    "--cross-check with an unknown kind": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed",
                                                         "--cross-check", "twice"], "invalid choice: 'twice'"),
    "search theorem:bound for an algorithm without a bound (oasis fifo)": (lambda t, f: [
        "search", "oasis", "--algorithm", "fifo", "--target", "theorem:bound", "-o", t / "s"], "has none"),
    "search theorem:bound for an algorithm without a bound (edge srtf)": (lambda t, f: [
        "search", "edge", "--algorithm", "srtf", "--target", "theorem:bound", "-o", t / "s"], "has none"),
    "search with a 13-digit seed": (lambda t, f: ["search", "oasis", "--algorithm", "oasis", "--seed",
                                                  "5000000000000", "-o", t / "s"], "--seed: must be <="),
    "run with a 13-digit seed": (lambda t, f: ["run", f["single"][0], "--algorithm", "wspt", "--seed",
                                               "5000000000000"], "--seed: must be <="),
    "search -o onto a regular file": (lambda t, f: ["search", "oasis", "--algorithm", "oasis", "-o",
                                                    write(t, "taken", "x")], "it is a file"),
    "search -o onto a named pipe": (lambda t, f: ["search", "oasis", "--algorithm", "oasis", "-o",
                                                  fifo(t, "pipe")], "it is a named pipe"),
    "search -o onto a dangling symlink": (lambda t, f: ["search", "oasis", "--algorithm", "oasis", "-o",
                                                        dangling(t, "link")], "dangling symbolic link"),
    "study -o onto a dangling symlink": (lambda t, f: ["study", "--family", "single", "--seeds", "1", "-o",
                                                       dangling(t, "link")], "dangling symbolic link"),
    "reproduce -o onto a dangling symlink": (lambda t, f: ["reproduce", "asrpt-table2", "--preset", "quick", "-o",
                                                           dangling(t, "link")], "dangling symbolic link"),
    "search on an unreachable Dask scheduler": (lambda t, f: [
        "search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH, "--executor", "dask", "--scheduler",
        "tcp://127.0.0.1:9", "-o", t / "s"], "cannot reach the Dask scheduler"),
    "search with result.json a directory": (lambda t, f: [
        "search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH, "-o", blocked(t, "s", "result.json")],
        "result.json: is in the way"),
    "search with history.csv a directory": (lambda t, f: [
        "search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH, "-o", blocked(t, "s", "history.csv")],
        "history.csv: is in the way"),
    "study with results.csv a directory": (lambda t, f: [
        "study", "--family", "single", "--seeds", "1", "--jobs", "3", "-o", blocked(t, "s", "results.csv")],
        "results.csv: is in the way"),
    "reproduce with results.csv a directory": (lambda t, f: [
        "reproduce", "asrpt-table2", "--preset", "quick", "-o", blocked(t, "rep", "results.csv")],
        "results.csv: is in the way"),
    "reproduce with a figure in worst/ a directory": (lambda t, f: [
        "reproduce", "asrpt-table2", "--preset", "quick", "-o", blocked(t, "rep", "worst/x.json")],
        "x.json: is in the way"),
    "a search into another search's folder": (lambda t, f: [
        "search", "edge", "--algorithm", "aonline", "-o", owned(t, "s", OASIS_SEARCH)],
        "holds the output of another run"),
    "a study into a folder optsched did not write": (lambda t, f: [
        "study", "--family", "single", "--seeds", "1", "-o", write(t, "notes.txt", "mine").parent],
        "holds files optsched did not write"),
    "Dorm with a node limit of 2**31": (lambda t, f: ["run", f["oasis"][0], "--algorithm", "dorm", "--param",
                                                      "node_limit=2147483648"], "node_limit: must be"),
    **{f"study file with {flags[0]}": (lambda t, f, flags=flags: [
        "study", write(t, "s.toml", STUDY_TOML.format(seeds="1", jobs="[3]")), *flags, "-o", t / "s"],
        f"{flags[0]} describes a --family study") for flags in STUDY_FLAGS},
    "study --preset with --node-limit": (lambda t, f: ["study", "--preset", "demo", "--node-limit", "1",
                                                       "-o", t / "s"], "--node-limit describes a --family study"),
    "a 200 MB instance file": (lambda t, f: ["solve", sparse(t, "big.json", 200_000_000), "--formulation",
                                             "time-indexed"], "more than the input limit of 64 MB"),
    "an instance above a lowered input limit": (lambda t, f: ["verify", *f["single"], "--max-input-mb", "0.0001"],
                                                "more than the input limit"),
    "verify with its arguments swapped": (lambda t, f: ["verify", f["single"][1], f["single"][0]],
                                          "is a schedule, not an instance"),
    "a bare schedule (no envelope)": (lambda t, f: ["verify", f["single"][0], write(
        t, "bare.json", document(f["single"][1])["schedule"])], "bare.json: is not an optsched schedule document"),
    "edge schedule without cloud_ps": (lambda t, f: ["verify", f["edge"][0], edge_schedule_without(f, t, "cloud_ps")],
                                       "missing field 'cloud_ps'"),
    "a mistyped formulation": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexd"],
                               "did you mean 'time-indexed'?"),
    "a mistyped algorithm": (lambda t, f: ["run", f["single"][0], "--algorithm", "wsp"], "did you mean 'wspt'?"),
    "a mistyped flag": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed", "--node-limt", "3"],
                        "did you mean '--node-limit'?"),
    "a mistyped family": (lambda t, f: ["generate", "sngle"], "did you mean 'single'?"),
    "a mistyped verb": (lambda t, f: ["slove"], "did you mean 'solve'?"),
    "an abbreviated flag": (lambda t, f: ["study", "--family", "single", "--seed", "3", "-o", t / "s"],
                            "unrecognized arguments: --seed: did you mean '--seeds'?"),
    "a generator option given as a flag": (lambda t, f: ["generate", "edge", "--servers", "3"],
                                           "did you mean '--option servers=3'?"),
    "another verb's flag": (lambda t, f: ["solve", f["single"][0], "--formulation", "time-indexed", "--workers", "2"],
                            "unrecognized arguments: --workers 2\n"),  # no suggestion from study's flags
})


LONG = "x" * 300  # a file name longer than any common file system allows (255 bytes)


def owner_file(folder: Path, name: str, record: str) -> Path:
    """An output folder whose owner file holds ``record`` (text)."""
    (folder / name).mkdir()
    (folder / name / ".optsched.json").write_text(record)
    return folder / name


def someones_sqlite(folder: Path, name: str) -> Path:
    """A folder holding someone's own SQLite file named like optsched's cache, with a units table."""
    (folder / name).mkdir()
    db = sqlite3.connect(folder / name / "cache.sqlite")
    db.execute("CREATE TABLE units (key TEXT, note TEXT)")
    db.execute("INSERT INTO units VALUES ('mine', 'keep me')")
    db.commit()
    db.close()
    return folder / name


def damaged_cache(folder: Path, name: str, argv: list | None = None) -> Path:
    """A folder of ``argv``'s run (default: the study ``STUDY_ONE``) whose cache is not a database."""
    assert optsched(*(argv or ["study", *STUDY_ONE]), "-o", folder / name).code == 0
    (folder / name / "cache.sqlite").write_bytes(b"not a database" * 300)
    return folder / name


def owned_with_damaged_cache(folder: Path, name: str, owner: dict) -> Path:
    """A folder ``owner`` wrote, whose cache is not a database."""
    (folder / name).mkdir()
    (folder / name / ".optsched.json").write_text(json.dumps({**owner, "files": {}}))
    (folder / name / "cache.sqlite").write_bytes(b"not a database" * 300)
    return folder / name


def worst_a_file(folder: Path, name: str) -> Path:
    """An edge-ratio report folder whose ``worst/`` subfolder is a regular file."""
    (folder / name).mkdir()
    (folder / name / ".optsched.json").write_text(json.dumps(
        {"verb": "reproduce", "name": "edge-ratio", "preset": "quick", "files": {}}))
    (folder / name / "worst").write_text("not a folder")
    return folder / name


def single_jobs(folder: Path, count: int) -> Path:
    return write(folder, "many.json", {"family": "single", "format": 1,
                                       "instance": {"jobs": [{"p": 1, "w": 1, "r": 0}] * count}})


SEARCH_ONE = ["search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH]
STUDY_ONE = ["--family", "single", "--seeds", "1", "--jobs", "3", "--no-relax", "--workers", "1", "--quiet"]

# Issue 49: names the file system cannot hold, input limits everywhere, folders optsched does not own,
# and study references, each refused in one line before any work, with every file left as it was.
CASES.update({
    **{f"{verb} -o a name over the file system's limit": (lambda t, f, argv=argv: [*argv(f), "-o", t / LONG],
                                                          "File name too long")
       for verb, argv in {
           "generate": lambda f: ["generate", "single"],
           "solve": lambda f: ["solve", f["single"][0], "--formulation", "time-indexed"],
           "run": lambda f: ["run", f["single"][0], "--algorithm", "wspt"],
           "study": lambda f: ["study", *STUDY_ONE],
           "search": lambda f: ["search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH],
           "reproduce": lambda f: ["reproduce", "edge-ratio", "--preset", "quick"]}.items()},
    "solve --log a name over the file system's limit": (lambda t, f: [
        "solve", f["single"][0], "--formulation", "time-indexed", "--log", t / LONG], "File name too long"),
    "--max-input-mb 1e13": (lambda t, f: ["verify", *f["single"], "--max-input-mb", "1e13"],
                            "--max-input-mb: must be <="),
    "--max-input-mb 1e308": (lambda t, f: ["run", f["single"][0], "--algorithm", "wspt", "--max-input-mb", "1e308"],
                             "--max-input-mb: must be <="),
    "a 200 MB study file": (lambda t, f: ["study", sparse(t, "s.toml", 200_000_000), "-o", t / "s"],
                            "more than the input limit of 64 MB"),
    "a study file above a lowered input limit": (lambda t, f: [
        "study", write(t, "s.toml", STUDY_TOML.format(seeds="1", jobs="[3]")), "--max-input-mb", "0.00001",
        "-o", t / "s"], "more than the input limit"),
    "a study file nested 5,000 deep": (lambda t, f: ["study", write(t, "s.toml", "a = " + nested(5000)),
                                                     "-o", t / "s"], "nested more than"),
    "a single instance of 100,001 jobs": (lambda t, f: ["run", single_jobs(t, 100_001), "--algorithm", "wspt"],
                                          "the number of jobs is 100,001"),
    "--threads 2**31": (lambda t, f: ["solve", f["single"][0], "--formulation", "cp-sat", "--threads", "2147483648"],
                        "--threads: must be <="),
    "a study reference cp-sat with --solver cbc": (lambda t, f: [
        "study", *STUDY_ONE, "--reference", "cp-sat", "--solver", "cbc", "-o", t / "s"],
        "--solver applies to MILP formulations"),
    "a study file with a MILP solver for a CP-SAT reference": (lambda t, f: [
        "study", write(t, "s.toml", STUDY_TOML.format(seeds="1", jobs="[3]")
                       + '[part.reference]\nformulation = "cp-sat"\nsolver = "highs"\n'), "-o", t / "s"],
        "applies to MILP formulations"),
    "a study file with an empty reference formulation": (lambda t, f: [
        "study", write(t, "s.toml", STUDY_TOML.format(seeds="1", jobs="[3]") + '[part.reference]\nformulation = ""\n'),
        "-o", t / "s"], "expected a formulation's name"),
    "reproduce with worst/ a regular file": (lambda t, f: ["reproduce", "edge-ratio", "--preset", "quick", "-o",
                                                           worst_a_file(t, "r")], "worst: is in the way"),
    "an owner file holding []": (lambda t, f: ["study", *STUDY_ONE, "-o", owner_file(t, "s", "[]")], "is damaged"),
    "an owner file nested 100,000 deep": (lambda t, f: ["search", "oasis", "--algorithm", "oasis", *SMALL_SEARCH,
                                                        "-o", owner_file(t, "s", nested(100_000))], "is damaged"),
    "an owner file with files not a list": (lambda t, f: ["study", *STUDY_ONE, "-o", owner_file(
        t, "s", '{"verb": "study", "files": 3}')], "is damaged"),
    "someone's SQLite file named cache.sqlite": (lambda t, f: ["study", *STUDY_ONE, "-o", someones_sqlite(t, "s")],
                                                 "optsched did not write"),
    "someone's SQLite file named cache.sqlite, --fresh": (lambda t, f: [
        "study", *STUDY_ONE, "--fresh", "-o", someones_sqlite(t, "s")], "optsched did not write"),
    "a damaged study cache": (lambda t, f: ["study", *STUDY_ONE, "-o", damaged_cache(t, "s")],
                              "the cache is damaged"),
    "a damaged reproduction cache": (lambda t, f: ["reproduce", "asrpt-table2", "--preset", "quick", "-o",
                                                   owned_with_damaged_cache(t, "r", {
                                                       "verb": "reproduce", "name": "asrpt-table2",
                                                       "preset": "quick"})], "the cache is damaged"),
    "a damaged search cache": (lambda t, f: [*SEARCH_ONE, "-o", damaged_cache(t, "s", SEARCH_ONE)],
                               "the cache is damaged"),
})

# Issue 53, item 9: a researcher's function named wrongly, or given a budget that is no budget, is
# refused before any work, in every verb that takes one (what it does when it runs: tests/test_plugins.py).
CASES.update({
    "run: a module that does not import": (lambda t, f: ["run", f["single"][0], "--algorithm", "no_such_mod:f"],
                                           "cannot import no_such_mod"),
    "run: a file that is not there": (lambda t, f: ["run", f["single"][0], "--algorithm", "nope.py:f"],
                                      "no such file nope.py"),
    "run: a name that is not a function": (lambda t, f: [
        "run", f["single"][0], "--algorithm", f"{write(t, 'mine.py', 'X = 3')}:X"], "X is a int, not a function"),
    "run: a file that does not compile": (lambda t, f: [
        "run", f["single"][0], "--algorithm", f"{write(t, 'mine.py', 'def f(:')}:f"], "cannot load"),
    "study: a function that is not there": (lambda t, f: [
        "study", *STUDY_ONE, "--algorithm", f"{write(t, 'mine.py', '')}:f", "-o", t / "s"], "has no 'f'"),
    "study file: a function table naming no function": (lambda t, f: [
        "study", write(t, "s.toml", STUDY_TOML.format(seeds="1", jobs="[3]")
                       + 'algorithms = [{ name = "mine", function = "mine" }]\n'), "-o", t / "s"],
        "expected module.path:function or file.py:function"),
    "search: a module that does not import": (lambda t, f: [
        "search", "single", "--algorithm", "no_such_mod:f", "--budget", "2", "--shrink-budget", "0", "-o", t / "s"],
        "cannot import no_such_mod"),
    "run --algorithm-budget 0": (lambda t, f: ["run", f["single"][0], "--algorithm", "wspt", "--algorithm-budget", "0"],
                                 "--algorithm-budget: must be a positive"),
    "study --algorithm-budget -1": (lambda t, f: ["study", *STUDY_ONE, "--algorithm-budget", "-1", "-o", t / "s"],
                                    "--algorithm-budget: must be a positive"),
    "a study file's algorithm_budget as text": (lambda t, f: [
        "study", write(t, "s.toml", 'algorithm_budget = "soon"\n' + STUDY_TOML.format(seeds="1", jobs="[3]")),
        "-o", t / "s"], "algorithm_budget: must be a positive number of seconds"),
})


def snapshot(folder: Path) -> dict:
    """Every entry below ``folder``: its content (for a file), its mode and its modification time."""
    return {p: (p.read_bytes() if p.is_file() and not p.is_symlink() else None, p.lstat().st_mode,
                p.lstat().st_mtime_ns) for p in folder.rglob("*")}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_exits_2_with_one_line_and_writes_nothing(case, files, tmp_path):
    build, expected = CASES[case]
    argv = build(tmp_path, files)
    before = snapshot(tmp_path)
    valid_before = {p: p.read_bytes() for pair in files.values() for p in pair}
    done = optsched(*argv, cwd=tmp_path)
    assert done.code == 2, done
    assert done.out == ""
    assert done.err.startswith("optsched: error: ") and done.err.count("\n") == 1, done.err
    assert expected in done.err, done.err
    assert snapshot(tmp_path) == before
    assert {p: p.read_bytes() for pair in files.values() for p in pair} == valid_before


def test_writing_to_a_device_writes_through_it_and_keeps_it_a_device(files):
    done = optsched("run", files["single"][0], "--algorithm", "wspt", "-o", os.devnull)
    assert done.code == 0 and Path(os.devnull).is_char_device()


def test_an_unexpected_failure_is_one_line_and_exit_1_with_the_traceback_on_request(files, tmp_path):
    """A bug is not bad input: one line, exit 1; OPTSCHED_TRACEBACK=1 shows it in full. Provoked by a
    sitecustomize that breaks the verifier."""
    (tmp_path / "sitecustomize.py").write_text(
        "import optsched.single.schedule as s\n"
        "def broken(instance, schedule):\n    raise RuntimeError('boom')\n"
        "s.verify = broken\n")
    env = {"PYTHONPATH": str(tmp_path)}
    args = ("verify", *files["single"])
    done = optsched(*args, env=env)
    assert done.code == 1 and done.out == ""
    assert done.err.strip() == ("optsched: internal error: RuntimeError: boom "
                                "(please report it; OPTSCHED_TRACEBACK=1 shows where)")
    shown = optsched(*args, env={**env, "OPTSCHED_TRACEBACK": "1"})
    assert shown.code == 1 and "Traceback" in shown.err and "RuntimeError: boom" in shown.err


def _capped(size: int):
    """A child process whose files may grow to ``size`` bytes: past it a write fails (EFBIG, as a full disk)."""
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _run_capped(argv: list, size: int, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([console_script(), *map(str, argv)], capture_output=True, text=True, cwd=cwd,
                          preexec_fn=_capped(size), timeout=120)


def test_a_file_system_that_refuses_a_write_is_one_line_and_leaves_no_partial_file(tmp_path):
    """Issue 49: a full disk was 'internal error: OSError'. A generated instance larger than the file
    system lets a file grow is one line naming the file, exit 2, and nothing is left behind."""
    done = _run_capped(["generate", "single", "--jobs", "20000", "-o", "x.json"], 100_000, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("optsched: error: x.json: cannot write:") and done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_study_whose_cache_cannot_grow_is_named_as_such_and_keeps_what_it_stored(tmp_path):
    """The cache is not damaged when the disk is full: the line says what happened, not '--fresh', and a
    run again once there is room computes only what is missing."""
    argv = ["study", "--family", "single", "--seeds", "40", "--jobs", "3,4", "--workers", "1", "--quiet", "-o", "s"]
    done = _run_capped(argv, 60_000, tmp_path)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    error = [line for line in done.stderr.splitlines() if line.startswith("optsched:")]
    assert len(error) == 1 and "cannot use the cache" in error[0] and "--fresh" not in error[0], done.stderr
    again = optsched(*argv, cwd=tmp_path)
    assert again.code == 0, again.err
    cached = int(again.err.split(" from the cache")[0].rsplit(" ", 1)[1])
    assert cached > 0, again.err


def test_a_large_input_limit_reads_a_small_file_without_allocating_it(files):
    """``--max-input-mb 1e5`` was a MemoryError on a 1 KB file: the limit is a ceiling, not a buffer."""
    done = optsched("verify", *files["single"], "--max-input-mb", "1e5")
    assert done.code == 0, done.err
