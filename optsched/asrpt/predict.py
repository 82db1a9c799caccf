"""Iteration-count predictors (paper §IV-A; spec asrpt.md §3.6, [A13]).

* ``rf``: scikit-learn's random forest regressor, 100 trees, squared-error splits, on two features,
  the group id and the user id as ordinal codes fitted on the training jobs; other settings at
  scikit-learn's defaults.
* ``median`` / ``mean``: the median / mean iteration count of the group's training jobs (Fig. 9's
  comparisons).
* ``perfect``: the true count.

Every predictor gives 0 to a job whose group has no training job (it completes at once in the
virtual machine, paper §IV-A), and outputs are rounded to whole iterations, so that "predicted
exactly" (``ε_i = 0``) is well defined.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

PREDICTORS = ("rf", "median", "mean", "perfect")


def predict(kind: str, train_groups: Sequence[int], train_users: Sequence[int], train_iterations: Sequence[int],
            groups: Sequence[int], users: Sequence[int], iterations: Sequence[int], seed: int = 0) -> np.ndarray:
    """Predicted iteration counts of the jobs ``(groups, users)`` from the training jobs."""
    if kind not in PREDICTORS:
        raise ValueError(f"unknown predictor {kind!r}; choose from {', '.join(PREDICTORS)}")
    if kind == "perfect":
        return np.asarray(iterations, dtype=float)
    seen = set(train_groups)
    if kind == "rf":
        from sklearn.ensemble import RandomForestRegressor

        group_code = {g: k for k, g in enumerate(sorted(seen))}
        user_code = {u: k for k, u in enumerate(sorted(set(train_users)))}
        features = np.array([[group_code[g], user_code[u]] for g, u in zip(train_groups, train_users)])
        forest = RandomForestRegressor(n_estimators=100, criterion="squared_error", random_state=seed, n_jobs=1)
        forest.fit(features, np.asarray(train_iterations, dtype=float))
        known = [k for k, g in enumerate(groups) if g in seen]
        out = np.zeros(len(groups))
        if known:
            query = np.array([[group_code[groups[k]], user_code.get(users[k], -1)] for k in known])
            out[known] = forest.predict(query)
    else:
        history: dict[int, list[int]] = defaultdict(list)
        for g, n in zip(train_groups, train_iterations):
            history[g].append(n)
        summary = np.median if kind == "median" else np.mean
        out = np.array([summary(history[g]) if g in seen else 0.0 for g in groups])
    return np.maximum(0.0, np.round(out))
