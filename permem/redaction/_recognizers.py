"""Which recognizers the redactor runs: Presidio's own, and permem's families of them."""

from __future__ import annotations

from presidio_analyzer import LocalRecognizer, Pattern
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
from spacy.language import Language

from permem.redaction._addresses import StreetAddressRecognizer
from permem.redaction._identifiers import IntroducedNumberRecognizer, secret_url_recognizer
from permem.redaction._names import NameRecognizer
from permem.redaction._needs import guard
from permem.redaction._secrets import secret_recognizers

__all__ = ["LANGUAGE", "recognizers"]

LANGUAGE = "en"


def recognizers(nlp: Language) -> list[LocalRecognizer]:
    """Every recognizer the redactor runs (English only), each pattern recognizer behind the
    test of the characters its patterns need (`_needs.guard`)."""
    found = _all(nlp)
    for recognizer in found:
        guard(recognizer)
    return found


def _all(nlp: Language) -> list[LocalRecognizer]:
    return [
        NameRecognizer(),
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
        IntroducedNumberRecognizer(),
        secret_url_recognizer(),
        StreetAddressRecognizer(),
        # Credentials (detect-secrets' plugins): masked as <SECRET>; the gate rejects the claim.
        *secret_recognizers(nlp),
    ]
