"""Redaction of direct identifiers in candidate claims: Presidio over permem's own spaCy pipeline.

A direct identifier (a name, an email address, a phone or card number, a street address, a
secret in a URL, a national id, a credential) must never reach a stored claim; the preference
around it must survive: "email me at jo@x.com, I prefer mornings" keeps "I prefer mornings".
City- and country-level places, organisations, dates and nationalities are kept: they are not
direct identifiers, and whether they are sensitive is decided by the write gate.

Presidio never loads a model here: its NLP engine wraps the pipeline it is given, and a caller
that already parsed the text passes the `Doc`, so the text is parsed once.

The engine is `_engine`; the recognizers it runs are listed in `_recognizers` and come by
family: `_names`, `_addresses`, `_identifiers` (numbers introduced by words, URLs with
credentials) and `_secrets` (credentials, with detect-secrets' plugins).
"""

import os

# tldextract (Presidio's email validation) fetches the public suffix list over the network on
# first use unless this is set; empty means "use the bundled snapshot". It must be set before
# tldextract is imported, because its default extractor reads it when constructed; every
# submodule is imported after this package, so this is the one place that sets it.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from permem.redaction._engine import (  # noqa: E402  # after the environment is set
    DIRECT_IDENTIFIERS,
    Entity,
    Redaction,
    Redactor,
)
from permem.redaction._secrets import (  # noqa: E402
    SECRET,
    carries_secret,
    secret_recognizers,
)

__all__ = [
    "DIRECT_IDENTIFIERS",
    "SECRET",
    "Entity",
    "Redaction",
    "Redactor",
    "carries_secret",
    "secret_recognizers",
]
