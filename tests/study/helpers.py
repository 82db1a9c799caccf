"""What the study tests share: a small study in a temporary folder, its tables without timing
columns, and the rows its cache holds."""

import sqlite3

import pandas as pd

from optsched.study import study

#: Columns that measure time: they differ between runs, everything else must not.
TIMING = ["runtime_s", "build_s", "lp_runtime_s", "message"]


def small(tmp_path, name="s", workers=1, executor="local", **part):
    table = {"name": name, "workers": workers, "executor": executor,
             "part": [{"family": "single", "seeds": 4, "jobs": [3, 4], "reference": {"cross_check": True}, **part}]}
    return study(table, "test", tmp_path / name)


def stable(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.drop(columns=[c for c in TIMING if c in frame.columns])
    return frame.sort_values(list(frame.columns[:9])).reset_index(drop=True)


def cached_rows(db, recover: bool = False) -> int:
    """The units stored in a cache. A read-only connection may read a stale WAL index after its
    writer was killed (the last commit's frames are in the WAL, the index not yet updated);
    ``recover`` opens it writable, which rebuilds the index first, as the resumed run will."""
    try:
        with sqlite3.connect(str(db) if recover else f"file:{db}?mode=ro", uri=not recover) as con:
            return con.execute("SELECT count(*) FROM units").fetchone()[0]
    except sqlite3.Error:
        return 0

