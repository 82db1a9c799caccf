"""Tolerant arithmetic shared by every family (docs/design.md, principle 6).

Ceilings and feasibility comparisons on floats go through these helpers, so that 2.9999999999 is
treated as 3 in the same way everywhere; objectives are compared with relative tolerance 1e-6.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .errors import InputError

if TYPE_CHECKING:
    import numpy as np

#: Absolute slack for feasibility comparisons of data-derived quantities.
FEAS_TOL = 1e-6
#: Relative tolerance for comparing objective values.
OBJ_RTOL = 1e-6


def ceil_tol(x: float, tol: float = 1e-9) -> int:
    """Ceiling that ignores float noise: ``ceil_tol(2.0000000001) == 2``."""
    r = round(x)
    return int(r) if abs(x - r) <= tol * max(1.0, abs(x)) else math.ceil(x)


def floor_tol(x: float, tol: float = 1e-9) -> int:
    """Floor that ignores float noise: ``floor_tol(2.9999999999) == 3``."""
    r = round(x)
    return int(r) if abs(x - r) <= tol * max(1.0, abs(x)) else math.floor(x)


def round_if_integral(x: float, tol: float = FEAS_TOL) -> int | None:
    """The integer nearest to ``x`` if ``x`` is within ``tol`` of it, else None."""
    r = round(x)
    return int(r) if abs(x - r) <= tol else None


def integral(x: float, tol: float = FEAS_TOL) -> int:
    """The integer ``x`` is within ``tol`` of; ValueError when there is none (a decoder's check)."""
    r = round_if_integral(x, tol)
    if r is None:
        raise ValueError(f"{x!r} is not integral (tolerance {tol:g})")
    return r


def leq(a: float, b: float, tol: float = FEAS_TOL) -> bool:
    """``a <= b`` up to an absolute-and-relative slack."""
    return a <= b + tol * max(1.0, abs(b))


def close(a: float, b: float, rtol: float = OBJ_RTOL) -> bool:
    """Objective equality: relative tolerance ``rtol``, absolute ``rtol`` near zero."""
    return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))


def better_or_equal(a: float, b: float, sense: str) -> bool:
    """Whether objective ``a`` is at least as good as ``b`` under ``sense`` ("min"/"max"), with tolerance."""
    return (a <= b or close(a, b)) if sense == "min" else (a >= b or close(a, b))


def ratio(sense: Any, value: float, reference: float) -> float:
    """The competitive ratio of ``value`` against ``reference`` (an optimum or a bound):
    ``value/reference`` for a ``"min"`` family, ``reference/value`` for ``"max"`` (``sense`` may be
    the family itself), so that 1 is best; 1 when they are equal within tolerance, ``inf`` when the
    denominator is not positive. Public as ``optsched.ratio``.

    Examples
    --------
    >>> import optsched
    >>> optsched.ratio(optsched.get("single"), 252, 240), optsched.ratio("max", 90, 120)
    (1.05, 1.3333333333333333)
    """
    sense = getattr(sense, "sense", sense)
    if sense not in ("min", "max"):
        raise InputError(f"sense: expected 'min', 'max' or a Family, got {sense!r:.60}")
    if close(value, reference):
        return 1.0
    top, bottom = (value, reference) if sense == "min" else (reference, value)
    if bottom <= 0:
        return math.inf
    return top / bottom


def floor_tol_array(x: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Element-wise :func:`floor_tol`, for numpy arrays."""
    import numpy as np

    r = np.round(x)
    return np.where(np.abs(x - r) <= tol * np.maximum(1.0, np.abs(x)), r, np.floor(x))


def ceil_tol_array(x: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Element-wise :func:`ceil_tol`, for numpy arrays."""
    import numpy as np

    r = np.round(x)
    return np.where(np.abs(x - r) <= tol * np.maximum(1.0, np.abs(x)), r, np.ceil(x))


#: The largest scale :func:`integer_scale` uses: six decimal places.
MAX_SCALE = 10**6


def integer_scale(values: Iterable[float], what: str) -> int:
    """The smallest power of ten that makes every one of ``values`` an exact integer, for models
    that need integer data (CP-SAT). A value is read as the decimal it prints as (``0.1`` is 1/10),
    so ``integer_scale([0.5, 2, 1.25], ...) == 100``. Values that need more than six decimal places
    are refused (:class:`~optsched.errors.InputError` naming ``what``): scaling them would round, and the model would no
    longer be exact."""
    scale = 1
    for value in values:
        fraction = Fraction(repr(float(value)))
        while (fraction * scale).denominator != 1:
            scale *= 10
            if scale > MAX_SCALE:
                raise InputError(f"{what}: {value!r} has more than six decimal places; an integer model "
                                 "of it would not be exact")
    return scale
