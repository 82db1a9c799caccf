"""The study cache: one SQLite file of finished units, keyed by :func:`units.make_unit`'s key.

Only the coordinating process writes, one committed transaction per result, so a study killed at
any moment (``kill -9`` included) leaves every finished unit stored once and no half-written one;
running it again computes only what is missing. SQLite's journal makes each insert all or nothing,
and the key is the primary key, so a result can never be stored twice.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from ..errors import InputError


class Cache:
    def __init__(self, path: Path):
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("CREATE TABLE IF NOT EXISTS units (key TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                             "result TEXT NOT NULL, stored REAL NOT NULL)")
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{path}: not a usable study cache ({exc}); remove it or use --fresh") from None

    def lookup(self, keys: list[str]) -> dict[str, dict]:
        """The stored results among ``keys``."""
        found = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, text in self._db.execute(f"SELECT key, result FROM units WHERE key IN ({marks})", chunk):
                found[key] = json.loads(text)
        return found

    def store(self, key: str, kind: str, result: dict) -> None:
        """Store one finished unit (committed before this returns); a key already stored is kept."""
        self._db.execute("INSERT OR IGNORE INTO units VALUES (?, ?, ?, ?)",
                         (key, kind, json.dumps(result, allow_nan=True), time.time()))

    def close(self) -> None:
        self._db.close()
