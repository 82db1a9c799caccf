"""The arrival stream that online algorithms receive their jobs through (optsched/arrivals.py)."""

import pytest

from optsched.arrivals import ArrivalStream


def test_items_arrive_in_time_order_ties_by_position():
    stream = ArrivalStream(["a", "b", "c", "d"], {"a": 5, "b": 0, "c": 5, "d": 2}.get)
    assert stream.advance_to(0) == [(1, "b")]
    assert stream.advance_to(1) == []
    assert stream.wait() == [(3, "d")] and stream.now == 2
    assert stream.wait() == [(0, "a"), (2, "c")] and stream.now == 5
    assert stream.exhausted and stream.wait() == []


def test_the_clock_never_goes_back():
    stream = ArrivalStream([1], lambda x: 0)
    stream.advance_to(3)
    with pytest.raises(ValueError, match="cannot go back"):
        stream.advance_to(2)


def test_wait_does_not_move_the_clock_back_for_late_callers():
    stream = ArrivalStream(["x", "y"], {"x": 1, "y": 4}.get)
    stream.advance_to(2)  # x arrived at 1
    assert stream.wait() == [(1, "y")] and stream.now == 4
