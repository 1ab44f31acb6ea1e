"""Redaction of direct identifiers in candidate claims: Presidio over permem's own spaCy pipeline.

A direct identifier (a name, an email address, a phone or card number, a street address, a
secret in a URL, a national id) must never reach a stored claim; the preference around it must
survive: "email me at jo@x.com, I prefer mornings" keeps "I prefer mornings". City- and
country-level places, organisations, dates and nationalities are kept: they are not direct
identifiers, and whether they are sensitive is decided by the write gate.

Presidio never loads a model here: its NLP engine wraps the pipeline it is given, and a caller
that already parsed the text passes the `Doc`, so the text is parsed once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

# tldextract (Presidio's email validation) fetches the public suffix list over the network on
# first use unless this is set; empty means "use the bundled snapshot". It must be set before
# tldextract is imported, because its default extractor reads it when constructed.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from presidio_analyzer import (
    AnalyzerEngine,
    LocalRecognizer,
    Pattern,
    PatternRecognizer,
    RecognizerRegistry,
    RecognizerResult,
)
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.nlp_engine import NerModelConfiguration, NlpArtifacts, SpacyNlpEngine
from presidio_analyzer.predefined_recognizers import (
    AuMedicareRecognizer,
    AuTfnRecognizer,
    CaSinRecognizer,
    CreditCardRecognizer,
    CryptoRecognizer,
    EmailRecognizer,
    EsNieRecognizer,
    EsNifRecognizer,
    FiPersonalIdentityCodeRecognizer,
    IbanRecognizer,
    InAadhaarRecognizer,
    IpRecognizer,
    ItFiscalCodeRecognizer,
    KrRrnRecognizer,
    MedicalLicenseRecognizer,
    NhsRecognizer,
    PhoneRecognizer,
    PlPeselRecognizer,
    SgFinRecognizer,
    UkNinoRecognizer,
    UsBankRecognizer,
    UsItinRecognizer,
    UsLicenseRecognizer,
    UsPassportRecognizer,
    UsSsnRecognizer,
)
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import OperatorConfig
from presidio_anonymizer.entities import RecognizerResult as AnonymizerInput
from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from permem.errors import BadInput
from permem.redaction_secrets import SECRET, SECRET_ENTITIES, secret_recognizers

__all__ = ["DIRECT_IDENTIFIERS", "Entity", "Redaction", "Redactor"]

LANGUAGE = "en"
# Below this Presidio score a match is dropped. Weak patterns (a bare 9-digit number as a
# passport, 7 digits as a driver's licence) only reach it with a context word nearby.
SCORE_THRESHOLD = 0.4

DIRECT_IDENTIFIERS: frozenset[str] = frozenset(
    {
        "PERSON",
        "EMAIL_ADDRESS",
        "PHONE_NUMBER",
        "STREET_ADDRESS",
        "CREDIT_CARD",
        "IBAN_CODE",
        "US_BANK_NUMBER",
        "US_SSN",
        "US_ITIN",
        "US_PASSPORT",
        "US_DRIVER_LICENSE",
        "MEDICAL_LICENSE",
        "UK_NHS",
        "UK_NINO",
        "ES_NIF",
        "ES_NIE",
        "IT_FISCAL_CODE",
        "PL_PESEL",
        "FI_PERSONAL_IDENTITY_CODE",
        "KR_RRN",
        "IN_AADHAAR",
        "SG_NRIC_FIN",
        "AU_TFN",
        "AU_MEDICARE",
        "CA_SIN",
        "ID_NUMBER",
        "IP_ADDRESS",
        "CRYPTO",
        "SECRET_URL",
        SECRET,
    }
)


@dataclass(frozen=True, slots=True)
class Entity:
    """One identifier found in a text: `text[start:end]` (end exclusive) is of `type`."""

    type: str
    start: int
    end: int
    score: float


@dataclass(frozen=True)
class Redaction:
    """A text and its redacted form, in which each entity became `<TYPE>`."""

    text: str
    redacted: str
    entities: tuple[Entity, ...]

    @property
    def changed(self) -> bool:
        """Whether anything was redacted."""
        return bool(self.entities)


class Redactor:
    """Finds and replaces direct identifiers; build one per process (building costs ~1 s)."""

    def __init__(self, nlp: Language) -> None:
        self._nlp = nlp
        engine = _GivenPipelineEngine(nlp)
        registry = RecognizerRegistry(recognizers=_recognizers(nlp), supported_languages=[LANGUAGE])
        self._engine = engine
        self._analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=engine,
            supported_languages=[LANGUAGE],
            default_score_threshold=SCORE_THRESHOLD,
            # Whole words only: substring matching lets "lic" (licence) fire inside "public".
            context_aware_enhancer=LemmaContextAwareEnhancer(context_matching_mode="whole_word"),
        )
        self._anonymizer = AnonymizerEngine()  # type: ignore[no-untyped-call]  # unannotated

    def analyze(self, text: str, doc: Doc | None = None) -> list[Entity]:
        """Direct identifiers in `text`, sorted, never overlapping.

        `doc`, when given, must be this pipeline's parse of exactly `text`; it is reused, not
        re-parsed. Overlapping matches become one entity covering all of them, typed after the
        best (a secret first, then highest score, then longest) match, so no part of any match
        survives redaction.
        """
        if doc is not None and not _parses(doc, text):
            raise BadInput("the doc passed to Redactor.analyze is not a parse of the text")
        artifacts = self._engine.artifacts(doc) if doc is not None else None
        results = self._analyzer.analyze(text=text, language=LANGUAGE, nlp_artifacts=artifacts)
        return _merge_overlaps(
            Entity(r.entity_type, r.start, r.end, r.score)
            for r in results
            if r.entity_type in DIRECT_IDENTIFIERS
        )

    def redact(self, text: str, doc: Doc | None = None) -> Redaction:
        """`text` with every direct identifier replaced by `<TYPE>` (e.g. `<PHONE_NUMBER>`)."""
        entities = self.analyze(text, doc)
        if not entities:
            return Redaction(text, text, ())
        anonymized = self._anonymizer.anonymize(
            text=text,
            analyzer_results=[AnonymizerInput(e.type, e.start, e.end, e.score) for e in entities],
            operators={"DEFAULT": OperatorConfig("replace")},
        )
        return Redaction(text, anonymized.text, tuple(entities))

    def redact_many(
        self, texts: Sequence[str], docs: Sequence[Doc] | None = None
    ) -> list[Redaction]:
        """`redact` for a batch; without `docs` the texts are parsed with one `nlp.pipe`."""
        if docs is None:
            docs = list(self._nlp.pipe(texts))
        if len(docs) != len(texts):
            raise BadInput(f"redact_many got {len(texts)} texts but {len(docs)} docs")
        return [self.redact(text, doc) for text, doc in zip(texts, docs, strict=True)]


class _GivenPipelineEngine(SpacyNlpEngine):
    """Presidio's spaCy engine over an already loaded pipeline; it never loads or downloads."""

    def __init__(self, nlp: Language) -> None:
        labels = nlp.pipe_labels.get("ner", [])
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": nlp.meta.get("name", "given")}],
            # _NameRecognizer reads the entities from the Doc itself (it has to correct them),
            # so Presidio's own entity mapping is switched off, and with it its warnings.
            ner_model_configuration=NerModelConfiguration(labels_to_ignore=list(labels)),
        )
        self.nlp = {LANGUAGE: nlp}  # type: ignore[assignment]

    def load(self) -> None:
        """Nothing to load: the pipeline was given."""

    def artifacts(self, doc: Doc) -> NlpArtifacts:
        return self._doc_to_nlp_artifact(doc, LANGUAGE)


