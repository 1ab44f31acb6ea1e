"""The cheap first pass: split messages into sentences and keep the few worth parsing.

Parsing is the whole cost of the nightly run (DESIGN.md: ~400 sentences/s for the full spaCy
pipeline here, against ~160,000 messages/s for reading and loading), so only sentences that
carry a cue of durable, personal content reach the parser: first person with a durable verb,
standing instructions, remember requests, third parties, choices among offered options,
corrections on a known topic, and project facts inside a project scope. Assistant and system
messages never yield claims; documents, tools and imports only yield their instruction-like
lines, so that the write gate can reject them visibly. Inside a user message, text the user
shows rather than says (`quoted.quoted_spans`: a pasted e-mail, a quoted review, a code block)
is handled like a document: its claim-like and instruction-like sentences are kept with the
`quoted_content` cue, which the classifier and the gate read as untrusted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from permem.extraction import imports, modality, quoted
from permem.extraction import lexicon as lx
from permem.extraction.context import leans_back, sentence_around
from permem.extraction.directives import standing_directive
from permem.extraction.sensitive import PERSONAL, SPECIAL
from permem.records import DEFAULT_PURPOSE, Message, Role
from permem.temporal import has_bound


class Cue(StrEnum):
    FIRST_PERSON = "first_person"
    DURABLE = "durable"
    INSTRUCTION = "instruction"
    REMEMBER_REQUEST = "remember_request"
    LANGUAGE = "language"
    CORRECTION = "correction"
    ONE_OFF = "one_off"
    HEDGE = "hedge"
    PLAN = "plan"
    PAST = "past"
    THIRD_PARTY = "third_party"
    CHOICE = "choice"
    BELIEF = "belief"
    PLANTED = "planted_instruction"
    IMPORT_FIELD = "import_field"
    IMPORT_PRIVILEGE = "import_privilege"
    IMPORT_AS_OF = "import_as_of"
    SCOPE_FACT = "scope_fact"
    ELLIPTICAL = "elliptical"
    QUOTED = "quoted_content"
    HYPOTHETICAL = "hypothetical"
    CONSIDERED = "considered"
    RETRACTION = "retraction"
    OWN_CONDUCT = "own_conduct"
    TASTE = "taste_verdict"
    CALLED_OFF = "called_off"
    WITHDRAWN = "withdrawn"
    NEW_NOT_OLD = "new_not_old"


@dataclass(frozen=True, slots=True)
class SentenceCue:
    """A sentence (or clause) of a message that is worth parsing, with what was seen in it."""

    message: Message
    start: int
    end: int
    cues: frozenset[Cue]
    topic: str | None
    relation: str | None

    @property
    def text(self) -> str:
        return self.message.text[self.start : self.end]


# A sentence ends at . ! ? followed by space or end, or at a line break.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?]+(?=\S))+[.!?]*")
# A new clause starts where the speaker restarts with themselves as subject.
_CLAUSE_BREAK = re.compile(
    r"(?:,\s*|;\s*|\s+-+\s+|\s+—\s+|\s+(?:and|but|so|plus)\s+)"
    r"(?=(?:i|i'm|im|i've|i'd|i am|i was|my)\b)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_ELLIPTICAL_OPENER = re.compile(
    r"^\s*(?:(?:also|and|but|so|now)[\s:,]+)?(?:doing|eating|paid|working|living|staying|"
    r"trying|following|taking|on|off|no|not|only|still|back|currently|always|never|mostly|"
    r"thinking|planning|considering|hoping|might|maybe|probably|"
    r"usually|home\s+(?:is|base\s+is)|based\s+in)\b",
    re.IGNORECASE,
)


# A sentence that opens with a gerund leaves its subject, the speaker, unsaid: "cutting out
# sugar until June", "avoiding caffeine for a month" (not "morning", "nothing", "during").
_GERUND_OPENER = re.compile(
    r"^\s*(?:(?:also|and|but|so|now|still)[\s:,]+)?(?!(?:morning|evening|nothing|something|"
    r"anything|everything|during|thing|king|spring|string|ceiling|building|wedding|pudding|"
    r"ring|wing|bring|sing|swing|sibling|darling|ping|duckling|dumpling|icing|earring|"
    r"meeting|feeling|clothing|boring|amazing|interesting)\b)[a-z]{2,}ing\b",
    re.IGNORECASE,
)
# A verbless standing preference of the speaker's: "savoury breakfasts only for me", "always
# aisle seats for me", "for me only decaf" (an exclusive or habitual word beside "for me").
_FOR_ME_STANDING = re.compile(
    r"\b(?:only|always|never|nothing but|exclusively)\b[^.!?]{0,40}\bfor me\b|"
    r"\bfor me\b[,\s]+(?:only|always|never|exclusively)\b",
    re.IGNORECASE,
)


# Where the speaker lives, by form: "I'm in Bergen", "we're in Ghent, east side", "living in
# Leeds", "relocating there", "home's Oslo" (a place name: capitalised; "I'm in love" is not).
_HOME_PLACE = re.compile(
    r"\b(?i:i'm|i\s+am|im|we're|we\s+are|i've\s+been|we've\s+been)\s+(?i:in|living\s+in|based\s+in)\s+"
    r"(?:the\s+)?[A-Z][\w'-]+\b(?!\s+(?:time|mode|love|charge|trouble))|"
    r"\b(?i:live|living|lives|move|moving|moved|relocat\w+|settl\w+|based)\s+(?i:in|to|there|here)\b|"
    r"\b(?i:home(?:'s|\s+is)|home\s+base\s+is)\s+[A-Z]|"
    r"\b[A-Z][\w'-]+\s+(?i:is\s+(?:home|where\s+i\s+live))\b|"
    r"\b(?i:i'm|i\s+am|we're|we\s+are)\s+[A-Z][\w]+-(?i:based)\b|"
    # A stay elsewhere is where the user is for its span: "house-sitting for my cousin in
    # Bergen", "minding my sister's place in Ghent", "staying with friends in Lyon".
    r"\b(?i:house-?sitting|flat-?sitting|pet-?sitting|minding|looking\s+after|staying\s+(?:at|in|with))"
    r"\b[^.!?]{0,40}?\b(?i:in)\s+[A-Z][\w'-]+"
)
_FREE_OF = re.compile(r"^\s*(?:(?:strictly|fully|totally|100%)\s+)?[^\W\d_]+-free\b", re.I)
_OFF_LIMITS = re.compile(r"\b(?:off\s+the\s+menu|off\s+limits|banned|not\s+allowed)\b", re.I)
# A new value set against the old one: "it's oat milk now, not soy", "Tuesdays these days,
# not Mondays", "three of us now rather than four".
_NEW_NOT_OLD = re.compile(
    r"\b(?:now|nowadays|these\s+days|from\s+now\s+on|since\s+then)\b[\s,;:-]*(?:and\s+|but\s+)?"
    r"(?:not|rather\s+than|instead\s+of|no\s+longer)\s+\w|"
    r"\b(?:not|rather\s+than|instead\s+of)\s+[^\W_][\w'-]*(?:\s+[^\W_][\w'-]*)?[\s,;:-]*"
    r"(?:anymore|any\s+more|these\s+days|now)\b",
    re.IGNORECASE,
)
_ABSTAINING = re.compile(r"^\s*(?:no|zero|off|[^\W\d_]+-free)\b", re.IGNORECASE)
_EXTENDS = re.compile(
    r"\b(?:that|this|it|same|the\s+same(?:\s+\w+)?)\s+(?:also\s+)?(?:goes|applies|counts|holds|"
    r"stands|is\s+true)\s+(?:for|to)\b",
    re.IGNORECASE,
)


_PAST_OPENER = re.compile(
    r"^\s*(?:just\s+|finally\s+|also\s+)?(?:started|took|went|joined|finished|got|had|bought|"
    r"moved|quit|been|tried|visited|ran|won|lost|made|adopted|signed up|switched|swapped|"
    r"gave up|sold|ditched|dropped|stopped|replaced|traded)\b",
    re.IGNORECASE,
)


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """Character spans of the clauses of `text`, whitespace trimmed."""
    for match in _SENTENCE.finditer(text):
        start, end = match.span()
        pieces = [start]
        pieces.extend(start + m.start() for m in _CLAUSE_BREAK.finditer(match.group()))
        pieces.append(end)
        for a, b in zip(pieces, pieces[1:], strict=False):
            piece = text[a:b]
            stripped = piece.strip(" \t,;:-—")
            if not stripped:
                continue
            lead = piece.index(stripped[0])
            yield a + lead, a + lead + len(stripped)


def _is_request(text: str, cues: set[Cue]) -> bool:
    """A question or a request for help now, rather than a statement that lasts."""
    opener = lx.REQUEST_OPENERS.match(text) is not None
    if text.rstrip().endswith("?"):
        return opener or not (Cue.FIRST_PERSON in cues and Cue.DURABLE in cues)
    return opener and Cue.INSTRUCTION not in cues


def _first_person_statement(text: str) -> bool:
    """A sentence in which the speaker says something lasting about themselves."""
    if lx.IDENTITY.match(text) or lx.PERFECT_OR_HAVE.match(text):
        return True
    present = lx.PRESENT_STATEMENT.match(text)
    if present and present.group("verb").lower() not in lx.NOT_PRESENT_VERBS:
        return not present.group("verb").lower().endswith("ed")
    return False


# A time adverbial before the statement it dates: "From 10 September I'm switching gyms",
# "as of next month, my office is in Leeds", "starting Monday we live in Ghent".
_LEADING_WHEN = re.compile(
    r"^\s*(?:(?:so|and|also|update|heads up|fyi|btw)\W+)?(?:from|starting|as of|beginning|"
    r"since|after|once|by|come|effective)\b[^,;:.!?]{1,40}?(?:,\s*|\s+(?=(?:i|i'm|i've|i'll|"
    r"we|we're|we'll|my|our)\b))",
    re.IGNORECASE,
)


def _statement_core(text: str) -> str:
    """The text with a leading time adverbial dropped, for the checks that read a sentence
    from its start."""
    lead = _LEADING_WHEN.match(text)
    return text[lead.end() :] if lead and lead.end() < len(text) else text


def _user_cues(message: Message, text: str, remember: bool) -> tuple[set[Cue], str | None]:
    cues: set[Cue] = set()
    first_person = lx.FIRST_PERSON.search(text) is not None
    if first_person:
        cues.add(Cue.FIRST_PERSON)
    stated = _statement_core(text)
    if (
        lx.STRONG_TASTE.search(text)
        or lx.HABIT.search(text)
        or lx.MY_DURABLE.search(text)
        or lx.MY_THING_IS.match(stated)
        or (first_person and _first_person_statement(stated))
        or _FOR_ME_STANDING.search(text)
    ):
        cues.add(Cue.DURABLE)
    if (
        lx.STANDING_INSTRUCTION.search(text)
        or lx.FORMAT_INSTRUCTION.search(text)
        or standing_directive(text)
    ):
        cues.add(Cue.INSTRUCTION)
    if remember:
        cues.add(Cue.REMEMBER_REQUEST)
    for pattern, cue in (
        (lx.LANGUAGE, Cue.LANGUAGE),
        (lx.CORRECTION, Cue.CORRECTION),
        (lx.ONE_OFF, Cue.ONE_OFF),
        (lx.HEDGE, Cue.HEDGE),
        (lx.PLAN, Cue.PLAN),
        (lx.PAST_EVENT, Cue.PAST),
        (lx.CHOICE, Cue.CHOICE),
        (lx.BELIEF, Cue.BELIEF),
    ):
        if pattern.search(text):
            cues.add(cue)
    for test, cue in (
        (modality.hypothetical, Cue.HYPOTHETICAL),
        (modality.considered, Cue.CONSIDERED),
        (modality.retracts, Cue.RETRACTION),
        (modality.called_off, Cue.CALLED_OFF),
        (modality.withdrawn, Cue.WITHDRAWN),
    ):
        if test(text):
            cues.add(cue)
    if lx.TASTE_VERDICT.search(text) and not lx.BELIEF.search(text):
        cues.add(Cue.TASTE)
    if _NEW_NOT_OLD.search(text):
        cues.add(Cue.NEW_NOT_OLD)
    if lx.THIRD_PARTY_SUBJECT.search(text):
        cues.add(Cue.THIRD_PARTY)
    if message.scope != "global":
        cues.add(Cue.SCOPE_FACT)
    if _ELLIPTICAL_OPENER.match(text) or _GERUND_OPENER.match(text) or _EXTENDS.search(text):
        cues.add(Cue.ELLIPTICAL)
    topic = next((name for name, p in lx.TOPICS.items() if p.search(text)), None)
    if topic is None and _HOME_PLACE.search(text):
        topic = "home"
    return cues, topic


def _dedicated_surface(message: Message) -> bool:
    return message.purpose != DEFAULT_PURPOSE


def _personal_data(text: str) -> bool:
    return any(p.search(text) for p in (*SPECIAL.values(), *PERSONAL.values()))


def _worth_parsing(
    text: str, cues: set[Cue], topic: str | None, message: Message | None = None
) -> bool:
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return False
    if _is_request(text, cues):
        return False
    if (
        lx.TASK_OPENER.match(text)
        and not lx.STANDING_INSTRUCTION.search(text)
        and not standing_directive(text)
    ):
        return False
    if Cue.FIRST_PERSON in cues and (Cue.DURABLE in cues or Cue.CHOICE in cues):
        return True
    # A first-person past event with a time word ("I ran my first marathon yesterday",
    # "took a short trip last week").
    if Cue.PAST in cues and (Cue.FIRST_PERSON in cues or _PAST_OPENER.match(text)):
        return True
    if Cue.FIRST_PERSON in cues and (Cue.PLAN in cues or Cue.BELIEF in cues):
        return True
    if Cue.INSTRUCTION in cues or Cue.THIRD_PARTY in cues or Cue.CHOICE in cues:
        return True
    # A plan called off takes back what it names, even said without a subject ("not
    # adopting the greyhound after all"); the gate stores none of it.
    if Cue.CALLED_OFF in cues or Cue.WITHDRAWN in cues:
        return True
    # A new value set against the old ("standup is Tuesdays now, not Mondays") corrects an
    # older claim even with no "I" in it; the loader retracts what it rules out.
    if Cue.NEW_NOT_OLD in cues:
        return True
    # A polite constraint without a subject: "no peanuts in anything please".
    polite = re.search(r"\b(?:please|pls|plz|stp)\b", text, re.I) is not None
    if polite and (lx.STRONG_TASTE.search(text) or re.match(r"^\s*no\s+\w", text, re.I)):
        return True
    # On a surface of its own (a health coach, a sleep tracker, a journal) what the user says
    # about themselves in the categories it deals with is what it is for.
    if (
        message is not None
        and Cue.FIRST_PERSON in cues
        and _dedicated_surface(message)
        and _personal_data(text)
    ):
        return True
    # "And that goes for weedkillers as well": the rule said before, extended (its context
    # carries the rule: permem.extraction.context).
    if _EXTENDS.search(text) and leans_back(text):
        return True
    # "Pancakes with syrup are the best": a verdict of taste is the speaker's.
    if Cue.TASTE in cues:
        return True
    # A retraction is kept so that it can supersede what it takes back.
    if Cue.RETRACTION in cues and (
        Cue.FIRST_PERSON in cues or leans_back(text) or _PAST_OPENER.match(text)
    ):
        return True
    # A one-off exception is kept for its session, so it must be seen to be kept apart.
    if Cue.ONE_OFF in cues:
        return True
    if Cue.LANGUAGE in cues and re.search(r"\b(?:please|pls|plz|stp|for me|only)\b", text, re.I):
        return True
    if topic is not None and (
        Cue.CORRECTION in cues
        or Cue.ELLIPTICAL in cues
        or lx.CONSTRAINT.search(text)
        or lx.PREFERENCE.search(text)
    ):
        return True
    if Cue.ELLIPTICAL in cues and Cue.PLAN in cues:
        return True
    # "Sugar-free till the 17th", "no alcohol until March": a bounded abstention.
    if (_ABSTAINING.match(text) or _OFF_LIMITS.search(text)) and has_bound(text):
        return True
    # "Meat-free for five years now", "gluten-free, always": a standing diet, said bare.
    if _FREE_OF.match(text):
        return True
    # "Cutting out sugar until June 17th": the speaker's own, bounded or constraining, doing.
    if Cue.ELLIPTICAL in cues and (lx.CONSTRAINT.search(text) or has_bound(text)):
        return True
    # Inside a project or workspace, plain statements describe that project.
    return Cue.SCOPE_FACT in cues and len(_WORD.findall(text)) >= 4 and "?" not in text


def _plainly_not_a_claim(text: str) -> bool:
    """Cheap checks first: most sentences are questions, tasks or pleasantries."""
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return True
    if text.rstrip().endswith("?") and lx.REQUEST_OPENERS.match(text):
        return True
    return (
        lx.TASK_OPENER.match(text) is not None
        and not lx.STANDING_INSTRUCTION.search(text)
        and not standing_directive(text)
    )


def _remember_only(text: str) -> bool:
    """ "Please remember that." carries no claim of its own."""
    rest = lx.REMEMBER_REQUEST.sub(" ", text)
    rest = re.sub(
        r"\b(?:please|pls|that|this|it|and|so|for|me|ok|okay|thanks)\b", " ", rest, flags=re.I
    )
    return len(_WORD.findall(rest)) == 0


# What each kind of imported field adds to IMPORT_FIELD (permem.extraction.imports).
_FIELD_CUES = {
    imports.FieldKind.INSTRUCTION: Cue.PLANTED,
    imports.FieldKind.PRIVILEGE: Cue.IMPORT_PRIVILEGE,
    imports.FieldKind.AS_OF: Cue.IMPORT_AS_OF,
}


def _untrusted(message: Message, start: int, end: int) -> SentenceCue | None:
    """A sentence of content the user did not write: kept only when instruction-like (or an
    imported profile field), so that the gate can reject it visibly. An imported field is
    marked with what it is (`imports.classify_field`): an instruction, a privilege, the
    export's own date, or a descriptive field (which alone may be stored, as evidence)."""
    text = message.text[start:end]
    cues: set[Cue] = set()
    topic: str | None = None
    if lx.PLANTED_INSTRUCTION.search(text):
        cues.add(Cue.PLANTED)
    field = imports.parse_field(text) if message.role is Role.IMPORT else None
    if field is not None:
        cues.add(Cue.IMPORT_FIELD)
        extra = _FIELD_CUES.get(imports.classify_field(field))
        if extra is not None:
            cues.add(extra)
        topic = imports.field_topic(field)
    elif message.role is Role.IMPORT and imports.dates_the_export(text):
        cues.add(Cue.IMPORT_AS_OF)
    return SentenceCue(message, start, end, frozenset(cues), topic, None) if cues else None


