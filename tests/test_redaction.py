"""Redaction on the real spaCy pipeline and Presidio: identifiers go, the preference stays."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import spacy
from spacy.tokens import Doc

import permem.redaction
from permem.errors import BadInput
from permem.extraction.context import leans_back
from permem.extraction.rules import RuleExtractor
from permem.nlp import load_pipeline
from permem.records import Message, Role
from permem.redaction import DIRECT_IDENTIFIERS, Entity, Redaction, Redactor


@pytest.fixture(scope="module")
def redactor() -> Redactor:
    return Redactor(load_pipeline())


# (text, entity type, the identifier, what must survive)
IDENTIFIERS = [
    ("email me at jo@x.com, I prefer mornings", "EMAIL_ADDRESS", "jo@x.com", "I prefer mornings"),
    (
        "text me on +44 7700 900123, mornings only",
        "PHONE_NUMBER",
        "+44 7700 900123",
        "mornings only",
    ),
    (
        "call me at (415) 555-0134 after 6pm, never before",
        "PHONE_NUMBER",
        "(415) 555-0134",
        "after 6pm, never before",
    ),
    (
        "my card 4111 1111 1111 1111 is the default, always use it",
        "CREDIT_CARD",
        "4111 1111 1111 1111",
        "always use it",
    ),
    (
        "pay from GB82 WEST 1234 5698 7654 32 please, I like monthly invoices",
        "IBAN_CODE",
        "GB82 WEST 1234 5698 7654 32",
        "I like monthly invoices",
    ),
    ("my SSN is 078-05-1120, keep answers short", "US_SSN", "078-05-1120", "keep answers short"),
    (
        "passport number 912803456, I prefer aisle seats",
        "US_PASSPORT",
        "912803456",
        "I prefer aisle seats",
    ),
    (
        "my driver's license number is D1234567, I hate driving at night",
        "US_DRIVER_LICENSE",
        "D1234567",
        "I hate driving at night",
    ),
    (
        "my bank account number is 000123456789, I prefer paper statements",
        "US_BANK_NUMBER",
        "000123456789",
        "I prefer paper statements",
    ),
    (
        "my NHS number is 943 476 5919, I prefer morning appointments",
        "UK_NHS",
        "943 476 5919",
        "I prefer morning appointments",
    ),
    (
        "my Spanish DNI is 12345678Z, I prefer menus in Spanish",
        "ES_NIF",
        "12345678Z",
        "I prefer menus in Spanish",
    ),
    (
        "my tax file number is 123 456 782 and I like plain English",
        "AU_TFN",
        "123 456 782",
        "I like plain English",
    ),
    ("my NINO is AB123456C, I prefer paper forms", "UK_NINO", "AB123456C", "I prefer paper forms"),
    ("my PESEL is 44051401359, reply in Polish", "PL_PESEL", "44051401359", "reply in Polish"),
    ("my ITIN is 912-70-1234, file in April", "US_ITIN", "912-70-1234", "file in April"),
    (
        "my NI number is AB 12 34 56 C, I prefer paper forms",
        "ID_NUMBER",
        "AB 12 34 56 C",
        "I prefer paper forms",
    ),
    (
        "my server is 192.168.10.23, I prefer ssh over vnc",
        "IP_ADDRESS",
        "192.168.10.23",
        "I prefer ssh over vnc",
    ),
    (
        "tips go to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, I prefer btc",
        "CRYPTO",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "I prefer btc",
    ),
    (
        "my doctor's DEA number is AB1234563, I prefer generics",
        "MEDICAL_LICENSE",
        "AB1234563",
        "I prefer generics",
    ),
    (
        "pull from https://api.example.com/v1/items?api_key=sk_live_abc123 daily, I prefer JSON",
        "SECRET_URL",
        "https://api.example.com/v1/items?api_key=sk_live_abc123",
        "daily, I prefer JSON",
    ),
    (
        "clone from https://jo:hunter2@git.example.com/repo.git, I like rebase over merge",
        "SECRET_URL",
        "https://jo:hunter2@git.example.com/repo.git",
        "I like rebase over merge",
    ),
    (
        "ship it to 742 Evergreen Terrace, Springfield, OR 97403, I prefer weekend delivery",
        "STREET_ADDRESS",
        "742 Evergreen Terrace, Springfield, OR 97403",
        "I prefer weekend delivery",
    ),
    (
        "I live at 12 Baker Street, Apt 4B, London NW1 6XE and I like quiet rooms",
        "STREET_ADDRESS",
        "12 Baker Street, Apt 4B, London NW1 6XE",
        "and I like quiet rooms",
    ),
    (
        "we moved to 1600 Pennsylvania Ave NW, Washington, DC 20500, I prefer email",
        "STREET_ADDRESS",
        "1600 Pennsylvania Ave NW, Washington, DC 20500",
        "I prefer email",
    ),
    (
        "I live at Rooseveltlaan 110, 3527 AB Utrecht and prefer Dutch news",
        "STREET_ADDRESS",
        "Rooseveltlaan 110, 3527 AB Utrecht",
        "and prefer Dutch news",
    ),
    (
        "we stay at Via Roma 131 in summer, I like seafood",
        "STREET_ADDRESS",
        "Via Roma 131",
        "in summer, I like seafood",
    ),
    (
        "send letters to PO Box 123, I check it weekly",
        "STREET_ADDRESS",
        "PO Box 123",
        "I check it weekly",
    ),
    (
        "email Joanna Kowalczyk about invoices, I like PDF copies",
        "PERSON",
        "Joanna Kowalczyk",
        "I like PDF copies",
    ),
]


@pytest.mark.parametrize(("text", "kind", "identifier", "survivor"), IDENTIFIERS)
def test_identifier_is_replaced_and_the_preference_survives(
    redactor: Redactor, text: str, kind: str, identifier: str, survivor: str
) -> None:
    redaction = redactor.redact(text)
    assert identifier not in redaction.redacted
    assert f"<{kind}>" in redaction.redacted
    assert survivor in redaction.redacted
    found = [e for e in redaction.entities if e.type == kind]
    assert [text[e.start : e.end] for e in found] == [identifier]
    assert kind in DIRECT_IDENTIFIERS
    assert redaction.changed


ORDINARY_CHAT = [
    "I prefer mornings",
    "always answer in metric units",
    "I'm on a Pixel 8, so android instructions pls",
    "I'm at my parents' in Goa until Feb 5",
    "I boulder around V5",
    "the 15th. every month",
    "Whole30 until Feb 28",
    "85 guests, barn venue in Somerset",
    "I'm Canadian, I prefer metric",
    "I'm in Berlin until March 3, recommend places nearby",
    "I work at a bakery and prefer early shifts",
    "I like the 7:30 train, platform 9",
    "I'm at gate 5, prefer window seats",
    "I get updates via Slack 2 times a day",
    "I sleep between 10 and 12.",
    "i do 20 pushups every 2 days",
    "Unit 3 of my course is hard, explain simply",
    "I'm on iOS 17 and Windows 11",
    "I have 2 kids aged 5 and 7",
    "I use an app called Notion for notes",
    "i live on campus 3 days a week",
    "my flat is on level 3, prefer stairs tips",
    "meet me at gate 12 tomorrow",
    # organisations and products doing things people do
    "Netflix wants me to upgrade, I prefer the basic plan",
    "my Pixel 8 eats battery, suggest power saving tips",
    "Google gave me a refund, I like their support",
    "Spotify keeps crashing, I prefer offline playlists",
    # spaCy labels the second Goa PERSON; the same message uses it as a place
    "I'm at my parents' in Goa until Feb 5, so anything local or restaurant-y, "
    "assume Goa till then",
]


@pytest.mark.parametrize("text", ORDINARY_CHAT)
def test_ordinary_chat_is_unchanged(redactor: Redactor, text: str) -> None:
    redaction = redactor.redact(text)
    assert redaction == Redaction(text, text, ())
    assert not redaction.changed


# (text, the name, what spaCy's small model labels it: not PERSON, or nothing)
MISLABELLED_NAMES = [
    ("Emma moved to Lyon", "Emma", "ORG"),
    ("my brother Tunde is vegan, so no meat when he visits", "Tunde", ""),
    ("our dog is named Biscuit", "Biscuit", "ORG"),
    ("a colleague called Marguerite Okafor hates meetings before 10", "Marguerite Okafor", "LOC"),
    ("everyone calls me Ján", "Ján", "GPE"),
    ("She named him Luís", "Luís", ""),
]


@pytest.mark.parametrize(("text", "name", "label"), MISLABELLED_NAMES)
def test_names_introduced_by_a_relation_are_redacted_whatever_spacy_says(
    redactor: Redactor, text: str, name: str, label: str
) -> None:
    doc = load_pipeline()(text)
    labels = {ent.label_ for ent in doc.ents if name.split()[0] in ent.text}
    assert labels == ({label} if label else set())  # the case exercises a mislabel
    redaction = redactor.redact(text, doc)
    assert name not in redaction.redacted
    assert "<PERSON>" in redaction.redacted


def test_places_and_organisations_around_a_name_are_kept(redactor: Redactor) -> None:
    redaction = redactor.redact("my sister Emma moved to Lyon and works at Google")
    assert redaction.redacted == "my sister <PERSON> moved to Lyon and works at Google"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("my wife Emma hates cilantro", "Emma"),
        ("my friend Sam recommended jazz", "Sam"),
        ("my name is Oluwaseun Adeyemi, call me Seun", "Seun"),
        ("I'm Priya and I like short answers", "Priya"),
        ("Dr. Okafor said I should cut caffeine", "Okafor"),
        ("hey Dmitri, I'd like answers in bullet points", "Dmitri"),
        ("my brother tunde is vegan so no meat when he visits", "tunde"),
    ],
)
def test_introduced_names(redactor: Redactor, text: str, name: str) -> None:
    redaction = redactor.redact(text)
    assert name not in redaction.redacted
    assert {e.type for e in redaction.entities} == {"PERSON"}


def test_an_address_block_loses_its_addressee_and_every_line(redactor: Redactor) -> None:
    text = "please ship to:\nAna Lima\nAcme Ltd\n12 Baker Street\nLondon NW1 6XE\nthanks"
    redaction = redactor.redact(text)
    for part in ("Ana Lima", "Acme Ltd", "12 Baker Street", "London", "NW1 6XE"):
        assert part not in redaction.redacted
    assert redaction.redacted.startswith("please ship to:\n<PERSON>\n")
    assert redaction.redacted.endswith("\nthanks")


def test_overlapping_matches_become_one_entity(redactor: Redactor) -> None:
    text = "clone from https://jo:hunter2@git.example.com/repo.git please"
    entities = redactor.analyze(text)
    assert entities == [Entity("SECRET_URL", 11, 54, 1.0)]
    assert text[11:54] == "https://jo:hunter2@git.example.com/repo.git"


def test_a_given_doc_gives_the_same_redaction(redactor: Redactor) -> None:
    nlp = load_pipeline()
    texts = [text for text, *_ in IDENTIFIERS] + [text for text, *_ in MISLABELLED_NAMES]
    docs = list(nlp.pipe(texts))
    parsed_here = redactor.redact_many(texts)
    assert redactor.redact_many(texts, docs) == parsed_here
    assert [redactor.redact(t, d) for t, d in zip(texts, docs, strict=True)] == parsed_here
    assert [redactor.analyze(t, d) for t, d in zip(texts, docs, strict=True)] == [
        list(r.entities) for r in parsed_here
    ]


def test_a_doc_of_another_text_is_refused(redactor: Redactor) -> None:
    doc = load_pipeline()("call me at 555-0134")
    with pytest.raises(BadInput):
        redactor.redact("email me at jo@x.com", doc)
    with pytest.raises(BadInput):
        redactor.redact_many(["a", "b"], [doc])


def test_empty_text(redactor: Redactor) -> None:
    assert redactor.redact("") == Redaction("", "", ())


def test_public_api() -> None:
    assert sorted(permem.redaction.__all__) == [
        "DIRECT_IDENTIFIERS",
        "Entity",
        "Redaction",
        "Redactor",
        "SECRET",
        "carries_secret",
        "secret_recognizers",
    ]


def test_a_context_shared_by_many_clauses_is_read_once(
    redactor: Redactor, extractor: RuleExtractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One sentence of many clauses is the context of each of them: masked and read for
    # personal categories once, not once per clause (which was quadratic in its length:
    # 10 s of redact for 32,000 characters).
    from permem import analysis

    text = ", and ".join(["I love hiking and we go to the hills every weekend"] * 40) + "."
    said = Message(
        message_id="m", tenant="t", account="a", conversation_id="c", turn=1,
        role=Role.USER, text=text, ts=datetime(2026, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    proposals = analysis.classify_all(extractor.extract([said]))
    shared = {p.candidate.context for p in proposals if p.candidate.context}
    assert len(proposals) >= 40 and len(shared) == 1
    read: list[str] = []
    sensitivity_of = analysis.sensitivity_of
    monkeypatch.setattr(analysis, "sensitivity_of", lambda t: read.append(t) or sensitivity_of(t))
    analysis.redact(redactor, proposals)
    long_reads = [t for t in read if len(t) > len(text) // 2]
    assert len(long_reads) == 1
    # What each clause keeps as evidence is what reading the context for it alone gives.
    [context] = shared
    masked = analysis._mask(context, redactor.analyze_many([context])[context])
    for proposal in proposals:
        if not leans_back(proposal.candidate.claim_text):
            alone = analysis._harmless_context(
                proposal.candidate, analysis._context_carries(masked)
            )
            assert (proposal.evidence == masked) is alone


# (context, the claim said inside it): identifiers before the claim, after it, and in it.
AROUND_CLAIMS = [
    ("Please text my friend Rosa Diaz when it arrives, I'm allergic to latex",
     "I'm allergic to latex"),
    ("I'm vegetarian, so email my landlord Piotr Nowak at piotr.nowak@example.com about it",
     "I'm vegetarian"),
    ("Book it under Jo Baker. I prefer aisle seats, my number is 020 7946 0958",
     "I prefer aisle seats"),
    ("my sister Amara Okafor says I should answer in metric units", "answer in metric units"),
]  # fmt: skip


def test_a_context_is_analyzed_around_the_claim_parse_it_holds(
    redactor: Redactor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the text around an already parsed claim is parsed: every identifier the whole
    parse finds in the context is found, at the same place, and the claim's own parse is
    reused as it is."""
    from permem import analysis
    from permem.redaction import _engine

    nlp = load_pipeline()
    items = [(context, claim, nlp(claim)) for context, claim in AROUND_CLAIMS]
    parsed: list[str] = []
    parse = _engine.parse
    monkeypatch.setattr(
        _engine, "parse", lambda n, texts, b: parsed.extend(texts) or parse(n, texts, b)
    )
    around = redactor.analyze_contexts(items)
    monkeypatch.undo()
    assert parsed and not any(claim in text for text in parsed for _, claim in AROUND_CLAIMS)
    whole = redactor.analyze_many([context for context, _ in AROUND_CLAIMS])
    for context, claim in AROUND_CLAIMS:
        found = {(e.start, e.end, e.type) for e in around[context]}
        assert found == {(e.start, e.end, e.type) for e in whole[context]}, context
        masked = analysis._mask(context, around[context])
        for identifier in ("Rosa Diaz", "Piotr Nowak", "piotr.nowak@example.com",
                           "Jo Baker", "7946 0958", "Amara Okafor"):  # fmt: skip
            assert identifier not in masked
        assert claim in masked  # the claim itself holds no identifier and is kept
    # No parse of the claim, or a claim not inside its context: the context is parsed whole.
    context, claim = AROUND_CLAIMS[0]
    other = spacy.blank("en")(claim)  # a claim parsed by another pipeline
    alone = redactor.analyze_contexts(
        [(context, claim, None), (context + "!", "absent", nlp("x")), (context + "?", claim, other)]
    )
    assert alone[context + "?"] == whole[context]
    assert alone[context] == whole[context]
    assert {e.type for e in alone[context + "!"]} == {"PERSON"}


