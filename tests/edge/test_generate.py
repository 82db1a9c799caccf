"""Seeded edge instances: the presets of Figs. 1-6, the testbed, the paper and synthetic sizes (optsched/edge/generate.py)."""


import pytest

from optsched.edge.generate import PRESETS, TABLE_II, generate
from optsched.errors import InputError

from ..digests import digest


def test_presets():
    assert set(PRESETS) >= {"tiny", "small", "f1", "f2", "f3", "f4", "f5", "f6", "testbed", "paper", "synthetic"}
    assert generate("f6", 2).cloud is False and generate("f2", 2).jobs[0].release == 0
    testbed = generate("testbed", 0)
    assert len(testbed.servers) == 8 and len(testbed.jobs) == 30
    assert {j.chunks for j in testbed.jobs} <= {d for _, _, d, _ in TABLE_II}
    paper = generate("paper", 0, jobs=40)
    assert len(paper.servers) == 100 and len(paper.jobs) == 40 and all(j.p_cloud <= j.p_edge for j in paper.jobs)
    assert generate("paper", 5, jobs=10) == generate("paper", 5, jobs=10)
    with pytest.raises(InputError, match="unknown edge preset"):
        generate("f9", 0)



#: sha256 (16 hex digits) of ``generate(preset, seed, jobs=20, servers=6).to_dict()``, recorded before
#: the slot length became a parameter: at 1 hour the instances are the ones they were.
ONE_HOUR = {"testbed-0": "b0d38355858b7091", "testbed-1": "80edb113afa21f3f", "paper-0": "c6dde26cdc7e3f0c",
            "paper-1": "d0b7f3267423894c", "synthetic-0": "7f1ca710548d4f1c", "synthetic-1": "c4298575e28767d3"}


def test_the_slot_length_rescales_the_same_jobs_and_leaves_one_hour_as_it_was():
    import math

    for key, recorded in ONE_HOUR.items():
        preset, seed = key.rsplit("-", 1)
        doc = generate(preset, int(seed), jobs=20, servers=6).to_dict()
        assert digest(doc) == recorded
    hour, half = (generate("paper", 0, jobs=20, servers=6, slot_hours=h) for h in (1.0, 0.5))
    for a, b in zip(hour.jobs, half.jobs):  # the same jobs, in twice as many slots (each rounded up)
        assert b.release in (2 * a.release, 2 * a.release + 1) and b.chunks == a.chunks
        assert 2 * a.p_edge - 1 <= b.p_edge <= 2 * a.p_edge and b.delay_cloud == 2 * a.delay_cloud
        assert all(d2 == 2 * d1 for d1, d2 in zip(a.delay_edge, b.delay_edge))
    two = generate("paper", 0, jobs=20, servers=6, slot_hours=2.0)
    assert all(b.delay_cloud == math.ceil(a.delay_cloud / 2) for a, b in zip(hour.jobs, two.jobs))
    with pytest.raises(InputError, match="slot_hours"):
        generate("tiny", 0, slot_hours=0.5)
    with pytest.raises(InputError, match="slot_hours"):
        generate("paper", 0, slot_hours=0.0)
