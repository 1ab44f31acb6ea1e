"""An order given beside a passing situation holds while the situation does.

"I'm on parental leave until the end of August. Don't book any work meetings for me.", "My
wrist is in a cast for the next six weeks. Keep tasks light on typing.", "Use Japan time for my
reminders, I'm in Tokyo until the 20th": the order says no time of its own, and the statement
next to it says how long the user's situation lasts. The order is the situation's consequence,
so it holds for the situation's span, not for good. `GOVERNED` covers the orders that point at
the period in words ("until then", "while I'm there"); this covers those that do not.

What counts as the situation: a claim next to the order, with no other claim between them: in
its message, before it or after it as its reason, or the last claim of the user's message just
before it in the conversation ("I'm off work until May, the baby's here!", then "So no work
calls for me"), that is a fact, an event or a plan with an end (a span read by
`permem.temporal` or `permem.occasions`). What counts as the order: an instruction, or a
constraint said without "I" ("no heavy lifting", not "I'm allergic to nuts": the user's own
condition is not the situation's), with no time of its own and no word that makes it standing
("always", "from now on", `lx.STANDING_INSTRUCTION`) or adds it beside the rest ("also", "by
the way").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from permem.extraction import lexicon as lx
from permem.prefilter import guard_patterns
from permem.records import Kind

if TYPE_CHECKING:
    from permem.classify import Classification
    from permem.extraction import Candidate

_SITUATIONS = frozenset({Kind.FACT, Kind.EVENT, Kind.PLAN})
_ORDERS = frozenset({Kind.INSTRUCTION, Kind.CONSTRAINT})
# Said beside the rest rather than because of it: "also", "by the way", "in general".
_ASIDE = re.compile(
    r"\b(?:also|as\s+well|too|by\s+the\s+way|btw|in\s+general|generally|regardless|anyway|"
    r"for\s+good|permanently|in\s+any\s+case)\b",
    re.IGNORECASE,
)


def _order(candidate: Candidate, found: Classification) -> bool:
    if candidate.kind not in _ORDERS or found.valid_until is not None or found.one_off:
        return False
    if found.valid_from > found.observed_at:
        return False  # a time of its own
    text = candidate.claim_text
    if candidate.kind is Kind.CONSTRAINT and lx.FIRST_PERSON.search(text):
        return False
    # Its whole sentence: "By the way, no emojis" is cut to "no emojis".
    said = candidate.support_text
    return not (lx.STANDING_INSTRUCTION.search(said) or _ASIDE.search(said))


# What makes the statement after an order its reason: "..., I'm in Tokyo until the 20th" (a
# restart with a new subject), "... as/since/because I'm on leave". A statement joined by "and"
# or "but" is another thing said ("No calls before 10, and on Friday I'm off entirely").
_JOINED = re.compile(r"^\W*(?:and|but|or|plus|though|although|except|apart\s+from)\b", re.I)


def _given_as_reason(order: Candidate, after: Candidate) -> bool:
    text = order.message.text
    return _JOINED.search(text[order.claim_end : after.claim_end]) is None


def _situation(candidate: Candidate, found: Classification) -> bool:
    return (
        candidate.kind in _SITUATIONS
        and candidate.about is None
        and found.valid_until is not None
        and found.valid_until > found.observed_at
    )


# The user's previous message still sets the situation when it came this shortly before: "I'm
# off work until May, the baby's here!" then "So no work calls for me".
_FOLLOW_UP = timedelta(minutes=30)


def _next_to(order: Candidate, other: Candidate, *, after: bool) -> bool:
    """`other` is said right next to `order`: in its message (after it only as its reason), or
    as the last claim of the user's message just before it in the conversation."""
    if other.message is order.message:
        return not after or _given_as_reason(order, other)
    return (
        not after
        and other.message.conversation_id == order.message.conversation_id
        and timedelta(0) <= order.message.ts - other.message.ts <= _FOLLOW_UP
    )


def orders_last_with_their_situation(
    candidates: Sequence[Candidate], found: list[Classification]
) -> list[Classification]:
    """`found` with each order that stands next to a passing situation bounded to the
    situation's span (see the module docstring); the order's start moves to the situation's
    when the situation starts later ("Next month I'm in Tokyo for two weeks. Use Japan time
    for reminders")."""
    by_conversation: dict[tuple[str, str], list[int]] = {}
    for i, candidate in enumerate(candidates):
        key = (candidate.message.tenant, candidate.message.conversation_id)
        by_conversation.setdefault(key, []).append(i)
    for indices in by_conversation.values():
        if len(indices) < 2:
            continue
        ordered = sorted(
            indices,
            key=lambda i: (
                candidates[i].message.ts,
                candidates[i].message.turn,
                candidates[i].claim_start,
            ),
        )
        for at, i in enumerate(ordered):
            if not _order(candidates[i], found[i]):
                continue
            # The claim just before the order, else the one just after it given as its reason.
            before = ordered[at - 1] if at > 0 else None
            behind = ordered[at + 1] if at + 1 < len(ordered) else None
            for j, after in ((before, False), (behind, True)):
                if j is None or not _situation(candidates[j], found[j]):
                    continue
                if not _next_to(candidates[i], candidates[j], after=after):
                    continue
                until = found[j].valid_until
                assert until is not None
                start = max(found[i].valid_from, found[j].valid_from)
                found[i] = replace(found[i], valid_from=start, valid_until=max(until, start))
                break
    return found


__all__ = ["orders_last_with_their_situation"]


# A mishap to something of the speaker's: "Dropped my phone in a lake", "Screen's smashed",
# "my Pixel died", "the laptop's in for repair".
_MISHAP = re.compile(rf"\b{lx.OUT_OF_USE}\b", re.IGNORECASE)


def mishaps_last_with_their_stand_in(
    candidates: Sequence[Candidate], found: list[Classification]
) -> list[Classification]:
    """`found` with each mishap said beside a stand-in for a while ("Dropped my phone in a
    lake, ugh. Using an old iPhone until Friday.") ending when the stand-in does: the mishap
    is why the stand-in is needed, and is over when the thing is back."""
    ends: dict[tuple[str, str], datetime] = {}
    for candidate, classification in zip(candidates, found, strict=True):
        if classification.valid_until is not None and not _MISHAP.search(candidate.claim_text):
            key = (candidate.message.tenant, candidate.message.message_id)
            ends[key] = max(classification.valid_until, ends.get(key, classification.valid_until))
    if not ends:
        return found
    out = list(found)
    for i, (candidate, classification) in enumerate(zip(candidates, found, strict=True)):
        end = ends.get((candidate.message.tenant, candidate.message.message_id))
        if (
            end is not None
            and classification.valid_until is None
            and _MISHAP.search(candidate.claim_text)
        ):
            out[i] = replace(classification, valid_until=end)
    return out


guard_patterns(globals())
