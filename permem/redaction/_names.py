"""People's names: spaCy's entities, corrected by what the sentence says about them."""

from __future__ import annotations

from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from spacy.tokens import Doc, Span, Token

__all__ = ["NameRecognizer"]

# Relation words after which a named entity (whatever spaCy labelled it) is a person's name.
_RELATIONS = frozenset(
    """wife husband partner spouse girlfriend boyfriend fiance fiancé fiancee fiancée son
    daughter kid child baby toddler mom mum mother mama dad father papa parent brother sister
    sibling twin cousin aunt auntie uncle niece nephew grandma grandpa grandmother grandfather
    granny grandson granddaughter friend bestie bff buddy pal roommate flatmate housemate
    colleague coworker co-worker boss manager supervisor neighbor neighbour teacher tutor
    doctor therapist dentist physio coach trainer landlord landlady ex mentor client nanny
    babysitter stepmom stepdad stepson stepdaughter""".split()
)
# Nouns for people: "X is the keynote speaker", "a guy named X", "my dog is called X".
_PEOPLE = _RELATIONS | frozenset(
    """guy girl boy man woman person people lady gentleman someone somebody dog cat puppy
    kitten pet horse engineer speaker nurse student lawyer singer actor actress writer author
    artist musician player chef ceo founder director professor scientist designer developer
    programmer researcher host guest member owner employee""".split()
)
# What only a person has: "X's husband", "the gender of X", "X's phone number".
_PERSONAL = _RELATIONS | frozenset(
    """gender age birthday pronoun pronouns sexuality ethnicity religion nationality diagnosis
    funeral wedding surname nickname phone email address""".split()
)
# Verbs whose subject is a person even when spaCy calls it an organisation ("Enrico shouted"),
# and verbs whose subject is mostly a person but may be a company ("Netflix wants ..."): those
# count only for a proper noun spaCy did not label ORG.
_PERSON_SUBJECT_VERBS = frozenset(
    """live shout yell scream whisper speak talk chat cry laugh smile dance sleep marry graduate
    retire die feel think believe move""".split()
)
_MOSTLY_PERSON_SUBJECT_VERBS = frozenset(
    "say tell ask love hate like prefer enjoy want eat drink cook sing visit meet".split()
)
_PERSON_OBJECT_VERBS = frozenset(
    "tell ask call text email message contact invite remind meet marry hug kiss thank miss".split()
)
# Adjectives said of people: "why is X so impulsive".
_TRAITS = frozenset(
    """impulsive kind rude nice mean funny shy lazy smart clever annoying grumpy moody stubborn
    bossy sweet generous selfish jealous arrogant polite friendly lonely angry upset sad happy
    pregnant sick ill married single divorced""".split()
)
_GREETINGS = frozenset("hi hey hello dear thanks cheers bye regards sincerely".split())
_AT_PERSON_VERBS = frozenset("shout yell scream talk speak chat write text argue".split())
_PLACE_PREPOSITIONS = frozenset("in near around outside across throughout within".split())
_MOTION_VERBS = frozenset("move go fly travel relocate drive come return commute emigrate".split())
# What one switches or upgrades to is a thing: "switched to Linux Mint".
_SWITCH_VERBS = frozenset("switch upgrade downgrade migrate convert".split())
_TITLES = frozenset("mr mrs ms miss mx dr prof professor sir dame rev".split())
_POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "their", "'s", "’s"})
# Entity labels that cannot be a name, even right after "my friend".
_NOT_NAMES = frozenset(
    {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "NORP", "LANGUAGE"}
)
# Labels that rule out a name found only by its role ("my Pixel 8 eats battery").
_THINGS = frozenset({"PRODUCT", "WORK_OF_ART", "EVENT", "LAW", "FAC"})


