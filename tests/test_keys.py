"""API keys on the real database: only a keyed hash is stored, every use is audited, a
revoked, expired, tampered or foreign key proves nothing, and the audit cannot be rewritten."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from interfaces.cli import app
from permem import keys
from permem.errors import BadInput, NotFound, Unauthenticated
from permem.settings import Settings
from permem.stores.database import Database
from tests.conftest import T0, cli_env


def _events(owner: sa.Engine) -> list[str]:
    with owner.connect() as conn:
        return list(
            conn.execute(sa.text("SELECT event FROM api_key_events ORDER BY at, event")).scalars()
        )


def test_a_key_is_shown_once_and_stored_as_a_keyed_hash(db: Database, owner: sa.Engine) -> None:
    made, key = keys.create(db, "acme", actor="ana", role="user", now=T0)
    secret = key.rsplit(".", 1)[1]
    with owner.connect() as conn:
        row = conn.execute(sa.text("SELECT * FROM api_keys")).mappings().one()
    assert secret not in json.dumps({k: str(v) for k, v in row.items()})
    assert len(row["key_hash"]) == 64 and row["actor"] == "ana"
    found = keys.verify(db, key, now=T0 + timedelta(seconds=1), detail="/v1/recall")
    assert (found.id, found.tenant, found.actor, found.role) == (made.id, "acme", "ana", "user")
    assert _events(owner) == ["created", "used"]


def test_revoked_expired_tampered_and_foreign_keys_are_refused(
    db: Database, owner: sa.Engine
) -> None:
    made, key = keys.create(
        db, "acme", actor="bot", role="service", purposes=("assistant",),
        expires_at=T0 + timedelta(hours=1), now=T0,
    )  # fmt: skip
    assert keys.verify(db, key, now=T0 + timedelta(minutes=59)).purposes == ("assistant",)
    with pytest.raises(Unauthenticated):
        keys.verify(db, key, now=T0 + timedelta(hours=1))  # expiry is exclusive
    prefix, tenant, key_id, secret = key.split(".")
    other, _ = keys.create(db, "globex", actor="ana", role="user", now=T0)
    forged = [
        f"{prefix}.{tenant}.{key_id}.{secret[:-1]}{'A' if secret[-1] != 'A' else 'B'}",
        f"{prefix}.Z2xvYmV4.{key_id}.{secret}",  # the same key presented as globex's
        f"{prefix}.{tenant}.{other.id.hex}.{secret}",  # another tenant's key id
        "pmk.!!.x.y",
        "not-a-key",
        "",
    ]
    for bad in forged:
        with pytest.raises(Unauthenticated):
            keys.verify(db, bad, now=T0)
    keys.revoke(db, "acme", made.id, by="ops", now=T0 + timedelta(minutes=1))
    with pytest.raises(Unauthenticated):
        keys.verify(db, key, now=T0 + timedelta(minutes=2))
    with pytest.raises(BadInput, match="already revoked"):
        keys.revoke(db, "acme", made.id, by="ops", now=T0 + timedelta(minutes=3))
    with pytest.raises(NotFound):  # another tenant's key id is not there at all
        keys.revoke(db, "globex", made.id, by="ops", now=T0)
    assert _events(owner).count("revoked") == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"role": "admin"}, "role is user or service"),
        ({"role": "service"}, "needs its declared purposes"),
        ({"purposes": ("spying",)}, "unknown purpose 'spying'"),
        ({"actor": " ana"}, "without padding"),
        ({"expires_at": T0}, "in the future"),
    ],
)
def test_bad_terms_are_refused(db: Database, fields: dict[str, object], message: str) -> None:
    terms: dict[str, object] = {"actor": "ana", "role": "user", **fields}
    with pytest.raises(BadInput, match=message):
        keys.create(db, "acme", now=T0, **terms)  # type: ignore[arg-type]


def test_the_audit_and_the_terms_cannot_be_rewritten(db: Database, owner: sa.Engine) -> None:
    keys.create(db, "acme", actor="ana", role="user", now=T0)
    for statement in (
        "UPDATE api_key_events SET event = 'revoked'",
        "UPDATE api_keys SET actor = 'eve'",
        "UPDATE api_keys SET key_hash = 'x'",
    ):
        with pytest.raises(sa.exc.IntegrityError, match="append-only"), owner.begin() as conn:
            conn.execute(sa.text(statement))


def test_keys_commands(settings: Settings, owner: sa.Engine) -> None:
    cli = CliRunner(env=cli_env(settings))
    made = cli.invoke(app, ["keys", "create", "--tenant", "acme", "--actor", "bot", "--role",
                            "service", "--purposes", "assistant,travel", "--json"])  # fmt: skip
    assert made.exit_code == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["key"].startswith("pmk.") and created["purposes"] == ["assistant", "travel"]
    listed = cli.invoke(app, ["keys", "list", "--tenant", "acme", "--json"])
    assert [json.loads(x)["id"] for x in listed.stdout.splitlines()] == [created["id"]]
    assert "key" not in listed.stdout.replace("key_", "")  # the key is never shown again
    ended = cli.invoke(app, ["keys", "revoke", "--tenant", "acme", "--key-id", created["id"]])
    assert ended.exit_code == 0 and "revoked" in ended.stdout
    bad = cli.invoke(app, ["keys", "create", "--tenant", "acme", "--actor", "x", "--role", "root"])
    assert bad.exit_code == 2
    assert bad.stderr == "permem: a key's role is user or service, got 'root'\n"
    again = cli.invoke(app, ["keys", "revoke", "--tenant", "acme", "--key-id", "nope"])
    assert again.exit_code == 2 and again.stderr.startswith("permem: --key-id must be a UUID")
