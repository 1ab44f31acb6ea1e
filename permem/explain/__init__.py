"""Explain: the operational contract's eight answers for one claim.

1. who the subject is and which actors may use the claim; 2. what source supports it and how it
was known; 3. for which purpose and scope it is valid; 4. what makes it current and what would
supersede or expire it; 5. when it was selected for a request; 6. how the user inspects,
corrects, pauses, deletes and exports it; 7. which derivatives must follow a correction or
deletion; 8. which tests show the guarantees it relies on.

Every answer is read from the system of record in one tenant-bound transaction and changes
nothing. Each is a dict of facts plus a one-line `summary` for people.

The package by answer: `_claim` (the transaction that gathers them), `_origin` (1 to 3),
`_currency` (4), `_selection` (5), `_controls` (6), `_derivatives` (7), `_guarantees` (8).
"""

from __future__ import annotations

from permem.explain._claim import ANSWER_KEYS, explain_claim
from permem.explain._guarantees import GAPS, MEASUREMENTS, TEST_MAP, select_tests
from permem.explain._origin import ORIGIN_MEANING

__all__ = [
    "ANSWER_KEYS",
    "GAPS",
    "MEASUREMENTS",
    "ORIGIN_MEANING",
    "TEST_MAP",
    "explain_claim",
    "select_tests",
]
