"""The exception types the CLI turns into one line on stderr: bad input (exit 2), and a computation
that could not deliver on good input (exit 1)."""


class InputError(ValueError):
    """Input that optsched refuses: a missing file, malformed JSON, a wrong schema, an unknown name,
    a value out of range. The message is one line that names the problem and where it is."""


class Failure(RuntimeError):
    """The input was fine, but the computation could not deliver its answer (worker processes that
    keep dying, a sub-solve without a proof). The message is one line saying what failed."""


class SolverFailure(Failure):
    """A solve that a computation depends on ended without what it needs (a time limit, a numerical
    failure, an infeasible sub-model); the message names the solve and the status it ended with."""
