"""The JSON envelopes of instances and schedules (optsched/documents.py): a round trip through
files, and the refusals a user meets: no family, another format, a schedule for another instance
or family, and an instance where a schedule belongs."""

import json

import pytest

from optsched.documents import FORMAT, instance_document, load_instance, load_schedule, schedule_document
from optsched.errors import InputError
from optsched.registry import get

SINGLE = get("single")


@pytest.fixture
def files(tmp_path):
    instance = SINGLE.generate("tiny", 0)
    schedule = SINGLE.algorithm("wspt").run(instance)
    paths = {"instance": tmp_path / "i.json", "schedule": tmp_path / "s.json"}
    paths["instance"].write_text(json.dumps(instance_document(SINGLE, instance, {"seed": 0})))
    paths["schedule"].write_text(json.dumps(schedule_document(SINGLE, instance, schedule, {"algorithm": "wspt"})))
    return instance, schedule, paths


def test_documents_round_trip_through_files(files):
    instance, schedule, paths = files
    loaded = load_instance(str(paths["instance"]))
    assert loaded.family is SINGLE and loaded.instance == instance and loaded.meta["seed"] == 0
    read, produced_by = load_schedule(str(paths["schedule"]), loaded)
    assert read == schedule and produced_by["algorithm"] == "wspt" and "optsched_version" in produced_by


def test_a_schedule_for_another_instance_is_refused_by_fingerprint(files, tmp_path):
    _, schedule, paths = files
    other = tmp_path / "other.json"
    other.write_text(json.dumps(instance_document(SINGLE, SINGLE.generate("tiny", 1))))
    with pytest.raises(InputError, match="was made for instance"):
        load_schedule(str(paths["schedule"]), load_instance(str(other)))


def test_swapped_documents_and_foreign_formats_are_named(files, tmp_path):
    _, _, paths = files
    with pytest.raises(InputError, match="is a schedule, not an instance"):
        load_instance(str(paths["schedule"]))
    future = json.loads(paths["instance"].read_text()) | {"format": FORMAT + 1}
    (tmp_path / "future.json").write_text(json.dumps(future))
    with pytest.raises(InputError, match=f"format {FORMAT + 1} is not supported"):
        load_instance(str(tmp_path / "future.json"))
    (tmp_path / "bare.json").write_text(json.dumps({"jobs": []}))
    with pytest.raises(InputError, match="has no 'family' field"):
        load_instance(str(tmp_path / "bare.json"))
