"""What a study runs: parts (a family, its instances, its methods, its reference) and how.

A study is read from a TOML file, built from a :class:`FamilyRequest` (what the command line's
``--family`` flags describe), or taken from a named preset (:data:`PRESETS`); all three end as a
validated :class:`Study`. Validation happens here, before any
work: unknown families, presets, algorithms, parameters or formulations are bad input (exit 2).

TOML layout (every key but ``family`` is optional; see docs/study.md)::

    name = "my-study"
    executor = "local"          # or "dask"
    workers = 2
    scheduler = "tcp://10.0.0.5:8786"   # dask only; without it a local cluster is started
    algorithm_budget = 60       # seconds per run of a researcher's function (wall clock; none by default)

    [[part]]
    family = "oasis"
    instances = "tiny"          # the generator preset (a trace-driven preset reads a trace)
    seeds = "0-19"              # or 20 (meaning 0-19), or [0, 4, 7]
    jobs = [3, 4, 5]            # instance sizes; omitted: the preset's own
    options = { mode = "worker_slots" }
    algorithms = ["oasis", "fifo", { name = "rrh", params = { theta = 0.5 }, label = "rrh-0.5" }]
    [part.reference]
    formulation = "time-indexed"
    solver = "highs"
    node_limit = 200000         # branch-and-bound nodes on one thread: the same result on every machine
    # time_limit = 60           # seconds: a wall-clock budget (results may then change with the machine)
    cross_check = true
    relax = true
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import plugins
from ..errors import InputError
from ..jsonio import MAX_DEPTH, MAX_INPUT_MB, nesting, read_text
from ..limits import MAX_JOBS, MAX_NODES, MAX_SEEDS, MAX_UNITS, MAX_WORKERS, NODE_LIMIT, WORK_LIMIT, refuse_above
from ..params import bind
from ..pipeline import BEST
from ..plugins import is_function_name
from ..registry import families, get
from ..solvers import CP_SAT, SOLVERS
from .engine import EXECUTORS, Execution


@dataclass(frozen=True)
class Method:
    """An algorithm with bound parameters; ``label`` names it in tables (unique within a part)."""

    algorithm: str
    params: Mapping[str, Any]
    label: str


@dataclass(frozen=True)
class Reference:
    """How the offline optimum is computed: an exact formulation (one that gives a schedule), the
    solver and its budget (a node limit; a wall-clock ``time_limit`` only when asked for, since the
    result then depends on the machine), an optional cross-check, and whether to also solve the LP
    relaxation (for the integrality gap and an extra bound)."""

    formulation: str
    solver: str = "highs"  #: highs or cbc for a MILP (and best), cp-sat for a CP-SAT model
    node_limit: int = NODE_LIMIT
    time_limit: float | None = None
    cross_check: bool = False
    relax: bool = True
    work_limit: float = WORK_LIMIT

    def to_dict(self) -> dict:
        """This ``Reference`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"formulation": self.formulation, "solver": self.solver, "node_limit": self.node_limit,
                "work_limit": self.work_limit, "time_limit": self.time_limit, "cross_check": self.cross_check,
                "relax": self.relax}

    def budget(self) -> str:
        """The budget in words, for reports."""
        nodes = f"{self.node_limit:,} nodes (MILP) or {self.work_limit:g} units of CP-SAT's deterministic time"
        return nodes if self.time_limit is None else f"{nodes}, or {self.time_limit:g} s of wall clock"


@dataclass(frozen=True)
class Part:
    """One part of a study: a family, its generator preset, seeds, job counts and options, the reference solve and
    the methods."""
    family: str
    instances: str  #: generator preset
    seeds: tuple[int, ...]
    jobs: tuple[int | None, ...]
    options: Mapping[str, Any]
    methods: tuple[Method, ...]
    reference: Reference

    def to_dict(self) -> dict:
        """This ``Part`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"family": self.family, "instances": self.instances, "seeds": list(self.seeds),
                "jobs": [j for j in self.jobs if j is not None], "options": dict(self.options),
                "algorithms": [{"name": m.algorithm, "params": dict(m.params), "label": m.label} for m in self.methods],
                "reference": self.reference.to_dict()}