def _parses(doc: Doc, text: str) -> bool:
    """Cheap check that `doc` is a parse of `text` (`doc.text` would rebuild the whole string)."""
    if len(doc) == 0:
        return text == ""
    first, last = doc[0], doc[-1]
    return (
        text.startswith(first.text)
        and last.idx + len(last.text_with_ws) == len(text)
        and text.startswith(last.text, last.idx)
    )


def _merge_overlaps(found: Iterator[Entity] | list[Entity]) -> list[Entity]:
    merged: list[Entity] = []
    for entity in sorted(found, key=lambda e: (e.start, -e.end)):
        if merged and entity.start < merged[-1].end:
            last = merged[-1]
            # A secret names the merged entity whatever else matched it, so the gate sees it.
            best = max(
                last,
                entity,
                key=lambda e: (e.type in SECRET_ENTITIES, e.score, e.end - e.start),
            )
            merged[-1] = Entity(best.type, last.start, max(last.end, entity.end), best.score)
        else:
            merged.append(entity)
    return merged


# --- recognizers ---------------------------------------------------------------------------


def _recognizers(nlp: Language) -> list[LocalRecognizer]:
    """Every recognizer the redactor runs (English only)."""
    return [
        _NameRecognizer(),
        EmailRecognizer(),
        # Presidio's default regions; a number in another national layout is still found when
        # it has its "+country" prefix, or words such as "call me at" introduce it.
        PhoneRecognizer(),
        CreditCardRecognizer(),
        # Card numbers of issuers the default pattern misses (Maestro 12 digits, 2-series
        # Mastercard, 19-digit Visa); the Luhn check the recognizer applies keeps it precise.
        CreditCardRecognizer(
            patterns=[Pattern("card number, any issuer", r"\b\d{4}(?:[ -]?\d){8,15}\b", 0.3)],
            name="AnyIssuerCardRecognizer",
        ),
        IbanRecognizer(),
        IpRecognizer(),
        CryptoRecognizer(),
        MedicalLicenseRecognizer(),
        UsSsnRecognizer(),
        UsItinRecognizer(),
        UsPassportRecognizer(),
        UsLicenseRecognizer(),
        UsBankRecognizer(),
        # National ids enabled because a checksum or a distinctive shape keeps them quiet on
        # ordinary chat (measured on persona-chat and PrefEval claims). Left out: ids with
        # neither (Nigerian NIN, Philippine UMID, Turkish id, Indian PAN/passport, UK passport
        # and licence), company, VAT and vehicle numbers (not personal), and postcodes.
        NhsRecognizer(),
        UkNinoRecognizer(),
        EsNifRecognizer(supported_language=LANGUAGE),
        EsNieRecognizer(supported_language=LANGUAGE),
        ItFiscalCodeRecognizer(supported_language=LANGUAGE),
        PlPeselRecognizer(supported_language=LANGUAGE),
        FiPersonalIdentityCodeRecognizer(supported_language=LANGUAGE),
        KrRrnRecognizer(supported_language=LANGUAGE),
        InAadhaarRecognizer(),
        SgFinRecognizer(),
        AuTfnRecognizer(),
        AuMedicareRecognizer(),
        CaSinRecognizer(supported_language=LANGUAGE),
        _IntroducedNumberRecognizer(),
        _secret_url_recognizer(),
        _StreetAddressRecognizer(),
        # Credentials (detect-secrets' plugins): masked as <SECRET>; the gate rejects the claim.
        *secret_recognizers(nlp),
    ]


