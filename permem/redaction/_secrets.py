"""Secrets are never remembered: credentials found with Yelp's detect-secrets, in Presidio.

What counts as a secret (entity `SECRET`; a URL that carries a credential is `SECRET_URL`):

- a credential of a known format, found with the patterns of detect-secrets' own plugins (the
  library is the source of truth; upgrading it widens what is found): AWS access key ids
  (`AKIA...`) and AWS secret keys named as such, GitHub, GitLab, Stripe, Slack (tokens and
  webhooks), OpenAI, SendGrid, Twilio, npm, PyPI, Discord, Telegram, Mailchimp, Square, Azure
  storage, Artifactory, IBM, Cloudant and SoftLayer credentials, JSON Web Tokens that decode,
  private keys (the whole PEM or PuTTY block, or what follows its header when it is cut off)
  and `scheme://user:password@host` URLs;
- a value that a keyword introduces as a credential. Code-like assignments with quotes are
  found by detect-secrets' keyword patterns (`api_key = "..."`, `password: "..."`); chat prose
  by the same keywords (`password`, `api key`, `secret`, `pwd`, ... plus `token`, `passcode`,
  `passphrase`, `pin`) followed by one value: "password is hunter2-xyz", "api key: abc123",
  "token xoxp1234". The value must look like a credential: quoted, or mixing letters with
  digits or symbols, or (after an explicit "is", ":" or "=") a number of four digits or more or,
  for the password words only, any other word that is not a function word and that the
  lemmatizer's word lists do not know as an adjective or adverb, nor the parser as a
  participle ("my password is sunshine"). So "my password manager is great", "the password is
  long", "my password is expired", "tokens of appreciation" and "the secret is patience" are
  not secrets; an unquoted password that is also an adjective ("my password is tangerine") is
  missed, as is a passphrase of several unquoted words;
- a random-looking string, scored with detect-secrets' Shannon entropy: a Base64-alphabet run
  of at least 20 characters that mixes upper case, lower case and digits with an entropy of at
  least 4.0 bits a character (the plugin's default, 4.5, is meant for quoted strings in code and
  misses most keys shorter than 32 characters), or a hex run of at least 32 characters above
  the plugin's default of 3.0 (so a 40-character commit hash counts: it cannot be told from a hex
  API key). A UUID on its own (8-4-4-4-12) is not a secret: it names an object (an order, a
  ticket), and its entropy is below the limit anyway; introduced by a keyword ("api key:
  <uuid>") it is one.

What happens to it: every recognizer here reports the `SECRET` entity, which the redactor masks
as `<SECRET>` (`permem redact`, claims, evidence). A candidate claim that carries a secret or a
`SECRET_URL` is rejected by the write gate with reason `secret` (`permem.policy`), before any
other content rule; only incognito, paused and erased sources are decided first. A rejected
candidate leaves nothing but a salted hash and the reason in `gate_decisions`, so no stored
claim, vector, export or backup can hold the secret. Source messages are never stored as text.

Everything is compiled once, when the redactor is built; a call runs regular expressions and,
for long random-looking runs only, an entropy count. No plugin ever verifies a secret over the
network.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import DENYLIST, QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector
from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from spacy.language import Language
from spacy.tokens import Token

__all__ = [
    "SECRET",
    "SECRET_ENTITIES",
    "carries_secret",
    "secret_recognizers",
]

SECRET = "SECRET"
# Entity types that make a claim a secret for the gate: the recognizers here, and the
# redactor's URLs with credentials or token-like query parameters.
SECRET_ENTITIES: frozenset[str] = frozenset({SECRET, "SECRET_URL"})

# detect-secrets' plugins for credentials of a known format. Left out: its public-IP plugin
# (an address, not a credential; Presidio's IP recognizer handles it), and the keyword and
# entropy plugins, which are run below with rules for prose.
FORMAT_PLUGINS: tuple[type[RegexBasedDetector], ...] = (
    AWSKeyDetector,
    GitHubTokenDetector,
    GitLabTokenDetector,
    StripeDetector,
    SlackDetector,
    JwtTokenDetector,
    PrivateKeyDetector,
    BasicAuthDetector,
    OpenAIDetector,
    SendGridDetector,
    TwilioKeyDetector,
    NpmDetector,
    PypiTokenDetector,
    DiscordBotTokenDetector,
    TelegramBotTokenDetector,
    MailchimpDetector,
    SquareOAuthDetector,
    AzureStorageKeyDetector,
    ArtifactoryDetector,
    IbmCloudIamDetector,
    IbmCosHmacDetector,
    CloudantDetector,
    SoftlayerDetector,
)

# Entropy rules (see the module docstring); measured on random keys and on the evaluation
# texts (PrefEval with its LMSYS code turns, LoCoMo, persona chat, SynthPAI, presidio_synth).
BASE64_MIN_LENGTH = 20
BASE64_MIN_ENTROPY = 4.0
HEX_MIN_LENGTH = 32
HEX_MIN_ENTROPY = 3.0

SCORE = 1.0  # a secret is never dropped below the redactor's threshold

_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
# Characters a token of a known format is made of: a match is widened over them, so that no
# piece of the token survives (the JWT pattern, for one, stops before the signature).
_TOKEN_CHAR = r"[A-Za-z0-9_\-+/=]"
_TOKEN_AFTER = re.compile(rf"{_TOKEN_CHAR}*(?:\.{_TOKEN_CHAR}+)*")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=")
_PEM_DASHES = re.compile(r"-+ ?$")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*-----|---- END SSH2 ENCRYPTED PRIVATE KEY ----")


def carries_secret(entity_types: Iterable[str]) -> bool:
    """Whether any of the redaction's entity types is a secret (the gate's `secret` fact)."""
    return not SECRET_ENTITIES.isdisjoint(entity_types)


def secret_recognizers(nlp: Language) -> list[LocalRecognizer]:
    """The recognizers of every secret family, each reporting `SECRET`; build once.

    `nlp` is the redactor's pipeline: its lemmatizer's word lists tell a word that describes a
    password ("long", "expired") from one that is a password ("sunshine").
    """
    return [
        KnownFormatRecognizer(),
        KeywordSecretRecognizer(_descriptive_words(nlp)),
        HighEntropyRecognizer(),
    ]


class _SecretRecognizer(LocalRecognizer):
    """A recognizer of `SECRET` spans that needs nothing loaded."""

    def __init__(self, name: str) -> None:
        super().__init__(supported_entities=[SECRET], name=name)

    def load(self) -> None:
        """Nothing to load: the patterns are compiled in the constructor."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        return [
            RecognizerResult(SECRET, start, end, SCORE)
            for start, end in self.spans(text, nlp_artifacts)
            if end > start
        ]

    def spans(self, text: str, nlp_artifacts: NlpArtifacts | None) -> Iterator[tuple[int, int]]:
        raise NotImplementedError


