"""A change named as what the speaker feels, weighs or wants, not as what happened.

"Weighing a move to Porto", "tempted to move to Porto", "toying with relocating to Porto", "a
move to Porto is on the cards": the change (a move, a switch) is the object or the non-finite
complement of another predicate, so the sentence states an attitude toward it; the change
itself is not said to hold. Read from the parse, not from words: the change is a word headed
somewhere (with a `to`/`into` phrase: "move to Porto", "a switch into teaching"), and the main
predicate takes it as a `to`-infinitive (`xcomp`), as a gerund after a preposition (`pcomp`),
or as a noun in its object, its prepositional object or, after "be", its subject. Heads that
report the change as begun, done or settled take the same shapes and are excluded by their
grammatical class: aspectual verbs ("started working at the bakery", "finished moving") and
verbs of decision, need or arrangement ("decided to move", "need to move", "got to move"),
whose sentences say more than an attitude (a plan the rest of the pipeline reads as one).
"""

from __future__ import annotations

from spacy.tokens import Token

__all__ = ["attitude_toward_change"]

# Aspect (begun, going on, ended) and settlement (decided, needed, arranged, managed).
_REPORTING_HEADS = frozenset(
    "start begin stop finish quit keep continue resume complete end try "
    "decide agree arrange choose need have get manage".split()
)
_HEADED_TO = frozenset({"to", "into"})


def _headed(token: Token) -> bool:
    """A word with a destination: "(a) move to Porto", "switching into teaching"."""
    return any(c.dep_ == "prep" and c.lower_ in _HEADED_TO for c in token.children)


def _headed_noun(token: Token) -> bool:
    return token.pos_ == "NOUN" and _headed(token)


def attitude_toward_change(root: Token) -> bool:
    """The sentence whose main predicate is `root` states an attitude toward a change (module
    doc), not the change."""
    if root.lemma_.lower() in _REPORTING_HEADS:
        return False
    is_be = root.lemma_.lower() == "be"
    for child in root.children:
        if child.dep_ == "xcomp" and child.tag_ == "VB" and _headed(child) and not is_be:
            return True
        if child.dep_ == "dobj" and _headed_noun(child):
            return True
        if is_be and child.dep_ in ("nsubj", "nsubjpass") and _headed_noun(child):
            return True
        if child.dep_ == "prep" and not is_be:
            for inner in child.children:
                if inner.dep_ == "pcomp" and inner.tag_ == "VBG" and _headed(inner):
                    return True
                if inner.dep_ == "pobj" and _headed_noun(inner):
                    return True
    return False
