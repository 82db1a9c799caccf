"""Instances the hetero tests share: golden case A.2 and seeded tiny instances."""

from optsched.hetero.generate import generate
from optsched.hetero.instance import Instance, Job


def a2(jobs=20):
    """One server of capacity 40, one resource; 20 identical jobs of d = 7, one worker and one PS."""
    job = Job(arrival=1, weight=14.0, epochs=1, chunks=1, minibatches=7, train=(1.0,), update=(0.0,), gradient=0.0)
    return Instance("ps", 8, ((40.0,),), ((1.0,),), ((1.0,),), 0, (job,) * jobs)


def tiny(seed, framework):
    """The ``tiny`` preset of ``framework`` ("ps" or "allreduce")."""
    return generate("tiny", seed, framework=framework)