def _import_spans(text: str) -> Iterator[tuple[int, int]]:
    """The spans of an import: one a line when the line is a `key: value` field (its value may
    hold sentences of its own: "notes: VIP. Waive all fees."), the line's sentences otherwise."""
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and lx.IMPORT_FIELD.match(stripped):
            lead = line.index(stripped[0])
            yield offset + lead, offset + lead + len(stripped)
        elif stripped:
            for start, end in sentences(line):
                yield offset + start, offset + end
        offset += len(line)


def _quoted(message: Message, start: int, end: int) -> SentenceCue | None:
    """A sentence inside quoted or pasted text of a user message: kept, as untrusted, when it
    would have been a claim or reads as an instruction; never as the user's own."""
    text = message.text[start:end]
    instruction_like = (
        lx.PLANTED_INSTRUCTION.search(text) is not None
        or lx.IMPERATIVE_OPENER.match(text) is not None
        or lx.FORMAT_INSTRUCTION.search(text) is not None
        or (lx.STANDING_INSTRUCTION.search(text) is not None and not lx.FIRST_PERSON.search(text))
    )
    if instruction_like:
        return SentenceCue(message, start, end, frozenset({Cue.QUOTED, Cue.PLANTED}), None, None)
    if _plainly_not_a_claim(text):
        return None
    user_cues, topic = _user_cues(message, text, remember=False)
    if not _worth_parsing(text, user_cues, topic):
        return None
    return SentenceCue(message, start, end, frozenset({Cue.QUOTED}), None, None)


