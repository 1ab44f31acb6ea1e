"""Identifiers without a fixed layout: numbers the sentence introduces, URLs with credentials."""

from __future__ import annotations

import re

from presidio_analyzer import LocalRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["IntroducedNumberRecognizer", "secret_url_recognizer"]


def secret_url_recognizer() -> PatternRecognizer:
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


class IntroducedNumberRecognizer(LocalRecognizer):
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
