"""The ``optsched`` command line (the contract is in docs/design.md, "Command-line contract").

Exit codes: 0 success; 1 a schedule is infeasible, a solve produced no schedule to write, or
a computation could not deliver on good input (``failed: ...``, e.g. a sub-solve without a proof), or
optsched failed (an internal error, one line; ``OPTSCHED_TRACEBACK=1`` shows the traceback);
2 bad input (one line on stderr, nothing written).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence

from . import __version__, native_output, plugins
from .documents import (
    instance_document,
    load_instance,
    load_schedule,
    schedule_document,
)
from .errors import Failure, InputError
from .jsonio import MAX_INPUT_MB, check_writable, dumps, fingerprint, plain, read_json, read_text, write_json
from .limits import MAX_INPUT_LIMIT_MB, MAX_SEEDS, MAX_WORKERS, NODE_LIMIT
from .params import OPTIONS, Bounded, bind, did_you_mean
from .plot import FORMATS, report_format, report_name
from .provenance import commit, version_string
from .registry import families, get

#: When the command started: ``solve --time-limit`` counts from here, imports and reading included.
STARTED = time.perf_counter()

#: The solvers of :mod:`optsched.solvers` (``SOLVERS`` there; tests/test_cli.py keeps the two equal),
#: named here so that the parser is built without importing the solver libraries.
SOLVERS = ("highs", "cbc")


class _Parser(argparse.ArgumentParser):
    """argparse with bad usage reported as one line (and exit 2), no usage dump, and no abbreviated
    flags: ``--seed`` on a verb that takes ``--seeds`` is a mistake to report, not a prefix to expand."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    _argv: Sequence[str] = ()

    def parse_args(self, args=None, namespace=None):
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_args(args, namespace)

    def error(self, message: str):
        raise InputError(message + self._suggestion(message))

    def _suggestion(self, message: str) -> str:
        """"did you mean ...?" for a mistyped flag (among the verb's own flags) or verb."""
        if message.startswith("unrecognized arguments: "):
            verbs = {name: parser for action in self._actions if isinstance(action, argparse._SubParsersAction)
                     for name, parser in action.choices.items()}
            verb = next((word for word in self._argv if word in verbs), None)
            flags = {flag for parser in ((verbs[verb],) if verb else (self, *verbs.values()))
                     for action in parser._actions for flag in action.option_strings}
            words = message.removeprefix("unrecognized arguments: ").split()
            for k, word in enumerate(words):
                key = word.removeprefix("--").partition("=")[0]
                if verb == "generate" and word.startswith("--") and key in _generator_options():
                    value = word.partition("=")[2] or (words[k + 1] if k + 1 < len(words) else "VALUE")
                    return f": did you mean '--option {key}={value}'?"
                if word.startswith("--"):
                    hint = did_you_mean(word.partition("=")[0], flags)
                    if hint:
                        return hint
        if "invalid choice: '" in message:
            word = message.split("invalid choice: '", 1)[1].split("'", 1)[0]
            choices = [c for action in self._actions for c in (action.choices or [])]
            return did_you_mean(word, [str(c) for c in choices])
        return ""


def _generator_options() -> set[str]:
    """Every family's generator options (``generate --option KEY=VALUE``)."""
    return {key for family in families().values() for key in family.generator_options}


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _solver_name(text: str) -> str:
    """``solve --solver``: highs, cbc, or ``pulp:NAME`` for a PuLP solver installed here."""
    from .solvers import pulp_any

    if text in SOLVERS:
        return text
    if not pulp_any.is_named(text):
        raise argparse.ArgumentTypeError(f"expected {', '.join(SOLVERS)} or pulp:NAME (here: "
                                         f"{', '.join(pulp_any.available())}), got {text!r}")
    refused = pulp_any.refusal(text)
    if refused:
        raise argparse.ArgumentTypeError(refused)
    return text


def _input_limit(text: str) -> float:
    """``--max-input-mb``: a positive number of megabytes, at most :data:`MAX_INPUT_LIMIT_MB`."""
    value = _positive_float(text)
    if value > MAX_INPUT_LIMIT_MB:
        raise argparse.ArgumentTypeError(f"must be <= {MAX_INPUT_LIMIT_MB:,} (MB), more than a machine can parse, "
                                         f"got {text if len(text) <= 20 else text[:17] + '...'}")
    return value


def _nonnegative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return value


def _int_at_least(lowest: int, highest: int | None = None):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"must be >= {lowest}, got {value}")
        if highest is not None and value > highest:
            raise argparse.ArgumentTypeError(f"must be <= {highest:,}, more is beyond what optsched handles, "
                                             f"got {text if len(text) <= 20 else text[:17] + '...'}")
        return value

    return parse


