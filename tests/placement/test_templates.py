"""Table I's model templates (optsched/placement/templates.py)."""

import pytest


def test_bundled_templates_match_their_derivation():
    import json
    from pathlib import Path

    from optsched.placement.templates import MODELS, table

    shipped = json.loads((Path(__file__).parents[2] / "instances/asrpt/table1_models.json").read_text())
    assert shipped == json.loads(json.dumps(table()))
    # Table I's parameter counts (millions), as the analytic layer tables give them
    expected = {"vgg19": 144, "resnet152": 60, "inception-v3": 24, "bert-large": 333, "xlnet-large": 335}
    for name, millions in expected.items():
        assert MODELS[name].params / 1e6 == pytest.approx(millions, rel=0.02)

