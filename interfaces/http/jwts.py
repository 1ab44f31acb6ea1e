"""Bearer JWTs, the second way in: signed by a key of the JWKS file `PERMEM_JWKS_FILE`.

Claims: `sub` the actor, `tenant` the tenant, `exp` required; optional `role` (`user`, the
default, or `service`) and `purposes` (a list of declared purposes). Asymmetric algorithms
only (RS256, ES256, EdDSA); the key is chosen by the token's `kid`. The rate limit's bucket is
per tenant and subject.
"""

from __future__ import annotations

import functools
import json
import uuid
from pathlib import Path

import jwt

from permem.errors import Unauthenticated
from permem.keys import KeyRole

__all__ = ["ALGORITHMS", "verify_jwt"]

ALGORITHMS = ["RS256", "ES256", "EdDSA"]
_BAD = "missing, malformed, unknown, revoked or expired credential"
_JWT_BUCKETS = uuid.UUID("6b1c1f0e-4a1e-4f51-9a59-5c0f3b7d2f10")


@functools.lru_cache(maxsize=4)
def _parsed(path: str, modified_ns: int) -> jwt.PyJWKSet:
    """The key set of `path` as of its modification time (read again once it changes)."""
    del modified_ns  # part of the cache key only
    return jwt.PyJWKSet.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def _key_set(path: Path) -> jwt.PyJWKSet:
    try:
        return _parsed(str(path), path.stat().st_mtime_ns)
    except (OSError, ValueError, jwt.PyJWTError) as exc:
        raise Unauthenticated(f"JWTs cannot be checked: bad JWKS file ({exc})") from None


def verify_jwt(
    jwks_file: Path | None, token: str
) -> tuple[str, str, KeyRole, tuple[str, ...], uuid.UUID]:
    """The tenant, actor, role, purposes and bucket id a valid JWT carries; Unauthenticated
    for any token that is not one (no JWKS configured, bad signature, expired, claims wrong)."""
    if jwks_file is None:
        raise Unauthenticated(_BAD)
    try:
        kid = jwt.get_unverified_header(token).get("kid")
        signing = next((k for k in _key_set(jwks_file).keys if k.key_id == kid), None)
        if signing is None:
            raise Unauthenticated(_BAD)
        claims = jwt.decode(
            token, signing.key, algorithms=ALGORITHMS,
            options={"require": ["exp", "sub", "tenant"]}, leeway=0,
        )  # fmt: skip
        role = KeyRole(claims.get("role", KeyRole.USER.value))
    except (jwt.PyJWTError, ValueError):
        raise Unauthenticated(_BAD) from None
    tenant, actor, purposes = claims["tenant"], claims["sub"], claims.get("purposes", [])
    if not (isinstance(tenant, str) and isinstance(actor, str) and tenant and actor):
        raise Unauthenticated(_BAD)
    if not isinstance(purposes, list) or not all(isinstance(p, str) for p in purposes):
        raise Unauthenticated(_BAD)
    if role is KeyRole.SERVICE and not purposes:
        raise Unauthenticated(_BAD)
    return tenant, actor, role, tuple(purposes), uuid.uuid5(_JWT_BUCKETS, f"{tenant}\n{actor}")
