"""Sweeps over a paper's axes (optsched/reproduce/sweeps.py)."""

from optsched.reproduce import mean


def test_two_sweeps_that_meet_share_their_point_once():
    from optsched.reproduce import JobServerSweeps, sweep_points, sweep_rows

    p = JobServerSweeps(jobs=[10, 20], servers_fixed=6, servers=[3, 6], jobs_fixed=10)
    assert sweep_points(p) == [(10, 6), (20, 6), (10, 3)]  # (10, 6) is in both sweeps, listed once
    rows = [{"jobs": j, "servers": n} for j, n in sweep_points(p)]
    assert sweep_rows(rows, "jobs", p) == rows[:2]
    assert sweep_rows(rows, "servers", p) == [rows[0], rows[2]]  # the shared row belongs to both


def test_the_mean_of_nothing_is_nan_not_an_error():
    assert mean([1.0, 2.0, 6.0]) == 3.0 and mean(iter([4])) == 4.0
    assert mean([]) != mean([])  # NaN