def _secret_url_recognizer() -> PatternRecognizer:
    """URLs that carry a credential: `user:pass@host`, or a token-like query parameter."""
    tail = r"[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"
    return PatternRecognizer(
        supported_entity="SECRET_URL",
        name="SecretUrlRecognizer",
        patterns=[
            Pattern(
                "credentials in URL",
                r"\b[a-z][a-z0-9+.-]*://[^\s/?#@:]+:[^\s/?#@]+@" + tail,
                1.0,
            ),
            Pattern(
                "secret query parameter",
                r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)[^\s?#]*\?(?:[^\s#]*?[?&])?"
                r"(?:[\w.-]*[_-])?(?:token|key|apikey|secret|password|passwd|pwd|pass|sig"
                r"|signature|credential|auth)=" + tail,
                1.0,
            ),
        ],
    )


_NUMBER_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("US_DRIVER_LICENSE", r"driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e"),
    ("US_PASSPORT", r"passport"),
    ("US_SSN", r"ssn|social\s+security"),
    ("CREDIT_CARD", r"card"),
    ("US_BANK_NUMBER", r"(?:bank\s+)?account|acct|routing"),
    (
        "PHONE_NUMBER",
        r"phone|mobile|cell|tel|telephone|whats[ ]?app|sms|fax|my\s+number"
        r"|(?:call|text|message|reach)\s+(?:me|us)(?:\s+(?:at|on))?|messages\s+to",
    ),
    (
        "ID_NUMBER",
        r"(?:id|identity|national\s+insurance|ni|tax|tin|nhs|member(?:ship)?|policy|patient"
        r"|insurance|customer)\s+(?:card\s+)?(?:number|no\b\.?|num|nr|#)",
    ),
)


