"""The JSON envelopes around every family's instances and schedules.

An instance document is ``{"family", "format", "meta", "instance"}``; ``meta`` records how it was
made (generator, preset, seed, optsched version) and is not part of the instance's identity. A
schedule document is ``{"family", "format", "instance", "produced_by", "schedule"}`` where
``instance`` is the fingerprint of the instance content it was made for, so that a schedule cannot
be verified against another instance by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .jsonio import MAX_INPUT_MB, fingerprint, read_json
from .limits import MAX_JOBS, refuse_above
from .provenance import version_string
from .registry import Family, get
from .schema import Fields

FORMAT = 1


@dataclass(frozen=True)
class LoadedInstance:
    """An instance read from a document: its family, the instance, the document's ``meta`` and the fingerprint that
    schedules of it carry."""
    family: Family
    instance: Any
    meta: dict
    fingerprint: str


def instance_document(family: Family, instance: Any, meta: dict | None = None) -> dict:
    """The JSON document of ``instance`` (family, format, ``meta`` with optsched's version, the instance), as
    ``optsched generate`` writes it."""
    return {
        "family": family.name,
        "format": FORMAT,
        "meta": {"optsched_version": version_string(), **(meta or {})},
        "instance": instance.to_dict(),
    }


def schedule_document(family: Family, instance: Any, schedule: Any, produced_by: dict) -> dict:
    """The JSON document of ``schedule`` (family, format, the fingerprint of its instance, ``produced_by`` with
    optsched's version, the schedule), as ``optsched solve -o`` and ``run -o`` write it."""
    return {
        "family": family.name,
        "format": FORMAT,
        "instance": fingerprint(instance.to_dict()),
        "produced_by": {"optsched_version": version_string(), **produced_by},
        "schedule": schedule.to_dict(),
    }


def _envelope(doc: Any, path: str, kind: str) -> tuple[Fields, Family]:
    fields = Fields(doc, path)
    if "family" not in doc:
        writer = "optsched generate" if kind == "instance" else "optsched run -o or solve -o"
        raise InputError(f"{path}: is not an optsched {kind} document: it has no 'family' field (as written by "
                         f"{writer})")
    name = fields.text("family")
    try:
        family = get(name)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    fmt = fields.integer("format")
    if fmt != FORMAT:
        raise InputError(f"{path}: {kind} format {fmt} is not supported (this optsched reads format {FORMAT})")
    return fields, family


def _kind_of(doc: Any) -> str | None:
    """"instance" or "schedule" by the keys a document of either kind has, else None."""
    if isinstance(doc, dict):
        if "schedule" in doc and "instance" in doc and "produced_by" in doc:
            return "schedule"
        if "instance" in doc and isinstance(doc["instance"], dict):
            return "instance"
    return None


def _read(path: str, kind: str, max_mb: float) -> Any:
    doc = read_json(path, max_mb)
    found = _kind_of(doc)
    if found is not None and found != kind:
        article = {"instance": "an instance", "schedule": "a schedule"}
        raise InputError(f"{path}: is {article[found]}, not {article[kind]}")
    return doc


def load_instance(path: str, max_mb: float = MAX_INPUT_MB) -> LoadedInstance:
    """Read and validate an instance document (of at most ``max_mb`` megabytes)."""
    fields, family = _envelope(_read(path, "instance", max_mb), path, "instance")
    meta = fields.raw("meta", {})
    if not isinstance(meta, dict):
        raise InputError(f"{path}.meta: must be a JSON object")
    content = fields.raw("instance")
    fields.done()
    jobs = content.get("jobs") if isinstance(content, dict) else None
    if isinstance(jobs, list):  # refused before reading a million jobs one by one
        refuse_above(len(jobs), MAX_JOBS, f"{path}: the number of jobs")
    instance = family.instance_from_dict(content, f"{path}: instance")
    refuse_above(len(instance.jobs), MAX_JOBS, f"{path}: the number of jobs")
    return LoadedInstance(family, instance, meta, fingerprint(instance.to_dict()))


def load_schedule(path: str, loaded: LoadedInstance, max_mb: float = MAX_INPUT_MB) -> tuple[Any, dict]:
    """Read a schedule document made for ``loaded``'s instance; returns (schedule, produced_by)."""
    fields, family = _envelope(_read(path, "schedule", max_mb), path, "schedule")
    if family.name != loaded.family.name:
        raise InputError(f"{path}: a schedule for family {family.name}, "
                         f"but the instance is of family {loaded.family.name}")
    made_for = fields.text("instance")
    if made_for != loaded.fingerprint:
        raise InputError(f"{path}: schedule was made for instance {made_for}, not this one ({loaded.fingerprint})")
    produced_by = fields.raw("produced_by", {})
    content = fields.raw("schedule")
    fields.done()
    return family.schedule_from_dict(content, loaded.instance, f"{path}: schedule"), produced_by

