"""The counterexample corpus: ``instances/counterexamples/<family>/<claim>.json``, one minimal
instance for every paper claim optsched reports as false, found by ``optsched search`` and
replayed by tests/search/test_corpus.py (so a change that makes one disappear, an accidental
"fix" of a paper-faithful algorithm, fails loudly).

An entry holds the claim in words, the search target and algorithm that break it, the instance
(the family's JSON), what was measured when it was found, and the command that found it. For a
ratio claim (an empirical "the ratio is about x"), ``exceed`` is the claimed bound the ratio goes
past.

Every entry carries a ``label`` (:data:`LABELS`): what it refutes. ``assumptions`` says what the
paper's proof assumes, whether the instance is inside that, and what a search kept within those
assumptions (``optsched search --regime``) found. A worst case found outside the regime a paper
states for an observation is not a counterexample: it lives in ``instances/worst-cases/``, with the
label :data:`OUTSIDE`, and the corpus test refuses it in ``instances/counterexamples/``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..jsonio import read_json, write_json
from .evaluate import evaluate
from .strategy import text_of

#: What an entry refutes, in the words the docs use.
LABELS = {
    "false as printed": "the statement as the paper prints it is false on this instance",
    "false under the proof's stated assumptions": "false even within every assumption the paper's proof states",
    "false for a repaired reading": "the pseudo-code cannot run as printed; the repair optsched runs (the spec's) "
                                    "breaks the claim, which says nothing of the paper's intent",
    "outside its stated regime": "an observation tested outside the regime the paper states for it: a worst case, "
                                 "not a counterexample",
}
OUTSIDE = "outside its stated regime"


@dataclass(frozen=True)
class Replay:
    """A corpus entry replayed on the current code: the target's value now, whether the claim is still violated,
    and why."""
    value: float | None  #: the target's value now (−slack, or the ratio)
    violated: bool
    reason: str


def entry(out_dir: Path, claim: str, statement: str, command: str, label: str, assumptions: str) -> dict:
    """A corpus entry for the shrunk, certified find of the search whose folder is ``out_dir``,
    with its ``label`` (one of :data:`LABELS`) and what the proof assumes (``assumptions``)."""
    if label not in LABELS:
        raise ValueError(f"label must be one of {', '.join(LABELS)}, got {label!r}")
    result = read_json(str(out_dir / "result.json"))
    shrunk = result["shrunk"]
    return {"family": result["family"], "claim": claim, "statement": statement, "label": label,
            "assumptions": assumptions, "target": result["target"],
            "algorithm": result["algorithm"], "params": result["params"], "exceed": result["exceed"],
            "instance": read_json(str(out_dir / "instance.json"))["instance"],
            "found": {k: shrunk.get(k) for k in ("value", "slack", "alg", "opt", "details")},
            "certificate": result["certificate"], "command": command}


def save(root: Path, item: dict) -> Path:
    """Write ``item`` under ``root``: ``instances/counterexamples`` for a counterexample, and for an
    entry labelled :data:`OUTSIDE` the sibling ``worst-cases`` folder."""
    if item["label"] == OUTSIDE:
        root = root.parent / "worst-cases"
    path = root / item["family"] / f"{item['claim']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(str(path), item)
    return path


def replay(path: Path) -> Replay:
    """Score the entry's instance again: is the claim still broken?"""
    item = read_json(str(path))
    task = (item["family"], item["algorithm"], tuple(sorted(item["params"].items())), item["target"],
            text_of(item["instance"]))
    result = evaluate(task)
    if not result.get("valid"):
        return Replay(None, False, result.get("reason", ""))
    value = result["value"]
    violated = value > (item["exceed"] if item["target"] == "ratio" else 0.0)
    return Replay(value, violated, json.dumps(result.get("details", {}))[:200])
