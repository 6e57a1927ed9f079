"""Errors that reach the user as one line (the CLI prints the message and exits with code 2)."""


class UserError(Exception):
    """Bad input or an impossible request; the message says what is wrong and where."""
