"""Erasure in the shape Fides made standard: the ledger says what is blocked and erased
(`ledger`), the lineage graph says what a request covers (`plan`), and one connector per store
says how to erase it there and how to prove it is gone (`connectors`). `permem.forget` runs
the three steps (block, erase, verify) over them and reports each in a `results` class.
"""

from __future__ import annotations

from permem.erasure.ledger import REQUEST, ErasureLedger, LedgerState, TargetKind, blocking, erasing
from permem.erasure.plan import ErasurePlan, Target

__all__ = [
    "REQUEST",
    "ErasureLedger",
    "ErasurePlan",
    "LedgerState",
    "Target",
    "TargetKind",
    "blocking",
    "erasing",
]
