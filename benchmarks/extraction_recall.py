"""Extraction recall against the gold claims, with the content words it matches on and the
cause of each miss (`benchmarks/extraction_eval.py`, "Scoring rules")."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from extraction_run import Claim, Run

# --- content words -------------------------------------------------------------------------

_STOP = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    im ive id ill dont doesnt didnt cant wont isnt arent wasnt youre thats theres yes yeah oh ok
    okay hey hi really much many lot lots thing things something anything get gets got go goes
    going gone make makes made like likes liked love loves loved enjoy enjoys enjoyed prefer
    prefers preferred want wants wanted think know feel one well still even way""".split()
)
_PLACEHOLDER = re.compile(r"<[A-Z_]+>")


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "i"
    else:
        for suffix in ("ing", "ed", "es", "s", "ly"):
            if suffix == "s" and word.endswith("ss"):
                continue
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "lsz":
                    word = word[:-1]  # running -> run
                break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word[:-1] + "i" if word.endswith("y") and len(word) > 3 else word


def content_words(text: str, drop: frozenset[str] = frozenset()) -> frozenset[str]:
    """The stemmed content words of `text` (see the module docstring)."""
    text = _PLACEHOLDER.sub(" ", text).lower().replace("'", "").replace("\u2019", "")
    return frozenset(
        _stem(w)
        for w in re.findall(r"[^\W_]+", text)
        if len(w) > 1 and w not in _STOP and w not in drop
    )


# --- extraction recall ------------------------------------------------------------------------


@dataclass
class Recall:
    gold: int = 0
    recalled: int = 0
    usable: int = 0
    covered: int = 0
    any_subject: int = 0
    anchored: int = 0
    anchored_recalled: int = 0
    anchored_covered: int = 0
    anchored_usable: int = 0
    anchored_any_subject: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    rejected_reasons: Counter[str] = field(default_factory=Counter)
    misses: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    noise: list[Claim] = field(default_factory=list)
    gold_messages: set[str] = field(default_factory=set)
    own_persona: int = 0
    wrong_speaker: list[Claim] = field(default_factory=list)


def _gold_ids(row: dict[str, Any]) -> list[str]:
    return list(row.get("message_ids") or ([row["message_id"]] if row["message_id"] else []))


def score_recall(run: Run, gold: list[dict[str, Any]]) -> Recall:
    names: frozenset[str] = frozenset()
    if run.name == "locomo":  # the gold is in the third person: "<Name> went ..."
        names = frozenset(m["account"].split("-", 2)[2] for m in run.messages.values())
    result = Recall(gold=len(gold))
    for row in gold:
        ids = _gold_ids(row)
        result.gold_messages.update(ids)
        words = content_words(row["claim"], names)
        stored = [c for mid in ids for c in run.claims_by_message.get(mid, [])]
        sharing = [c for c in stored if content_words(c.text) & words]
        matched = [c for c in sharing if c.subject == row["subject"]]
        anchored = bool(ids)
        result.anchored += anchored
        if matched:
            result.recalled += 1
            result.anchored_recalled += anchored
            usable = any(c.usable for c in matched)
            result.usable += usable
            result.anchored_usable += anchored and usable
            found = frozenset().union(*(content_words(c.text) for c in matched))
            covered = len(found & words) >= len(words) / 2
            result.covered += covered
            result.anchored_covered += anchored and covered
        if sharing:
            result.any_subject += 1
            result.anchored_any_subject += anchored
        if matched:
            continue
        rejected = [d for mid in ids for d in run.rejected_by_message.get(mid, [])]
        rejected_sharing = [d for d in rejected if content_words(run.text_of(d)) & words]
        if not anchored:
            cause = "unanchored"
        elif sharing:
            cause = "wrong_subject"
        elif rejected_sharing:
            cause = "gate_rejected"
            result.rejected_reasons.update(r for d in rejected_sharing for r in d.reasons)
        elif stored or rejected:
            cause = "other_span"
        else:
            cause = "no_candidate"
        result.causes[cause] += 1
        if anchored:
            result.misses.append((row, cause))
    result.noise = [c for c in run.claims if c.message_id not in result.gold_messages]
    if run.name == "spc":
        _speaker_check(run, gold, result)
    return result


def _speaker_check(run: Run, gold: list[dict[str, Any]], result: Recall) -> None:
    """Own-persona and wrong-speaker claims (see the module docstring)."""
    sentences: defaultdict[str, list[tuple[str, frozenset[str]]]] = defaultdict(list)
    for row in gold:
        conversation = row["subject"].rsplit("-", 1)[0]
        sentences[conversation].append((row["subject"], content_words(row["claim"])))
    for claim in run.claims:
        speaker = claim.subject.split(":", 1)[0]
        words = content_words(claim.text)
        best, own = 0.0, False
        for subject, sentence in sentences[run.messages[claim.message_id]["conversation_id"]]:
            if not sentence:
                continue
            cover = len(words & sentence) / len(sentence)
            if cover > best or (cover == best and subject == speaker):
                best, own = cover, subject == speaker
        if best >= 0.5:
            if own:
                result.own_persona += 1
            else:
                result.wrong_speaker.append(claim)
