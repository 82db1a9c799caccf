"""The constants and bounds of Luo et al.'s analysis (spec asrpt.md §4), as plain functions.

* ``ρ = max_i α_i^max / α_i^min`` (placement sensitivity, with the true ``α^min``), its sharper
  ``ρ' = max_i α̃_i / α_i^min``, and ``ρ̄ = α^max / α^min`` over all jobs.
* Lemma 1: ``OPT_{A_1} <= ρ OPT_A``; sharper ``OPT_{A_1} <= ρ' OPT_A`` and ``OPT_{A_1^min} <= OPT_A``.
* Lemma 3: ``OPT_{Ã_1} <= OPT_{A_1} + I Σ_{O} δ_i - Σ_{U} δ_i`` (eqs. 13-15, the sharper form) and the
  stated ``OPT_{Ã_1} <= OPT_{A_1} + I g^max α^max ε / G``, with ``δ_i = g_i ε_i α̃_i / G``.
* Lemma 2: ``Γ_A <= (1 + τ + ρG/(G - g^max)) OPT_{Ã_1} + I g^max α^max ε / (G - g^max) + ρ OPT_A``.
* Theorem 1: ``Γ_A <= [(2 + τ + ρG/(G-g^max)) ρ + 2 ρ g^max ρ̄ (1 + τ + (1+ρ)G/(G-g^max)) ε̄] OPT_A``.

All need ``n_i >= 1``, ``g^max < G``, strict queue order and the blocking wait (A-SRPT's defaults).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import SolverFailure
from ..placement.online import alpha_tilde
from ..placement.patterns import alpha_min
from ..placement.timing import alpha_max
from ..registry import Theorem
from .instance import Instance
from .srpt import srpt


@dataclass(frozen=True)
class Constants:
    """The constants of Theorem 1's competitive ratio (spec asrpt.md §4): ρ, ρ', ρ̄, the extreme per-iteration times
    α^max and α^min, the total prediction error ε and the job count."""
    rho: float
    rho_prime: float
    rho_bar: float
    alpha_max: float  #: max_i α_i^max
    alpha_min: float  #: min_i α_i^min
    g_max: int
    G: int
    jobs: int
    epsilon: float  #: ε = Σ |n_i - ñ_i|

    @property
    def epsilon_bar(self) -> float:
        """ε̄ = ε / n, the mean absolute prediction error per job."""
        return self.epsilon / self.jobs


def per_job(instance: Instance) -> list[tuple[float, float, float]]:
    """``(α^max, α̃^min, α^min)`` per job (the last two cached per configuration at their source)."""
    cluster = instance.cluster
    return [(alpha_max(sj.job, cluster), alpha_tilde(sj.job, cluster), alpha_min(sj.job, cluster))
            for sj in instance.jobs]


def constants(instance: Instance, perfect: bool = False) -> Constants:
    """Theorem 1's constants for ``instance``; ``perfect``: with exact predictions (ε = 0, A-SRPT-Perfect)."""
    alphas = per_job(instance)
    eps = 0.0 if perfect else sum(abs(sj.iterations - sj.predicted) for sj in instance.jobs)
    return Constants(
        rho=max(a / m for a, _, m in alphas), rho_prime=max(t / m for _, t, m in alphas),
        rho_bar=max(a for a, _, _ in alphas) / min(m for _, _, m in alphas),
        alpha_max=max(a for a, _, _ in alphas), alpha_min=min(m for _, _, m in alphas),
        g_max=max(sj.job.gpus for sj in instance.jobs), G=instance.cluster.total_gpus, jobs=len(instance.jobs),
        epsilon=eps)


def virtual_optimum(instance: Instance, kind: str = "tilde") -> float:
    """Σ SRPT completions on a virtual instance: ``A_1`` (``"true"``: n_i, α̃), ``Ã_1`` (``"tilde"``:
    ñ_i, α̃) or ``A_1^min`` (``"min"``: n_i, α^min)."""
    G = instance.cluster.total_gpus
    sizes = []
    for sj, (_, tilde, low) in zip(instance.jobs, per_job(instance)):
        n = sj.predicted if kind == "tilde" else sj.iterations
        sizes.append(sj.job.gpus * n * (low if kind == "min" else tilde) / G)
    return sum(srpt([sj.release for sj in instance.jobs], sizes))


def lemma3_sharp(instance: Instance) -> float:
    """The right side of eqs. (13)-(15): ``OPT_{A_1} + I Σ_O δ_i - Σ_U δ_i``."""
    G, I = instance.cluster.total_gpus, len(instance.jobs)
    over = under = 0.0
    for sj, (_, tilde, _) in zip(instance.jobs, per_job(instance)):
        delta = sj.job.gpus * abs(sj.iterations - sj.predicted) * tilde / G
        if sj.predicted > sj.iterations:
            over += delta
        elif sj.predicted < sj.iterations:
            under += delta
    return virtual_optimum(instance, "true") + I * over - under


def lemma3_bound(instance: Instance) -> float:
    """Lemma 3's right side: ``OPT_{A_1} + I g^max α^max ε / G``."""
    c = constants(instance)
    return virtual_optimum(instance, "true") + c.jobs * c.g_max * c.alpha_max * c.epsilon / c.G


def lemma2_bound(instance: Instance, opt: float, tau: float, perfect: bool = False) -> float:
    """Lemma 2's right side for A-SRPT's total completion time, given ``OPT_A = opt``."""
    c = constants(instance, perfect)
    spare = c.G - c.g_max
    tilde = virtual_optimum(instance, "true" if perfect else "tilde")
    return ((1 + tau + c.rho * c.G / spare) * tilde + c.jobs * c.g_max * c.alpha_max * c.epsilon / spare
            + c.rho * opt)


def theorem1_bound(rho: float, rho_bar: float, tau: float, G: int, g_max: int, epsilon_bar: float) -> float:
    """Theorem 1's competitive bound (infinite when ``g^max >= G``)."""
    if g_max >= G:
        return math.inf
    spare = G - g_max
    return ((2 + tau + rho * G / spare) * rho
            + 2 * rho * g_max * rho_bar * (1 + tau + (1 + rho) * G / spare) * epsilon_bar)


def theorem1(instance: Instance, *, tau: float = 1.0, blocking: bool = True, **_) -> Theorem | None:
    """Theorem 1's bound for A-SRPT with the instance's predictions; none for the non-blocking
    variant, which is outside its proof [A14]."""
    return theorem1_hook(instance, tau) if blocking else None


def theorem1_perfect(instance: Instance, *, tau: float = 1.0, blocking: bool = True, **_) -> Theorem | None:
    """Theorem 1's bound for A-SRPT with perfect predictions (see :func:`theorem1`)."""
    return theorem1_hook(instance, tau, perfect=True) if blocking else None


def theorem1_hook(instance: Instance, tau: float, perfect: bool = False) -> Theorem | None:
    """The bound a study reports with every A-SRPT ratio (None when ``α^min`` is out of reach)."""
    try:
        c = constants(instance, perfect)
    except SolverFailure:  # the exact α^min needs the placement ILP and it did not prove optimality
        return None
    bound = theorem1_bound(c.rho, c.rho_bar, tau, c.G, c.g_max, c.epsilon_bar)
    return Theorem("Theorem 1", bound,
                   {"rho": c.rho, "rho_bar": c.rho_bar, "tau": tau, "G": c.G, "g_max": c.g_max,
                    "epsilon_bar": c.epsilon_bar},
                   "n_i >= 1, g_max < G, strict queue order with the blocking wait (defaults)")
