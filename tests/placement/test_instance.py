"""Clusters, jobs and placement instances: JSON and one-line errors (optsched/placement/instance.py)."""

import pytest

from optsched.asrpt.instance import Instance, StreamJob
from optsched.errors import InputError
from optsched.placement import instance as placement_instance
from optsched.placement.generate import generate as generate_placement
from optsched.placement.instance import Cluster, Job, Stage
from optsched.placement.online import heavy_edge
from optsched.placement.schedule import Schedule


def test_bad_documents_are_one_line_errors():
    with pytest.raises(InputError, match="last stage sends nothing"):
        Job.from_dict({"stages": [{"compute": 1.0, "send": 2.0}]})
    with pytest.raises(InputError, match="compute"):
        Job.from_dict({"stages": [{"compute": 0}]})
    with pytest.raises(InputError, match="offer"):
        placement_instance.Instance(Job((Stage(0.01, 4),)), 4, 1.0, 1.0, (1, 1))
    with pytest.raises(InputError, match="intra_bw"):
        Instance(Cluster(2, 4, 100.0, 10.0), (StreamJob(Job((Stage(1.0),)), 0.0, 1, 1.0),))


def test_placement_json_round_trip():
    instance = generate_placement("paper", 3, model="gpt-175b", gpus=8)
    again = placement_instance.Instance.from_dict(instance.to_dict())
    assert again == instance
    placement = heavy_edge(instance)
    assert Schedule.from_dict(placement.to_dict(), again) == placement

