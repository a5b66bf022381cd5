"""The one exception type the CLI turns into a clean one-line error."""


class LexitrainError(Exception):
    """A user-facing failure: bad input, missing file, unknown name.

    The message is complete on its own (file and line where there is one);
    the CLI prints it to stderr and exits non-zero without a traceback.
    """
