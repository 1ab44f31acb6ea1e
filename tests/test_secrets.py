"""Secrets are never remembered: detect-secrets' families as Presidio recognizers, the gate's
`secret` rule, and every store, export, backup and log line checked after a real nightly run.

The fake credentials are assembled at run time (AWS's documented example key aside), so that
secret scanners reading this file do not flag it.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from prefect.client.orchestration import get_client
from typer.testing import CliRunner

from interfaces.cli import app
from permem.backup import read_backup
from permem.nlp import load_pipeline
from permem.policy import decide
from permem.records import GateDecision, Role
from permem.redaction import SECRET, Redactor, carries_secret, secret_recognizers
from permem.runtime import close_all, runtime
from permem.settings import Settings, load_settings
from tests.test_forget import text_residue
from tests.test_policy import BASE


def _b64url(data: dict[str, Any]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


AWS_KEY = "AKIAIOSFODNN7EXAMPLE"  # AWS's own documentation example
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GITHUB = "ghp" + "_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"  # 36 characters after ghp_
STRIPE = "sk" + "_live_" + "4eC39HqLyjWDarjtT1zdp7dc"  # 24 after sk_live_
SLACK = "xox" + "b-123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
JWT_SIGNATURE = "Qm9ndXNTaWduYXR1cmVGb3JUZXN0aW5nT25seTEyMw"
JWT = ".".join(
    (_b64url({"alg": "HS256", "typ": "JWT"}), _b64url({"sub": "ana", "iat": 1767225600}))
) + ("." + JWT_SIGNATURE)
PEM_BODY = "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu"
PEM = f"-----BEGIN RSA {'PRIVATE'} KEY----- {PEM_BODY} -----END RSA {'PRIVATE'} KEY-----"
BASIC_PASSWORD = "Zx81qp" + "Lm"
BASIC_URL = f"https://deploy:{BASIC_PASSWORD}@git.example.com/app.git"
PASSWORD = "hunter2" + "-xyz"
RANDOM = "Xk9fQ2mLp7" + "RtZ4vB8nW3cY6hJ1sD"

# family -> (a user message that would otherwise be stored, what must never be stored)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "aws_access_key": (f"Always use the API key {AWS_KEY} for my deploys", (AWS_KEY,)),
    "aws_secret_key": (
        f"Always use the AWS secret key {AWS_SECRET} for my deploys",
        (AWS_SECRET, "bPxRfiCY"),
    ),
    "github": (f"Always use the token {GITHUB} for my deploys", (GITHUB, GITHUB[4:])),
    "stripe": (f"Always use the key {STRIPE} for my payments", (STRIPE, STRIPE[8:])),
    "slack": (f"Always post with {SLACK} for my deploys", (SLACK, SLACK[-24:])),
    "jwt": (f"Always send the token {JWT} for my deploys", (JWT, JWT_SIGNATURE)),
    "private_key": (f"Always use the key {PEM} for my deploys", (PEM_BODY, "PRIVATE KEY")),
    "basic_auth_url": (
        f"Always clone from {BASIC_URL} for my deploys",
        (BASIC_PASSWORD, "deploy:"),
    ),
    "password_keyword": (f"Always log in with password {PASSWORD} for my deploys", (PASSWORD,)),
    "high_entropy": (f"Always sign my deploys with {RANDOM}", (RANDOM,)),
}
NEEDLES = tuple(needle for _, needles in FAMILIES.values() for needle in needles)
# The same sentences with an ordinary word in the secret's place: these are stored, which
# shows both that the sentences are remembered and that the scans below can find text.
CONTROLS = {
    "control_key": "Always use the API key staging for my deploys",
    "control_password": "Always log in with password staging for my deploys",
    "control_sign": "Always sign my deploys with staging",
}
TENANT, SUBJECT = "acme", "ana"


@pytest.fixture(scope="module")
def redactor() -> Redactor:
    return Redactor(load_pipeline())


@functools.cache
def _recognizers() -> list[Any]:
    return secret_recognizers(load_pipeline())


# --- the recognizers, directly -----------------------------------------------------------------


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_is_masked_whole(redactor: Redactor, family: str) -> None:
    text, needles = FAMILIES[family]
    redaction = redactor.redact(text)
    types = {e.type for e in redaction.entities}
    assert carries_secret(types), (family, redaction.entities)
    for needle in needles:
        assert needle not in redaction.redacted, (family, redaction.redacted)
    # The instruction around the secret survives the mask.
    assert redaction.redacted.startswith("Always ") and "<SECRET" in redaction.redacted


# Which of the three recognizers finds each family (each is tested alone, without a parse).
FOUND_BY = {
    "DetectSecretsFormatRecognizer": [
        "aws_access_key", "github", "stripe", "slack", "jwt", "private_key", "basic_auth_url",
    ],
    "DetectSecretsKeywordRecognizer": ["password_keyword"],
    "DetectSecretsEntropyRecognizer": ["high_entropy", "aws_secret_key"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(FOUND_BY))
def test_each_recognizer_finds_its_families(name: str) -> None:
    [recognizer] = [r for r in _recognizers() if r.name == name]
    for family in FOUND_BY[name]:
        text, needles = FAMILIES[family]
        spans = [(r.start, r.end) for r in recognizer.analyze(text, [SECRET], None)]
        assert spans, (name, family)
        for needle in needles:
            at = text.index(needle)
            assert any(s <= at and at + len(needle) <= e for s, e in spans), (family, spans)


def test_prose_forms_of_keyword_secrets(redactor: Redactor) -> None:
    cases = {
        "log in with password hunter2-xyz": "hunter2-xyz",
        "my password is sunshine": "sunshine",
        "the wifi passcode: 88412907": "88412907",
        "api key: a1b2c3d4e5": "a1b2c3d4e5",
        "my API-key is 'correct horse battery'": "correct horse battery",
        "access token zq81-lkd0_99 for the staging box": "zq81-lkd0_99",
        "my pin is 4821": "4821",
        'config: db_password = "s3cr3t!"': "s3cr3t!",
    }
    for text, secret in cases.items():
        redaction = redactor.redact(text)
        assert secret not in redaction.redacted, (text, redaction.redacted)
        assert SECRET in {e.type for e in redaction.entities}, text


ORDINARY = [
    "I prefer tokens of appreciation over cash",
    "my password manager is great",
    "the password is long",
    "my password is expired and I need a new one",
    "Please reset my password via e-mail, I prefer that",
    "the secret is patience",
    "the secret ingredient is 2 cups of butter",
    "the key to success is practice",
    "my API key rotation happens every 90 days",
    "I use token-based auth at work",
    "pneumonoultramicroscopicsilicovolcanoconiosis is the longest word I know",
    "Supercalifragilisticexpialidocious was my favourite song as a kid",
    "internationalization-localization-considerations matter to our team",
    "I call setHorizontalScrollBarPolicy in my Qt code",
    "I like the mosaicml-mpt-7b-instruct model for drafts",
    # A UUID names an object, not a credential (the judgement call of the module docstring).
    "my order 123e4567-e89b-12d3-a456-426614174000 never arrived",
    "I always buy the 16-pack of AA batteries",
    "I prefer answers in metric units and British spelling",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_sentences_hold_no_secret(redactor: Redactor, text: str) -> None:
    assert SECRET not in {e.type for e in redactor.analyze(text)}


# Text near the recognizers' edges: token characters, keywords, PEM dashes, quotes, any Unicode.
_EDGY_TEXT = st.lists(
    st.one_of(
        st.sampled_from(["password", " is ", ": ", "=", "token ", "'", '"', "-----", "BEGIN ",
                         "PRIVATE KEY", "eyJ", ".", "AKIA", "\n", " ", "pin "]),
        st.text(alphabet="abcXYZ0129+/=_-", min_size=1, max_size=40),
        st.text(max_size=10),
    ),
    max_size=12,
).map("".join)  # fmt: skip


@hypothesis_settings(max_examples=300, deadline=None)
@given(_EDGY_TEXT)
def test_the_recognizers_never_raise_and_stay_inside_the_text(text: str) -> None:
    for recognizer in _recognizers():
        for result in recognizer.analyze(text, [SECRET], None):
            assert 0 <= result.start < result.end <= len(text)
            assert result.entity_type == SECRET


# --- the gate ------------------------------------------------------------------------------


def test_the_gate_rejects_a_secret_before_every_content_rule() -> None:
    secret = replace(BASE, secret=True)
    assert decide(BASE).decision is not GateDecision.REJECT
    assert decide(secret).decision is GateDecision.REJECT
    assert decide(secret).reasons == ("secret",)
    # Before the role, remember-requests, one-offs and sensitivity ...
    for changes in (
        {"role": Role.ASSISTANT},
        {"role": Role.DOCUMENT},
        {"requested": True},
        {"one_off": True},
        {"redacted": True},
        {"content_words": 0},
    ):
        assert decide(replace(secret, **changes)).reasons == ("secret",), changes  # type: ignore[arg-type]
    # ... after incognito, pause and erasure.
    assert decide(replace(secret, incognito=True)).reasons == ("incognito",)
    assert decide(replace(secret, subject_paused=True)).reasons == ("subject_paused",)
    assert decide(replace(secret, source_erased=True)).reasons == ("erased_previously",)


def test_secret_entity_types() -> None:
    assert carries_secret(["PERSON", "SECRET"]) and carries_secret(("SECRET_URL",))
    assert not carries_secret(["PERSON", "EMAIL_ADDRESS"]) and not carries_secret([])


def test_a_secret_names_an_overlapping_match(redactor: Redactor) -> None:
    """Whatever else matches the same characters, the merged entity is a secret."""
    text = f"my licence number is {PASSWORD}99 and password {PASSWORD}99"
    entities = redactor.analyze(text)
    at = text.rindex(PASSWORD)
    assert any(e.type == SECRET and e.start <= at < e.end for e in entities), entities


# --- permem redact -------------------------------------------------------------------------


def test_permem_redact_masks_every_family() -> None:
    lines = [text for text, _ in FAMILIES.values()] + ORDINARY[:3]
    result = CliRunner().invoke(app, ["redact"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["text"] for o in out] == lines
    for o in out[: len(FAMILIES)]:
        assert "<SECRET" in o["redacted"], o
        assert any(t in ("SECRET", "SECRET_URL") for t in (e["type"] for e in o["entities"]))
    # The output repeats the input in "text" (the contract); "redacted" holds no secret.
    redacted = "\n".join(o["redacted"] for o in out)
    assert [n for n in NEEDLES if n in redacted] == []
    for o in out[len(FAMILIES) :]:
        assert o["redacted"] == o["text"] and o["entities"] == []


# --- every store, after the nightly flow run through the CLI ------------------------------------


@pytest.fixture
def env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Settings from the environment, as the commands read them."""
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    monkeypatch.setenv("PERMEM_EMBEDDER", "hashing")
    yield load_settings()
    close_all()


