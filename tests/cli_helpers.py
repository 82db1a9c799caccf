"""Calling the CLI in-process from tests: exit code, and what reached file descriptors 1 and 2 (capfd,
so that output written by native code is seen too)."""

import json

from optsched.cli import main


def run(capfd, *argv):
    code = main([str(a) for a in argv])
    out, err = capfd.readouterr()
    return code, out, err


def run_json(capfd, *argv):
    code, out, err = run(capfd, *argv, "--json")
    return code, json.loads(out), err