class KnownFormatRecognizer(_SecretRecognizer):
    """Credentials of a known format, with the regular expressions of detect-secrets' plugins.

    A match is marked whole, widened to the whole token around it (the JWT pattern stops
    before the signature), and with the words a pattern requires before the value ("aws secret
    key '...'", "://user:password@"): a little more than the secret is masked, never less.
    The plugins' capture groups are not used, since they do not always hold the secret (the
    GitHub pattern's group is the `ghp` prefix). A private key's header marks the block down
    to its END line, or to the end of the text when that is missing. A JWT counts only when
    its header and payload decode, as the plugin checks.
    """

    def __init__(self) -> None:
        self._patterns = [
            (plugin, pattern) for plugin in FORMAT_PLUGINS for pattern in plugin().denylist
        ]
        super().__init__("DetectSecretsFormatRecognizer")

    def spans(self, text: str, nlp_artifacts: NlpArtifacts | None) -> Iterator[tuple[int, int]]:
        for plugin, pattern in self._patterns:
            for match in pattern.finditer(text):
                if plugin is PrivateKeyDetector:
                    yield _private_key_block(text, match)
                elif plugin is JwtTokenDetector and not JwtTokenDetector.is_formally_valid(
                    match.group()
                ):
                    continue
                else:
                    yield _whole_token(text, *_trimmed(text, *match.span()))


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Without the delimiters some plugins match around the token (spaces, quotes, `=`)."""
    while start < end and (text[start].isspace() or text[start] in "\"'=:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in "\"'"):
        end -= 1
    return start, end


def _whole_token(text: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and text[start - 1] in _TOKEN_CHARS:
        start -= 1
    after = _TOKEN_AFTER.match(text, end)
    return start, after.end() if after else end


def _private_key_block(text: str, header: re.Match[str]) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, header.start()) + 1
    dashes = _PEM_DASHES.search(text[line_start : header.start()])
    start = line_start + dashes.start() if dashes else header.start()
    end_marker = _PEM_END.search(text, header.end())
    return start, end_marker.end() if end_marker else len(text)


# --- keywords --------------------------------------------------------------------------------

# detect-secrets' keyword list is written for code (`api_?key`); in prose the parts may also
# be separated by a space or a hyphen ("api key", "api-key"). Added: the words chat uses for
# credentials that the list, made for variable names, lacks.
_PROSE_KEYWORDS = (
    *(keyword.replace("_?", "[ _-]?") for keyword in DENYLIST),
    r"(?:secret|access)[ _-]?(?:access[ _-]?)?(?:key|token)",
    r"(?:(?:auth|access|bearer|api|refresh)[ _-]?)?token",
    "passcode",
    "passphrase",
    r"pin(?:[ _-]?code)?",
)
_PASSWORD = re.compile(
    r"(?:\w*[ _-]?)?(?:password|passwd|pwd|pass|passcode|passphrase|contraseña|contrasena)",
    re.IGNORECASE,
)
_KEYWORD = re.compile(
    # Longest keyword first: "secret key" before "secret".
    r"(?<![\w-])(?P<keyword>" + "|".join(sorted(_PROSE_KEYWORDS, key=len, reverse=True)) + ")"
    r"(?P<connector>\s*(?:[:=]|=>|->)\s*|\s+(?:is|was|are)\s+|\s+)"
    r"(?:[\"'`“‘](?P<quoted>[^\"'`”’\n]{1,200})[\"'`”’]|(?P<bare>[^\s\"'`]+))",
    re.IGNORECASE,
)
# A connector that says "this is the value"; a bare space may be followed by any word.
_EXPLICIT = re.compile(r"\s*(?:[:=]|=>|->|\s(?:is|was|are)\s)\s*", re.IGNORECASE)
_TRAILING = ".,;:!?)]}>"
# Words joined as prose joins them ("e-mail", "and/or", "corners—it"): still words.
_WORD = re.compile(r"[^\W\d_]+(?:['’/.\-–—][^\W\d_]+)*")
# Tags of words that describe rather than name: participles, adverbs, comparatives.
_DESCRIBING_TAGS = frozenset({"VBN", "VBG", "RB", "RBR", "RBS", "JJR", "JJS"})


@dataclass(frozen=True, slots=True)
class _Value:
    start: int
    end: int
    quoted: bool
    explicit: bool
    password: bool


class KeywordSecretRecognizer(_SecretRecognizer):
    """A value that a keyword introduces as a credential (see the module docstring).

    Two sources: detect-secrets' own keyword patterns for quoted assignments in code, and the
    same keywords in prose followed by one value that looks like a credential.
    """

    def __init__(self, descriptive: frozenset[str] = frozenset()) -> None:
        self._code = list(QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP.items())
        self._descriptive = descriptive
        super().__init__("DetectSecretsKeywordRecognizer")

    def spans(self, text: str, nlp_artifacts: NlpArtifacts | None) -> Iterator[tuple[int, int]]:
        for pattern, group in self._code:
            for match in pattern.finditer(text):
                yield match.span(group)
        for match in _KEYWORD.finditer(text):
            value = _value(match)
            if value is not None and self._looks_like_credential(text, value, nlp_artifacts):
                yield value.start, value.end

    def _looks_like_credential(
        self, text: str, value: _Value, nlp_artifacts: NlpArtifacts | None
    ) -> bool:
        word = text[value.start : value.end]
        if value.quoted and value.explicit:
            return len(word.strip()) >= 4
        if len(word) < 4 or any(ch.isspace() for ch in word):
            return False  # a quoted phrase after a bare keyword: 'token "diversity hires"'
        if word.isdigit():
            return value.explicit
        if _WORD.fullmatch(word):
            # An ordinary word ("manager", "long", "e-mail"): a password only when the sentence
            # gives it as one and it names rather than describes ("my password is sunshine").
            return (
                value.explicit
                and value.password
                and not self._describes(word, nlp_artifacts, value.start)
            )
        return any(ch.isalpha() for ch in word)  # letters with digits or symbols: "hunter2-xyz"

    def _describes(self, word: str, nlp_artifacts: NlpArtifacts | None, start: int) -> bool:
        """Whether `word` is a function word, an adjective or adverb of the lexicon, or (by its
        parse) a participle, adverb or comparative: "too", "long", "expired", "changing"."""
        if word.lower() in self._descriptive:
            return True
        token = _token_at(nlp_artifacts, start)
        if token is None:
            return False
        return token.is_stop or token.tag_ in _DESCRIBING_TAGS


def _value(match: re.Match[str]) -> _Value | None:
    explicit = bool(_EXPLICIT.fullmatch(match["connector"]))
    password = bool(_PASSWORD.fullmatch(match["keyword"]))
    if match["quoted"] is not None:
        start, end = match.span("quoted")
        return _Value(start, end, True, explicit, password)
    start, end = match.span("bare")
    while end > start and match.string[end - 1] in _TRAILING:
        end -= 1
    return _Value(start, end, False, explicit, password) if end > start else None


def _token_at(nlp_artifacts: NlpArtifacts | None, start: int) -> Token | None:
    if nlp_artifacts is None or nlp_artifacts.tokens is None:
        return None
    for token in nlp_artifacts.tokens:
        if token.idx == start:
            return token
    return None


def _descriptive_words(nlp: Language) -> frozenset[str]:
    """Adjectives and adverbs in the lemmatizer's word lists (WordNet's, in spaCy's English
    lemmatizer), with the pipeline's stop words; empty lists when it has no such tables."""
    words: set[str] = set(nlp.Defaults.stop_words)
    if nlp.has_pipe("lemmatizer"):
        lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
        if lookups is not None and lookups.has_table("lemma_index"):
            index = lookups.get_table("lemma_index")
            for part in ("adj", "adv"):
                words.update(index.get(part, []))
    return frozenset(words)


