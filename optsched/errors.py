"""The one exception type for bad input: the CLI turns it into one line on stderr and exit code 2."""


class InputError(ValueError):
    """Input that optsched refuses: a missing file, malformed JSON, a wrong schema, an unknown name,
    a value out of range. The message is one line that names the problem and where it is."""
