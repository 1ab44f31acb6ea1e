"""Authentication: one dependency turns the request's credential into its `Principal`.

`Authorization: Bearer <key>` with a key from `permem keys create` (or, when
`PERMEM_JWKS_FILE` is set, a JWT signed by one of its keys: `interfaces.http.jwts`). The
actor and tenant come from the credential only. A `service` key names the end user it acts for
in `X-Permem-Subject`; a `user` key acts as its own actor (the header, if sent, must name it).
`X-Permem-Tenant`, if sent, must be the credential's tenant. Every authenticated request spends
a token of its key's bucket.
"""

from __future__ import annotations

import unicodedata
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from interfaces.http.service import Service
from permem import controls, keys
from permem.errors import BadInput, Forbidden, Unauthenticated
from permem.grants import owns_memory
from permem.logs import identifier_problem, unstorable_problem

__all__ = [
    "Caller",
    "Principal",
    "authenticate",
    "checked_identifier",
    "checked_text",
    "service_of",
]

SUBJECT_HEADER = "X-Permem-Subject"
TENANT_HEADER = "X-Permem-Tenant"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request acts as: `actor` in `tenant`, through the service `via` (or directly)."""

    tenant: str
    actor: str
    via: str | None
    key_id: uuid.UUID
    purposes: tuple[str, ...]  # empty: any purpose

    @property
    def audit_name(self) -> str:
        """How the request's changes are attributed (the actor, and the service if any)."""
        return f"{self.actor} via {self.via}" if self.via else self.actor

    def check_purpose(self, purpose: str) -> None:
        if self.purposes and purpose not in self.purposes:
            raise Forbidden(f"this credential may not be used for purpose {purpose!r}")

    def check_owns(self, subject: str) -> None:
        """Forbidden unless the actor controls `subject`'s memory (themself, or a person of
        their own account)."""
        if not owns_memory(self.actor, subject):
            raise Forbidden(f"{self.actor} may not control the memory of another subject")

    def owned_claim(self, service: Service, claim_id: uuid.UUID) -> None:
        """NotFound for a claim the tenant does not hold; Forbidden for another subject's."""
        self.check_owns(controls.subject_of_claim(service.rt.db, self.tenant, claim_id))


def service_of(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def checked_identifier(value: str, name: str) -> str:
    """`value` NFC-normalised, or BadInput when it breaks the log's identifier rules."""
    problem = unstorable_problem(value)
    value = unicodedata.normalize("NFC", value) if problem is None else value
    problem = problem or identifier_problem(value)
    if problem:
        raise BadInput(f"{name} {problem}")
    return value


def checked_text(value: str, name: str) -> str:
    """Free text `value`, or BadInput when PostgreSQL cannot store it (NUL, lone surrogate)."""
    problem = unstorable_problem(value)
    if problem:
        raise BadInput(f"{name} {problem}")
    return value


_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="An API key from `permem keys create`, or a JWT signed by a key of "
    "PERMEM_JWKS_FILE.",
)


def authenticate(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)],
    x_permem_subject: Annotated[
        str | None,
        Header(
            description="A service key's end user: the subject it acts for (required for "
            "service keys; a user key may only name itself)."
        ),
    ] = None,  # fmt: skip
    x_permem_tenant: Annotated[
        str | None, Header(description="Optional: the tenant the caller expects its key to be in.")
    ] = None,
) -> Principal:
    """The request's principal (module doc); 401, 403 or 429 otherwise."""
    service = service_of(request)
    if credentials is None or not credentials.credentials.strip():
        raise Unauthenticated("send the credential as Authorization: Bearer <key>")
    token = credentials.credentials.strip()
    now = datetime.now(UTC)
    if token.startswith(f"{keys.KEY_PREFIX}."):
        key = keys.verify(service.rt.db, token, now=now, detail=request.url.path)
        tenant, actor, role, purposes = key.tenant, key.actor, key.role, key.purposes
        key_id = key.id
    else:
        from interfaces.http.jwts import verify_jwt

        claims = verify_jwt(service.settings.jwks_file, token)
        tenant, actor, role, purposes, key_id = claims
    service.buckets.take(key_id)
    if x_permem_tenant is not None and x_permem_tenant != tenant:
        raise Forbidden("the credential belongs to another tenant")
    named = checked_identifier(x_permem_subject, SUBJECT_HEADER) if x_permem_subject else None
    if role is keys.KeyRole.SERVICE:
        if named is None:
            raise Forbidden(f"a service credential names the user it acts for in {SUBJECT_HEADER}")
        return Principal(tenant, named, actor, key_id, purposes)
    if named is not None and named != actor:
        raise Forbidden(f"a user credential acts as its own actor; {SUBJECT_HEADER} must be it")
    return Principal(tenant, actor, None, key_id, purposes)


Caller = Annotated[Principal, Depends(authenticate)]
