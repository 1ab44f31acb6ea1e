"""What the HTTP service tests share: ana's stores filled by the nightly run (tenant acme),
keys for her, for bob, for a service and for another tenant, and a TestClient over the app."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from interfaces.http import create_app
from permem import keys, nightly
from permem.runtime import runtime
from permem.settings import Settings
from tests.conftest import T0, user_line, write_jsonl

LOG = [
    ("m1", "I'm vegetarian and I can't stand mushrooms", 1),
    ("m2", "I'm allergic to peanuts", 1),
    ("m3", "I only book morning flights", 2),
]


@dataclass
class Served:
    client: TestClient
    settings: Settings
    keys: dict[str, str]

    def as_(self, who: str, **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[who]}", **headers}

    def post(self, path: str, who: str, body: Any = None, **headers: str) -> Any:
        return self.client.post(path, json=body, headers=self.as_(who, **headers))

    def get(self, path: str, who: str, **headers: str) -> Any:
        return self.client.get(path, headers=self.as_(who, **headers))

    def claims(self, who: str = "ana") -> dict[str, dict[str, Any]]:
        found = self.get("/v1/memories", who)
        assert found.status_code == 200, found.text
        return {r["claim"]: r for r in found.json()}


def fill(settings: Settings, log: Path) -> Settings:
    """Run the nightly flow over ana's log with the hashing embedder; the settings used."""
    configured = settings.model_copy(update={"embedder": "hashing"})
    lines = (
        user_line(mid, text, turn=i, ts=f"2026-03-0{day}T10:00:00Z")
        for i, (mid, text, day) in enumerate(LOG)
    )
    nightly.run(configured, write_jsonl(log, lines))
    return configured


def make_keys(settings: Settings) -> dict[str, str]:
    """ana's, bob's and a service's keys in acme; one of ana's in globex; a revoked and an
    expired one of ana's."""
    db = runtime(settings).db
    now = datetime.now(UTC)
    made = {
        "ana": keys.create(db, "acme", actor="ana", role="user", now=now)[1],
        "bob": keys.create(db, "acme", actor="bob", role="user", now=now)[1],
        "svc": keys.create(
            db, "acme", actor="concierge", role="service", purposes=("assistant",), now=now
        )[1],
        "globex": keys.create(db, "globex", actor="ana", role="user", now=now)[1],
        "expired": keys.create(
            db, "acme", actor="ana", role="user", expires_at=T0 + timedelta(hours=1), now=T0
        )[1],
    }
    revoked, made["revoked"] = keys.create(db, "acme", actor="ana", role="user", now=now)
    keys.revoke(db, "acme", revoked.id, by="ops", now=now)
    return made


@contextmanager
def serving(settings: Settings) -> Iterator[TestClient]:
    """The app over `settings`, started (lifespan) and stopped around the block."""
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client
