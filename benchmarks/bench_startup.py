"""Start-up cost of the installed `optsched` command: what a user waits for before any work.

Each command is run as a subprocess (the installed console script next to this Python) and the
median wall time of the repeats is kept; `python -c pass` measured in the same run is the reference
(the interpreter's own start-up). With `--importtime`, the heaviest imports of `optsched families`
are listed too (`python -X importtime`), to find what a lazy import would save.

    python benchmarks/bench_startup.py                  # 5 repeats
    python benchmarks/bench_startup.py --repeats 9 --importtime

Prints a Markdown table for docs/benchmarks.md, with the machine it ran on.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_single import machine

SCRIPT = str(Path(sys.executable).with_name("optsched"))
COMMANDS = [
    ["optsched", "--help"],
    ["optsched", "families", "--json"],
    ["optsched", "generate", "single"],
    ["optsched", "reproduce", "--list"],
]


def median_wall(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def heaviest_imports(count: int) -> list[tuple[str, float]]:
    code = "from optsched.cli import main; main(['families', '--json'])"
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True).stderr
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((name.strip(), int(cumulative) / 1e6))
    return sorted(rows, key=lambda r: -r[1])[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--importtime", action="store_true", help="list the heaviest imports of `families`")
    args = parser.parse_args()
    reference = median_wall([sys.executable, "-c", "pass"], args.repeats)
    print(f"{machine()}; median of {args.repeats}; reference `python -c pass` {reference:.3f} s\n")
    print("| command | median (s) | / python start-up |")
    print("|---|---|---|")
    for argv in COMMANDS:
        wall = median_wall([SCRIPT, *argv[1:]], args.repeats)
        print(f"| `{' '.join(argv)}` | {wall:.3f} | {wall / reference:.1f}x |")
    if args.importtime:
        print("\n| import (families --json) | cumulative (s) |\n|---|---|")
        for name, seconds in heaviest_imports(10):
            print(f"| {name} | {seconds:.3f} |")


if __name__ == "__main__":
    main()
