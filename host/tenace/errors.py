"""The one error type a command raises to stop with a message for the user and exit code 2."""


class UsageError(Exception):
    """Bad input from the user: printed as `tenace <command>: <message>`, exit code 2, no traceback."""
