"""The study cache: one SQLite file of finished units, keyed by :func:`units.make_unit`'s key.

Only the coordinating process writes, one committed transaction per result, so a study killed at
any moment (``kill -9`` included) leaves every finished unit stored once and no half-written one;
running it again computes only what is missing. SQLite's journal makes each insert all or nothing,
and the key is the primary key, so a result can never be stored twice.

Each row carries a SHA-256 checksum of its stored text. A row whose text no longer matches it (a
disk fault, an edited file) is not used: :meth:`Cache.lookup` leaves it out and names it, the unit
runs again and its new result replaces the row. A file SQLite cannot read at all is bad input with
one line that says how to rebuild it (``--fresh``); a disk that fills up, or a folder that turns
read-only, is one line too, and keeps every result stored before it (``outputs.cache_failure``).
The file is created with the mode the umask gives a new file (SQLite's own default is 0644), and its
journal files take the same mode.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..outputs import cache_failure


def _checksum(key: str, text: str) -> str:
    return hashlib.sha256(f"{key}\n{text}".encode()).hexdigest()


class Cache:
    """The results of finished units in one SQLite file (``cache.sqlite`` in the output folder), keyed by the
    unit's key, which carries its code's version: a rerun of the same code computes only what is missing,
    and kill -9 loses nothing."""
    def __init__(self, path: Path):
        self.path = path
        self.stored = 0  #: results stored through this object
        with self._readable():
            _create(path)
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            columns = [row[1] for row in self._db.execute("PRAGMA table_info(units)")]
            if columns and "checksum" not in columns:  # written by an optsched without checksums
                self._db.execute("DROP TABLE units")
            self._db.execute("CREATE TABLE IF NOT EXISTS units (key TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                             "result TEXT NOT NULL, stored REAL NOT NULL, checksum TEXT NOT NULL)")

    @contextmanager
    def _readable(self) -> Iterator[None]:
        """Turn SQLite's refusal of the file into one line (``outputs.cache_failure``)."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise cache_failure(self.path, exc) from None

    def lookup(self, keys: list[str]) -> tuple[dict[str, dict], list[str]]:
        """The stored results among ``keys``, and the keys whose stored rows failed their checksum
        (those rows are deleted, so that the units' new results take their place)."""
        found, damaged = {}, []
        with self._readable():
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, result, checksum FROM units WHERE key IN ({marks})"
                for key, text, checksum in self._db.execute(query, chunk):
                    if checksum == _checksum(key, text):
                        found[key] = json.loads(text)
                    else:
                        damaged.append(key)
            for key in damaged:
                self._db.execute("DELETE FROM units WHERE key = ?", (key,))
        return found, damaged

    def intact(self) -> tuple[list[tuple[str, str, str]], int]:
        """Every stored ``(key, kind, result text)`` whose checksum holds, in key order, and how many
        rows failed it (left out, as :meth:`lookup` leaves them out); one read, so a unit another
        process stores meanwhile is in neither."""
        with self._readable():
            rows = self._db.execute("SELECT key, kind, result, checksum FROM units ORDER BY key").fetchall()
        good = [(key, kind, text) for key, kind, text, checksum in rows if checksum == _checksum(key, text)]
        return good, len(rows) - len(good)

    def store(self, key: str, kind: str, result: dict) -> None:
        """Store one finished unit (committed before this returns); a key already stored is kept."""
        text = json.dumps(result, allow_nan=True)
        with self._readable():
            self._db.execute("INSERT OR IGNORE INTO units VALUES (?, ?, ?, ?, ?)",
                             (key, kind, text, time.time(), _checksum(key, text)))
        self.stored += 1

    def __len__(self) -> int:
        """The number of stored results."""
        with self._readable():
            return self._db.execute("SELECT COUNT(*) FROM units").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _create(path: Path) -> None:
    """Create the file, if missing, with the mode the umask gives a new file, before SQLite opens it
    (it would create it 0644 whatever the umask); SQLite gives its journal files the file's mode."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o666))
