"""The iteration predictors: random forest, group median and mean, perfect (optsched/asrpt/predict.py; spec asrpt.md §3.6)."""

import numpy as np
import pytest

from optsched.asrpt.predict import predict


def test_predictors_on_recurring_groups():
    rng = np.random.default_rng(1)
    groups = [g for g in range(20) for _ in range(8)]
    users = [g % 5 for g in groups]
    iterations = [100 * (g + 1) for g in groups]
    test_groups, test_users = [3, 7, 99], [3, 2, 4]
    truth = [400, 800, 50]
    for kind in ("rf", "median", "mean"):
        guess = predict(kind, groups, users, iterations, test_groups, test_users, truth, seed=0)
        assert guess[2] == 0  # an unseen group
        assert list(guess[:2]) == [400, 800]  # uniform groups are predicted exactly
    noisy = [n + int(rng.integers(-30, 31)) for n in iterations]
    for kind in ("rf", "median", "mean"):
        guess = predict(kind, groups, users, noisy, test_groups, test_users, truth)
        assert (guess >= 0).all() and (guess == np.round(guess)).all()
    assert list(predict("perfect", groups, users, iterations, test_groups, test_users, truth)) == truth
    with pytest.raises(ValueError):
        predict("crystal-ball", groups, users, iterations, test_groups, test_users, truth)

