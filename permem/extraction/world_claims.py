"""A sentence that asserts how the world is, read from its parse rather than its words.

Personal memory is about the person: their tastes, their life, how they want answers. A
sentence whose proposition is about the world at large ("bulls hate the colour red", "sugar
makes kids hyper", "lightning never strikes twice") is a belief of the speaker's, however it
is framed: "as far as I know …", "I was taught that …", "I'm a firm believer that …",
"…, that's a fact". Stored as a user fact it would be served for a factual question, the
personalised falsehood the design forbids; it is a belief (`Cue.BELIEF`), which the gate
keeps only when the speaker draws a consequence for their own conduct.

The proposition is a clause whose subject is **generic** (a bare noun or a quantified one:
"vaccines", "cold weather", "all carbs", "everyone"; not "the kitchen", "my car" or a
relative), that says nothing of the speaker (no I, me, my, we) and is no norm of theirs ("meetings
should be short" is how they want things). It is a belief when a frame of knowing governs it
(believe, think, reckon, know, hear, read, be taught, be sure, be a believer), when such a
frame stands beside it ("as far as I know"), or when a tag vouches for it ("that's a fact").
"""

from __future__ import annotations

from spacy.tokens import Doc, Token

from permem.extraction.lexicon import RELATIONS

__all__ = ["world_claim"]

_KNOWING = frozenset(
    {"believe", "think", "reckon", "know", "hear", "read", "teach", "tell", "say", "swear",
     "convince", "guess", "suppose", "assume", "figure", "understand", "learn", "agree", "bet",
     "gather", "sure", "certain", "convinced", "positive", "confident", "believer", "told",
     # Opinion and impression: "my theory is that …", "I feel like …", "it seems to me that …",
     # "in my opinion", "from what I've read", "I suspect …".
     "theory", "feel", "seem", "opinion", "view", "impression", "sense", "suspect", "doubt",
     "hunch", "belief", "feeling", "knowledge", "apparently", "supposedly", "reportedly",
     "allegedly", "evidently"}
)  # fmt: skip
_VOUCHING = frozenset({"fact", "true", "science", "known", "proven", "obvious", "truth"})
_SPEAKER = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
_NORMS = frozenset({"should", "must", "ought", "need", "needs", "have", "has", "got"})
_QUANTIFIERS = frozenset({"all", "most", "every", "no", "any", "many"})
_EVERYONE = frozenset(
    {"everyone", "everybody", "people", "nobody", "humans", "men", "women", "anyone", "society"}
)
_PEOPLE = frozenset(RELATIONS) | {"guy", "guys", "girl", "girls", "boy", "boys", "team"}


def _generic(subject: Token) -> bool:
    if subject.lower_ in _EVERYONE:
        return True
    if subject.dep_ == "csubj":
        # An activity in general: "cracking your knuckles causes arthritis".
        return not any(t.lower_ in _SPEAKER for t in subject.subtree)
    if subject.pos_ != "NOUN" or subject.lower_ in _PEOPLE:
        return False
    for child in subject.children:
        if child.dep_ == "poss":
            return False
        # "taught that sugar makes …": the parser takes the complementizer for a determiner.
        if child.dep_ == "det" and child.lower_ not in _QUANTIFIERS | {"that"}:
            return False
    return True


def _speaks_of_speaker(clause: Token) -> bool:
    """The clause mentions the speaker, outside a frame of knowing that stands beside it ("as
    far as I know" says who knows, not what the clause is about)."""
    for child in clause.children:
        frame = any(t.dep_ in ("advcl", "parataxis") and _knowing(t) for t in child.subtree) or (
            child.dep_ == "prep" and any(_knowing(t) for t in child.subtree)
        )
        if not frame and any(t.lower_ in _SPEAKER for t in child.subtree):
            return True
    return clause.lower_ in _SPEAKER


def _normative(clause: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ in _NORMS for c in clause.children)


def _propositions(doc: Doc) -> list[Token]:
    """Clauses with a generic subject that say nothing of the speaker and set no norm."""
    found = []
    for token in doc:
        if token.pos_ not in ("VERB", "AUX"):
            continue
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")]
        if not subjects or not all(_generic(s) for s in subjects):
            continue
        if _speaks_of_speaker(token) or _normative(token):
            continue
        found.append(token)
    return found


def _knowing(token: Token) -> bool:
    return token.lemma_.lower() in _KNOWING or token.lower_ in _KNOWING


def _framed(clause: Token) -> bool:
    """A frame of knowing governs the clause: its head, or the noun or adjective it hangs
    from ("a firm believer that …", "sure that …")."""
    head = clause.head
    if head is clause:
        return False
    if clause.dep_ in ("ccomp", "relcl", "acl", "xcomp") and _knowing(head):
        return True
    if clause.dep_ == "advcl" and _knowing(head):
        # "I feel like carbs are the enemy".
        return any(c.dep_ == "mark" and c.lower_ in ("like", "that") for c in clause.children)
    if (
        clause.dep_ == "ccomp"
        and head.lemma_ == "be"
        and any(c.dep_ == "nsubj" and c.lower_ in _SPEAKER for c in head.children)
        and any(_knowing(t) for t in clause.doc[head.i + 1 : clause.i])
    ):
        # "I'm certain hobby sales under 3,000 are tax-free": the speaker is sure of the
        # clause, wherever the parser hangs "certain" (here on the clause's subject).
        return True
    # "My theory is that coffee dehydrates you": the frame is the copula's subject.
    return (
        clause.dep_ in ("ccomp", "attr")
        and head.lemma_ == "be"
        and any(c.dep_ == "nsubj" and _knowing(c) for c in head.children)
    )


def _beside(doc: Doc, clause: Token) -> bool:
    """A frame of knowing stands beside the clause ("as far as I know, …"), or a tag vouches
    for it ("…, that's a fact", "everyone knows it")."""
    if clause.dep_ == "ROOT" and any(
        t.dep_ in ("advcl", "parataxis") and _knowing(t) and t.i < clause.i for t in doc
    ):
        return True
    # An evidential adverb or phrase on the clause itself: "apparently microwaves destroy
    # nutrients", "in my opinion …", "from what I've read, …", "to my knowledge, …".
    for child in clause.children:
        if child.dep_ == "advmod" and _knowing(child):
            return True
        if child.dep_ == "prep" and child.i < clause.i and any(_knowing(t) for t in child.subtree):
            return True
    head = clause.head
    if clause.dep_ in ("ccomp", "parataxis") and head is not clause and head.dep_ == "ROOT":
        vouched = any(c.lower_ in _VOUCHING for c in head.children)
        return vouched or _knowing(head)
    return False


def world_claim(doc: Doc) -> bool:
    """The parsed sentence asserts how the world is (see the module docstring)."""
    return any(_framed(c) or _beside(doc, c) for c in _propositions(doc))
