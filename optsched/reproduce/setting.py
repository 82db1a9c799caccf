"""How a reproduction runs: its preset (quick, default, paper), seeds, report folder and where its
units run (:class:`Setting`), and the budgets every preset shares: exact solves within a node budget and the
certified ratio's seeds."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..limits import NODE_LIMIT
from ..study.engine import Execution

SCALES = ("quick", "default", "paper")
#: The budget of every exact solve in a reproduction: branch-and-bound nodes on one solver thread,
#: so that a reproduction gives the same result files on every machine, idle or loaded (no
#: wall-clock limits). A solve it stops is reported against its bound, labelled so.
EXACT_BUDGET: dict[str, Any] = {"node_limit": NODE_LIMIT, "threads": 1}
#: Seeds a certified ratio is computed on (the first ones): a bound per instance, which decides no
#: verdict; its time per seed at the paper sizes is in docs/benchmarks.md ("The paper presets"), where
#: 30 seeds would add hours and tell little more.
CERTIFIED_SEEDS = 10
#: Seeds per point when --seeds is not given. 30 on the default and paper presets: at 30 pairs an
#: effect that wins on 80% of the seeds is called "held" with probability 0.99 alone and at least
#: 0.91 as the most demanding of 10 Holm-corrected tests (``benchmarks/power.py``; docs/study.md,
#: "Statistics"). The quick preset is a smoke test: 5 pairs never resolve a two-sided test.
DEFAULT_SEEDS = {"quick": 5, "default": 30, "paper": 30}
QUICK_WARNING = ("**The quick preset is a smoke test, not evidence.** It runs few seeds at small sizes to show "
                 "that the pipeline works; with 5 seeds no two-sided paired test reaches the 5% level, so its "
                 "comparisons are 'not resolved' by design. Conclusions come from the default and paper presets.")


@dataclass(frozen=True)
class Setting:
    """How a reproduction runs: its preset (``quick``, ``default`` or ``paper``), seeds per point, report
    folder, where its units run and whether a progress bar shows. What it runs is its registration
    (:class:`~optsched.registry.Reproduction`); a study's and a search's definitions are
    :class:`~optsched.study.spec.Study` and :class:`~optsched.search.strategy.Search`, with the same
    :class:`~optsched.study.engine.Execution`."""
    scale: str  #: "quick" (under 2 minutes), "default" (minutes) or "paper" (the paper's sizes)
    seeds: int
    out_dir: Path
    execution: Execution = Execution()
    progress: bool = False  #: a progress bar on stderr (when it is a terminal)
    #: per :func:`parallel_map` label (calls with the same label add up): (units, from the cache, seconds
    #: the units took), the cached ones at the time they were computed, so that a run resumed over
    #: several sessions reports its whole cost
    ledger: dict[str, tuple[int, int, float]] = field(default_factory=dict, compare=False, repr=False)

    def computing(self) -> str:
        """One sentence: what the units of this run took in all, summed over workers and sessions."""
        units = sum(n for n, _, _ in self.ledger.values())
        cached = sum(c for _, c, _ in self.ledger.values())
        seconds = sum(s for _, _, s in self.ledger.values())
        took = f"{seconds / 3600:.1f} hours" if seconds >= 3600 else f"{seconds:.0f} s"
        return (f"Computing time: {took} in {units:,} units (the sum of each unit's time on one worker, "
                f"whenever it ran; {cached:,} came from the cache this run).")
