"""Theorem 3 end to end with speed augmentation by time scaling, Lemma 5, and the measured dual
fitting (spec §4.6-4.7)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from optsched.edge import formulations as F
from optsched.edge.instance import speed_augmented
from optsched.edge.online import run_aonline
from optsched.edge.strategies import instances
from optsched.edge.theory import fitted_dual_check, flow_bound, jct_bound
from optsched.solvers import solve


@given(instances(max_jobs=3, max_D=2, max_p=3), st.sampled_from([Fraction(1, 2), Fraction(1)]))
@settings(max_examples=30)
def test_t3a_t3b_theorem3_holds_end_to_end(instance, epsilon):
    """Online at speed 1 + ε against the optimum at speed 1, on the same 1/a-slot grid:
    JCT <= D_max (1 + 1/ε) · OPT(2) and Σ f <= (1 + 1/ε) · OPT(4)."""
    offline, online = speed_augmented(instance, epsilon)
    run = run_aonline(online)
    milp = solve(F.time_indexed(offline))
    ilp = solve(F.fractional_flow(offline))
    assert milp.optimal and ilp.optimal
    assert run.total_jct <= jct_bound(instance.max_chunks, epsilon) * Fraction(milp.objective).limit_denominator(10**6) + Fraction(1, 10**6)
    assert run.fractional_flow <= flow_bound(epsilon) * Fraction(ilp.objective).limit_denominator(10**6) + Fraction(1, 10**6)


@given(st.fractions(min_value=0, max_value=20), st.fractions(min_value=0, max_value=5), st.integers(1, 6),
       st.integers(1, 8), st.integers(0, 12), st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(1)]))
def test_l5_the_slowed_dual_holds_iff_6a_holds(alpha, beta, D, p, waited, epsilon):
    """(11a) with α' = α, β' = β/(1+ε) and the offline rate n/(1+ε) reduces to (6a)."""
    holds_6a = alpha * Fraction(1, p) <= Fraction(waited, D * p) + beta
    slow = (1 + epsilon) * p  # the offline machine is 1+ε times slower
    holds_11a = alpha * Fraction(1, slow) <= Fraction(waited, D * slow) + beta / (1 + epsilon)
    assert holds_6a == holds_11a


@given(instances(cloud=False, equal_rates=True, job_dependent_delays=False))
@settings(max_examples=60)
def test_l2b_the_fitted_dual_is_measured_not_assumed(instance):
    """Lemma 2(b) is false [E19]: the check runs and reports, it does not assert feasibility; the dual
    objective it computes is Σα − Σβ, which is 0 at speed 1 by Lemma 4."""
    run = run_aonline(instance)
    check = fitted_dual_check(run)
    assert check.checked > 0 and check.violations >= check.on_selected >= 0
    assert check.dual_objective == 0
    assert fitted_dual_check(run, speed=Fraction(3, 2)).dual_objective == run.alpha_sum * Fraction(1, 3)


@given(instances(equal_rates=True, job_dependent_delays=False))
@settings(max_examples=150)
def test_l2c_the_repaired_dual_fitting_is_feasible(instance):
    """Spec L2-c: with fractional remaining weights in Q and β and LP-4R+'s own-processing term, the
    fitted duals satisfy (6a) (job-independent delays, p^1 = p^0)."""
    run = run_aonline(instance, repaired=True)
    assert fitted_dual_check(run, repaired=True).violations == 0
