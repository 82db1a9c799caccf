"""Does a reproduction depend on the machine's speed? Run it twice, once on an otherwise idle machine and
once with busy processes competing for every core, and compare the result files apart from the
columns that are wall-clock measurements.

    python benchmarks/reproduce_under_load.py                       # every reproduction, quick preset
    python benchmarks/reproduce_under_load.py edge-ratio oasis-sec5 --busy 3

Exit 0 when every ``results.csv`` and ``summary.csv`` is identical, 1 otherwise. Results are recorded in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

# the optsched installed beside this interpreter, so an unactivated venv's python works too
OPTSCHED = Path(sys.executable).with_name("optsched")
REPRODUCTIONS = ("asrpt-table2", "edge-ratio", "oasis-sec5", "asrpt-sim", "edge-sec5", "hetero-sec7")


def _is_runtime(column: str) -> bool:
    """Columns that measure wall-clock time (Table II's per-case computation times among them)."""
    return column in ("runtime_s", "wall_s") or column.endswith("_pct_ms")


def _spin(stop) -> None:
    while not stop.is_set():
        pass


def _run(name: str, out: Path, preset: str) -> float:
    started = time.perf_counter()
    subprocess.run([str(OPTSCHED), "reproduce", name, "--preset", preset, "--workers", "2", "--quiet", "--fresh",
                    "-o", str(out)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(REPRODUCTIONS))
    parser.add_argument("--preset", default="quick")
    parser.add_argument("--busy", type=int, default=3, help="busy processes during the second run")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="optsched-load-"))
    same = True
    for name in args.names:
        idle_s = _run(name, root / "idle" / name, args.preset)
        stop = multiprocessing.Event()
        spinners = [multiprocessing.Process(target=_spin, args=(stop,)) for _ in range(args.busy)]
        for s in spinners:
            s.start()
        try:
            loaded_s = _run(name, root / "loaded" / name, args.preset)
        finally:
            stop.set()
            for s in spinners:
                s.join()
        for file in ("results.csv", "summary.csv"):
            a, b = root / "idle" / name / file, root / "loaded" / name / file
            if not a.exists():
                continue
            x, y = pd.read_csv(a), pd.read_csv(b)
            columns = [c for c in x.columns if not _is_runtime(c)]
            equal = list(x.columns) == list(y.columns) and x[columns].equals(y[columns])
            same &= equal
            print(f"{name:13} {file:12} {len(x):5} rows  {'identical' if equal else 'DIFFERENT'}  "
                  f"(idle {idle_s:.0f} s, loaded {loaded_s:.0f} s)")
    print(f"files in {root}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