@dataclass(frozen=True)
class Study:
    """A study: its name and parts, where its units run, and the output folder."""
    name: str
    parts: tuple[Part, ...]
    execution: Execution = field(default_factory=lambda: Execution(workers=os.cpu_count() or 1))
    output: Path = field(default_factory=lambda: Path("study-out"))
    #: the preset it came from (``--preset``), None for a study file or flags
    preset: str | None = None

    def to_dict(self) -> dict:
        """This ``Study`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"name": self.name, "executor": self.execution.executor, "workers": self.execution.workers,
                "scheduler": self.execution.scheduler, "parts": [p.to_dict() for p in self.parts]}


def _seed_range(lo: int, hi: int, where: str) -> tuple[int, ...]:
    """Seeds ``lo..hi``, refused before they are listed when there are too many."""
    refuse_above(hi - lo + 1, MAX_SEEDS, f"{where}: the number of seeds")
    return tuple(range(lo, hi + 1))


def parse_seeds(value: Any, where: str) -> tuple[int, ...]:
    """``N`` (0..N-1), ``"A-B"`` (inclusive), ``"a,b,c"``, or a list of integers."""
    if isinstance(value, bool):
        raise InputError(f"{where}: expected a count, a range A-B or a list of seeds, got {value!r}")
    if isinstance(value, int):
        seeds = _seed_range(0, value - 1, where)
    elif isinstance(value, list):
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
            raise InputError(f"{where}: a list of seeds must hold integers only")
        seeds = tuple(value)
    elif isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"\d+", text):
            seeds = _seed_range(0, int(text) - 1, where)
        elif m := re.fullmatch(r"(\d+)\s*-\s*(\d+)", text):
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise InputError(f"{where}: empty seed range {text!r}")
            seeds = _seed_range(lo, hi, where)
        elif re.fullmatch(r"\d+(\s*,\s*\d+)*", text):
            seeds = tuple(int(s) for s in text.split(","))
        else:
            raise InputError(f"{where}: expected N, A-B or a,b,c, got {value!r}")
    else:
        raise InputError(f"{where}: expected a count, a range A-B or a list of seeds, got {value!r}")
    refuse_above(len(seeds), MAX_SEEDS, f"{where}: the number of seeds")
    if not seeds or min(seeds) < 0:
        raise InputError(f"{where}: seeds must be a non-empty set of integers >= 0")
    if len(set(seeds)) != len(seeds):
        raise InputError(f"{where}: seeds repeat")
    return seeds


def _as_text(value: Any, where: str) -> str:
    """A TOML scalar as the ``KEY=VALUE`` text the registry's binder coerces."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise InputError(f"{where}: expected a number, a boolean or a string, got {value!r}")


def method(family_name: str, entry: Any, where: str) -> Method:
    """A method from ``"name"``, ``"name:k=v,k=v"`` or ``{name, params, label}``; a researcher's function
    (:mod:`optsched.plugins`) from ``"module:function"``, ``"file.py:function:k=v,..."``, ``{name,
    function, params}`` (``name`` then being its label) or, from Python, the function itself when
    its module can be imported by name."""
    family = get(family_name)
    if isinstance(entry, str):
        head, _, tail = entry.rpartition(":")
        name, rest = (head, tail) if head and "=" in tail else (entry, "")
        given = {}
        for item in filter(None, (s.strip() for s in rest.split(","))):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise InputError(f"{where}: expected name:KEY=VALUE,..., got {entry!r}")
            given[key.strip()] = value.strip()
        label = entry if given else name
    elif isinstance(entry, dict):
        unknown = set(entry) - {"name", "params", "label", "function"}
        if unknown or "name" not in entry:
            raise InputError(f"{where}: an algorithm table has keys name, params, label, function "
                             f"(got {', '.join(sorted(entry))})")
        named, function, params = entry["name"], entry.get("function"), entry.get("params", {})
        if not isinstance(named, str) or not isinstance(function, (str, type(None))) or not isinstance(params, dict):
            raise InputError(f"{where}: name and function must be strings and params a table")
        if function is not None and not is_function_name(function):
            raise InputError(f"{where}.function: expected module.path:function or file.py:function, got {function!r}")
        given = {k: _as_text(v, f"{where}.params.{k}") for k, v in params.items()}
        name = function or named
        label = entry.get("label") or (named if function else "") or \
            (name + (":" + ",".join(f"{k}={v}" for k, v in given.items()) if given else ""))
        if not isinstance(label, str):
            raise InputError(f"{where}.label: expected a string")
    elif callable(entry):  # a function from Python: its worker processes import it again by name
        name = plugins.name_of(entry)
        if entry.__module__ == "__main__" or "<locals>" in entry.__qualname__:
            raise InputError(f"{where}: {entry.__qualname__} is defined in {entry.__module__}, which a study's worker "
                             "processes cannot import; put it in a file and name it file.py:function")
        given, label = {}, name
    else:
        raise InputError(f"{where}: expected an algorithm name or table, got {entry!r}")
    algorithm = family.algorithm(name)
    return Method(name, algorithm.bind(given), label)