class NameRecognizer(LocalRecognizer):
    """People's names: spaCy's PERSON entities, corrected by what the sentence says.

    en_core_web_sm often labels first names ORG or GPE ("Emma moved to Lyon": Emma -> ORG),
    misses them ("my brother Tunde": no entity), and labels towns PERSON. So a proper noun or an
    entity of any label is a name when a relation word introduces it ("my wife X", "named X",
    "call me X", "my name is X"; after "I'm" only an entity, so "I'm on a Pixel 8" keeps its
    words), a title precedes it ("Dr X"), it does what only people do ("X shouted at Y", "X lives
    on ...", "X is the speaker", "X's husband"), it is coordinated with a name ("X and Y"), or
    it repeats a word of a name found elsewhere in the text. A PERSON entity whose text the same
    message uses as a place ("in Goa", "moved to Lyon") is a place, and one that is owned ("my
    Pixel") or has an article ("the Mac") a thing.
    """

    def __init__(self) -> None:
        super().__init__(supported_entities=["PERSON"], name="NameRecognizer")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if nlp_artifacts is None:
            return []
        parse = _Parse(nlp_artifacts.tokens, text)
        doc = parse.doc
        places = {tok.text for tok in doc if _is_place(tok)}
        names = [
            e
            for e in parse.ents
            if e.label_ == "PERSON"
            and e.root.text not in places
            and not _owned(e.root)
            and not _determined(e.root)
        ]
        for tok in doc:
            span = _introduced_name(parse, tok)
            if span is None and _may_name(tok, _role(tok)):
                span = parse.name_at(tok, loose=True)
            if span is not None:
                names.append(span)
        for span in list(names):
            names.extend(n for c in span.root.conjuncts if (n := parse.name_at(c)) is not None)
        words = {
            t.text
            for s in names
            if len(s) <= 3
            for t in s
            if t.is_alpha and len(t) > 1 and not t.is_stop and parse.capitalised(t)
        }
        names.extend(doc[t.i : t.i + 1] for t in doc if t.text in words)
        return [RecognizerResult("PERSON", s.start_char, s.end_char, 0.85) for s in names]


class _Parse:
    """A parsed text with the lookups the name rules need, computed once."""

    def __init__(self, doc: Doc, text: str) -> None:
        self.doc = doc
        self.ents = tuple(doc.ents)
        self.entity_of = {i: ent for ent in self.ents for i in range(ent.start, ent.end)}
        # In a text typed all in lower case, case says nothing about names.
        self.cased = any(ch.isupper() for ch in text)

    def entity_at(self, tok: Token) -> Span | None:
        """The entity `tok` belongs to, unless its label rules out a name (a date, a number)."""
        ent = self.entity_of.get(tok.i)
        return None if ent is None or ent.label_ in _NOT_NAMES else ent

    def name_at(self, tok: Token, loose: bool = False) -> Span | None:
        """The name at `tok`: its entity, or its run of capitalised proper nouns.

        `loose` also accepts a capitalised common noun (the tagger calls rare names NOUN) where
        the role already says "person".
        """
        if tok.i in self.entity_of:
            return self.entity_at(tok)
        if not self.capitalised(tok) or len(tok) < 2 or tok.lower_ in _PEOPLE:
            return None
        if tok.pos_ != "PROPN" and not (loose and tok.pos_ == "NOUN" and tok.is_title):
            return None
        doc, start, end = self.doc, tok.i, tok.i
        while start > 0 and doc[start - 1].pos_ == "PROPN" and self.capitalised(doc[start - 1]):
            start -= 1
        while (
            end + 1 < len(doc) and doc[end + 1].pos_ == "PROPN" and self.capitalised(doc[end + 1])
        ):
            end += 1
        return doc[start : end + 1]

    def capitalised(self, tok: Token) -> bool:
        return tok.is_title or (tok.is_alpha and not self.cased)

    def words_at(self, start: int) -> Span | None:
        """Up to three content words from `start`: a name typed in lower case ("my name is jo")."""
        doc, end = self.doc, start
        while (
            end < len(doc)
            and end - start < 3
            and doc[end].is_alpha
            and not doc[end].is_stop
            and doc[end].pos_ not in ("VERB", "AUX", "ADJ", "ADP", "CCONJ", "SCONJ", "DET", "PART")
        ):
            end += 1
        return doc[start:end] if end > start else None


def _is_place(tok: Token) -> bool:
    """Whether `tok` is used as a place: "in Goa", "moved to Lyon", "flew from Oslo" (or a
    thing switched to: "switched to Linux Mint")."""
    if tok.dep_ != "pobj":
        return False
    prep = tok.head
    return prep.lower_ in _PLACE_PREPOSITIONS or (
        prep.lower_ in ("to", "from") and prep.head.lemma_ in _MOTION_VERBS | _SWITCH_VERBS
    )


