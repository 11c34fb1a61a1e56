"""The errors a command raises to stop with one line for the user instead of a traceback."""


class UsageError(Exception):
    """Bad input from the user: printed as `tenace <command>: <message>`, exit code 2, no traceback."""


class Refused(UsageError):
    """A UsageError the director's console says in its page's language: the message is the command line's English;
    `reason` is its key in the console's words (page_base/lang/console/XX.txt, lr_REASON), whose {names} `values`
    fill."""

    def __init__(self, reason: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.values = {name: str(value) for name, value in values.items()}


class Failure(Exception):
    """Not the user's mistake: a part of Tenace failed (a child process, the firmware). Printed as
    `tenace <command>: <message>` (the message says where the details were saved), exit code 1."""
