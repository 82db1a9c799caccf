"""Job streams: JSON and validation (optsched/asrpt/instance.py)."""

from optsched.asrpt.generate import generate_stream
from optsched.asrpt.instance import Instance, StreamJob
from optsched.asrpt.online import run_asrpt


def test_stream_json_round_trip_and_trace_preset_is_labelled():
    instance = generate_stream("tiny", 1)
    assert Instance.from_dict(instance.to_dict()) == instance
    schedule = run_asrpt(instance).schedule
    from optsched.asrpt.schedule import Schedule

    assert Schedule.from_dict(schedule.to_dict(), instance) == schedule
    jobs = [StreamJob(sj.job, sj.release, sj.iterations, sj.predicted) for sj in instance.jobs]
    assert Instance(instance.cluster, tuple(jobs)) == instance

