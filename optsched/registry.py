"""The families optsched knows: name -> sense, generators, formulations, algorithms, verifier.

Each family package defines ``FAMILY`` (a :class:`Family`) in its ``__init__``; :data:`FAMILY_PACKAGES`
says which package registers which family, and an installed package outside optsched registers one
through an entry point of the group :data:`FAMILY_ENTRY_POINTS` (:func:`family_packages`). The CLI and
the studies reach every family through this module only.

Registrations are light: a family's ``__init__`` names its functions with :func:`lazy_from` instead of
importing them, so that listing the families, or loading one, imports no solver, numpy or scipy
until a function is called (``optsched families`` starts in a fraction of a second).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import InitVar, dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from . import plugins
from .citations import Paper
from .errors import InputError
from .params import OPTIONS, bind, check_values, checked_value, default_of, did_you_mean, optional

if TYPE_CHECKING:
    from .pipeline import Run, Solved, Verdict
    from .solvers import CpSatModel, Model

#: Family name -> the package that registers it, in the order ``optsched families`` lists them.
FAMILY_PACKAGES = {
    "single": "optsched.single",
    "oasis": "optsched.oasis",
    "edge": "optsched.edge",
    "hetero": "optsched.hetero",
    "placement": "optsched.placement",
    "asrpt": "optsched.asrpt",
}

#: The entry-point group through which an installed package registers a family: each entry is named
#: after the family and points at the package whose ``__init__`` defines ``FAMILY``.
FAMILY_ENTRY_POINTS = "optsched.families"


@cache
def _installed_families() -> dict[str, str]:
    from importlib.metadata import entry_points

    return {entry.name: entry.value for entry in entry_points(group=FAMILY_ENTRY_POINTS)}


def family_packages() -> dict[str, str]:
    """Family name -> package: optsched's own (:data:`FAMILY_PACKAGES`), then those installed
    packages register (:data:`FAMILY_ENTRY_POINTS`); a name optsched uses keeps optsched's family."""
    installed = {name: package for name, package in _installed_families().items() if name not in FAMILY_PACKAGES}
    return {**FAMILY_PACKAGES, **installed}


class Lazy:
    """A function named ``"package.module:attribute[.attribute]"``, imported on its first call.

    Calls and pickling behave as with the function itself; :meth:`resolve` returns the function.
    """

    def __init__(self, target: str):
        module, sep, attribute = target.partition(":")
        if not sep or not module or not attribute:
            raise ValueError(f"lazy target must be 'module:attribute', got {target!r}")
        self.target = target
        self._function: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        """The function itself, imported on the first call."""
        if self._function is None:
            module, _, attribute = self.target.partition(":")
            found: Any = importlib.import_module(module)
            for part in attribute.split("."):
                found = getattr(found, part)
            self._function = found
        return self._function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        """The function's own signature (``inspect.signature``, Jupyter's help), imported on asking."""
        return inspect.signature(self.resolve())

    def __getstate__(self) -> dict:
        return {"target": self.target, "_function": None}

    def __repr__(self) -> str:
        return f"Lazy({self.target!r})"


def lazy_from(package: str) -> Callable[[str], Lazy]:
    """:class:`Lazy` functions of one package's modules: ``here = lazy_from(__name__)`` in a family's
    ``__init__``, then ``here("online:wspt")`` is ``online.wspt``, imported when first called."""
    return lambda target: Lazy(f"{package}.{target}")


#: What a formulation's optimum can be to its family's problem (``Formulation.answers``).
ANSWERS = ("optimum", "bound", "other")


@dataclass(frozen=True)
class Formulation:
    """A solver model of a family's offline problem: ``build(instance, relax=False) -> Model``.

    ``engine`` is ``"milp"`` for a PuLP model (HiGHS or CBC; ``--relax`` gives its LP) or
    ``"cp-sat"`` for a CP-SAT model (no relaxation): a second model of the same problem, which a
    cross-check pits against a MILP. ``answers`` says what the model's optimum is to the family's
    problem (:data:`ANSWERS`): ``"optimum"`` (an exact model, whose solutions are schedules),
    ``"bound"`` (a relaxation or dual: below the optimum of a min family, above that of a max one) or
    ``"other"`` (another objective); :meth:`Family.answer` words it."""

    name: str
    build: Callable[..., Model | CpSatModel]
    summary: str
    engine: str = "milp"
    answers: str = "optimum"

    def __post_init__(self) -> None:
        if self.answers not in ANSWERS:
            raise ValueError(f"formulation {self.name}: answers must be one of {', '.join(ANSWERS)}")

    @property
    def gives_schedule(self) -> bool:
        """Whether the model's solutions are schedules of the problem: only an exact model's are."""
        return self.answers == "optimum"


