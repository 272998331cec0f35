"""What a game's engine gave that the runner cannot use, as a finding: the exception that
carries it and the short form of the value a message shows. Below the runner and the bots,
which both raise it (the generic greedy bot of a score_estimate that is no number)."""

from __future__ import annotations


class WrongResult(Exception):
    """A game's end result of a type the metrics cannot count (a string among the returns,
    an object as a figure): the game's finding, not a traceback in the report."""

    def __init__(self, method: str, message: str) -> None:
        super().__init__(message)
        self.method = method


def shown(value: object) -> str:
    """A value an engine gave, for a message: its type and a short repr."""
    if isinstance(value, int) and value.bit_length() > 128:  # repr() refuses 4,300 digits
        return f"{type(value).__name__} of {value.bit_length()} bits"
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'…' if len(text) > 40 else ''}"
