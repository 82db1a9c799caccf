"""JSON reading with located errors, atomic writing, fingerprints (optsched/jsonio.py)."""

import pytest

from optsched.errors import InputError
from optsched.jsonio import fingerprint, parse_json, read_json, write_json


def test_malformed_json_names_line_and_column():
    with pytest.raises(InputError, match="x.json: malformed JSON at line 2 column 1"):
        parse_json('{"a": 1,\n}', "x.json")


def test_nan_and_infinity_are_refused():
    for literal in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(InputError, match=literal):
            parse_json(f'{{"w": {literal}}}')


def test_reading_a_directory_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        read_json(str(tmp_path))


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    target = tmp_path / "out.json"
    with pytest.raises(ValueError):
        write_json(str(target), {"x": float("nan")})  # not JSON: refused before anything lands
    assert list(tmp_path.iterdir()) == []
    write_json(str(target), {"x": 1})
    assert read_json(str(target)) == {"x": 1}


def test_fingerprint_ignores_key_order_but_not_values():
    assert fingerprint({"a": 1, "b": [1, 2]}) == fingerprint({"b": [1, 2], "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})
