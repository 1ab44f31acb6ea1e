"""Domain errors: each carries a message a user can act on.

The CLI turns a `BadInput` into exit code 2 and a `CheckFailed` into exit code 1, printing the
message as one line on standard error.
"""

from __future__ import annotations


class PermemError(Exception):
    """Base class of every error permem raises on purpose."""


class BadInput(PermemError):
    """The caller supplied something permem cannot accept (CLI exit code 2)."""


class NotFound(BadInput):
    """A named record, subject or tenant does not exist (in the bound tenant)."""


class Forbidden(BadInput):
    """The authenticated actor may not do this (another subject, purpose or grant)."""


class Unauthenticated(PermemError):
    """A credential is missing, malformed, unknown, revoked or expired (never says which)."""


class IllegalTransition(BadInput):
    """A state change that the transition table does not allow."""

    def __init__(self, field: str, old: str, new: str, allowed: frozenset[str]) -> None:
        allowed_text = ", ".join(sorted(allowed)) or "nothing (terminal state)"
        super().__init__(
            f"illegal {field} transition {old} -> {new}; from {old} only: {allowed_text}"
        )
        self.field = field
        self.old = old
        self.new = new


class ConfigurationError(PermemError):
    """Settings or the environment make it impossible to start (CLI exit code 2)."""


class CheckFailed(PermemError):
    """A verification ran and found a problem (CLI exit code 1)."""