def reference(family_name: str, table: Mapping[str, Any], where: str) -> Reference:
    """A validated reference; the formulation is ``best`` (the family's measured choice per
    instance, :meth:`~optsched.registry.Family.best_formulation`) unless the table names one."""
    unknown = set(table) - {"formulation", "solver", "node_limit", "work_limit", "time_limit", "cross_check",
                            "relax"}
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    family = get(family_name)
    name = table.get("formulation", BEST)
    if not isinstance(name, str) or not name:
        raise InputError(f"{where}.formulation: expected a formulation's name or {BEST!r}, got {name!r}")
    engine = "milp"
    if name != BEST:  # best names an exact formulation on every instance (the conformance suite checks it)
        formulation = family.formulation(name)
        if formulation.answers != "optimum":
            raise InputError(f"{where}: formulation {name} does not give the problem's optimum (its optimum is a "
                             f"{family.answer(name)}); the reference must be an exact formulation")
        engine = formulation.engine
    solver = table.get("solver")
    if engine == CP_SAT:  # solved by CP-SAT alone: a MILP solver named for it is refused before any work
        if solver not in (None, CP_SAT):
            raise InputError(f"{where}.solver: formulation {name} is a CP-SAT model, solved by CP-SAT; solver "
                             f"{solver!r} applies to MILP formulations")
        solver = CP_SAT
    elif solver is None:
        solver = SOLVERS[0]
    elif solver not in SOLVERS:
        raise InputError(f"{where}.solver: must be one of {', '.join(SOLVERS)}, got {solver!r}")
    limit = _seconds(table.get("time_limit"), f"{where}.time_limit")
    nodes = table.get("node_limit", NODE_LIMIT)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES:
        raise InputError(f"{where}.node_limit: must be a whole number from 1 to {MAX_NODES:,}, got {nodes!r}")
    work = table.get("work_limit", WORK_LIMIT)
    if isinstance(work, bool) or not isinstance(work, (int, float)) or not (work > 0 and math.isfinite(work)):
        raise InputError(f"{where}.work_limit: must be a positive number (CP-SAT's deterministic time), got {work!r}")
    flags = {}
    for key, default in (("cross_check", False), ("relax", True)):
        flags[key] = table.get(key, default)
        if not isinstance(flags[key], bool):
            raise InputError(f"{where}.{key}: expected true or false, got {flags[key]!r}")
    return Reference(name, solver, nodes, None if limit is None else float(limit), **flags, work_limit=float(work))


def part(table: Mapping[str, Any], where: str) -> Part:
    """A validated part from a TOML table (or the equivalent dict built from flags)."""
    allowed = {"family", "instances", "seeds", "jobs", "options", "algorithms", "reference"}
    unknown = set(table) - allowed
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (keys: {', '.join(sorted(allowed))})")
    if "family" not in table:
        raise InputError(f"{where}: a part needs a family (one of {', '.join(families())})")
    family = get(table["family"])
    preset = table.get("instances", "tiny")
    family.check_preset(preset)
    seeds = parse_seeds(table.get("seeds", 10), f"{where}.seeds")
    jobs_value = table.get("jobs", [])
    jobs_list = jobs_value if isinstance(jobs_value, list) else [jobs_value]
    if not all(isinstance(j, int) and not isinstance(j, bool) and j >= 1 for j in jobs_list):
        raise InputError(f"{where}.jobs: expected job counts >= 1, got {jobs_value!r}")
    for count in jobs_list:
        refuse_above(count, MAX_JOBS, f"{where}.jobs: a job count")
    options_table = table.get("options", {})
    if not isinstance(options_table, dict):
        raise InputError(f"{where}.options: expected a table of generator options")
    options = bind(family.generator_options, {k: _as_text(v, f"{where}.options.{k}") for k, v in options_table.items()},
                   f"the {family.name} generator", f"{where}.options")
    entries = table.get("algorithms") or list(family.algorithms)
    if not isinstance(entries, list):
        raise InputError(f"{where}.algorithms: expected a list")
    methods = tuple(method(family.name, e, f"{where}.algorithms[{k}]") for k, e in enumerate(entries))
    labels = [m.label for m in methods]
    if len(set(labels)) != len(labels):
        raise InputError(f"{where}.algorithms: labels repeat ({', '.join(labels)}); give each a label")
    ref = table.get("reference", {})
    if not isinstance(ref, dict):
        raise InputError(f"{where}.reference: expected a table")
    return Part(family.name, preset, seeds, tuple(dict.fromkeys(jobs_list)) or (None,), options, methods,
                reference(family.name, ref, f"{where}.reference"))