@dataclass(frozen=True)
class Theorem:
    """A paper's competitive bound for one algorithm on one instance: the ratio (ALG/OPT for min,
    OPT/ALG for max, so at least 1) is claimed to be at most ``bound``. ``constants`` are the
    quantities the bound is made of (α, λ, ...), reported next to every measured ratio;
    ``assumptions`` says what the theorem needs that the instance may not satisfy."""

    name: str
    bound: float
    constants: Mapping[str, float] = field(default_factory=dict)
    assumptions: str = ""


@dataclass(frozen=True)
class Check:
    """A theorem or lemma of the paper as a number the search can drive down (``optsched search
    FAMILY --target theorem:NAME``): ``slack(instance, algorithm, params, optimum)`` returns
    ``(slack, details)``; the claim says ``slack >= 0``, so a negative slack is a counterexample.
    ``optimum`` is the proven offline optimum when ``needs_optimum``, else None; ``details`` is
    plain JSON data for the report; a ``"guide"`` in it (a number that grows as the instance nears
    a violation) orders instances of equal slack for the search. ``algorithms`` are those the
    claim is about."""

    name: str
    claim: str
    algorithms: tuple[str, ...]
    slack: Callable[..., tuple[float, dict]]
    needs_optimum: bool = False


@dataclass(frozen=True)
class Algorithm:
    """An online algorithm or baseline: ``run(instance, *, seed, **params) -> schedule``.

    ``params`` maps each parameter to its default; the default's type is the parameter's type, a
    tuple of names declares a choice (its first name is the default), and a :class:`Bounded` default
    declares the valid range too. Use :meth:`bind` to get the
    keyword arguments for ``run``. ``theorem(instance, **params)``, where the paper proves a
    competitive bound, returns a :class:`Theorem` (or None when it does not apply to these parameters).
    ``wall_clock`` names the parameters that are wall-clock budgets (0 or unset: none): a run that sets
    one may give a different schedule on a faster or busier machine, and its run record says so.
    ``external`` marks a researcher's function (:mod:`optsched.plugins`), which takes ``seed`` only
    when ``takes_seed``; ``offline`` an offline reference, which may read jobs before they arrive
    (the online property is not asked of it).
    """

    name: str
    run: Callable[..., Any]
    summary: str
    params: Mapping[str, Any] = field(default_factory=dict)
    theorem: Callable[..., Theorem | None] | None = None
    wall_clock: tuple[str, ...] = ()
    external: bool = False
    takes_seed: bool = True
    offline: bool = False

    def bind(self, given: Mapping[str, str]) -> dict[str, Any]:
        """Coerce ``KEY=VALUE`` strings to the parameters' types; refuse unknown keys and bad values."""
        return bind(self.params, given, f"algorithm {self.name}", "--param")


@dataclass(frozen=True)
class Reproduction:
    """A paper's evaluation: ``run(setting) -> Report`` (see :mod:`optsched.reproduce`)."""

    name: str
    summary: str
    run: Callable[..., Any]


