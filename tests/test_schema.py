"""Reading JSON fields with one-line errors that name the path (optsched/schema.py)."""

import pytest

from optsched.errors import InputError
from optsched.limits import MAX_MAGNITUDE
from optsched.schema import Fields, integer, number, per_job


def test_fields_read_typed_values_with_defaults_and_refuse_unread_keys():
    f = Fields({"n": 3, "x": 2.5, "name": "ring", "items": [1]}, "job")
    assert (f.integer("n", min=1), f.number("x", positive=True), f.text("name", choices=("ring", "tree")),
            f.array("items", nonempty=True), f.integer("absent", default=7)) == (3, 2.5, "ring", [1], 7)
    f.done()
    g = Fields({"n": 3, "typo": 1}, "job")
    g.integer("n")
    with pytest.raises(InputError, match=r"^job: unknown field 'typo'$"):
        g.done()


@pytest.mark.parametrize("doc,read,message", [
    ([], lambda f: None, "job: expected a JSON object, got list"),
    ({}, lambda f: f.integer("n"), "job: missing field 'n'"),
    ({"n": 2.5}, lambda f: f.integer("n"), "job.n: must be an integer, got 2.5"),
    ({"n": True}, lambda f: f.integer("n"), "job.n: must be an integer, got True"),
    ({"n": 0}, lambda f: f.integer("n", min=1), "job.n: must be a positive integer, got 0"),
    ({"x": -1}, lambda f: f.number("x", positive=True), "job.x: must be positive, got -1"),
    ({"x": "1"}, lambda f: f.number("x"), "job.x: must be a number, got '1'"),
    ({"s": "mesh"}, lambda f: f.text("s", choices=("ring", "tree")), "job.s: must be one of ring, tree, got 'mesh'"),
    ({"a": []}, lambda f: f.array("a", nonempty=True), "job.a: must not be empty"),
])
def test_each_bad_field_is_one_line_naming_its_path(doc, read, message):
    with pytest.raises(InputError) as caught:
        read(Fields(doc, "job"))
    assert str(caught.value) == message


def test_huge_numbers_are_refused_by_magnitude_and_digit_count():
    with pytest.raises(InputError, match="at most"):
        number(MAX_MAGNITUDE * 10, "x")
    with pytest.raises(InputError, match="an integer of 400 digits"):
        integer(10**399, "n")
    assert integer(4.0, "n") == 4 and isinstance(integer(4.0, "n"), int)


def test_per_job_pairs_entries_with_paths_and_checks_the_count():
    assert per_job({"jobs": [{"a": 1}, {}]}, 2, "schedule") == [({"a": 1}, "schedule.jobs[0]"), ({}, "schedule.jobs[1]")]
    with pytest.raises(InputError, match="schedule.jobs: has 1 runs, the instance has 2 jobs"):
        per_job({"jobs": [{}]}, 2, "schedule", items="runs")
