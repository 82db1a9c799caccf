"""Digests of recorded results: a test that pins a run's every decision (before a change meant to
make it faster, say) compares :func:`digest` of its output with the value recorded before."""

import hashlib
import json


def digest(doc: object) -> str:
    """The first 16 hex digits of the sha256 of ``doc`` as canonical JSON (sorted keys)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