@dataclass(frozen=True)
class Family:
    """Everything optsched knows about one family of instances.

    ``generator(preset, seed, jobs=None, **generator_options)`` returns an instance (call
    :meth:`generate`, which checks its arguments first);
    ``instance_from_dict(d, where)`` and ``schedule_from_dict(d, instance, where)`` read the family's
    JSON, naming ``where`` in errors (instances and schedules have ``to_dict()``);
    ``verify(instance, schedule)`` returns readable violations (empty when feasible) and
    ``objective(instance, schedule)`` the objective in the family's ``sense``. Both are given at
    registration and kept private: only :mod:`optsched.pipeline` calls them (a schedule is judged
    by :meth:`judge`), so that no module can report an objective the verifier has not accepted.
    """

    name: str
    sense: str
    summary: str
    #: the papers the family implements (:mod:`optsched.citations`), cited wherever its results go
    papers: tuple[Paper, ...]
    presets: tuple[str, ...]
    generator: Callable[..., Any]
    instance_from_dict: Callable[[Any, str], Any]
    schedule_from_dict: Callable[[Any, Any, str], Any]
    verify: InitVar[Callable[[Any, Any], list[str]]]
    objective: InitVar[Callable[[Any, Any], float]]
    formulations: Mapping[str, Formulation]
    algorithms: Mapping[str, Algorithm]
    #: ``space()`` returns the family's :class:`optsched.search.space.Space` (its ``mutate.py``)
    space: Callable[[], Any]
    #: the paper's claims ``optsched search --target theorem:NAME`` can try to break (its ``checks.py``)
    checks: Mapping[str, Check]
    generator_options: Mapping[str, Any] = field(default_factory=dict)
    reproductions: Mapping[str, Reproduction] = field(default_factory=dict)
    #: the job counts of the demo study's tiny instances; empty when ``generate``'s ``jobs`` does not
    #: apply (one job per instance)
    demo_sizes: tuple[int, ...] = (3, 4, 5, 6)
    #: ``best(instance)`` names the exact formulation ``--formulation best`` solves, chosen from the
    #: measured frontier (docs/benchmarks.md); None: the first exact formulation
    best: Callable[[Any], str] | None = None
    #: the formulation whose ``bound`` holds at any size, whatever stops it (the bound route at the
    #: papers' scale): a study bounds the optimum with it where the LP relaxation cannot be built
    bound_route: str | None = None
    #: True when the bound route is a relaxed MILP whose LP relaxation a study solves (deterministic
    #: and fast at the papers' scale); the MILP's own bound, given time, is tighter
    bound_relax: bool = False
    #: the solve options a reproduction's certified ratio and benchmarks/bounds.py give the bound
    #: route: its deterministic budget (a route whose rounds take minutes stops after a few, e.g.
    #: ``{"node_limit": 10}`` pricing rounds); empty: it runs until it converges
    bound_budget: Mapping[str, Any] = field(default_factory=dict)
    #: ``bars(instance, schedule)`` yields the rectangles of a schedule's Gantt chart, ``(row, start,
    #: end, job[, killed])`` (its ``schedule.py``), which ``optsched.plot.gantt`` draws over
    #: ``time_unit``; None for a family whose schedules are not timelines
    bars: Callable[[Any, Any], Iterable[tuple]] | None = None
    #: ``releases(instance)``: each job's release on the time axis of ``bars`` (its ``schedule.py``),
    #: for the per-job metrics of :func:`optsched.metrics.job_metrics`
    releases: Callable[[Any], list[float]] | None = None
    time_unit: str = "time"
    #: ``chart(instance, schedule, ax, title)`` draws a schedule that is not a timeline (placement's GPUs)
    chart: Callable[..., Any] | None = None
    #: what online means for a family outside optsched (an :class:`optsched.online_views.View`);
    #: optsched's own families have theirs in :data:`optsched.online_views.VIEWS`
    online_view: Any = None
    _verify: Callable[[Any, Any], list[str]] = field(init=False, repr=False, compare=False)
    _objective: Callable[[Any, Any], float] = field(init=False, repr=False, compare=False)

    def __post_init__(self, verify: Callable[[Any, Any], list[str]], objective: Callable[[Any, Any], float]) -> None:
        object.__setattr__(self, "_verify", verify)
        object.__setattr__(self, "_objective", objective)

    def __repr__(self) -> str:
        return (f"<Family {self.name} ({self.sense}): formulations {', '.join(self.formulations)}; "
                f"algorithms {', '.join(self.algorithms)}>")

    def generate(self, preset: str, seed: int = 0, jobs: int | None = None, **options: Any) -> Any:
        """A seeded instance from the family's generator, its arguments checked first as the command
        line checks them: ``preset`` one of :attr:`presets`, ``seed`` and ``jobs`` in the ranges of
        :data:`optsched.params.OPTIONS`, each generator option of its declared type and range
        (``optsched families`` lists them). Bad arguments raise ``InputError`` naming the argument."""
        self.check_preset(preset)
        checked = check_values(self.generator_options, options, f"the {self.name} generator")
        return self.generator(preset, seed=checked_value(seed, OPTIONS["seed"], "seed"),
                              jobs=optional(jobs, "jobs"), **checked)

    def check_instance(self, instance: Any) -> None:
        """Refuse (``InputError``) an instance that is not of this family's class, naming the
        family it is of where it is another family's."""
        _of_family(self, instance, "instance", self.instance_from_dict)

    def check_schedule(self, schedule: Any) -> None:
        """Refuse (``InputError``) a schedule that is not of this family's class, as :meth:`check_instance`."""
        _of_family(self, schedule, "schedule", self.schedule_from_dict)

    def formulation(self, name: str) -> Formulation:
        """The formulation ``name``; an unknown name raises ``InputError`` listing the known ones."""
        return _pick(self.formulations, name, f"family {self.name} has no formulation", f"{self.name}'s formulation")

    def best_formulation(self, instance: Any, relax: bool = False) -> str:
        """The exact formulation that ``--formulation best`` solves for ``instance``: the family's
        measured choice (``best``), else its first exact formulation. With ``relax``, the MILP
        whose LP relaxation ``best`` means: the choice if it is a MILP, else the first exact MILP
        (a CP-SAT model has no relaxation)."""
        exact = [f for f in self.formulations.values() if f.answers == "optimum"]
        chosen = self.best(instance) if self.best is not None else exact[0].name
        if relax and self.formulation(chosen).engine != "milp":
            return next(f.name for f in exact if f.engine == "milp")
        return chosen

    def answer(self, formulation: str, relax: bool = False) -> str:
        """What the optimum of ``formulation`` (its LP relaxation with ``relax``) is to this family's
        problem: ``"optimum"``, ``"lower bound"`` or ``"upper bound"`` (by the family's sense), or
        ``"other objective"``."""
        answers = self.formulation(formulation).answers
        if answers == "other":
            return "other objective"
        if answers == "bound" or relax:
            return "lower bound" if self.sense == "min" else "upper bound"
        return "optimum"

    def solve(self, instance: Any, formulation: str, *, relax: bool = False, solver: str | None = None,
              time_limit: float | None = None, gap: float = 0.0, presolve: bool = False, threads: int | None = None,
              node_limit: int | None = None, work_limit: float | None = None,
              cross_check: bool | str = False, start: Mapping[str, float] | None = None) -> Solved:
        """Solve, decode and verify: :func:`optsched.pipeline.solve`, whose docstring says what each
        option does."""
        from .pipeline import solve

        return solve(self, instance, formulation, relax=relax, solver=solver, time_limit=time_limit, gap=gap,
                     presolve=presolve, threads=threads, node_limit=node_limit, work_limit=work_limit,
                     cross_check=cross_check, start=start)

    def run(self, instance: Any, algorithm: str | Callable[..., Any], *, seed: int = 0, budget_s: float | None = None,
            **params: Any) -> Run:
        """Run and verify: :func:`optsched.pipeline.run`."""
        from .pipeline import run

        return run(self, instance, algorithm, seed=seed, budget_s=budget_s, **params)

    def judge(self, instance: Any, schedule: Any) -> Verdict:
        """The verifier's verdict and the objective of a feasible schedule: :func:`optsched.pipeline.judge`."""
        from .pipeline import judge

        return judge(self, instance, schedule)

    @property
    def source(self) -> str:
        """The family's papers in short form (``"Zhou et al., IEEE Transactions on Cloud Computing 2023"``)."""
        return "; ".join(paper.short() for paper in self.papers)

    def algorithm(self, name: str | Callable[..., Any]) -> Algorithm:
        """The algorithm ``name``: a registered one, a researcher's function named ``module:function``
        or ``file.py:function``, or the function itself (:mod:`optsched.plugins`). An unknown name
        raises ``InputError`` listing the known ones."""
        if callable(name) and not isinstance(name, str):
            return _external(plugins.name_of(name), name)
        if plugins.is_function_name(name):
            return _external(name, plugins.load(name))
        installed = plugins.installed(self.name)
        if isinstance(name, str) and name not in self.algorithms and name in installed:
            return _external(name, plugins.load(installed[name]))
        return _pick({**self.algorithms, **installed}, name, f"family {self.name} has no algorithm",
                     f"{self.name}'s algorithm")

    def check_preset(self, preset: str) -> None:
        """Raise ``InputError`` (with a suggestion) unless ``preset`` is one of the family's generator presets."""
        if not isinstance(preset, str):
            raise InputError(f"preset: expected a name (a string), got {preset!r} (presets: {', '.join(self.presets)})")
        if preset not in self.presets:
            raise InputError(f"family {self.name} has no preset '{preset}'{did_you_mean(preset, self.presets)} "
                             f"(presets: {', '.join(self.presets)})")

    def to_dict(self) -> dict:
        """This ``Family`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {
            "name": self.name,
            "sense": self.sense,
            "summary": self.summary,
            "source": self.source,
            "papers": [paper.to_dict() for paper in self.papers],
            "presets": list(self.presets),
            "generator_options": {key: value if isinstance(value, tuple) else default_of(value)
                                  for key, value in self.generator_options.items()},
            "formulations": list(self.formulations),
            "formulation_answers": {name: self.answer(name) for name in self.formulations},
            "algorithms": list(self.algorithms),
            "installed_algorithms": plugins.installed(self.name),
        }


def _external(name: str, function: Callable[..., Any]) -> Algorithm:
    """A researcher's function as an :class:`Algorithm` (:mod:`optsched.plugins`)."""
    params, takes_seed = plugins.parameters(name, function)
    summary = (inspect.getdoc(function) or "").strip().partition("\n")[0] or "a researcher's algorithm"
    return Algorithm(name, function, summary, params, external=True, takes_seed=takes_seed)