def _option(name: str):
    """The parser of an integer flag whose range :data:`optsched.params.OPTIONS` declares (the same
    range the Python API checks)."""
    declared = OPTIONS[name]
    return _int_at_least(int(declared.low or 0), None if declared.high is None else int(declared.high))


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def _input_limit_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-input-mb", type=_input_limit, default=MAX_INPUT_MB, metavar="MB",
                        help=f"refuse input files larger than this (default {MAX_INPUT_MB})")


def _log_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", metavar="FILE", help="append the solvers' own logs to FILE ('-' for stderr); "
                        "by default they are discarded, and they never reach stdout")


def _run_options(parser: argparse.ArgumentParser, fresh: str, defaults: str = "") -> None:
    """``--workers``, ``--executor``, ``--scheduler``, ``--fresh`` and ``--quiet``, declared once for
    the verbs that run many units (study, reproduce, search); unset, each is None and the verb takes
    :func:`_workers` and ``local``. ``fresh`` says what ``--fresh`` discards; ``defaults`` adds to
    the help where a default can come from elsewhere (a study file)."""
    parser.add_argument("--workers", type=_int_at_least(1, MAX_WORKERS), metavar="N",
                        help=f"worker processes (default: the CPUs here{defaults})")
    parser.add_argument("--executor", choices=("local", "dask"),
                        help=f"local processes (default{defaults}) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: start a local cluster)")
    parser.add_argument("--fresh", action="store_true", help=f"discard {fresh} and run everything again")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (without a terminal: no progress line every 5 minutes)")


def _budget_option(parser: argparse.ArgumentParser) -> None:
    """``--algorithm-budget``: the per-run wall-clock budget of a researcher's function (plugins.within)."""
    parser.add_argument("--algorithm-budget", type=_positive_float, metavar="S",
                        help="stop a function of yours after S seconds of wall clock and fail its run (registered "
                             "algorithms ignore it; a study does not cache such a failure)")


def _workers(args: argparse.Namespace) -> int:
    """``--workers``, or the CPUs of this machine."""
    return args.workers or os.cpu_count() or 1


def _format_option(parser: argparse.ArgumentParser) -> None:
    """``--format``, for the verbs that write a report with figures (optsched.plot)."""
    parser.add_argument("--format", choices=FORMATS, default="svg",
                        help="figure format: svg (vector, the default), pdf (vector), or png at 300 dpi")


#: The documentation page of each verb, named in its --help (the pages are docs/*.md in the repository
#: and the documentation site built from them, README "Two commands").
DOCS = {
    "families": "the family pages (docs/<family>.md, the site's 'Families')",
    "generate": "the family pages (docs/<family>.md: presets and options)",
    "solve": "docs/solvers.md (the site's 'Solvers') and the family pages (formulations)",
    "run": "the family pages (docs/<family>.md: algorithms and parameters)",
    "verify": "docs/design.md (the site's 'Design': the command-line contract)",
    "export": "docs/solvers.md (the site's 'Solvers': any solver, through a file)",
    "cite": "README.md ('Citing') and CITATION.cff",
    "reproduce": "the family pages (docs/<family>.md: 'Reproduce' and the paper's claims, computed)",
    "study": "docs/study.md (the site's 'Studies')",
    "search": "docs/search.md (the site's 'Worst-case search')",
}


def _docs(verb: str) -> str:
    return f"Documentation: {DOCS[verb]}."


