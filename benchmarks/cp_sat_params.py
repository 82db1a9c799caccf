"""CP-SAT parameters for a family's ``cp-sat`` model, measured: per size, CP-SAT's deterministic
seconds (and wall milliseconds) summed over seeds 0..S-1 of ``optsched generate FAMILY --preset small``,
one worker, random seed 0, for each variant of parameters. A variant is a name and ``KEY=VALUE``
settings applied on top of OR-Tools' defaults; the variant ``model`` is the model's own
``CpSatModel.params`` (what ``optsched solve`` uses). The models' parameter choices in
docs/single.md and docs/hetero.md ("Formulation cp-sat") come from this script::

    cd benchmarks && python cp_sat_params.py single --sizes 10 12 --seeds 20 \\
        --variant "level 1 (default)" --variant "level 2" linearization_level=2
    python cp_sat_params.py hetero --sizes 4 6 8 10 12 --seeds 6 --variant default \\
        --variant "probing 0" cp_model_probing_level=0 --variant "no presolve" cp_model_presolve=false

A proven optimum is counted; a variant that stops at ``--time-limit`` (wall clock, so that a slow
variant ends) is shown with its proven count below the seeds.
"""

from __future__ import annotations

import argparse
import time

from bench_single import machine

import optsched


def _value(text: str) -> bool | int | float:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return float(text)


def _variants(raw: list[list[str]]) -> dict[str, dict | None]:
    """``--variant NAME KEY=VALUE ...`` as {name: params}; ``model`` (None) takes the model's own."""
    variants: dict[str, dict | None] = {"model": None}
    for name, *settings in raw:
        pairs = [setting.split("=", 1) for setting in settings]
        if any(len(pair) != 2 for pair in pairs):
            raise SystemExit(f"variant {name!r}: settings are KEY=VALUE, got {settings}")
        variants[name] = {key: _value(value) for key, value in pairs}
    return variants


def measure(built: list, params: dict | None, time_limit: float) -> tuple[float, float, int]:
    """Deterministic seconds and wall seconds summed over the built models, and how many were proven."""
    from ortools.sat.python import cp_model

    det = wall = 0.0
    proven = 0
    for model in built:
        solver = cp_model.CpSolver()
        for key, value in (model.params if params is None else params).items():
            setattr(solver.parameters, key, value)
        solver.parameters.num_workers, solver.parameters.random_seed = 1, 0
        solver.parameters.max_time_in_seconds = time_limit
        started = time.perf_counter()
        status = solver.status_name(solver.solve(model.model))
        wall += time.perf_counter() - started
        det += solver.deterministic_time
        proven += status == "OPTIMAL"
    return det, wall, proven


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family")
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--variant", nargs="+", action="append", default=[], metavar=("NAME", "KEY=VALUE"))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve (default 60)")
    args = parser.parse_args()
    family = optsched.get(args.family)
    variants = _variants(args.variant)
    print(machine())
    print(f"\n| jobs | seeds | {' | '.join(variants)} |\n|---|---|{'---|' * len(variants)}")
    for n in args.sizes:
        build = family.formulation("cp-sat").build
        built = [build(family.generate("small", seed=s, jobs=n)) for s in range(args.seeds)]
        cells = []
        for params in variants.values():
            det, wall, proven = measure(built, params, args.time_limit)
            unproven = "" if proven == len(built) else f", {proven}/{len(built)} proven"
            cells.append(f"{det:.3f} s ({1000 * wall:,.0f} ms{unproven})")
        print(f"| {n} | {args.seeds} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
