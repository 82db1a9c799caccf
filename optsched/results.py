"""Output folders as data: a study's, a reproduction's or a search's tables, loaded in one call.

:func:`load` reads the folder's owner file (:mod:`optsched.outputs`: which verb wrote it, with what
parameters), every CSV table optsched wrote there as a pandas DataFrame, keyed by file stem
(``results``, ``summary``, ``references``, ``history``, ...), and every JSON document (``study``,
``result``, ...). Files someone else put in the folder are left out: only those the owner file
records are read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .outputs import OWNER_FILE, read_owner


@dataclass(frozen=True)
class Outputs:
    """One output folder as data: ``verb`` (``study``, ``reproduce`` or ``search``), ``owner`` (the
    run's parameters), ``tables`` (DataFrames by file stem) and ``documents`` (JSON by file stem).
    ``outputs["results"]`` is ``outputs.tables["results"]``."""

    folder: Path
    verb: str
    owner: dict[str, Any]
    tables: dict[str, Any] = field(repr=False)
    documents: dict[str, Any] = field(repr=False)

    def __getitem__(self, name: str) -> Any:
        if name not in self.tables:
            raise KeyError(f"{self.folder} has no table {name!r} (tables: {', '.join(self.tables) or 'none'})")
        return self.tables[name]

    def __repr__(self) -> str:
        return f"Outputs({str(self.folder)!r}, verb={self.verb!r}, tables={list(self.tables)})"


def load(folder: str | Path) -> Outputs:
    """The tables and documents of an output folder of ``optsched study``, ``reproduce`` or ``search``.

    Examples
    --------
    >>> import contextlib, io, tempfile
    >>> import optsched
    >>> from optsched.cli import main
    >>> folder = tempfile.mkdtemp() + "/s"
    >>> with contextlib.redirect_stdout(io.StringIO()):  # the study's own tables
    ...     code = main(["study", "--family", "single", "--instances", "tiny", "--seeds", "0-1", "--jobs", "3",
    ...                  "--workers", "1", "--quiet", "-o", folder])
    >>> code
    0
    >>> outputs = optsched.load(folder)
    >>> outputs.verb, sorted(outputs["results"]["method"].unique())
    ('study', ['fifo', 'wspt'])
    """
    import pandas as pd

    path = Path(folder)
    if not (path / OWNER_FILE).is_file():
        raise InputError(f"{path}: not an output folder optsched wrote (no {OWNER_FILE})")
    owner, files = read_owner(path / OWNER_FILE)
    kept = [name for name in sorted(files) if "/" not in name and (path / name).is_file()]
    tables = {Path(name).stem: pd.read_csv(path / name) for name in kept if name.endswith(".csv")}
    documents = {Path(name).stem: json.loads((path / name).read_text()) for name in kept if name.endswith(".json")}
    return Outputs(path, str(owner.get("verb", "")), owner, tables, documents)
