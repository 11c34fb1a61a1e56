"""The errors a command raises to stop with one line for the user instead of a traceback."""


class UsageError(Exception):
    """Bad input from the user: printed as `tenace <command>: <message>`, exit code 2, no traceback."""


class Failure(Exception):
    """Not the user's mistake: a part of Tenace failed (a child process, the firmware). Printed as
    `tenace <command>: <message>` (the message says where the details were saved), exit code 1."""
