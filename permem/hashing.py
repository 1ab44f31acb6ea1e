"""Salted content hashes: the only trace of text that permem keeps outside the claim itself.

The salt is per tenant (see `permem.stores.database.tenant_salt`), so the same sentence hashes
differently in two tenants and a hash cannot be looked up in a table of common phrases.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata


def normalize(text: str) -> str:
    """Case-, width- and whitespace-insensitive form of `text`, so trivial variants match."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def content_hash(salt: bytes, text: str) -> str:
    """HMAC-SHA256 of the normalized text under the tenant's salt, hex encoded."""
    return hmac.new(salt, normalize(text).encode("utf-8"), hashlib.sha256).hexdigest()


def subject_fingerprint(salt: bytes, subject: str, text: str) -> str:
    """HMAC-SHA256 of (subject, normalized text): what the erasure ledger keeps of a claim.

    Scoped to the subject, so forgetting one person's "I'm vegetarian" neither blocks nor
    flags another person's identical claim.
    """
    message = subject.encode("utf-8") + b"\x1f" + normalize(text).encode("utf-8")
    return hmac.new(salt, message, hashlib.sha256).hexdigest()
