"""Schedules and the verifier (optsched/hetero/schedule.py): each rule of problem (2), and the bandwidth cover (2i)."""

import dataclasses

from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance
from optsched.hetero.schedule import JobSchedule, Schedule, objective, verify


def one_job():
    inst = generate("tiny", 0, jobs=1)
    from optsched.hetero.columns import options

    option = options(inst)[0][0]
    return inst, option.at(inst.jobs[0].arrival)


def test_the_verifier_catches_each_violation():
    inst, good = one_job()
    assert verify(inst, Schedule((good,))) == []
    assert objective(inst, Schedule((good,))) == inst.jobs[0].weight * good.completion
    H = inst.H
    cases = {
        "V8": dataclasses.replace(good, start=inst.jobs[0].arrival - 1) if inst.jobs[0].arrival > 1 else None,
        "V7": dataclasses.replace(good, d=good.d - 1) if good.d > 1 else None,
        "V3": dataclasses.replace(good, y=(0,) * H),
        "V4": dataclasses.replace(good, s=(0,) * H),
        "V6": dataclasses.replace(good, q=1, y=(1,) * H) if good.workers >= H else None,
    }
    for code, bad in cases.items():
        if bad is not None:
            assert any(v.startswith(code) for v in verify(inst, Schedule((bad,)))), code
    assert verify(inst, Schedule(()))[0].startswith("V1")
    cramped = dataclasses.replace(inst, capacity=((0.5, 0.5),) * H)
    assert any(v.startswith("V9") for v in verify(cramped, Schedule((good,))))


def test_the_bandwidth_cover_2i_is_checked():
    """V5: a PS covers only B_p of remote worker bandwidth."""
    job = dataclasses.replace(generate("tiny", 0, jobs=1).jobs[0], chunks=2, train=(1.0,), update=(0.0,))
    inst = Instance("ps", 8, ((4.0, 100.0), (4.0, 100.0)), ((1.0, 1.0),), ((0.0, 1.0),), 1, (job,))
    one_remote = JobSchedule(job.arrival, 50, 0, 0, 0, (1, 0), (0, 1))
    assert verify(inst, Schedule((one_remote,))) == []
    two_remote = dataclasses.replace(one_remote, y=(2, 0))
    assert any(v.startswith("V5") for v in verify(inst, Schedule((two_remote,))))
    assert verify(inst, Schedule((dataclasses.replace(two_remote, s=(0, 2)),))) == []