def _pick(table: Mapping[str, Any], name: str, what: str, argument: str) -> Any:
    """``table[name]``; an unknown name raises ``InputError`` saying ``what`` has none of that name,
    and one that is not a string names the ``argument``; both list the known names."""
    if not isinstance(name, str):
        raise InputError(f"{argument}: expected a name (a string), got {name!r} (known: {', '.join(table) or 'none'})")
    if name not in table:
        raise InputError(f"{what} '{name}'{did_you_mean(name, table)} (known: {', '.join(table) or 'none'})")
    return table[name]


def _of_family(family: Family, value: Any, what: str, reader: Callable[..., Any]) -> None:
    """Refuse an instance or schedule (``what``) that is not of the class whose ``from_dict`` is
    ``reader``, naming the family it is of where it is another family's."""
    function = reader.resolve() if isinstance(reader, Lazy) else reader
    expected = getattr(function, "__self__", None)
    if not isinstance(expected, type) or isinstance(value, expected):
        return
    other = defining_family(value)
    article = "an" if what == "instance" else "a"
    shown = f"{article} {what} of family {other}" if other else f"a {type(value).__name__}"
    raise InputError(f"{what}: {shown}, not {article} {what} of family {family.name} ({expected.__name__}; "
                     f"{family.name}'s {what}_from_dict reads one from JSON data)")


