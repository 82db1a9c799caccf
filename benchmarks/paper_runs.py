"""Carry a long reproduction's finished units from one machine to the next (issue 29, item 9).

A paper preset, and some default ones, take longer than a working session, and a session's machine
does not outlive it: only what is committed does. ``save`` writes the finished units of a run's
cache (``OUT/cache.sqlite``) to a small archive here, ``benchmarks/paper-runs/NAME.jsonl.gz`` for
the paper preset and ``NAME-PRESET.jsonl.gz`` for another (``--preset``): one JSON line per unit,
sorted by key, after a first line naming the reproduction, the preset and the commit whose code
computed them. ``restore`` puts them back into a new output folder, so that ``optsched reproduce
NAME --preset PRESET -o OUT`` run from that same commit computes only what is missing. A unit's
key carries its code's version, so units restored under other code are simply never looked up:
``restore`` names the commit to run from.

    python benchmarks/paper_runs.py save NAME OUT [--commit REV] [--preset PRESET]
    python benchmarks/paper_runs.py restore NAME OUT [--preset PRESET]
    python benchmarks/paper_runs.py status
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
from pathlib import Path

from optsched.outputs import claim_folder
from optsched.study.cache import Cache

ARCHIVES = Path(__file__).resolve().parent / "paper-runs"


def _archive(name: str, preset: str = "paper") -> Path:
    return ARCHIVES / (f"{name}.jsonl.gz" if preset == "paper" else f"{name}-{preset}.jsonl.gz")


def _head(rev: str) -> str:
    return subprocess.run(["git", "rev-parse", rev], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent).stdout.strip()


def save(name: str, out: Path, commit: str, preset: str = "paper") -> None:
    """Write the finished, checksum-valid units of ``out/cache.sqlite`` to the archive of ``name``."""
    cache = Cache(out / "cache.sqlite")
    good, damaged = cache.intact()
    cache.close()
    wall = sum(json.loads(result).get("wall_s", 0.0) for _, _, result in good)
    ARCHIVES.mkdir(exist_ok=True)
    with gzip.open(_archive(name, preset), "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write(json.dumps({"reproduction": name, "preset": preset, "commit": commit, "units": len(good),
                             "unit_hours": round(wall / 3600, 2)}) + "\n")
        for key, kind, result in good:
            fh.write(json.dumps({"key": key, "kind": kind, "result": json.loads(result)}) + "\n")
    print(f"{_archive(name, preset)}: {len(good)} units ({wall / 3600:.1f} h of unit time), commit {commit[:12]}"
          + (f"; {damaged} damaged rows left out" if damaged else ""))


def _read(path: Path) -> tuple[dict, list[dict]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def restore(name: str, out: Path, preset: str = "paper") -> None:
    """Store the archived units of ``name`` in ``out/cache.sqlite`` (units already there are kept)."""
    head, units = _read(_archive(name, preset))
    # The folder is claimed as `optsched reproduce NAME --preset PRESET -o OUT` claims it, so that run takes it.
    with claim_folder(out, {"verb": "reproduce", "name": name, "preset": preset}, subfolders=("worst",),
                      parents=True) as folder:
        cache = Cache(out / "cache.sqlite")
        before = len(cache)
        for unit in units:
            cache.store(unit["key"], unit["kind"], unit["result"])
        folder.finish()
    commit = head["commit"][:12]
    print(f"{out / 'cache.sqlite'}: {len(cache) - before} of {len(units)} archived units added, {len(cache)} in all. "
          f"They are used by a run from commit {commit}: git worktree add --detach DIR {commit}, then "
          f"PYTHONPATH=DIR python -m optsched.cli reproduce {name} --preset {preset} -o {out}")
    cache.close()


def status() -> None:
    for path in sorted(ARCHIVES.glob("*.jsonl.gz")):
        head, _ = _read(path)
        print(f"{head['reproduction']} ({head.get('preset', 'paper')}): {head['units']} units, "
              f"{head['unit_hours']} h of unit time, commit {head['commit'][:12]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    p = verbs.add_parser("save")
    p.add_argument("name")
    p.add_argument("out", type=Path)
    p.add_argument("--commit", default="HEAD", help="the commit whose code computed the units (default HEAD)")
    p.add_argument("--preset", default="paper", help="the run's preset (default paper)")
    p = verbs.add_parser("restore")
    p.add_argument("name")
    p.add_argument("out", type=Path)
    p.add_argument("--preset", default="paper", help="the run's preset (default paper)")
    verbs.add_parser("status")
    args = parser.parse_args()
    if args.verb == "save":
        save(args.name, args.out, _head(args.commit), args.preset)
    elif args.verb == "restore":
        restore(args.name, args.out, args.preset)
    else:
        status()


if __name__ == "__main__":
    main()
