"""The one transition table of a memory's lifecycle.

Every status or confirmation change in permem goes through `check_status` or
`check_confirmation`; anything not listed here raises `IllegalTransition`. The control
table in docs/controls.md is written from this module, so change both together.
"""

from __future__ import annotations

from collections.abc import Mapping

from permem.errors import IllegalTransition
from permem.records import Confirmation, Status

S = Status
# Why each edge exists:
#   active -> superseded    a correction appended a record that supersedes this one
#   superseded -> active    a return to it ("back on my old ThinkPad") ended the change that
#                           had superseded it (permem.reinstatement)
#   active -> paused        the user paused this one claim (the subject-wide pause is a setting)
#   * -> expired            validity or retention ended (the expire flow)
#   * -> retracted          the user rejected it, or it was retracted by feedback for good
#   * -> blocked            forget: unusable at once, awaiting physical erasure
#   blocked -> erased       physical erasure verified; nothing leaves `erased`
STATUS_TRANSITIONS: Mapping[Status, frozenset[Status]] = {
    S.ACTIVE: frozenset({S.SUPERSEDED, S.PAUSED, S.EXPIRED, S.RETRACTED, S.BLOCKED}),
    S.SESSION_ONLY: frozenset({S.EXPIRED, S.RETRACTED, S.BLOCKED}),
    S.PAUSED: frozenset({S.ACTIVE, S.EXPIRED, S.RETRACTED, S.BLOCKED}),
    S.SUPERSEDED: frozenset({S.ACTIVE, S.EXPIRED, S.BLOCKED}),
    S.EXPIRED: frozenset({S.BLOCKED}),
    S.RETRACTED: frozenset({S.BLOCKED}),
    S.BLOCKED: frozenset({S.ERASED}),
    S.ERASED: frozenset(),
}

C = Confirmation
#   unconfirmed -> pending  feedback said it is wrong: unusable until the user confirms it
#   confirmed -> pending    the same, for a claim the user had confirmed before
#   pending -> confirmed / rejected   the user's decision
#   rejected is final: a rejected claim is never asked about again
CONFIRMATION_TRANSITIONS: Mapping[Confirmation, frozenset[Confirmation]] = {
    C.UNCONFIRMED: frozenset({C.PENDING, C.CONFIRMED, C.REJECTED}),
    C.PENDING: frozenset({C.CONFIRMED, C.REJECTED}),
    C.CONFIRMED: frozenset({C.PENDING, C.REJECTED}),
    C.REJECTED: frozenset(),
}

# A claim may reach a response only in these states (plus validity, scope, purpose, ...).
USABLE_STATUSES: frozenset[Status] = frozenset({S.ACTIVE, S.SESSION_ONLY})
USABLE_CONFIRMATIONS: frozenset[Confirmation] = frozenset({C.UNCONFIRMED, C.CONFIRMED})


def check_status(old: Status, new: Status) -> None:
    """Raise `IllegalTransition` unless the table allows `old -> new`."""
    allowed = STATUS_TRANSITIONS[old]
    if new not in allowed:
        raise IllegalTransition("status", old.value, new.value, frozenset(s.value for s in allowed))


def check_confirmation(old: Confirmation, new: Confirmation) -> None:
    """Raise `IllegalTransition` unless the table allows `old -> new`."""
    allowed = CONFIRMATION_TRANSITIONS[old]
    if new not in allowed:
        raise IllegalTransition(
            "confirmation", old.value, new.value, frozenset(c.value for c in allowed)
        )


def is_usable(status: Status, confirmation: Confirmation) -> bool:
    """Whether lifecycle state alone lets a claim be used (other filters apply on top)."""
    return status in USABLE_STATUSES and confirmation in USABLE_CONFIRMATIONS