def _introduced_name(parse: _Parse, tok: Token) -> Span | None:
    """The name that `tok` introduces, if it is a relation word ("my wife", "named", ...)."""
    doc, low, nxt = parse.doc, tok.lower_, tok.i + 1
    if nxt >= len(doc):
        return None
    # The three words before are read only for a relation word (this runs for every token).
    if low in _RELATIONS and {t.lower_ for t in doc[max(0, tok.i - 3) : tok.i]} & _POSSESSIVES:
        if doc[nxt].text == "," and nxt + 1 < len(doc):
            nxt += 1
        after = doc[nxt]
        if (
            after.dep_ == "appos"
            and after.head.i == tok.i
            and after.pos_ == "NOUN"
            and not parse.cased
        ):
            return doc[nxt : nxt + 1]  # "my brother tunde": lower case, tagged NOUN
        return parse.name_at(after, loose=True)
    if low in ("named", "called") and _names_someone(tok):
        if doc[nxt].lower_ in ("him", "her", "them", "it") and nxt + 1 < len(doc):
            nxt += 1
        return parse.name_at(doc[nxt], loose=True)
    if low == "me" and tok.i > 0 and doc[tok.i - 1].lemma_ == "call":
        return parse.name_at(doc[nxt], loose=True)
    if low in _GREETINGS and (tok.i == 0 or not doc[tok.i - 1].is_alpha):
        if doc[nxt].text == "," and nxt + 1 < len(doc):
            nxt += 1
        return parse.name_at(doc[nxt], loose=True) if _may_name(doc[nxt], "mostly") else None
    if low.rstrip(".") in _TITLES and tok.is_title:
        return parse.name_at(doc[nxt], loose=True)
    if low in ("is", "'s") and tok.i > 1 and doc[tok.i - 1].lower_ == "name":
        return parse.name_at(doc[nxt], loose=True) or parse.words_at(nxt)
    if low in ("'m", "am", "m") and tok.i > 0 and doc[tok.i - 1].lower_ == "i":
        # "I'm London-based", "I'm Dublin-born": the place describes, it names no one.
        if nxt + 1 < len(doc) and doc[nxt + 1].text == "-":
            return None
        return parse.entity_at(doc[nxt])
    return None


def _role(tok: Token) -> str | None:
    """Whether `tok` fills a role only a person fills ("person": subject of "shout", object of
    "tell", "X is the speaker"), one mostly a person fills ("mostly": subject of "say"), or
    neither (None)."""
    head = tok.head
    if tok.dep_ in ("nsubj", "nsubjpass"):
        if head.lemma_ in _PERSON_SUBJECT_VERBS:
            return "person"
        if head.lemma_ in _MOSTLY_PERSON_SUBJECT_VERBS:
            return "mostly"
        if head.lemma_ != "be":
            return None
        for c in head.children:
            if (c.dep_ == "attr" and c.lemma_.lower() in _PEOPLE) or (
                c.dep_ == "acomp" and c.lemma_.lower() in _TRAITS
            ):
                return "person"
            if (
                c.dep_ == "prep"
                and c.lower_ == "from"
                and any(
                    g.dep_ == "pobj" and (g.pos_ == "PROPN" or g.ent_type_ in ("GPE", "ORG"))
                    for g in c.children
                )
            ):
                return "person"  # "Luiza is from Xignite"
        return None
    if tok.dep_ == "dative":  # the receiver: "gave Thaddeus his address"
        return "person"
    if tok.dep_ == "dobj" and head.lemma_ in _PERSON_OBJECT_VERBS:
        return "person"
    if tok.dep_ == "pobj" and head.lower_ in ("at", "to", "with"):
        return "person" if head.head.lemma_ in _AT_PERSON_VERBS else None
    if tok.dep_ == "pobj" and head.lower_ == "of":
        return "person" if head.head.lemma_.lower() in _PERSONAL else None
    if tok.dep_ == "poss":
        return "person" if head.lemma_.lower() in _PERSONAL else None
    if tok.dep_ == "appos" and any(c.lemma_.lower() in _PEOPLE for c in (head, *tok.children)):
        return "person"
    return None


def _may_name(tok: Token, role: str | None) -> bool:
    """Whether a proper noun in `role` is a name: never one spaCy calls a product or a work, or
    one that is owned ("my Pixel"); in a "mostly" role only one it calls a person or nothing."""
    if role is None or tok.ent_type_ in _THINGS or _owned(tok) or _determined(tok):
        return False
    return role == "person" or tok.ent_type_ in ("", "PERSON")


def _owned(tok: Token) -> bool:
    """ "my Pixel", "our Tesla": people are not owned, things are."""
    return any(c.dep_ == "poss" and c.pos_ == "PRON" for c in tok.children)


def _determined(tok: Token) -> bool:
    """ "the Mac", "this Kindle": one person's name takes no definite article; a family's may
    ("the Kowalskis"). "a Sarah from accounts" stays a name."""
    return tok.tag_ != "NNPS" and any(
        c.dep_ == "det" and c.lower_ in ("the", "this", "that") for c in tok.children
    )


def _names_someone(verb: Token) -> bool:
    """Whether "named"/"called" names a person or pet ("a guy named", not "an app called")."""
    if verb.dep_ == "acl":
        return verb.head.lower_ in _PEOPLE or verb.head.pos_ == "PRON"
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            return child.lower_ in _PEOPLE or child.pos_ == "PRON"
    return False
