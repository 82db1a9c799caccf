"""Rebuild the counterexample corpus (instances/counterexamples/) with ``optsched search``: one
search per paper claim optsched reports as false, its shrunk find certified and saved with the
command that reproduces it. Searches are seeded and deterministic, and each keeps its cache in
``search-corpus/<claim>/``, so a rerun is quick.

    python benchmarks/search_corpus.py [--only CLAIM]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from optsched.search import run
from optsched.search.corpus import entry, save

ROOT = Path(__file__).resolve().parent.parent
#: (family, claim, algorithm, target, budget, exceed, the claim as the paper makes it)
CLAIMS = [
    ("oasis", "theorem2-dual", "oasis", "theorem:dual", 120, None,
     "Theorem 2: OASiS's payoffs and final prices are a feasible dual solution [A10]"),
    ("oasis", "theorem4-ratio", "oasis", "theorem:bound", 400, None,
     "Theorem 4: OASiS is 2α-competitive, OPT / P_I <= 2α [A11]"),
    ("oasis", "fig5-ratio", "oasis", "ratio", 300, 1.5,
     "Fig. 5: OPT / OASiS is about 1.1 to 1.5 on small clusters"),
    ("edge", "lemma2b", "aonline", "theorem:lemma2b", 40, None,
     "Lemma 2(b): A_online's fitted duals (α, β) are feasible for the dual of LP-4R, (6a) [E19]"),
    ("hetero", "theorem1-mincost1", "aonline", "theorem:mincost1", 400, None,
     "Theorem 1: A_mincost1 returns the cheapest distributed schedule [E5]"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="rebuild one claim's entry")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    failed = []
    for family, claim, algorithm, target, budget, exceed, statement in CLAIMS:
        if args.only and claim != args.only:
            continue
        out = Path("search-corpus") / claim
        out.parent.mkdir(exist_ok=True)
        outcome = run(family, algorithm, target, budget=budget, exceed=exceed, workers=args.workers, out_dir=out)
        command = (f"optsched search {family} --algorithm {algorithm} --target {target} --budget {budget}"
                   + (f" --exceed {exceed:g}" if exceed is not None else ""))
        value = outcome.shrunk.value if outcome.shrunk is not None else None
        broken = value is not None and value > (exceed if target == "ratio" else 0.0)
        print(f"{family}/{claim}: {'broken' if broken else 'NOT broken'} (value {value}) by `{command}`")
        if not broken:
            failed.append(claim)
            continue
        item = entry(out, claim, statement, command)
        print(f"  saved {save(ROOT / 'instances' / 'counterexamples', item).relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