def build_parser() -> argparse.ArgumentParser:
    """The ``optsched`` argument parser, with every verb of the command-line contract (docs/design.md)."""
    parser = _Parser(prog="optsched",
                     description="Online scheduling of distributed ML training jobs, with exact baselines.")
    parser.add_argument("--version", action="version", version=f"optsched {version_string()}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    p = verbs.add_parser("families", epilog=_docs("families"),
                         help="list the families with their formulations and algorithms")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = verbs.add_parser("cite", epilog=_docs("cite"),
                         help="BibTeX for optsched (its version and commit) and the papers of the families used")
    p.add_argument("family", nargs="*", help="the families whose papers to cite (default: every family)")
    p.add_argument("--json", action="store_true")

    p = verbs.add_parser("generate", epilog=_docs("generate"),
                         help="generate a seeded instance")
    p.add_argument("family")
    p.add_argument("--preset", default="tiny", help="size preset (see 'optsched families')")
    p.add_argument("--jobs", type=_option("jobs"), help="number of jobs (overrides the preset)")
    p.add_argument("--seed", type=_option("seed"), default=0)
    p.add_argument("--option", type=_key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="a generator option of the family (see 'optsched families')")
    p.add_argument("-o", "--output", metavar="FILE", help="write the instance here (default: stdout)")
    p.add_argument("--json", action="store_true", help="with -o, print what was written as JSON (without -o, the "
                   "instance on stdout is JSON already)")

    p = verbs.add_parser("solve", epilog=_docs("solve"),
                         help="solve an instance with one of its family's formulations")
    p.add_argument("instance")
    p.add_argument("--formulation", required=True, metavar="NAME",
                   help="a formulation of the instance's family ('optsched families'), or 'best': the exact "
                   "formulation measured fastest for its family and size")
    p.add_argument("--relax", action="store_true", help="solve the LP relaxation")
    p.add_argument("--solver", type=_solver_name, metavar="|".join(SOLVERS) + "|pulp:NAME",
                   help="the MILP solver (default highs), or any solver PuLP drives where installed "
                        "(pulp:GUROBI_CMD, pulp:SCIP_CMD, ...); a cp-sat formulation is solved by CP-SAT")
    p.add_argument("--time-limit", type=_positive_float, metavar="S",
                   help="seconds for the whole command, reading, building and cross-check included (a wall-clock "
                   "budget: where it stops a solve, the result depends on the machine)")
    p.add_argument("--node-limit", type=_option("node_limit"), metavar="N",
                   help="branch-and-bound nodes of a MILP, or pricing rounds of column generation (with --threads 1, "
                        "the same result on every machine)")
    p.add_argument("--work-limit", type=_positive_float, metavar="W",
                   help="CP-SAT's deterministic time (about seconds; one worker by default, the same result on "
                   "every machine)")
    p.add_argument("--gap", type=_nonnegative_float, default=0.0, help="relative MIP gap to stop at (default 0)")
    p.add_argument("--presolve", action="store_true",
                   help="turn the solver's presolve on (off by default: HiGHS presolve has returned wrong optima)")
    p.add_argument("--threads", type=_option("threads"), help="solver threads")
    p.add_argument("--cross-check", nargs="?", const="auto", choices=("auto", "solver", "model"),
                   help="solve a second time and compare: 'model' another model of the problem (a MILP against "
                   "the CP-SAT model), 'solver' the same MILP with the other solver; alone, 'auto': another "
                   "model where the family has one")
    _input_limit_option(p)
    _log_option(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("-o", "--output", metavar="SCHEDULE", help="write the MILP's schedule here")

    p = verbs.add_parser("run", epilog=_docs("run"),
                         help="run an online algorithm or baseline on an instance")
    p.add_argument("instance")
    p.add_argument("--algorithm", required=True, metavar="NAME")
    p.add_argument("--param", type=_key_value, action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seed", type=_option("seed"), default=0)
    _budget_option(p)
    _input_limit_option(p)
    _log_option(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("-o", "--output", metavar="SCHEDULE", help="write the schedule here")

    p = verbs.add_parser("verify", epilog=_docs("verify"),
                         help="check a schedule, or another solver's solution file, against its instance")
    p.add_argument("instance")
    p.add_argument("schedule", nargs="?", help="a schedule file (or give --solution and --formulation)")
    p.add_argument("--solution", metavar="FILE", help="a solution file of a model 'optsched export' wrote, from "
                   "any solver (values by variable name)")
    p.add_argument("--formulation", metavar="NAME", help="the formulation the solution is of (with --solution)")
    _input_limit_option(p)
    p.add_argument("--json", action="store_true")

    p = verbs.add_parser("export", epilog=_docs("export"),
                         help="write a formulation's model of an instance to an MPS or LP file, for any solver")
    p.add_argument("instance")
    p.add_argument("--formulation", required=True, metavar="NAME",
                   help="a MILP formulation of the instance's family ('optsched families'), or 'best'")
    p.add_argument("--relax", action="store_true", help="write the LP relaxation")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="model.mps or model.lp (the suffix "
                   "chooses the format)")
    _input_limit_option(p)
    p.add_argument("--json", action="store_true")

    p = verbs.add_parser("reproduce", epilog=_docs("reproduce"),
                         help="reproduce a paper's evaluation: figures, tables, assumed settings")
    p.add_argument("name", help="e.g. oasis-sec5 ('optsched reproduce --list' lists them)", nargs="?")
    p.add_argument("--list", action="store_true", help="list the reproductions")
    p.add_argument("--preset", default="default",
                   help="quick (a smoke test: 5 seeds, under 2 minutes), default (30 seeds, minutes to hours) or paper "
                        "(the paper's sizes, 30 seeds, hours to days; docs/benchmarks.md)")
    p.add_argument("--seeds", type=_int_at_least(1, MAX_SEEDS), help="seeds per point (default: the preset's)")
    p.add_argument("-o", "--output", metavar="DIR", help="report folder (default reproduce-NAME)")
    _run_options(p, "the cached tasks")
    p.add_argument("--json", action="store_true", help="print the tables as one JSON document")
    _format_option(p)

    p = verbs.add_parser("study", epilog=_docs("study"),
                         help="a ratio study: methods vs the offline optimum over many instances, cached")
    p.add_argument("file", nargs="?", metavar="STUDY.toml", help="a study file (see docs/study.md)")
    p.add_argument("--preset", help="a named study: demo (every family, tiny instances, about 35 s on 2 cores)")
    p.add_argument("--family", help="study one family, described by the flags below")
    p.add_argument("--instances", metavar="PRESET", help="generator preset (default tiny)")
    p.add_argument("--seeds", help="N (seeds 0..N-1), A-B, or a,b,c (default 10)")
    p.add_argument("--jobs", metavar="N[,N...]", help="instance sizes (default: the preset's)")
    p.add_argument("--option", type=_key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="a generator option")
    p.add_argument("--algorithm", action="append", default=[], metavar="NAME[:K=V,...]",
                   help="a method, repeatable (default: every algorithm of the family)")
    p.add_argument("--reference", metavar="FORMULATION",
                   help="the exact formulation (default: best, the family's measured choice)")
    p.add_argument("--solver", choices=SOLVERS, help="the reference solver (default highs)")
    p.add_argument("--node-limit", type=_option("node_limit"), metavar="N",
                   help=f"branch-and-bound nodes per reference solve (default {NODE_LIMIT:,}; the same result on "
                        "every machine)")
    p.add_argument("--time-limit", type=_positive_float, metavar="S",
                   help="seconds per reference solve, in addition (a wall-clock budget: results may then change "
                        "with the machine)")
    p.add_argument("--cross-check", action="store_true", help="cross-check every reference solve")
    p.add_argument("--no-relax", action="store_true", help="skip the LP relaxations")
    p.add_argument("-o", "--output", metavar="DIR", help="output folder (default study-NAME)")
    _budget_option(p)
    _run_options(p, "the cache", "; a study file's own where it sets one")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    _input_limit_option(p)
    _format_option(p)

    p = verbs.add_parser("search", epilog=_docs("search"),
                         help="search for an algorithm's worst instance or a theorem's counterexample")
    p.add_argument("family")
    p.add_argument("--algorithm", required=True, metavar="NAME")
    p.add_argument("--param", type=_key_value, action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--target", default="ratio", metavar="ratio|theorem:NAME",
                   help="maximise ALG/OPT (OPT/ALG for max families), or drive a theorem's slack below 0")
    p.add_argument("--size-max", type=_int_at_least(1), default=4, metavar="N", help="most jobs (default 4)")
    p.add_argument("--budget", type=_int_at_least(1), default=100, metavar="UNITS",
                   help="exact solves for the search (default 100); shrinking has --shrink-budget more")
    p.add_argument("--time", type=_positive_float, metavar="S",
                   help="seconds of wall clock, in addition (the result may then change with the machine)")
    p.add_argument("--shrink-budget", type=_int_at_least(0), default=200, metavar="UNITS")
    p.add_argument("--exceed", type=_nonnegative_float, metavar="X",
                   help="ratio target: shrink while the ratio stays above X (a claimed bound)")
    p.add_argument("--strategy", choices=("evolve", "random"), default="evolve",
                   help="evolve (default) or random: plain sampling, for comparison")
    p.add_argument("--regime", default="", metavar="NAME",
                   help="search only within a paper's stated assumptions (oasis: small-demands; docs/search.md)")
    p.add_argument("--seed", type=_option("seed"), default=0)
    p.add_argument("-o", "--output", metavar="DIR", help="output folder (default search-FAMILY-ALGORITHM)")
    _budget_option(p)
    _format_option(p)
    _run_options(p, "the folder's cache and an earlier run's outputs")
    p.add_argument("--json", action="store_true", help="print result.json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``optsched`` with ``argv`` (default: the process's) and return its exit code: 0 success, 1 an infeasible
    result or a failed computation, 2 bad input (one line on stderr, no traceback)."""
    try:
        args = build_parser().parse_args(argv)
        log = getattr(args, "log", None)
        if log not in (None, "-"):
            check_writable(log, *filter(None, (getattr(args, "instance", None), getattr(args, "output", None))))
        native_output.set_log(log)
        return _VERBS[args.verb](args)
    except InputError as exc:
        print(f"optsched: error: {exc}", file=sys.stderr)
        return 2
    except Failure as exc:
        print(f"optsched: failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("optsched: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (`optsched families | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:  # a bug, not bad input: one line and exit 1, the traceback on request
        if os.environ.get("OPTSCHED_TRACEBACK"):
            raise
        first = (str(exc).strip().splitlines() or [""])[0]
        print(f"optsched: internal error: {type(exc).__name__}: {first} "
              "(please report it; OPTSCHED_TRACEBACK=1 shows where)", file=sys.stderr)
        return 1


def _emit(args, data: dict, lines: list[str]) -> None:
    if args.json:
        print(dumps(plain(data)), end="")
    else:
        print("\n".join(lines))


def _families(args) -> int:
    found = families()
    if args.json:
        print(dumps(plain([family.to_dict() for family in found.values()])), end="")
        return 0
    for f in found.values():
        print(f"{f.name} ({f.sense}): {f.summary}")
        for paper in f.papers:
            print(f"  paper:        {paper.text()}")
        print(f"  presets:      {', '.join(f.presets)}")
        if f.generator_options:
            print(f"  options:      {', '.join(f'{k}={_declared(v)}' for k, v in f.generator_options.items())}")
        print("  formulations: " + ", ".join(name if f.answer(name) == "optimum" else f"{name} ({f.answer(name)})"
                                             for name in f.formulations))
        for a in f.algorithms.values():
            params = f" ({', '.join(f'{k}={_declared(v)}' for k, v in a.params.items())})" if a.params else ""
            print(f"  algorithm:    {a.name}{params}")
    return 0


def _declared(value) -> str:
    """A declared parameter as the listing shows it: ``a|b`` for a choice, ``0.5 [>= 0 and <= 1]``
    for a range, else its default."""
    if isinstance(value, tuple):
        return "|".join(value)
    if isinstance(value, Bounded):
        return f"{value.default} [{value.describe()}]"
    return str(value)


def _generate(args) -> int:
    family = get(args.family)
    family.check_preset(args.preset)
    options = bind(family.generator_options, dict(args.option), f"the {family.name} generator", "--option")
    if args.output:
        check_writable(args.output)
    instance = family.generate(args.preset, seed=args.seed, jobs=args.jobs, **options)
    meta = {"generator": family.name, "preset": args.preset, "seed": args.seed, "jobs": args.jobs, **options}
    document = instance_document(family, instance, meta)
    if not args.output:
        print(dumps(document), end="")
        return 0
    write_json(args.output, document)
    if args.json:
        written = {"family": family.name, "output": args.output, "instance": fingerprint(document["instance"]),
                   "jobs": len(instance.jobs), **meta}
        print(dumps(plain(written)), end="")
    return 0


def _solve(args) -> int:
    loaded = load_instance(args.instance, args.max_input_mb)
    family = loaded.family
    name = family.best_formulation(loaded.instance, args.relax) if args.formulation == "best" else args.formulation
    formulation = family.formulation(name)
    if args.output:
        if args.relax:
            raise InputError("-o writes a schedule, and an LP relaxation (--relax) has none")
        if not formulation.gives_schedule:
            raise InputError(f"-o writes a schedule, and formulation {formulation.name} does not give one")
        check_writable(args.output, args.instance)
    limit = None if args.time_limit is None else max(args.time_limit - (time.perf_counter() - STARTED), 1e-3)
    solved = family.solve(loaded.instance, formulation.name, relax=args.relax, solver=args.solver,
                          time_limit=limit, gap=args.gap, presolve=args.presolve, threads=args.threads,
                          node_limit=args.node_limit, work_limit=args.work_limit,
                          cross_check=args.cross_check or False)
    result, schedule = solved.result, solved.schedule
    data = {**solved.to_dict(), "instance": loaded.fingerprint}
    code = 1 if solved.problem else 0
    lines = _solve_lines(data)
    if args.output:
        if schedule is None:
            lines.append(f"no schedule written: the solve ended {result.status} without one")
            code = 1
        elif code == 0:
            produced = {"formulation": formulation.name, "solver": result.solver, "status": result.status,
                        "objective": result.objective, "bound": result.bound}
            write_json(args.output, schedule_document(family, loaded.instance, schedule, produced))
            lines.append(f"schedule written to {args.output}")
        else:
            lines.append(f"no schedule written: {solved.problem}")
    _emit(args, data, lines)
    if code and args.json:
        print(f"optsched: {lines[-1]}", file=sys.stderr)
    return code


def _number(x) -> str:
    return "-" if x is None else f"{x:.10g}"


#: How a solve's first line says what its optimum is to the problem (``Solved.answers``).
ANSWER_WORDS = {"optimum": "", "lower bound": ": a lower bound on the optimum",
                "upper bound": ": an upper bound on the optimum", "other objective": ": another objective"}


def _solve_lines(d: dict) -> list[str]:
    kind = "LP relaxation" if d["relaxed"] else ("CP-SAT model" if d["solver"] == "cp-sat" else
                                                  "MILP" if d["mip"] else "LP")
    kind += ANSWER_WORDS[d["answers"]]
    lines = [f"{d['family']} / {d['formulation']} ({kind}) with {d['solver']} {d['solver_version']}: {d['status']}",
             f"  objective {_number(d['objective'])}   bound {_number(d['bound'])}   "
             f"gap {_number(d['gap'])}   solve {d['runtime_s']:.3f} s (model built in {d['build_s']:.3f} s)"]
    if d["message"]:
        lines.append(f"  note: {d['message']}")
    if d["cross_check"]:
        c = d["cross_check"]
        other = f"{c['formulation']} with {c['solver']}" if c["formulation"] else c["solver"]
        lines.append(f"  cross-check {other} {c['solver_version']}: {c['status']} "
                     f"{_number(c['objective'])} -> {c['verdict']} ({c['detail']})")
    if "verified" in d:
        v = d["verified"]
        state = "feasible" if v["feasible"] else "INFEASIBLE: " + "; ".join(v["violations"])
        agree = "" if v["matches_solver"] else " (DIFFERS from the solver's objective)"
        whose = f" ({d['schedule_from']}'s: the solver had none as good within its budget)" \
            if d.get("schedule_from") else ""
        lines.append(f"  schedule verified: {state}, objective {_number(v['objective'])}{agree}{whose}")
    if d["trajectory"]:
        path = d["trajectory"]
        moved = "" if d["bound_moved"] else " (never left its start)"
        lines.append(f"  bound {_number(path[0])} before the first round, {_number(path[-1])} after {len(path) - 1}"
                     f"{moved}")
    if d.get("rows"):
        binding = sum(r["binding"] for r in d["rows"])
        lines.append(f"  {binding} of {len(d['rows'])} constraints bind; --json gives each row's dual, slack and "
                     "basis, and each variable's value and reduced cost")
    if "found" in d:
        f = d["found"]
        state = "feasible" if f["feasible"] else "INFEASIBLE: " + "; ".join(f["violations"])
        gap = "" if f["certified_gap"] is None else f", within {f['certified_gap']:.2%} of optimal (certified)"
        lines.append(f"  schedule found on the way, verified: {state}, objective {_number(f['objective'])}{gap}")
    return lines


def _run(args) -> int:
    loaded = load_instance(args.instance, args.max_input_mb)
    family = loaded.family
    algorithm = family.algorithm(args.algorithm)
    params = algorithm.bind(dict(args.param))
    if args.output:
        check_writable(args.output, args.instance)
    ran = family.run(loaded.instance, algorithm.name, seed=args.seed, budget_s=args.algorithm_budget, **params)
    verdict, schedule = ran.verdict, ran.schedule
    data = {**ran.to_dict(), "instance": loaded.fingerprint, "sense": family.sense}
    lines = [f"{family.name} / {algorithm.name}: {_judged(verdict, family.sense)}, {ran.runtime_s:.4f} s"]
    lines += [f"  violation: {v}" for v in verdict.violations]
    lines += [f"  note: {name}={params[name]:g} is a wall-clock budget: this result may change with the machine's "
              "speed" for name in ran.wall_clock]
    if args.output:
        produced = {"algorithm": algorithm.name, "params": params, "seed": args.seed}
        write_json(args.output, schedule_document(family, loaded.instance, schedule, produced))
        lines.append(f"schedule written to {args.output}")
    _emit(args, data, lines)
    return 0 if verdict.feasible else 1


def _judged(verdict, sense: str) -> str:
    """``objective 55 (min), feasible`` or ``INFEASIBLE (no objective)``."""
    if verdict.feasible:
        return f"objective {verdict.objective:.10g} ({sense}), feasible"
    return "INFEASIBLE (no objective)"


def _cite(args) -> int:
    from .citations import software_bibtex

    chosen = [get(name) for name in args.family] if args.family else list(families().values())
    papers = list({paper.key: paper for family in chosen for paper in family.papers}.values())
    version = version_string()
    if args.json:
        print(dumps(plain({"optsched": {"version": __version__, "commit": commit(), "bibtex": software_bibtex(version)},
                           "papers": [{**paper.to_dict(), "bibtex": paper.bibtex(),
                                       "families": [f.name for f in chosen if paper in f.papers]}
                                      for paper in papers]})), end="")
        return 0
    print("\n\n".join([software_bibtex(version), *(paper.bibtex() for paper in papers)]))
    return 0


def _export(args) -> int:
    from .pipeline import export

    loaded = load_instance(args.instance, args.max_input_mb)
    check_writable(args.output, args.instance)
    written = export(loaded.family, loaded.instance, args.formulation, args.output, relax=args.relax)
    what = "LP relaxation" if args.relax else "model"
    data = {"family": loaded.family.name, "instance": loaded.fingerprint, "formulation": written.formulation,
            "relaxed": args.relax, "output": args.output, "variables": written.variables,
            "constraints": written.constraints}
    _emit(args, data, [f"{loaded.family.name} / {written.formulation}: {what} written to {args.output} "
                       f"({written.variables} variables, {written.constraints} constraints); read a solution "
                       f"back with optsched verify {args.instance} --solution FILE --formulation "
                       f"{written.formulation}"])
    return 0


def _verify_solution(args, loaded) -> int:
    from .pipeline import read_solution

    text = read_text(args.solution, args.max_input_mb, "solution file")
    solved = read_solution(loaded.family, loaded.instance, args.formulation, args.solution, text)
    data = {**solved.to_dict(), "instance": loaded.fingerprint}
    objective = solved.result.objective
    lines = [f"{loaded.family.name} / {solved.formulation}: solution read: "
             + (f"objective {_number(objective)}" if objective is not None else "REJECTED"),
             f"  {solved.result.message}"]
    if solved.verdict is not None:
        lines += [f"  schedule: {_judged(solved.verdict, loaded.family.sense)}"]
        lines += [f"  violation: {v}" for v in solved.verdict.violations]
    _emit(args, data, lines)
    return 0 if solved.verdict is not None and solved.verdict.feasible else 1


def _verify(args) -> int:
    if (args.schedule is None) == (args.solution is None):
        raise InputError("verify: give a schedule file, or --solution FILE with --formulation NAME (not both)")
    if (args.solution is None) != (args.formulation is None):
        raise InputError("verify: --solution and --formulation go together")
    loaded = load_instance(args.instance, args.max_input_mb)
    if args.solution is not None:
        return _verify_solution(args, loaded)
    schedule, produced_by = load_schedule(args.schedule, loaded, args.max_input_mb)
    verdict = loaded.family.judge(loaded.instance, schedule)
    data = {"family": loaded.family.name, "instance": loaded.fingerprint, **verdict.to_dict(),
            "sense": loaded.family.sense, "produced_by": produced_by}
    lines = [_judged(verdict, loaded.family.sense)]
    lines += [f"  violation: {v}" for v in verdict.violations]
    _emit(args, data, lines)
    return 0 if verdict.feasible else 1


def _reproduce(args) -> int:
    from .reproduce import QUICK_WARNING, reproductions, run

    if not args.list and not args.name:
        raise InputError(f"reproduce: name a reproduction ({', '.join(reproductions())}) or give --list")
    if args.list:
        if args.json:
            listed = [{"name": name, "summary": r.summary} for name, r in reproductions().items()]
            print(dumps(plain(listed)), end="")
            return 0
        for name, r in reproductions().items():
            print(f"{name}: {r.summary}")
        return 0
    with report_format(args.format):
        done = run(args.name, args.preset, args.seeds, _workers(args), args.output, progress=not args.quiet,
                   executor=args.executor or "local", scheduler=args.scheduler, fresh=args.fresh)
    report, setting = done.report, done.setting
    figures = [report_name(f) for f, _ in report.figures]
    if args.json:
        document = {"name": done.name, "preset": setting.scale, "seeds": setting.seeds, "output": str(setting.out_dir),
                    "report": str(done.path), "title": report.title, "figures": figures,
                    "tables": [{"title": t.title, "columns": t.columns, "rows": t.rows, "note": t.note}
                               for t in done.results],
                    "assumptions": report.assumptions,
                    "units": {label: {"units": n, "cached": c, "seconds": t}
                              for label, (n, c, t) in setting.ledger.items()}}
        print(dumps(plain(document)), end="")
        return 0
    print(f"{report.title}\n")
    if setting.scale == "quick":
        print(QUICK_WARNING.replace("**", "") + "\n")
    for t in done.results:
        print(t.text() + "\n")
    print("Assumed where the paper is silent:")
    for a in report.assumptions:
        print(f"  - {a}")
    print(f"\nreport: {done.path}; figures: {', '.join(figures)}")
    return 0


def _study(args) -> int:
    from pathlib import Path

    from . import study as studies
    from .study.report import summary_tables

    output = Path(args.output) if args.output else None
    table, where = _study_table(args)
    study = studies.study(table, where, output)
    with report_format(args.format):
        outcome = studies.run(study, fresh=args.fresh, progress=not args.quiet, log=sys.stderr)
    if args.json:
        summary = {"output": str(study.output), "units": outcome.units, "cached": outcome.cached,
                   "recomputed": outcome.recomputed, "wall_s": outcome.wall_s, "problems": outcome.problems,
                   "online": outcome.online, "methods": outcome.method_summary.to_dict("records"),
                   "references": outcome.reference_summary.to_dict("records")}
        print(dumps(plain(summary)), end="")
    else:
        for table_ in summary_tables(outcome):
            print(table_.text() + "\n")
        for label, check in outcome.online.items():
            if not check["violation"]:
                print(f"online: {label} held on {check['cases']} cases (optsched.testing.check_online)")
        for problem in outcome.problems:
            print(f"PROBLEM: {problem}")
        print(f"tables, figures and report.md in {study.output}/")
    return 1 if outcome.problems else 0


#: The flags that describe a ``study --family`` (flag -> option name); refused next to a file or a preset.
FAMILY_FLAGS = {"--instances": "instances", "--seeds": "seeds", "--jobs": "jobs", "--option": "option",
                "--algorithm": "algorithm", "--reference": "reference", "--solver": "solver",
                "--node-limit": "node_limit", "--time-limit": "time_limit", "--cross-check": "cross_check",
                "--no-relax": "no_relax"}


def _study_table(args) -> tuple[dict, str]:
    """The study table ``optsched study`` describes, and where it came from: a study file (read
    within ``--max-input-mb``), a preset, or ``--family`` with the flags of :data:`FAMILY_FLAGS`;
    ``--executor``, ``--workers``, ``--scheduler`` and ``--algorithm-budget`` override any of the three."""
    from .study import spec

    if len([x for x in (args.file, args.preset, args.family) if x]) != 1:
        raise InputError("study: give one of a study file, --preset NAME or --family NAME")
    if not args.family:
        given = [flag for flag, name in FAMILY_FLAGS.items() if getattr(args, name) not in (None, False, [])]
        if given:
            raise InputError(f"study: {given[0]} describes a --family study; with "
                             f"{'a study file' if args.file else '--preset'} set it in the study file instead")
    if args.file:
        table, where = spec.read_toml(args.file, args.max_input_mb), args.file
    elif args.preset:
        table, where = spec.preset_table(args.preset), f"preset {args.preset}"
    else:
        if args.solver and args.reference and get(args.family).formulation(args.reference).engine == "cp-sat":
            raise InputError(f"--solver {args.solver}: --reference {args.reference} is a CP-SAT model, solved by "
                             "CP-SAT; --solver applies to MILP formulations")
        request = spec.FamilyRequest(
            args.family, args.instances or "tiny", args.seeds or "10", _job_counts(args.jobs), dict(args.option),
            tuple(args.algorithm), args.reference, args.solver, args.node_limit or NODE_LIMIT, args.time_limit,
            args.cross_check, not args.no_relax)
        table, where = request.table(), "flags"
    overrides = {key: getattr(args, key) for key in ("executor", "workers", "scheduler", "algorithm_budget")}
    return {**table, **{k: v for k, v in overrides.items() if v is not None}}, where


def _job_counts(text: str | None) -> tuple[int, ...]:
    """``--jobs 3,4,5`` as job counts (none given: the preset's own)."""
    try:
        return tuple(int(x) for x in text.split(",")) if text else ()
    except ValueError:
        raise InputError(f"--jobs: expected job counts such as 3,4,5, got {text!r}") from None


def _search(args) -> int:
    from tqdm import tqdm

    from . import search
    from .search.output import summary_lines
    from .study.engine import ProgressLines

    family = get(args.family)
    params = family.algorithm(args.algorithm).bind(dict(args.param))
    output = args.output or f"search-{args.family}-{plugins.label_of(args.algorithm)}"
    bar = tqdm(total=args.budget, desc="search", unit="instance", file=sys.stderr,
               disable=True if args.quiet else None)
    lines = ProgressLines("search", args.budget, 0, not args.quiet)  # without a terminal, a line now and then
    phase = {"shrinking": False}

    def progress(outcome) -> None:
        values = [s.value for s in outcome.history if s.value is not None]
        if outcome.shrink_evaluations and not phase["shrinking"]:
            phase["shrinking"] = True
            bar.set_description("shrinking", refresh=False)
            bar.reset(total=args.shrink_budget)
            lines.label = "search: shrinking"
        bar.n = outcome.shrink_evaluations if phase["shrinking"] else outcome.search_evaluations
        bar.set_postfix_str(f"best {max(values):.6g}" if values else "best: none yet", refresh=False)
        bar.refresh()
        lines.advance_to(bar.n, args.shrink_budget if phase["shrinking"] else args.budget)

    try:
        with report_format(args.format):
            outcome = search.run(args.family, args.algorithm, args.target, report=progress, params=params,
                                 size_max=args.size_max, budget=args.budget, time_limit=args.time, seed=args.seed,
                                 strategy=args.strategy, shrink_budget=args.shrink_budget, exceed=args.exceed,
                                 workers=_workers(args), executor=args.executor or "local",
                                 scheduler=args.scheduler,
                                 out_dir=output, fresh=args.fresh, regime=args.regime,
                                 algorithm_budget=args.algorithm_budget)
    finally:
        bar.close()
    result = read_json(os.path.join(output, "result.json"))
    if args.json:
        print(dumps(plain(result)), end="")
        return 0
    print("\n".join(summary_lines(family, args.algorithm, args.target, outcome, result, args.time)))
    print(f"instance, schedules and report.md in {output}/")
    return 0


_VERBS = {"families": _families, "generate": _generate, "solve": _solve, "run": _run,
          "verify": _verify, "export": _export, "cite": _cite, "reproduce": _reproduce, "study": _study,
          "search": _search}


if __name__ == "__main__":
    sys.exit(main())
