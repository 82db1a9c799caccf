"""Seeded edge instances: the presets of Figs. 1-6, the testbed, the paper and synthetic sizes (optsched/edge/generate.py)."""


import pytest

from optsched.edge.generate import PRESETS, TABLE_II, generate
from optsched.errors import InputError


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

