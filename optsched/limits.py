"""Sizes optsched refuses up front, so that bad input fails in a line instead of hanging or running
out of memory (on a machine of 2 cores and 24 GiB, the size the toolkit is tested on).

Each limit is far above what the papers' evaluations need (the largest bundled instance has 75,000
jobs; the largest paper horizon is a few thousand slots) and far below what would exhaust memory.
"""

from __future__ import annotations

from .errors import InputError

#: Largest absolute value of a number in an instance or schedule. Beyond it, float sums of products
#: (objectives, loads) stop being exact to a few digits; the bundled instances stay below 1e6.
MAX_MAGNITUDE = 1e12
#: Jobs one instance may have, generated or read from a file.
MAX_JOBS = 100_000
#: Time slots an instance of a slot-based family (single, oasis, edge, hetero) may span: its
#: simulations step through them one by one.
MAX_SLOTS = 1_000_000
#: Variables one solver model may have (a PuLP variable takes about 1 KB before the solver sees it).
MAX_MODEL_VARIABLES = 2_000_000
#: Seeds one study part may list, and units one study may plan.
MAX_SEEDS = 100_000
MAX_UNITS = 1_000_000
#: Worker processes one study or reproduction may start.
MAX_WORKERS = 256
#: Solver threads one solve may ask for (CP-SAT and HiGHS keep the count in a 32-bit integer).
MAX_THREADS = 1024
#: The largest input limit (``--max-input-mb``) that can be set: 100 GB, beyond what a machine
#: of this size can parse (about 20 times a file's size in memory).
MAX_INPUT_LIMIT_MB = 100_000
#: Branch-and-bound nodes a node limit may allow (HiGHS keeps its limit in a 32-bit integer).
MAX_NODES = 2_000_000_000  # HiGHS takes a node limit below 2**31 only
MAX_SEED = 2**32 - 1  # NumPy's legacy seeding range, and ample for every generator
#: The default budget of an exact solve in studies and reproductions: branch-and-bound nodes (on one
#: solver thread), which give the same result on every machine, idle or loaded; a wall-clock limit
#: would not. The bundled presets' solves prove their optima in far fewer.
NODE_LIMIT = 200_000
#: The same for CP-SAT: deterministic time (``max_deterministic_time``, about seconds on a reference
#: machine, on one worker), the budget of a CP-SAT reference in studies.
WORK_LIMIT = 600.0


def refuse_above(value: float, limit: float, what: str, instead: str = "") -> None:
    """Raise :class:`InputError` when ``value`` exceeds ``limit``; ``what`` names the quantity and
    ``instead`` (appended in parentheses) what handles inputs this large."""
    if value > limit:
        shown = f"{value:,}" if isinstance(value, int) and value < 10**15 else f"{value:.4g}"
        raise InputError(f"{what} is {shown}, more than optsched handles ({limit:,.0f})"
                         + (f" ({instead})" if instead else ""))


def model_variables(count: float, formulation: str, instead: str = "") -> None:
    """Refuse to build a model of more than :data:`MAX_MODEL_VARIABLES` variables; ``instead``
    names what bounds instances this large (appended in parentheses)."""
    refuse_above(count, MAX_MODEL_VARIABLES, f"the {formulation} model's variable count", instead)
