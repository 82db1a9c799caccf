"""Seeded instances of 1|r_j|Σ w_j C_j (optsched/single/generate.py)."""




from optsched.single.generate import PRESETS, generate


def test_generator_is_seeded_and_follows_the_preset():
    assert generate("tiny", seed=7) == generate("tiny", seed=7)
    assert generate("tiny", seed=7) != generate("tiny", seed=8)
    assert generate("small", seed=0).n == PRESETS["small"]["jobs"]
    instance = generate("tiny", seed=3, jobs=9)
    assert instance.n == 9 and all(1 <= job.p <= PRESETS["tiny"]["max_p"] for job in instance.jobs)

