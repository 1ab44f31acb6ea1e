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
`quoted_content` cue, which the classifier and the gate read as untrusted. Which cues a
sentence carries, and whether they make it worth parsing, are the rules of
`permem.extraction.cue_rules`; this module splits the text and applies them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from permem.extraction import imports, modality, no_claim, quoted
from permem.extraction import lexicon as lx
from permem.extraction.context import bound_only, sentence_around
from permem.extraction.cue_rules import (
    Cue,
    _user_cues,
    _worth_parsing,
)
from permem.extraction.kept_dates import without_kept_dates
from permem.extraction.stays import away_for_a_while, stay_bounded_after
from permem.prefilter import guard_patterns
from permem.records import Message, Role
from permem.temporal import has_window
from permem.temporal_phrases import _ONE_DAY, MONTH_PART

__all__ = ["Cue", "SentenceCue", "select", "select_many", "sentences"]


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
    r"(?=(?:(?:now|nowadays|actually|instead|currently|these\s+days|"
    # A time named before the restart: "I'm vegetarian, and tomorrow I'm at my mum's" is two
    # statements, and the day belongs to the second only.
    r"today|tonight|tomorrow|(?:this|next|on|from|until|till)\s+[\w-]+(?:\s+\d{1,2}\w*)?)"
    r"\s*,?\s+)?"
    # Not a subject said with another ("the kids and I are at my mum's").
    r"(?:i(?!\s+(?:are|were|have|both)\b)|i'm|im|i've|i'd|i am|i was|my)\b)",
    re.IGNORECASE,
)


# A question that ends a sentence after a statement: ", how do pensions work?".
_ASKED_AFTER = re.compile(
    r"(?:[:;,]|\s+-+|\s+—)\s+(?=(?:how|what|why|when|where|which|who|can|could|should|would|"
    r"is|are|do|does|did|any)\b[^.!?,;:]*\?+\s*$)",
    re.IGNORECASE,
)
_CONDITION_OPENS = re.compile(
    r"^\W*(?:(?:anyway|so|and|but|ok|okay|lol|haha|hmm|well|hypothetically|just\s+curious|"
    r"random\s+question|out\s+of\s+curiosity)\W+){0,3}(?:if|supposing|"
    r"suppose|assuming|say|imagine|what\s+if|in\s+case|when|whether|once|were\s+i|had\s+i)\b",
    re.IGNORECASE,
)
# Where a clause may end inside a sentence, whatever word follows.
_CLAUSE_END = re.compile(r",\s*|;\s*|:\s+|\s+-+\s+|\s+—\s+")
_TAKEBACK_WORDS = 6


def _takeback_only(piece: str) -> bool:
    """A short clause that only takes back ("I've changed my mind,", "scratch that,", "my
    bad,"): what follows it is a statement of its own ("give me detailed answers"), which
    the takeback must not drag into rejection with it."""
    return len(_WORDS.findall(piece)) <= _TAKEBACK_WORDS and (
        modality.called_off(piece) or modality.withdrawn(piece)
    )


def _adverbial(piece: str) -> bool:
    """A clause that only says when ("from July 21 until July 28,", "heads up: starting
    Monday,") or for whom ("me personally,"): it belongs to the clause after it."""
    if _FOR_WHOM_LEAD.fullmatch(piece.strip(" \t,;:-—")):
        return True
    return (
        (has_window(piece) or MONTH_PART.search(piece) is not None)
        and lx.FIRST_PERSON.search(piece) is None
        and len(_WORDS.findall(piece)) <= _ADVERBIAL_WORDS
    )


# "Me personally, I go business class": whom the clause after it is for.
_FOR_WHOM_LEAD = re.compile(
    r"(?:(?:and|but|so)\s+)?(?:me\s+personally|personally|speaking\s+for\s+myself|for\s+myself|"
    r"as\s+for\s+me|for\s+me\s+(?:alone|only))",
    re.IGNORECASE,
)


_WORDS = re.compile(r"[^\W_]+")
_ADVERBIAL_WORDS = 10


# A face or an emoji between two statements ends the first, as a full stop would: "Dropped my
# phone in the sink :( using a spare one till Friday".
_EMOTICON_END = re.compile(
    r"(?<=\S)\s+(?:[:;=8]-?[()\[\]DPpO/\\|*]+|<3|[\U0001F300-\U0001FAFF\u2600-\u27BF]+)(?=\s+\w)"
)