def _log(path: Path) -> Path:
    messages = [*((f"s-{family}", text) for family, (text, _) in FAMILIES.items()),
                *CONTROLS.items()]  # fmt: skip
    path.write_text(
        "".join(
            json.dumps({
                "message_id": mid, "tenant": TENANT, "account": SUBJECT, "conversation_id": "c1",
                "turn": turn, "role": "user", "text": text, "ts": f"2026-03-01T10:{turn:02d}:00Z",
            }) + "\n"
            for turn, (mid, text) in enumerate(messages)
        )
    )  # fmt: skip
    return path


def _prefect_text() -> str:
    """Every log line and artifact the Prefect server holds, as one string."""

    async def read() -> str:
        async with get_client() as client:
            logs = await client.read_logs()
            artifacts = await client.read_artifacts()
        return "\n".join([*(log.message for log in logs), *(str(a.data) for a in artifacts)])

    return asyncio.run(read())


def _rows(owner: sa.Engine, sql: str) -> list[dict[str, Any]]:
    with owner.connect() as conn:
        return [dict(r) for r in conn.execute(sa.text(sql)).mappings()]


def test_no_secret_reaches_any_store_export_backup_or_log(
    prefect_server: str,
    env: Settings,
    owner: sa.Engine,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.stderr
        assert not any(needle in result.stdout + result.stderr for needle in NEEDLES)
        return json.loads(result.stdout)

    run("nightly", "--logs", str(_log(tmp_path / "log.jsonl")))

    # The gate saw every secret sentence and rejected each for its secret ...
    decisions = _rows(owner, "SELECT source_message_id, decision, reasons FROM gate_decisions")
    for family in FAMILIES:
        mine = [d for d in decisions if d["source_message_id"] == f"s-{family}"]
        assert mine, f"{family}: no candidate reached the gate"
        assert all(d["decision"] == "reject" and d["reasons"] == ["secret"] for d in mine), mine
    # ... and stored none of them, while the same sentences without a secret are remembered.
    stored = _rows(owner, "SELECT id::text, source_message_id, claim FROM memories")
    assert {r["source_message_id"] for r in stored} == set(CONTROLS)
    assert {r["claim"] for r in stored} == set(CONTROLS.values())

    # PostgreSQL: no text column of any table, read as the owner, holds a secret.
    assert text_residue(owner, NEEDLES) == []
    assert text_residue(owner, ("staging",))  # the scan does find stored text
    # LanceDB: it indexes the stored claims only (ids, filters, vectors: no text), and no file
    # of the table (data, indexes, manifests) holds a secret.
    index = runtime(env).index
    assert index.ids(TENANT) == {r["id"] for r in stored}
    assert index.files_holding([r["id"] for r in stored])
    assert index.files_containing(list(NEEDLES)) == []

    # The export, in both formats.
    for fmt in ("json", "csv"):
        made = run("export", "--tenant", TENANT, "--subject", SUBJECT, "--format", fmt)
        content = Path(made["path"]).read_text()
        assert "staging" in content and made["records"] == len(CONTROLS)
        assert [n for n in NEEDLES if n in content] == []

    # The backup: neither its bytes nor its decrypted blocks.
    report = run("backup")
    [path] = [Path(b["path"]) for b in report["backups"] if b["tenant"] == TENANT]
    assert [n for n in NEEDLES if n.encode() in path.read_bytes()] == []
    opened = json.dumps([b.tables for b in read_backup(runtime(env).db, path).blocks], default=str)
    assert "staging" in opened
    assert [n for n in NEEDLES if n in opened] == []

    # Log lines and artifacts: the run's, on the Prefect server, and this process's.
    prefect = _prefect_text()
    assert "secret" in prefect  # the gate-reasons artifact names the reason
    assert [n for n in NEEDLES if n in prefect] == []
    assert [n for n in NEEDLES if n in caplog.text] == []
