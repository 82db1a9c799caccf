"""Native output kept off the standard streams (optsched/native_output.py): what C code writes to
descriptors 1 and 2 inside :func:`redirected` goes nowhere, to the log file, or to standard error,
and nothing written before or after is lost. Run in a child process, whose descriptors are its own."""

import subprocess
import sys

SCRIPT = """
import os, sys
from optsched import native_output
native_output.set_log({log!r})
print("before", flush=True)
with native_output.redirected():
    os.write(1, b"native-out\\n")
    with native_output.redirected():  # nested: still redirected
        os.write(2, b"native-err\\n")
    os.write(1, b"still-inside\\n")
print("after", flush=True)
print("requested", native_output.log_requested(), file=sys.stderr)
"""


def child(log):
    return subprocess.run([sys.executable, "-c", SCRIPT.format(log=log)], capture_output=True, text=True,
                          timeout=60, check=True)


def test_by_default_native_output_is_discarded():
    proc = child(None)
    assert proc.stdout == "before\nafter\n" and proc.stderr == "requested False\n"


def test_a_log_file_receives_it_appended(tmp_path):
    log = tmp_path / "solver.log"
    log.write_text("earlier\n")
    proc = child(str(log))
    assert proc.stdout == "before\nafter\n" and proc.stderr == "requested True\n"
    assert log.read_text() == "earlier\nnative-out\nnative-err\nstill-inside\n"


def test_dash_sends_it_to_standard_error():
    proc = child("-")
    assert proc.stdout == "before\nafter\n"
    assert proc.stderr == "native-out\nnative-err\nstill-inside\nrequested True\n"