def _full_stops(text: str) -> Iterator[tuple[int, int]]:
    """The spans of `text`'s sentences, a face or an emoji ending one as a stop does."""
    for match in _SENTENCE.finditer(text):
        start = match.start()
        for face in _EMOTICON_END.finditer(match.group()):
            end = match.start() + face.end()
            yield start, end
            start = end
        yield start, match.end()


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """Character spans of the clauses of `text`, whitespace trimmed. A clause that only says
    when stays with the clause it bounds (`_adverbial`)."""
    for start, end in _full_stops(text):
        sentence = text[start:end]
        breaks = [start + m.start() for m in _CLAUSE_BREAK.finditer(sentence)]
        first_end = _CLAUSE_END.search(sentence)
        if first_end is not None and _takeback_only(text[start : start + first_end.start()]):
            breaks = sorted({*breaks, start + first_end.start()})
        asked = _ASKED_AFTER.search(sentence)
        if (
            asked is not None
            and len(_WORDS.findall(sentence[: asked.start()])) >= 3
            # "supposing I got a car one day, would an estate fit?": the condition belongs to
            # the question.
            and not _CONDITION_OPENS.match(sentence)
        ):
            # "Just this once I want a long answer: how do pensions work?": the question
            # after the statement is a clause of its own, and does not make the statement one.
            breaks = sorted({*breaks, start + asked.start()})
        pieces = [start]
        for at in breaks:
            if not _adverbial(text[pieces[-1] : at]):
                pieces.append(at)
        pieces.append(end)
        for a, b in zip(pieces, pieces[1:], strict=False):
            piece = text[a:b]
            stripped = piece.strip(" \t,;:-—")
            if not stripped:
                continue
            lead = piece.index(stripped[0])
            yield a + lead, a + lead + len(stripped)


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
    if no_claim.plainly_not_a_claim(text):
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
            # A task that sets the format of the text it quotes ("translate into Dutch for my
            # neighbour: '...'") is kept: an exception for that piece (no_claim).
            if (
                is_quoted
                or not _embeds_quote(text, start, end, piece)
                or no_claim.format_of_one_piece(text[start:end])
            ):
                yield start, end, is_quoted


@dataclass(frozen=True, slots=True)
class _SentenceSays:
    """What a whole sentence says for each of its clauses: it takes something back, it is for
    another person, it is a one-off."""

    retracts: bool
    for_a_relation: bool
    one_off: bool
    undecided: bool


def select(message: Message, holder: frozenset[str] = frozenset()) -> list[SentenceCue]:
    """The sentences of one message that the rules should look at (empty for most); `holder`:
    the holder's names when someone else types (`speakers.helped_holders`)."""
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
    belief = lx.believed(own)
    # For someone else, or a lapse then a return ("had cake at the party, back on track"): once.
    for_someone = lx.FOR_SOMEONE.search(without_kept_dates(own)) is not None or (
        modality.lapse_then_return(own)
    )
    for_relation = False
    asked = False  # the sentence before this one asked a question
    owned = False  # a mistake owned before ("Wait, I mixed them up."): what follows corrects
    whole: dict[tuple[int, int], _SentenceSays] = {}  # what each whole sentence says, by its span
    for i, (start, end, is_quoted) in enumerate(spans):
        follows_question, asked = (
            asked,
            not is_quoted and bool(_ASKS.search(message.text[start:end])),
        )
        if is_quoted:
            found = _quoted(message, start, end)
            if found is not None:
                selected.append(found)
            continue
        text = message.text[start:end]
        if (
            selected
            and Cue.QUOTED not in selected[-1].cues
            and not message.text[selected[-1].end : start].strip(" \t\n.!?;,")
            and bound_only(text)
        ):
            # "Starting the 15th I'm doing a juice cleanse. It runs for ten days.": a sentence
            # that only bounds the one before it belongs to its claim.
            last = selected[-1]
            # Bounded, a trip is a stay ("I'm off to Lisbon on Friday. Back by the 30th.").
            both = message.text[last.start : end]
            trip = last.topic is None and away_for_a_while(both, message.ts)
            selected[-1] = replace(last, end=end, topic="home" if trip else last.topic)
            continue
        prefix = lx.DISCOURSE_PREFIX.match(text)
        core = text[prefix.end() :] if prefix and prefix.end() < len(text) else text
        # A remember request covers its own sentence; "Please remember that." on its own
        # covers the sentence before it, and nothing else of the message.
        remember = lx.REMEMBER_REQUEST.search(core) is not None
        if remember and no_claim.remember_only(core):
            if selected and selected[-1].end <= start and Cue.QUOTED not in selected[-1].cues:
                last = selected[-1]
                selected[-1] = SentenceCue(
                    message, last.start, last.end, last.cues | {Cue.REMEMBER_REQUEST},
                    last.topic, last.relation,
                )  # fmt: skip
            continue
        if no_claim.one_off_only(core):
            # "I had some of the lamb at the wedding. A one-off.": what the message said before
            # happened once.
            selected = _marked(selected, Cue.ONE_OFF)
            continue
        if lx.HEDGE_TAG.match(core):
            # "pretty sure it's 2031? don't quote me": the tag hedges what the message said
            # before it and claims nothing itself.
            selected = _marked(selected, Cue.HEDGE)
            continue
        if no_claim.plainly_not_a_claim(core):
            owned = owned or modality.withdrawn(text)  # "Ugh, wrong person."
            continue
        cues, topic = _user_cues(message, core, remember, holder)
        if (
            _SO_OPENS.match(text)
            and _DOING.match(core)
            and not _NOW.search(core)
            and _ONE_DAY.search(message.text[:end])
        ):
            # "thunderstorm tomorrow, so I'm driving in": a decision drawn from a day's
            # occasion ("..., so I'm producing music at home now" is a new state).
            cues.add(Cue.PLAN)
        if follows_question and _CONCLUSION.match(text):
            # "Students get in free on Sundays, right? So I'm covered": where a question leaves the
            # user holds only if the answer is yes; the user asked, they did not say.
            cues.add(Cue.HYPOTHETICAL)
        # A retraction in one clause takes back for the whole sentence ("Sold the scooter last
        # week, I walk everywhere now").
        around = sentence_around(message.text, start, end)
        said = whole.get(around)
        if said is None:
            # Read once per sentence (twice: the last clause's span keeps the full stop), not
            # once per clause: a long sentence of many clauses (a pasted page with no full
            # stop) was read whole for each, quadratic in its length.
            sentence = message.text[around[0] : around[1]]
            said = whole[around] = _SentenceSays(
                retracts=modality.retracts(sentence),
                for_a_relation=lx.FOR_A_RELATION.search(sentence) is not None,
                one_off=lx.ONE_OFF.search(sentence) is not None,
                undecided=modality.undecided_sentence(sentence)
                or modality.undecided_beside(message.text, *around),
            )
        if Cue.RETRACTION not in cues and (said.retracts or owned):
            cues.add(Cue.RETRACTION)
        owned = owned or Cue.WITHDRAWN in cues
        if said.undecided:
            # "..., I'm mulling it over": what the sentence said is only being weighed.
            cues.add(Cue.CONSIDERED)
        # So does a one-off ("just for tonight, I'd like something spicy"); shopping for
        # someone else covers the whole message ("… for my nephew. He loves trucks").
        # Something for another person ("a vegan cake for my sister's party") covers its
        # sentence and the ones after it that say no "I" ("she loves K-pop").
        if said.for_a_relation:
            for_relation = True
        elif for_relation and lx.I_STATEMENT.match(core):
            for_relation = False
        if Cue.ONE_OFF not in cues and (said.one_off or for_someone or for_relation):
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
            believed = lx.believed(clause)
            if modality.own_conduct(clause if believed else own):
                cues.add(Cue.OWN_CONDUCT)
        after = spans[i + 1] if i + 1 < len(spans) and not spans[i + 1][2] else None
        bound = message.text[after[0] : after[1]] if after else ""
        if topic is None and (bounded := stay_bounded_after(core, bound, message.ts)):
            core, topic = bounded, "home"  # "I'm off to Lisbon on Friday. Back by the 30th."
        if not _worth_parsing(core, cues, topic, message):
            continue
        relation_match = lx.THIRD_PARTY_SUBJECT.search(text)
        relation = relation_match.group("relation").lower() if relation_match else None
        selected.append(SentenceCue(message, start, end, frozenset(cues), topic, relation))
    return selected


