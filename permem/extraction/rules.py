"""The offline default extractor: rules over spaCy parses of the sentences the cue pass kept.

For each kept sentence the parse answers who the sentence is about (its grammatical subject:
the speaker, a third party introduced as "my <relation>", or the world), whether it is an
imperative, whether its main verb is negated and whether it reports the past; word lists
(`lexicon`) then give the kind. The claim is the sentence with leading filler ("by the way,",
"haha", "also:") and trailing laughter cut off: always a verbatim span of the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from spacy.language import Language
from spacy.tokens import Doc, Token

from permem import temporal
from permem.extraction import Candidate, modality
from permem.extraction import lexicon as lx
from permem.extraction.attitudes import attitude_toward_change
from permem.extraction.context import CLAUSE_STOP, Conversations, antecedent
from permem.extraction.cues import Cue, SentenceCue, select_many
from permem.extraction.directives import standing_directive
from permem.extraction.for_whom import ForWhom, claim_for_whom
from permem.extraction.speakers import attribute, helped_holders
from permem.extraction.world_claims import world_claim
from permem.nlp import parse
from permem.policy import EXCLUSIVE_TOPICS as _REPLACING_TOPICS
from permem.records import Kind, Message, Role

_TRAILING_FILLER = re.compile(
    r"(?:[\s,]+(?:lol|haha+|hehe|tbh|imo|xd|:\)|:d|;\))|\s*[!.]+)+\s*$", re.IGNORECASE
)
_SELF = {"i", "we", "me", "us", "myself", "ourselves"}
_RELATION_ALIASES = {
    "mom": "mother", "mum": "mother", "dad": "father", "kids": "child", "kid": "child",
    "children": "child", "coworker": "colleague", "co-worker": "colleague",
    "neighbour": "neighbor", "fiance": "fiancé", "fiancee": "fiancé", "fiancée": "fiancé",
    "grandma": "grandmother", "grandpa": "grandfather", "flatmate": "roommate",
}  # fmt: skip


# A sentence that opens on "he"/"she" is about that person ("they" is as often a thing).
_THIRD_PERSON = frozenset({"he", "she"})


def normalize_relation(relation: str) -> str:
    relation = relation.lower()
    return _RELATION_ALIASES.get(relation, relation)


def _claim_bounds(text: str) -> tuple[int, int]:
    """Offsets of the claim inside a sentence: filler cut from both ends."""
    start = 0
    prefix = lx.DISCOURSE_PREFIX.match(text)
    if prefix and prefix.end() < len(text):
        start = prefix.end()
    end = len(text)
    trailing = _TRAILING_FILLER.search(text, start)
    if trailing and trailing.start() > start:
        end = trailing.start()
    return start, end


def _root(doc: Doc) -> Token:
    for token in doc:
        if token.dep_ == "ROOT":
            return token
    return doc[0]


def _subject(root: Token) -> Token | None:
    for child in root.children:
        if child.dep_ in ("nsubj", "nsubjpass", "csubj"):
            return child
    return None


def _is_imperative(doc: Doc, root: Token, subject: Token | None) -> bool:
    if subject is not None:
        return False
    first = next((t for t in doc if not (t.is_punct or t.is_space)), None)
    if first is None:
        return False
    if lx.IMPERATIVE_OPENER.match(doc.text):
        return True
    return root.tag_ == "VB" and root.i - first.i <= 2


# Auxiliaries that keep a participle in the past ("got married", "had moved", "was hired").
# Others may name what is still to come ("getting married", "will have moved") or a present
# perfect that says nothing was done yet ("haven't decided"): not a report of the past.
_PAST_AUX = frozenset({"got", "had", "was", "were"})


# The modal of a world that is not this one: "we'd go vegan if ...", "I could move if ...".
_UNREAL_MODALS = frozenset({"would", "'d", "could", "might"})
# What opens a condition: "if", "unless", "supposing", "assuming", "provided", "in case".
_CONDITION_MARKS = frozenset({"if", "unless", "suppose", "supposing", "assuming", "provided"})
# What a condition said by inversion opens with: "were I to retire", "had we known".
_INVERTED = frozenset({"were", "had"})
# A wish: "my husband would love us to go keto", "she'd like us to move".
_WISH = frozenset({"love", "like", "want", "prefer", "rather"})


# The same conditions opening the words cut off before a claim ("Were I to retire early, ").
_CONDITION_CUT = re.compile(
    rf"^\W*(?:(?:and|but|so)\s+)?(?:{'|'.join(sorted(_CONDITION_MARKS))}|in\s+case|"
    rf"(?:{'|'.join(sorted(_INVERTED))})\s+(?:i|we|you|he|she|they|it)\b)",
    re.IGNORECASE,
)


def counterfactual(doc: Doc, root: Token, before: str = "") -> bool:
    """The sentence speaks of a world that is not this one, read from its grammar whatever
    its words: a main verb under "would"/"could"/"might" beside a condition in the past
    ("we'd go fully vegan if my partner had her way", "were I to retire early, I'd move to
    Portugal"), or someone else's wish ("my husband would love us to go keto"). A condition
    in the present ("if it rains I'd take the bus") is a rule for when it holds, and the
    user's own "I'd prefer ..." a preference: neither is counterfactual. `before`: the text
    before the claim; a condition opening the words of its own sentence there ("Were I to
    retire early, ") makes the claim counterfactual, since the claim no longer carries it."""
    modal = next((c for c in root.children if c.dep_ == "aux" and c.lower_ in _UNREAL_MODALS), None)
    if modal is None:
        return False
    if before and _CONDITION_CUT.search(CLAUSE_STOP.split(before)[-1]):
        return True
    for clause in root.children:
        if clause.dep_ != "advcl":
            continue
        words = list(clause.subtree)
        opens = words[0].lower_ if words else ""
        marked = any(m.dep_ == "mark" and m.lower_ in _CONDITION_MARKS for m in clause.children)
        marked = marked or (opens == "in" and len(words) > 1 and words[1].lower_ == "case")
        inverted = opens in _INVERTED and any(
            c.dep_.startswith("nsubj") and c.i > words[0].i for c in clause.children
        )
        past = clause.tag_ == "VBD" or any(
            c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in clause.children
        )
        if inverted or (marked and past):
            return True
    subject = _subject(root)
    return (
        modal.lower_ in ("would", "'d")
        and root.lemma_ in _WISH
        and subject is not None
        and subject.lower_ not in _SELF
    )


def _reports_past(root: Token) -> bool:
    """The sentence's main verb reports the past: a past tense ("moved to Ghent in the
    spring"), or a participle standing alone or with a past auxiliary, as in a sentence
    without its subject ("Moved to Ghent in the spring", "Got married in June"),
    which the tagger reads as VBN. A past sentence that names a season or a month speaks of
    that period gone by, never of the next one."""
    if root.tag_ == "VBD":
        return True
    if root.tag_ != "VBN":
        return False
    auxiliaries = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
    return all(a.lower_ in _PAST_AUX for a in auxiliaries)


# What the parse says is still to come, whatever the words: "we'll be relocating", "I'm due to
# retire", "I'm set to begin", "my aim is to run"; not a habit said in the future ("I'll
# always need ..."), nor a refusal ("I won't eat pork": a commitment).
_WILL = frozenset({"will", "'ll", "shall", "wo"})
_DUE = frozenset({"due", "set", "scheduled", "slated", "about", "booked", "expected"})
_AIMS = frozenset({"plan", "plans", "aim", "goal", "intention", "idea", "hope", "dream"})
_HABIT = frozenset({"always", "never", "every", "usually", "normally", "whenever", "generally"})


# A change that holds from the moment it is said is no plan: "I will be vegetarian from now on".
_FROM_NOW = re.compile(
    r"\b(?:from\s+now\s+on|from\s+today(?:\s+on)?|starting\s+(?:now|today)|as\s+of\s+(?:now|today)|"
    r"henceforth|going\s+forward)\b",
    re.IGNORECASE,
)


# A commitment said in the future tense holds from now: "I'll never eat meat again", "I will
# always take the stairs", "I'll be vegetarian for good" (never served as a plan to come).
_FOR_GOOD = re.compile(
    r"\b(?:never|always|for\s+good|forever|permanently|any\s*more|ever\s+again)\b", re.IGNORECASE
)


def _habit_or_negated(doc: Doc, root: Token) -> bool:
    """A word of habit anywhere, or the main verb negated: said of no one time to come."""
    return any(t.lower_ in _HABIT for t in doc) or any(c.dep_ == "neg" for c in root.children)


def _to_come(doc: Doc, root: Token) -> bool:
    """The sentence's main verb is said of what is still to come (see above)."""
    if _habit_or_negated(doc, root):
        return False
    children = list(root.children)
    if any(c.dep_ == "aux" and c.lower_ in _WILL for c in children):
        return True
    to_verb = any(c.dep_ == "xcomp" for c in children) or any(
        c.dep_ == "xcomp" for a in children if a.dep_ in ("acomp", "attr") for c in a.children
    )
    due = root.lower_ in _DUE or any(
        c.dep_ in ("acomp", "attr") and c.lower_ in _DUE for c in children
    )
    if to_verb and due:
        return True
    subject = _subject(root)
    return to_verb and subject is not None and subject.lower_ in _AIMS and root.lemma_ == "be"


# An arrangement: the present progressive of something not yet under way, placed at a time
# still to come ("we're relocating to Denver once the school year ends", "I'm quitting in
# March", "I'm booked on a course in May" reads the same through `_DUE`): English says the
# future this way without any word of planning. A progressive with no time to come, or with
# only an end ("I'm working nights until March"), is how things are now.
_BE_PRESENT = frozenset({"am", "'m", "m", "is", "'s", "are", "'re", "re"})
_WHEN_CLAUSE = frozenset({"once", "when", "after", "soon"})
# "I'm booked on a course in May", "we're enrolled for the autumn term".
_BOOKED = _DUE | frozenset({"enrolled", "registered", "signed", "confirmed", "down"})
_NOT_AHEAD = re.compile(
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|right\s+now|now|currently|"
    r"these\s+days|at\s+the\s+moment|at\s+present|lately|recently|nowadays|"
    # A habit: "on Tuesdays", "at weekends", "most evenings".
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|mornings|evenings|nights|"
    r"afternoons)\b",
    re.IGNORECASE,
)


def _arranged(doc: Doc, root: Token, text: str, ts: datetime) -> bool:
    """The sentence's main verb is a present progressive placed at a time still to come."""
    progressive = root.tag_ == "VBG" and any(
        c.dep_ == "aux" and c.lower_ in _BE_PRESENT for c in root.children
    )
    booked = root.lower_ in _BOOKED and any(
        c.dep_ in ("aux", "auxpass") and c.lower_ in _BE_PRESENT for c in root.children
    )
    if not (progressive or booked) or _habit_or_negated(doc, root):
        return False
    # The time must be the main clause's own, not a reason's ("I'm learning French because
    # we're moving in the autumn" is under way now).
    apart = {
        t.i
        for c in root.children
        if c.dep_ in ("advcl", "ccomp", "conj", "parataxis", "relcl")
        for t in c.subtree
    }
    own = " ".join(t.text for t in doc if t.i not in apart)
    if _NOT_AHEAD.search(own):
        return False
    for clause in root.children:
        # "once the school year ends", "as soon as the sale goes through": a time to come that
        # no calendar names.
        if (
            clause.dep_ == "advcl"
            and clause.tag_ in ("VBZ", "VBP")
            and any(
                m.dep_ in ("mark", "advmod") and m.lower_ in _WHEN_CLAUSE for m in clause.children
            )
        ):
            return True
    return temporal.resolve(own, ts, plan=True).valid_from > ts


def _kind(cues: frozenset[Cue], text: str, imperative: bool, past: bool, future: bool) -> Kind:
    if Cue.CHOICE in cues or (Cue.TASTE in cues and not imperative):
        return Kind.PREFERENCE
    if imperative or (
        Cue.INSTRUCTION in cues
        and (
            Cue.FIRST_PERSON not in cues
            or standing_directive(text)
            # "Could you put this message to my gran into Polish?": how to answer, this once.
            or Cue.ONE_OFF in cues
        )
    ):
        return Kind.INSTRUCTION
    if Cue.LANGUAGE in cues and re.search(r"\b(?:please|pls|stp|for me)\b", text, re.I):
        return Kind.INSTRUCTION
    if Cue.PLAN in cues and future and not past and not _FROM_NOW.search(text):
        if not _FOR_GOOD.search(text):
            return Kind.PLAN
    if lx.CONSTRAINT.search(text):
        return Kind.CONSTRAINT
    if lx.PREFERENCE.search(text):
        return Kind.PREFERENCE
    if past:
        return Kind.EVENT
    return Kind.FACT


def with_context(candidate: Candidate, conversations: Conversations) -> Candidate:
    """The candidate with its context (permem.extraction.context); the user's own words only."""
    if candidate.message.role is not Role.USER or Cue.QUOTED in candidate.cues:
        return candidate
    found = antecedent(candidate.message, candidate.claim_start, candidate.claim_end, conversations)
    if found is None:
        return candidate
    return replace(candidate, context=found.text, context_source=found.message_id)


class RuleExtractor:
    """Rules over spaCy parses; see the module docstring. One instance per process."""

    name = "rules-v1"

    def __init__(self, nlp: Language, batch_size: int = 128) -> None:
        self._nlp = nlp
        self._batch_size = batch_size

    def extract(
        self,
        messages: Sequence[Message],
        holders: Mapping[tuple[str, str], frozenset[str]] | None = None,
    ) -> list[Candidate]:
        """`holders`: `speakers.helped_holders` of the messages, when the caller has read who
        types (read here otherwise)."""
        if holders is None:
            holders = helped_holders(attribute(messages))
        conversations = Conversations(messages)
        return [with_context(c, conversations) for c in self._extract(messages, holders)]

    def _extract(
        self, messages: Sequence[Message], holders: Mapping[tuple[str, str], frozenset[str]]
    ) -> list[Candidate]:
        # What someone helping on the holder's account says of the holder by name is the
        # holder's ("not Kai typing ... Kai goes to bed early").
        selected = select_many(messages, holders)
        # Quoted or pasted text inside a user message is untrusted like a document.
        untrusted = [s for s in selected if s.message.role is not Role.USER or Cue.QUOTED in s.cues]
        user = [s for s in selected if s.message.role is Role.USER and Cue.QUOTED not in s.cues]
        candidates = [self._untrusted(s) for s in untrusted]
        texts: list[str] = []
        bounds: list[tuple[int, int]] = []
        for sentence in user:
            a, b = _claim_bounds(sentence.text)
            bounds.append((a, b))
            texts.append(sentence.text[a:b])
        docs = self._parse(texts)
        for sentence, (a, b), doc in zip(user, bounds, docs, strict=True):
            candidate = self._from_parse(sentence, a, b, doc)
            if candidate is not None:
                candidates.append(candidate)
        candidates.sort(key=lambda c: (c.message.ts, c.message.message_id, c.claim_start))
        return candidates

    def _parse(self, texts: list[str]) -> list[Doc]:
        """Tag and parse every text; run the (costly) NER only where a name could be.

        A sentence with no proper noun and no capitalised word past its first has nothing for
        the small model's NER to find; skipping it there saves about a third of the parse.
        """
        return parse(self._nlp, texts, self._batch_size)

    def _untrusted(self, sentence: SentenceCue) -> Candidate:
        kind = Kind.INSTRUCTION if Cue.PLANTED in sentence.cues else Kind.FACT
        return Candidate(
            message=sentence.message,
            start=sentence.start,
            end=sentence.end,
            claim_start=sentence.start,
            claim_end=sentence.end,
            kind=kind,
            about=None,
            cues=sentence.cues,
            topic=sentence.topic,
        )

    def _from_parse(self, sentence: SentenceCue, a: int, b: int, doc: Doc) -> Candidate | None:
        if len(doc) == 0:
            return None
        root = _root(doc)
        subject = _subject(root)
        cues = set(sentence.cues)
        imperative = _is_imperative(doc, root, subject)
        about: str | None = None
        if sentence.relation is not None and (
            subject is None or subject.lower_ not in _SELF or Cue.THIRD_PARTY in cues
        ):
            about = normalize_relation(sentence.relation)
        elif (
            subject is not None
            and subject.lower_ in _THIRD_PERSON
            and subject.i <= 1
            and not imperative
        ):
            # "He's obsessed with dinosaurs": someone the message named before, never the
            # speaker; filed under that relation when the message names one ("my nephew").
            named = lx.THIRD_PARTY_ANYWHERE.search(sentence.message.text[: sentence.start])
            if named is None:
                return None
            about = normalize_relation(named.group("relation"))
        elif subject is not None and subject.lower_ not in _SELF and not imperative:
            # The sentence is about something else ("the Great Wall is ..."): keep it only
            # when it still concerns the speaker or their project.
            concerns_speaker = (
                Cue.FIRST_PERSON in cues
                or Cue.SCOPE_FACT in cues
                or Cue.INSTRUCTION in cues
                # "For the team it's economy under five hours": the speaker's rule for others.
                or claim_for_whom(sentence.text) is ForWhom.OTHERS
            )
            if not (
                concerns_speaker
                or Cue.ELLIPTICAL in cues
                or Cue.LANGUAGE in cues
                or Cue.RETRACTION in cues
                or Cue.TASTE in cues
                or Cue.NEW_NOT_OLD in cues
                or Cue.DIET_RULE in cues  # "Meat stays off": what the speaker eats
                or Cue.ROUTINE in cues  # "Sunday evenings are for meal prep"
                or Cue.KEPT_DATE in cues  # "Pavel's birthday is November 19"
            ):
                return None
        if counterfactual(doc, root, sentence.message.text[: sentence.start + a]):
            cues.add(Cue.HYPOTHETICAL)
        if Cue.BELIEF not in cues and Cue.TASTE not in cues and world_claim(doc):
            # How the world is, said by the speaker, whatever the words ("as far as I know,
            # bulls hate red"): a belief, kept only with a consequence for their own conduct.
            cues.add(Cue.BELIEF)
            if modality.own_conduct(sentence.text):
                cues.add(Cue.OWN_CONDUCT)
        negated = any(c.dep_ == "neg" for c in root.children) or any(
            t.lower_ in ("never", "no") for t in doc
        )
        past = _reports_past(root) or Cue.PAST in cues
        future = Cue.PLAN in cues or any(
            t.lower_ in ("will", "'ll", "gonna") and t.head == root for t in doc
        )
        if (
            not imperative
            and not past
            and Cue.PLAN not in cues
            and (_to_come(doc, root) or _arranged(doc, root, sentence.text, sentence.message.ts))
        ):
            cues.add(Cue.PLAN)
            future = True
        if (
            Cue.PLAN not in cues
            and sentence.topic in _REPLACING_TOPICS
            and attitude_toward_change(root)
        ):
            # "weighing a move to Porto": an attitude toward a change, which would otherwise
            # replace where the user lives (permem.extraction.attitudes).
            cues.add(Cue.CONSIDERED)
        kind = _kind(frozenset(cues), doc.text, imperative, past, future)
        start = sentence.start
        return Candidate(
            message=sentence.message,
            start=start,
            end=sentence.end,
            claim_start=start + a,
            claim_end=start + b,
            kind=kind,
            about=about,
            cues=frozenset(cues),
            topic=sentence.topic,
            negated=negated,
            doc=doc,
        )
