"""Stopping a call after so many seconds (optsched/alarm.py): an endless loop is interrupted, even
one that swallows exceptions; a call within its time returns its value; the deadline a block sets
counts down for the solves made inside it, and a solve past it is refused before it starts."""

from __future__ import annotations

import threading
import time

import pytest

from optsched.alarm import TimeUp, can_interrupt, deadline_at, seconds_left, stop_after


def test_an_endless_call_that_swallows_exceptions_is_stopped():
    def endless():
        while True:
            try:
                time.sleep(0.01)
            except Exception:
                pass

    started = time.perf_counter()
    with pytest.raises(TimeUp):
        stop_after(0.2, endless)
    assert time.perf_counter() - started < 2


def test_a_call_within_its_time_returns_its_value_and_leaves_no_timer():
    assert stop_after(5, lambda: 42) == 42
    time.sleep(0.05)  # a timer left running would interrupt this


def test_off_the_main_thread_the_call_runs_to_its_end_and_is_judged_after():
    outcome = {}

    def in_thread():
        outcome["can"] = can_interrupt()
        try:
            stop_after(0.05, lambda: time.sleep(0.2))
        except TimeUp:
            outcome["late"] = True

    worker = threading.Thread(target=in_thread)
    worker.start()
    worker.join()
    assert outcome == {"can": False, "late": True}


def test_a_deadline_counts_down_inside_its_block_only():
    assert seconds_left() is None
    with deadline_at(time.perf_counter() + 10):
        assert 9 < seconds_left() <= 10
    assert seconds_left() is None


def test_a_solve_a_builder_makes_past_the_deadline_is_refused_and_one_before_it_is_limited():
    import optsched
    from optsched.pipeline import decide
    from optsched.single.formulations import time_indexed

    family = optsched.get("single")
    model = time_indexed(family.generate("tiny", seed=0))
    with deadline_at(time.perf_counter() - 1), pytest.raises(TimeUp):
        decide(model)
    with deadline_at(time.perf_counter() + 30):
        assert decide(model) is not None


def test_a_timeup_a_finaliser_swallows_fires_again():
    """Python drops an exception raised inside ``__del__``; the call must stop all the same (issue 51:
    after hypothesis's many PuLP models, garbage collection during a model's building swallowed the
    alarm and the build ran 39 s past a 1 s limit)."""
    import gc

    class Slow:
        def __del__(self):
            time.sleep(0.3)  # the alarm fires in here, and Python drops what it raises

    def builds():
        Slow()
        gc.collect()
        while True:
            time.sleep(0.01)

    started = time.perf_counter()
    with pytest.raises(TimeUp):
        stop_after(0.1, builds)
    assert time.perf_counter() - started < 2