class _IntroducedNumberRecognizer(LocalRecognizer):
    """A number that the sentence introduces as an identifier: "my licence number is 5130634".

    Catches the formats no fixed pattern knows (foreign phone layouts, state licence shapes),
    because the words before the number say what it is. At least five digits are required.
    """

    _CONNECTOR = r"(?:\s+(?:number|no\.?|num|nr|#))?(?:\s*(?:is|was|:|=|#|-)\s*|\s+)"
    _VALUE = (
        r"(?P<value>\+?(?:[A-Za-z]{1,3}[ -]?)?\d(?:[ .-]?\d)*(?:[A-Za-z]{1,2}|[ -][A-Za-z])?)\b"
    )

    def __init__(self) -> None:
        self._patterns = [
            (kind, re.compile(rf"\b(?:{words})\b{self._CONNECTOR}{self._VALUE}", re.IGNORECASE))
            for kind, words in _NUMBER_KEYWORDS
        ]
        super().__init__(
            supported_entities=[kind for kind, _ in _NUMBER_KEYWORDS],
            name="IntroducedNumberRecognizer",
        )

    def load(self) -> None:
        """Nothing to load."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for kind, pattern in self._patterns:
            for match in pattern.finditer(text):
                if sum(ch.isdigit() for ch in match["value"]) >= 5:
                    start, end = match.span("value")
                    results.append(RecognizerResult(kind, start, end, 0.8))
        return results


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
_TITLES = frozenset("mr mrs ms miss mx dr prof professor sir dame rev".split())
_POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "their", "'s", "’s"})
# Entity labels that cannot be a name, even right after "my friend".
_NOT_NAMES = frozenset(
    {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "NORP", "LANGUAGE"}
)
# Labels that rule out a name found only by its role ("my Pixel 8 eats battery").
_THINGS = frozenset({"PRODUCT", "WORK_OF_ART", "EVENT", "LAW", "FAC"})


class _NameRecognizer(LocalRecognizer):
    """People's names: spaCy's PERSON entities, corrected by what the sentence says.

    en_core_web_sm often labels first names ORG or GPE ("Emma moved to Lyon": Emma -> ORG),
    misses them ("my brother Tunde": no entity), and labels towns PERSON. So a proper noun or an
    entity of any label is a name when a relation word introduces it ("my wife X", "named X",
    "call me X", "my name is X"; after "I'm" only an entity, so "I'm on a Pixel 8" keeps its
    words), a title precedes it ("Dr X"), it does what only people do ("X shouted at Y", "X lives
    on ...", "X is the speaker", "X's husband"), it is coordinated with a name ("X and Y"), or
    it repeats a word of a name found elsewhere in the text. A PERSON entity whose text the same
    message uses as a place ("in Goa", "moved to Lyon") is a place, and one that is owned ("my
    Pixel") a thing.
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
            if e.label_ == "PERSON" and e.root.text not in places and not _owned(e.root)
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
    """Whether `tok` is used as a place: "in Goa", "moved to Lyon", "flew from Oslo"."""
    if tok.dep_ != "pobj":
        return False
    prep = tok.head
    return prep.lower_ in _PLACE_PREPOSITIONS or (
        prep.lower_ in ("to", "from") and prep.head.lemma_ in _MOTION_VERBS
    )


def _introduced_name(parse: _Parse, tok: Token) -> Span | None:
    """The name that `tok` introduces, if it is a relation word ("my wife", "named", ...)."""
    doc, low, nxt = parse.doc, tok.lower_, tok.i + 1
    if nxt >= len(doc):
        return None
    before = {t.lower_ for t in doc[max(0, tok.i - 3) : tok.i]}
    if low in _RELATIONS and before & _POSSESSIVES:
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
    if role is None or tok.ent_type_ in _THINGS or _owned(tok):
        return False
    return role == "person" or tok.ent_type_ in ("", "PERSON")


def _owned(tok: Token) -> bool:
    """ "my Pixel", "our Tesla": people are not owned, things are."""
    return any(c.dep_ == "poss" and c.pos_ == "PRON" for c in tok.children)


def _names_someone(verb: Token) -> bool:
    """Whether "named"/"called" names a person or pet ("a guy named", not "an app called")."""
    if verb.dep_ == "acl":
        return verb.head.lower_ in _PEOPLE or verb.head.pos_ == "PRON"
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            return child.lower_ in _PEOPLE or child.pos_ == "PRON"
    return False


# --- street addresses ------------------------------------------------------------------------

_UPPER = r"[A-ZÀ-ÖØ-ÞĀ-žΑ-ΩΆ-ΏА-Я]"  # an upper-case initial (Latin, Greek, Cyrillic; Latin
# Extended-A is taken whole, its cases alternate)
_FUNCTION_WORD = r"(?:and|or|to|in|at|on|of|for|with|by|per|every|from|than|the|a|an|is|are)\b"
_PARTICLE = (
    r"(?:de|del|della|delle|dei|degli|di|da|do|dos|das|du|des|la|le|les|van|von|der|den|dem|z|u"
    r"|y|e|am|an|im|nad|pod|upon|sur|of|the)"
)
_NUM = r"\d{1,6}[A-Za-z]?\b"
_SUFFIX = (
    r"(?i:street|st|avenue|ave|road|rd|lane|ln|boulevard|blvd|drive|dr|court|ct|way|place|pl"
    r"|terrace|ter|close|crescent|cres|square|sq|highway|hwy|parkway|pkwy|circle|cir|trail"
    r"|row|mews|grove|gardens|alley|str)\b\.?"
)
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\b\.?"
# Street-type words of other languages, before the name ("Via Roma 131", "rue du Centre 8") or
# ending it ("Rooseveltlaan 110", "Villacher Strasse 89"). The prefixes that are also ordinary
# words ("via", "avenue", "route") count only capitalised.
_TYPE_PREFIX = (
    r"(?:(?i:rue|rua|calle|carrer|avenida|avda|viale|piazza|vicolo|strada|travessa|praça|chemin"
    r"|allée|quai|impasse|ulica|ul|aleja|corso)|Via|Avenue|Av|Boulevard|Route|Plaza|Largo|Paseo"
    r"|Camino)\b\.?"
)
_TYPE_ENDING = (
    r"(?i:strasse|straße|gasse|weg|allee|platz|damm|vej|veien|vegen|gate|gata|gatan|vägen|gade"
    r"|laan|straat|steeg|gracht|plein|kade|dreef|singel|katu|tie|kuja|utca|ulice|stræti|straeti"
    r"|sokak|caddesi)\b"
)
# The same words standing alone after the name ("Villacher Strasse 89"), minus the ones that are
# also English words ("gate 5", "tie").
_TYPE_WORD = (
    r"(?i:strasse|straße|gasse|weg|allee|platz|vej|veien|gata|gatan|gade|laan|straat|utca|út|u\."
    r"|ulice|ulica)(?:\b|(?<=\.))"
)
_UNIT = r"(?i:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|box)\b\.?[ \t]*#?[ \t]*\w{1,6}\b"
_POSTCODE = r"(?:\d{4,6}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2})\b"
_BULLET = r"(?:[ \t]*[^\w\s,]{1,3})?[ \t]*"  # "- ", "• ", "> " opening a line of a block
# Nouns that are counted, not addresses: "my flat is on level 3".
_COUNTED = (
    r"(?i:level|floor|storey|platform|gate|room|row|seat|page|line|bus|route|track|terminal"
    r"|channel|chapter|season|episode|version|day|week|year|number|no)\b"
)
# Words that announce an address, after which a name with a house number is one.
_ADDRESS_CUE = (
    r"(?i:address(?:[ \t]+is)?[ \t]*:?|li(?:ve[sd]?|ving)[ \t]+(?:on|at)|located[ \t]+(?:at|on)"
    r"|(?:station|office|house|home|flat|apartment|shop|store|entrance|stop|hotel|school"
    r"|building)[ \t]+is[ \t]+(?:on|at)|enter[ \t]+(?:on|at|from)|taxi[ \t]+to"
    r"|(?:send|ship|deliver|mail|post)\b[^.?!\n]{0,30}?\bto|(?:pick|drop)[ \t]+\w+[ \t]+(?:up|off)"
    r"[ \t]+(?:at|from))[ \t]+(?:the[ \t]+)?"
)


@dataclass(frozen=True)
class _AddressPatterns:
    """The address regexes for one kind of text: cased, or typed all in lower case."""

    cores: tuple[re.Pattern[str], ...]
    cued: re.Pattern[str]
    tail: re.Pattern[str]

    @classmethod
    def build(cls, cased: bool) -> _AddressPatterns:
        # A word of a street or place name: capitalised, or in a lower-case text any word
        # that is not a function word ("10 and 12." is no address).
        cap = (
            rf"(?:{_UPPER}[\w'’.-]*|\d+(?:st|nd|rd|th)\b)"
            if cased
            else rf"(?:(?!{_FUNCTION_WORD}|{_PARTICLE}\b)[^\W\d_][\w'’.-]*|\d+(?:st|nd|rd|th)\b)"
        )
        initial = _UPPER if cased else r"[^\W\d_]"
        name = (
            rf"(?:{_PARTICLE}[ \t]+){{0,2}}{cap}(?:[ \t]+(?:{_PARTICLE}[ \t]+){{0,2}}{cap}){{0,3}}"
        )
        end = r"|[.?!]|$" if cased else ""
        cores = [
            # 12 Baker Street, 1600 N Pennsylvania Ave NW
            rf"\b{_NUM}[ \t]+(?:{_DIRECTION}[ \t]+)?{name}[ \t]+{_SUFFIX}(?:[ \t]+{_DIRECTION})?",
            # Via dei Fiorentini 17, 33 avenue de Provence
            rf"\b{_TYPE_PREFIX}[ \t]+{name}[ \t]+{_NUM}",
            rf"\b{_NUM}[ \t]+(?i:{_TYPE_PREFIX})[ \t]+{name}",
            # Rooseveltlaan 110, Villacher Strasse 89, Wesselényi u. 94
            rf"\b(?:{initial}[\w'-]+?{_TYPE_ENDING}|{cap}[ \t]+{_TYPE_WORD})\.?[ \t]+{_NUM}",
            # building number, street, house number, then the end of the line or a unit:
            # 583 Magrethevej 298 (a year first is a date: "2019 Python 3")
            rf"\b(?!(?:19|20)\d\d\b)\d{{2,6}}[ \t]+{name}[ \t]+{_NUM}"
            rf"(?=[ \t]*(?:[\n,.;?!]|$|{_UNIT}))",
            # PO Box 123, P.O. Box 104
            r"\b(?i:p\.?[ \t]?o\.?[ \t]?box|post[ \t]+office[ \t]+box)[ \t]+\d+\b",
            # US military: PSC 1234, Box 5678 / APO AE 12345; USNS Name / FPO AA 12345
            r"\b(?:PSC|CMR|Unit)[ \t]+\d+,?[ \t]+Box[ \t]+\d+\s*,?\s*(?:APO|FPO|DPO)[ \t]+A[AEP]"
            r"[ \t]+\d{5}\b",
            rf"\b(?:USNS|USS|USCGC)[ \t]+{name}\s*,?\s*FPO[ \t]+A[AEP][ \t]+\d{{5}}\b",
            # a unit on its own (Apt 4B, Suite 200), and the address line just above it
            rf"(?:^{_BULLET}(?:{_NUM}[ \t]+)*{name}[ \t]+{_NUM}(?:[ \t]+{name})?[ \t]*\n{_BULLET})?"
            r"\b(?:(?i:apt|apartment|suite)\b\.?|Flat)[ \t]*#?[ \t]*\d[\w-]{0,5}\b",
            # the corner of Kuusiku 7 and Alexander Flat
            rf"\b(?i:(?:the[ \t]+)?corner[ \t]+of)[ \t]+(?:{_NUM}[ \t]+)?{name}(?:[ \t]+{_SUFFIX})?"
            rf"(?:[ \t]+{_NUM})?[ \t]+(?:and|&)[ \t]+(?:{_NUM}[ \t]+)?{name}(?:[ \t]+{_SUFFIX})?",
        ]
        line = (
            rf"(?:(?:{cap}|\d[\w-]*|{_PARTICLE})[ \t]+){{0,4}}(?:{cap}|\d[\w-]*)"
            if cased
            else rf"(?:(?:[^\W\d_][\w'’.-]*[ \t]+){{0,3}}{_POSTCODE}|(?:[^\W\d_][\w'’.-]*[ \t]+)?"
            r"[^\W\d_][\w'’.-]*)"
        )
        tail = (
            # the next line of a block: city, "state postcode", country
            rf"[ \t]*\.?[ \t]*\n{_BULLET},?[ \t]*(?:{_UNIT}|{line})(?=[ \t]*(?:\n|$|[,.;:?!]))"
            # after a comma: unit, postcode, or a place followed by another part or the end
            # (", Springfield, OR 97403", not ", I prefer"; in lower case not the end either:
            # ", prefer quiet")
            rf"|[ \t]*,[ \t]*(?:{_UNIT}|{_POSTCODE}|{name}(?=[ \t]*(?:[,\n;:]{end})"
            rf"|[ \t]+{_POSTCODE}|[ \t]+[A-Z]{{2}}\b))"
            # after a space: unit, postcode, a city in capitals, "street", or words before a unit
            # ("Aqqusinersuaq 176 Pinto Hill / Suite 487")
            rf"|[ \t]+(?:{_UNIT}|{_POSTCODE}|{_UPPER}{{2,}}\b(?:[ \t]+{name})?|(?i:street|st)\b\.?"
            rf"|{name}(?=[ \t]*\n{_BULLET}{_UNIT}|[ \t]+{_UNIT}))"
        )
        return cls(
            cores=tuple(re.compile(core, re.MULTILINE) for core in cores),
            # ...and what follows it ends the phrase: "lives on Elm 5 days a week" is no address
            cued=re.compile(
                rf"{_ADDRESS_CUE}(?P<address>{_NUM}[ \t]+{name}|(?!{_COUNTED}){name}[ \t]+{_NUM})"
                rf"(?=[ \t]*(?:[\n,.;?!]|$|(?i:street|st)\b|{_UNIT})|[ \t]+{name}[ \t]*\n)"
            ),
            tail=re.compile(tail),
        )


class _StreetAddressRecognizer(LocalRecognizer):
    """House number + street (English and continental forms), PO boxes, military addresses.

    A match is extended backwards over a leading building number and forwards over the unit,
    city, state, postcode and country that follow it on the same line or the next ones. In a
    block of lines ("Name / Company / street / city"), the lines above the street are the
    addressee: the first is taken as a PERSON, the others as part of the address.
    """

    def __init__(self) -> None:
        self._cased = _AddressPatterns.build(cased=True)
        self._uncased = _AddressPatterns.build(cased=False)
        self._lead = re.compile(r"\d{1,6}[ \t]+$")
        self._header = re.compile(rf"^{_BULLET}(?P<line>[^\W\d_][^\d\n.?!:;]{{0,60}}?)[ \t]*$")
        super().__init__(supported_entities=["STREET_ADDRESS"], name="StreetAddressRecognizer")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        patterns = self._cased if any(ch.isupper() for ch in text) else self._uncased
        spans = [m.span() for core in patterns.cores for m in core.finditer(text)]
        spans += [m.span("address") for m in patterns.cued.finditer(text)]
        results, covered = [], 0
        for start, end in sorted(spans):
            if end <= covered:
                continue  # inside an address already extended
            if lead := self._lead.search(text, 0, start):
                start = lead.start()
            while tail := patterns.tail.match(text, end):
                end = tail.end()
            covered = max(covered, end)
            results.append(RecognizerResult("STREET_ADDRESS", start, end, 0.9))
            if "\n" in text[start:end]:
                results += self._addressee(text, start)
        return results

    def _addressee(self, text: str, start: int) -> list[RecognizerResult]:
        """The name (and company) lines directly above a multi-line address block."""
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip(" \t?*•·>-"):
            return []  # the address does not open its line
        found: list[tuple[int, int]] = []
        end = line_start - 1
        while end > 0 and len(found) < 2:
            begin = text.rfind("\n", 0, end) + 1
            if text[begin:end].strip():
                header = self._header.match(text[begin:end])
                if header is None:
                    break
                found.append((begin + header.start("line"), begin + header.end("line")))
            end = begin - 1
        return [
            RecognizerResult("PERSON" if i == len(found) - 1 else "STREET_ADDRESS", s, e, 0.9)
            for i, (s, e) in enumerate(found)
        ]