# (context, claims said inside it): identifiers inside claims, and two claims of one context.
CLAIMS_IN_CONTEXTS = [
    ("Ask for Jo Baker at the desk, and email me at jo.baker@example.com about the booking",
     ["email me at jo.baker@example.com about the booking"]),
    ("My dentist is Dr Amara Okafor, I'm allergic to latex and I prefer morning slots",
     ["My dentist is Dr Amara Okafor", "I prefer morning slots"]),
    ("I'm vegetarian, call Piotr Nowak on 020 7946 0958 if I'm late", ["I'm vegetarian"]),
]  # fmt: skip


def test_a_claim_takes_its_identifiers_from_its_context_analysis(
    redactor: Redactor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim whose parse its context was joined around is not analyzed again: its entities
    are the context's, cut to its span, and they are the ones its own analysis finds. A second
    claim of the same context (not the joined parse) and a claim without a context are
    analyzed alone."""
    from permem import analysis

    nlp = load_pipeline()
    items: list[tuple[str, str | None, Doc | None]] = [
        (claim, context, nlp(claim)) for context, claims in CLAIMS_IN_CONTEXTS for claim in claims
    ]
    items.append(("text Rosa Diaz on Fridays", None, nlp("text Rosa Diaz on Fridays")))
    alone = [redactor.analyze(claim, doc) for claim, _, doc in items]
    analyzed: list[str] = []
    analyze = redactor.analyze
    monkeypatch.setattr(
        redactor, "analyze", lambda text, doc=None: analyzed.append(text) or analyze(text, doc)
    )
    found, contexts = redactor.analyze_claims(items)
    monkeypatch.undo()
    assert found == alone
    assert {"EMAIL_ADDRESS"} == {e.type for e in found[0]}
    assert "Amara Okafor" not in analysis._mask(items[1][0], found[1])
    # Contexts, the second claim of the shared context and the claim without one: analyzed.
    assert sorted(analyzed) == sorted(
        [context for context, _ in CLAIMS_IN_CONTEXTS] + [items[2][0], items[-1][0]]
    )
    assert contexts == redactor.analyze_contexts([(c, claim, d) for claim, c, d in items if c])


def test_entities_are_cut_to_the_claim_span() -> None:
    """An identifier crossing the claim's edge is kept up to the edge (masked, not lost)."""
    from permem.redaction._engine import _within

    entities = [Entity("PHONE_NUMBER", 5, 17, 0.9), Entity("PERSON", 20, 30, 0.8),
                Entity("EMAIL_ADDRESS", 40, 50, 1.0)]  # fmt: skip
    assert _within(entities, 10, 35) == [
        Entity("PHONE_NUMBER", 0, 7, 0.9),
        Entity("PERSON", 10, 20, 0.8),
    ]
    assert _within(entities, 30, 40) == []