# --- entropy ---------------------------------------------------------------------------------


class HighEntropyRecognizer(_SecretRecognizer):
    """Random-looking strings, scored with detect-secrets' entropy plugins (not their quoted-
    string patterns, which are for code): Base64 and hex runs over the thresholds above."""

    def __init__(self) -> None:
        self._base64 = Base64HighEntropyString(limit=BASE64_MIN_ENTROPY)
        self._hex = HexHighEntropyString(limit=HEX_MIN_ENTROPY)
        self._runs = [
            (plugin, re.compile(f"[{re.escape(plugin.charset)}]{{{minimum},}}"))
            for plugin, minimum in (
                (self._base64, BASE64_MIN_LENGTH),
                (self._hex, HEX_MIN_LENGTH),
            )
        ]
        super().__init__("DetectSecretsEntropyRecognizer")

    def spans(self, text: str, nlp_artifacts: NlpArtifacts | None) -> Iterator[tuple[int, int]]:
        for plugin, run in self._runs:
            for match in run.finditer(text):
                start, end = _trimmed(text, *match.span())
                word = text[start:end].rstrip("=-_/+").lstrip("=-_/+")
                if self._random(plugin, word):
                    yield start, end

    def _random(self, plugin: Base64HighEntropyString | HexHighEntropyString, word: str) -> bool:
        if _UUID.fullmatch(word):
            return False
        if plugin is self._base64 and not _mixes_cases_and_digits(word):
            return False
        minimum = BASE64_MIN_LENGTH if plugin is self._base64 else HEX_MIN_LENGTH
        return len(word) >= minimum and plugin.calculate_shannon_entropy(word) > (
            plugin.entropy_limit
        )


def _mixes_cases_and_digits(word: str) -> bool:
    return (
        any(ch.isupper() for ch in word)
        and any(ch.islower() for ch in word)
        and any(ch.isdigit() for ch in word)
    )