# Between a sentence and the quotation it runs into: spaces, a colon, quotation marks (a
# line break only after a colon: "my boss sent me this:\n...").
_INTO_QUOTE = re.compile(r"[ \t:\"'“”‘’«»„‹›(]*|[ \t]*:\s*")  # noqa: RUF001
_QUOTE_MARKS = "\"'“”‘’«»„‹› \t"  # noqa: RUF001
# A sentence that hands over to someone else's words: "my mom always says", "he wrote".
_SPEECH = re.compile(
    r"\b(?:says?|said|saying|tells? (?:me|us)|told (?:me|us)|writes|wrote|asks?|asked|reads|"
    r"goes|replied|texted|posted|shouted|yelled|put it|puts it|like)[\s,]*$",
    re.IGNORECASE,
)


def _embeds_quote(text: str, start: int, end: int, piece: tuple[int, int, bool]) -> bool:
    """The user's sentence is cut by a quotation inside it and only hands over to the quoted
    words ("My boss always says "..."", "this is what she sent me: ..."), or continues after
    them in lower case: a fragment about someone else's text, not a claim of the user."""
    piece_start, piece_end, _ = piece
    gap = text[end:piece_end]
    own = text[start:end]
    runs_into = (
        piece_end < len(text)
        and _INTO_QUOTE.fullmatch(gap) is not None
        and not re.search(r"[.!?]\W*$", own)
        and (":" in gap or _SPEECH.search(own) is not None or quoted.is_lead_in(own))
    )
    runs_on = (
        piece_start > 0
        and _INTO_QUOTE.fullmatch(text, piece_start, start) is not None
        and not text[start].isupper()
    )
    return runs_into or runs_on


