"""The redactor: Presidio's analyzer over a given spaCy pipeline, then the anonymizer.

Overlapping matches of different recognizers become one entity, so no part of any survives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.nlp_engine import NerModelConfiguration, NlpArtifacts, SpacyNlpEngine
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import OperatorConfig
from presidio_anonymizer.entities import RecognizerResult as AnonymizerInput
from spacy.language import Language
from spacy.tokens import Doc

from permem.errors import BadInput
from permem.nlp import parse
from permem.redaction._recognizers import LANGUAGE, recognizers
from permem.redaction._secrets import SECRET, SECRET_ENTITIES

__all__ = ["DIRECT_IDENTIFIERS", "Entity", "Redaction", "Redactor"]

# Below this Presidio score a match is dropped. Weak patterns (a bare 9-digit number as a
# passport, 7 digits as a driver's licence) only reach it with a context word nearby.
SCORE_THRESHOLD = 0.4

# Texts per `nlp.pipe` batch in `analyze_many` (sentences and short messages).
_PIPE_BATCH = 256

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
        registry = RecognizerRegistry(recognizers=recognizers(nlp), supported_languages=[LANGUAGE])
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

    def analyze_many(self, texts: Sequence[str]) -> dict[str, list[Entity]]:
        """`analyze` of each distinct text in `texts`, keyed by the text.

        Each distinct text is parsed once, all of them in one `nlp.pipe`, and analyzed once.
        The parse is the one the extractor makes of claims (`permem.nlp.parse`): the full
        pipeline, with NER only on texts where a name could be, as the claims' own analysis
        already reads it.
        """
        return self.analyze_contexts([(text, "", None) for text in texts])

    def analyze_contexts(
        self, contexts: Sequence[tuple[str, str, Doc | None]]
    ) -> dict[str, list[Entity]]:
        """`analyze` of each distinct context, reusing the parse of a claim said inside it.

        Each item is (context, claim, the claim's parse or None). A context is the sentence,
        or the sentences, a claim was cut from, and the extractor has already parsed the claim:
        only the text before and after the claim is parsed here (all of it in one `nlp.pipe`,
        the same `permem.nlp.parse`), and the context's Doc is the three parses joined
        (`Doc.from_docs`). That halves the parsing of contexts; the names in the claim's part
        are read as the claim's own redaction reads them. A context with no parsed claim
        inside is parsed whole.
        """
        return self._analyze_contexts(contexts)[0]

    def analyze_claims(
        self, items: Sequence[tuple[str, str | None, Doc | None]]
    ) -> tuple[list[list[Entity]], dict[str, list[Entity]]]:
        """The identifiers of each claim, and of each distinct context (`analyze_contexts`).

        Each item is (claim, its context or None, the claim's parse or None). A claim whose
        parse is the one its context's analysis was joined around takes its entities from
        that analysis, cut to the claim's span: the same tokens, tags and names, so it is not
        analyzed a second time. An identifier crossing the claim's edge is masked up to the
        edge. Every other claim is analyzed alone (`analyze`).
        """
        contexts, around = self._analyze_contexts(
            [(context, claim, doc) for claim, context, doc in items if context]
        )
        claims: list[list[Entity]] = []
        for claim, context, doc in items:
            found = around.get(context) if context else None
            if found is not None and found[1] is doc:
                start = len(found[0])  # the text before the claim
                claims.append(_within(contexts[context or ""], start, start + len(claim)))
            else:
                claims.append(self.analyze(claim, doc))
        return claims, contexts

    def _analyze_contexts(
        self, contexts: Sequence[tuple[str, str, Doc | None]]
    ) -> tuple[dict[str, list[Entity]], dict[str, tuple[str, Doc, str] | None]]:
        """`analyze_contexts`, and for each context what it was joined around (`_around`:
        the text before the claim, the claim's parse, the text after it) or None."""
        around: dict[str, tuple[str, Doc, str] | None] = {}
        for context, claim, doc in contexts:
            if around.get(context) is None:
                around[context] = self._around(context, claim, doc)
        wholes = [context for context, found in around.items() if found is None]
        pieces = [p for f in around.values() if f is not None for p in (f[0], f[2]) if p]
        distinct = list(dict.fromkeys(wholes + pieces))
        parsed = dict(zip(distinct, parse(self._nlp, distinct, _PIPE_BATCH), strict=True))
        result: dict[str, list[Entity]] = {}
        for context, found in around.items():
            if found is None:
                result[context] = self.analyze(context, parsed[context])
                continue
            before, claim_doc, after = found
            parts = [d for d in (parsed.get(before), claim_doc, parsed.get(after)) if d is not None]
            result[context] = self.analyze(context, Doc.from_docs(parts, ensure_whitespace=False))
        return result, around

    def _around(self, context: str, claim: str, doc: Doc | None) -> tuple[str, Doc, str] | None:
        """The text before the claim, its parse and the text after it; None when the claim
        has no parse of this pipeline (a plugged-in extractor's cannot be joined) or is not
        inside the context."""
        if doc is None or not claim or doc.vocab is not self._nlp.vocab or not _parses(doc, claim):
            return None
        at = context.find(claim)
        return None if at < 0 else (context[:at], doc, context[at + len(claim) :])

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
            # NameRecognizer reads the entities from the Doc itself (it has to correct them),
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


def _within(entities: Sequence[Entity], start: int, end: int) -> list[Entity]:
    """The entities of a text that fall in its span [start, end), cut to it and counted from
    `start`."""
    return [
        Entity(e.type, max(e.start, start) - start, min(e.end, end) - start, e.score)
        for e in entities
        if e.end > start and e.start < end
    ]


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