def _seconds(value: Any, where: str) -> float | None:
    """A study file's number of seconds (a time limit, a budget): positive and finite, or None (not set)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not (value > 0 and math.isfinite(value))):
        raise InputError(f"{where}: must be a positive number of seconds, got {value!r}")
    return value


def study(table: Mapping[str, Any], where: str, output: Path | None = None) -> Study:
    """A validated study from a parsed TOML document (``preset``: set by ``--preset`` alone)."""
    allowed = {"name", "executor", "workers", "scheduler", "algorithm_budget", "part", "preset"}
    unknown = set(table) - allowed
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (keys: {', '.join(sorted(allowed))})")
    parts = table.get("part")
    if not isinstance(parts, list) or not parts:
        raise InputError(f"{where}: a study needs at least one [[part]]")
    name = table.get("name", "study")
    if not isinstance(name, str) or not re.fullmatch(r"[\w.-]+", name):
        raise InputError(f"{where}.name: letters, digits, '.', '_' and '-' only, got {name!r}")
    executor = table.get("executor", "local")
    if executor not in EXECUTORS:
        raise InputError(f"{where}.executor: must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    workers = table.get("workers", os.cpu_count() or 1)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"{where}.workers: expected an integer >= 1, got {workers!r}")
    refuse_above(workers, MAX_WORKERS, f"{where}.workers")
    scheduler = table.get("scheduler")
    if scheduler is not None and not isinstance(scheduler, str):
        raise InputError(f"{where}.scheduler: expected an address such as tcp://host:8786")
    budget = _seconds(table.get("algorithm_budget"), f"{where}.algorithm_budget")
    built = tuple(part(p, f"{where}: part[{k}]") for k, p in enumerate(parts))
    refuse_above(sum(len(p.seeds) * len(p.jobs) * (len(p.methods) + 2) for p in built), MAX_UNITS,
                 f"{where}: the number of units (instances x (methods + reference + relaxation))")
    preset = table.get("preset")
    if preset is not None and preset not in PRESETS:
        raise InputError(f"{where}.preset: no preset {preset!r} (presets: {', '.join(PRESETS)})")
    return Study(name, built, Execution(executor, workers, scheduler, budget), output or Path(f"study-{name}"), preset)


def read_toml(path: str, max_mb: float = MAX_INPUT_MB) -> dict:
    """A TOML study file of at most ``max_mb`` megabytes as a table; unreadable, malformed or too
    deeply nested files are bad input."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    text = read_text(path, max_mb, "a study file")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise InputError(f"{path}: TOML nested more than {MAX_DEPTH} levels deep") from None
    if nesting(table) > MAX_DEPTH:
        raise InputError(f"{path}: TOML nested more than {MAX_DEPTH} levels deep")
    return table


@dataclass(frozen=True)
class FamilyRequest:
    """A study of one family described by options, not by a file (what ``optsched study --family``
    builds from its flags): the instances, the methods (``NAME[:K=V,...]`` entries; none: every
    algorithm) and the reference solve. :meth:`table` is the study file it stands for."""

    family: str
    instances: str = "tiny"
    seeds: str = "10"
    jobs: tuple[int, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    algorithms: tuple[str, ...] = ()
    reference: str | None = None  #: an exact formulation (None: best)
    solver: str | None = None  #: a MILP reference's solver (None: the formulation's own)
    node_limit: int = NODE_LIMIT
    time_limit: float | None = None
    cross_check: bool = False
    relax: bool = True

    def table(self) -> dict:
        """The study table (as a TOML study file would give it) of this request."""
        reference: dict[str, Any] = {"node_limit": self.node_limit, "time_limit": self.time_limit,
                                     "cross_check": self.cross_check, "relax": self.relax}
        if self.solver:
            reference["solver"] = self.solver
        if self.reference:
            reference["formulation"] = self.reference
        part: dict[str, Any] = {"family": self.family, "instances": self.instances, "seeds": self.seeds,
                                "options": dict(self.options), "algorithms": list(self.algorithms),
                                "reference": reference}
        if self.jobs:
            part["jobs"] = list(self.jobs)
        return {"name": self.family, "part": [part]}


def preset_table(name: str) -> dict:
    """The study table of preset ``name`` (:data:`PRESETS`); an unknown name is bad input."""
    if name not in PRESETS:
        raise InputError(f"study: no preset '{name}' (presets: {', '.join(PRESETS)})")
    return {**PRESETS[name](), "preset": name}


def load(path: str, output: Path | None = None) -> Study:
    """Read and validate a TOML study file."""
    return study(read_toml(path), path, output)


def demo() -> dict:
    """The ``demo`` preset: every family on tiny instances of its four demo sizes (80 single-job
    instances for a family without sizes), every algorithm with its
    defaults, optima by HiGHS cross-checked against the family's CP-SAT model (or with CBC where it
    has none), LP relaxations for the integrality gap."""
    return {"name": "demo", "part": [{"family": name, "instances": "tiny", "seeds": 20 if family.demo_sizes else 80,
                                      "jobs": list(family.demo_sizes),
                                      "reference": {"cross_check": True}}
                                     for name, family in families().items()]}


PRESETS = {"demo": demo}