# A sentence that asks (ends with a question mark, a closing bracket or quote after it).
_ASKS = re.compile(r"\?[\s\"')\]”’]*$")  # noqa: RUF001
# A sentence that opens by drawing, from the one before it, where that leaves the user: a
# standing or a permission ("so I'm sorted", "therefore we're covered", "so I can skip it",
# "so I don't need a visa"). What the user does ("so I never tip there") is their own conduct
# whatever the premise, and stays.
_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|anymore|any\s+more|for\s+good)\b", re.I)
_SO_OPENS = re.compile(r"^\W*(?:so|hence|therefore)\b", re.IGNORECASE)
_DOING = re.compile(
    r"^\W*(?:(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+\w+ing\b|it['’]s\s+the\s+\w+\s+for\s+(?:me|us)\b)",
    re.IGNORECASE,
)
_CONCLUSION = re.compile(
    r"^\W*(?:so|therefore|hence|thus|which\s+means|that\s+means|in\s+which\s+case)[\s,]+"
    r"(?:i'?m|i\s+am|we'?re|we\s+are|i'?ll\s+be|we'?ll\s+be|i\s+can|we\s+can|"
    r"(?:i|we)\s+(?:don'?t|do\s+not)\s+(?:need|have)\s+to|no\s+need)\b",
    re.IGNORECASE,
)


def _marked(selected: list[SentenceCue], cue: Cue) -> list[SentenceCue]:
    """The sentences selected so far with `cue` added (quoted text keeps its own cues): what a
    later sentence says of them ("A one-off.", "don't quote me")."""
    return [s if Cue.QUOTED in s.cues else replace(s, cues=s.cues | {cue}) for s in selected]


def select_many(
    messages: Sequence[Message], holders: Mapping[tuple[str, str], frozenset[str]] | None = None
) -> list[SentenceCue]:
    found = holders or {}
    return [
        cue for m in messages for cue in select(m, found.get((m.tenant, m.message_id), frozenset()))
    ]


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