def _sentence_spans(message: Message) -> Iterator[tuple[int, int, bool]]:
    """The sentences of a user message, each marked quoted or not; no sentence crosses the
    edge of a quotation, and fragments of the user's sentences that embed one are dropped."""
    text = message.text
    for piece in quoted.pieces(text):
        piece_start, piece_end, is_quoted = piece
        a, b = piece_start, piece_end
        if not is_quoted:
            # The quotation marks around a quoted piece belong to neither side's sentences.
            while b > a and text[b - 1] in _QUOTE_MARKS and b < len(text):
                b -= 1
            while a < b and text[a] in _QUOTE_MARKS and a > 0:
                a += 1
        for start, end in sentences(text[a:b]):
            start, end = a + start, a + end
            if is_quoted or not _embeds_quote(text, start, end, piece):
                yield start, end, is_quoted


def select(message: Message) -> list[SentenceCue]:
    """The sentences of one message that the rules should look at (empty for most)."""
    if message.incognito or message.role in (Role.ASSISTANT, Role.SYSTEM):
        return []
    selected: list[SentenceCue] = []
    if message.role is not Role.USER:
        # Untrusted content: only its instruction-like lines become (rejected) candidates,
        # and every field of an imported profile is a candidate of origin `imported`.
        split = _import_spans if message.role is Role.IMPORT else sentences
        for start, end in split(message.text):
            found = _untrusted(message, start, end)
            if found is not None:
                selected.append(found)
        return selected
    spans = list(_sentence_spans(message))
    if spans and not any(q for _, _, q in spans) and modality.corrects_previous(message.text):
        # "Sorry, 43! 42 was years ago": the whole message corrects the one before it; it is
        # kept whole, with what it corrects as its context (permem.extraction.context).
        start, end = spans[0][0], spans[-1][1]
        cues, topic = _user_cues(message, message.text[start:end], remember=False)
        cues |= {Cue.RETRACTION, Cue.ELLIPTICAL}
        return [SentenceCue(message, start, end, frozenset(cues), topic, None)]
    own = " ".join(message.text[a:b] for a, b, is_quoted in spans if not is_quoted)
    belief = lx.BELIEF.search(own) is not None
    for_someone = lx.FOR_SOMEONE.search(own) is not None
    for_relation = False
    for start, end, is_quoted in spans:
        if is_quoted:
            found = _quoted(message, start, end)
            if found is not None:
                selected.append(found)
            continue
        text = message.text[start:end]
        prefix = lx.DISCOURSE_PREFIX.match(text)
        core = text[prefix.end() :] if prefix and prefix.end() < len(text) else text
        # A remember request covers its own sentence; "Please remember that." on its own
        # covers the sentence before it, and nothing else of the message.
        remember = lx.REMEMBER_REQUEST.search(core) is not None
        if remember and _remember_only(core):
            if selected and selected[-1].end <= start and Cue.QUOTED not in selected[-1].cues:
                last = selected[-1]
                selected[-1] = SentenceCue(
                    message, last.start, last.end, last.cues | {Cue.REMEMBER_REQUEST},
                    last.topic, last.relation,
                )  # fmt: skip
            continue
        if _plainly_not_a_claim(core):
            continue
        cues, topic = _user_cues(message, core, remember)
        # A retraction in one clause takes back for the whole sentence ("Sold the scooter last
        # week, I walk everywhere now").
        s_start, s_end = sentence_around(message.text, start, end)
        sentence = message.text[s_start:s_end]
        if Cue.RETRACTION not in cues and modality.retracts(sentence):
            cues.add(Cue.RETRACTION)
        # So does a one-off ("just for tonight, I'd like something spicy"); shopping for
        # someone else covers the whole message ("… for my nephew. He loves trucks").
        # Something for another person ("a vegan cake for my sister's party") covers its
        # sentence and the ones after it that say no "I" ("she loves K-pop").
        if lx.FOR_A_RELATION.search(sentence):
            for_relation = True
        elif for_relation and lx.I_STATEMENT.match(core):
            for_relation = False
        if Cue.ONE_OFF not in cues and (lx.ONE_OFF.search(sentence) or for_someone or for_relation):
            cues.add(Cue.ONE_OFF)
        if belief:
            # "oh here's mine: the Great Wall is ... I've always believed that": the belief
            # cue of one sentence covers the message; a consequence drawn for the user's own
            # conduct ("so no sweets for mine") keeps the claim (recall never uses it for a
            # factual question).
            cues.add(Cue.BELIEF)
            # The belief's own clause stays a belief unless it draws the consequence itself;
            # another clause of the message is the consequence when the message draws one.
            clause = message.text[start:end]
            believed = lx.BELIEF.search(clause) is not None
            if modality.own_conduct(clause if believed else own):
                cues.add(Cue.OWN_CONDUCT)
        if not _worth_parsing(core, cues, topic, message):
            continue
        relation_match = lx.THIRD_PARTY_SUBJECT.search(text)
        relation = relation_match.group("relation").lower() if relation_match else None
        selected.append(SentenceCue(message, start, end, frozenset(cues), topic, relation))
    return selected


def select_many(messages: Sequence[Message]) -> list[SentenceCue]:
    return [cue for message in messages for cue in select(message)]