def defining_family(value: Any) -> str | None:
    """The family whose package defines ``value``'s class (an instance or a schedule), or None."""
    module = type(value).__module__
    return next((name for name, package in family_packages().items() if module.startswith(package + ".")), None)


def families() -> dict[str, Family]:
    """Every registered family, by name, in the order ``optsched families`` lists them.

    Returns
    -------
    dict of str to Family

    Examples
    --------
    >>> import optsched
    >>> list(optsched.families())
    ['single', 'oasis', 'edge', 'hetero', 'placement', 'asrpt']
    """
    return {name: get(name) for name in family_packages()}


def get(name: str) -> Family:
    """The family called ``name``, importing only its package.

    Parameters
    ----------
    name : str
        A registered family (``optsched families`` lists them).

    Returns
    -------
    Family
        Its generator, formulations, algorithms, verifier and reproductions, and the pipeline
        (``solve``, ``run``, ``judge``).

    Raises
    ------
    InputError
        For an unknown name.

    Examples
    --------
    >>> import optsched
    >>> family = optsched.get("edge")
    >>> family.sense, list(family.formulations)
    ('min', ['time-indexed', 'fractional-flow', 'cp-sat', 'pooled', 'dual'])
    >>> optsched.get("nope")
    Traceback (most recent call last):
    ...
    optsched.errors.InputError: unknown family 'nope' (known: single, oasis, edge, hetero, placement, asrpt)
    """
    package = _pick(family_packages(), name, "unknown family", "get(name)")
    family = importlib.import_module(package).FAMILY
    if family.name != name:
        raise LookupError(f"package {package} registers family {family.name!r}, not {name!r}")
    return family
