"""Settings, read once from the environment at the edge (CLI, flow entry) and passed in.

Every variable has the `PERMEM_` prefix. Nothing in permem reads the environment elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from permem.errors import ConfigurationError

_ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class Settings(BaseSettings):
    """Where permem keeps its data and how it reaches its stores."""

    model_config = SettingsConfigDict(env_prefix="PERMEM_", extra="ignore", frozen=True)

    home: Path = Field(
        default=Path("~/.permem"),
        description="Folder for local state: the embedded PostgreSQL data folder, the default "
        "LanceDB directory, exports and backups.",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL of the PostgreSQL database as its owner (runs migrations). "
        "Unset: permem starts an embedded PostgreSQL in <home>/pgdata and uses it.",
    )
    app_role: str = Field(
        default="permem_app",
        description="Non-superuser role the application connects as, so row-level security "
        "applies. Created by `permem db upgrade` when missing.",
    )
    app_password: SecretStr | None = Field(
        default=None,
        description="Password of the application role, for servers that do not trust local "
        "connections. Unset: connect without a password.",
    )
    lance_uri: str | None = Field(
        default=None,
        description="LanceDB URI (a directory or an object-store URL). Unset: <home>/lance.",
    )

    embedder: str = Field(
        default="minilm",
        description="Embedding model for the vector index: `minilm` (all-MiniLM-L6-v2, "
        "offline) or `hashing` (lexical feature hashing, for benchmarks and fast tests).",
    )
    batch_size: int = Field(
        default=5000,
        ge=1,
        le=100_000,
        description="Log lines per nightly batch (one transaction and one task per stage each).",
    )
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Worker processes for the nightly run's extract, classify, redact and gate "
        "stages (a Dask cluster, one partition of each batch per worker, split by tenant and "
        "account). 1: every stage runs in the flow's own process.",
    )
    dask_address: str | None = Field(
        default=None,
        description="Address of an existing Dask scheduler (such as tcp://127.0.0.1:8786) the "
        "nightly run sends its extract, classify, redact and gate stages to, one partition of "
        "each batch per worker thread the cluster has when the run starts, instead of starting "
        "a local cluster (`workers` then does not apply). Its workers must import the same "
        "permem. Unset: a local cluster of `workers` processes, or none.",
    )

    session_hours: float = Field(
        default=12.0,
        gt=0,
        le=24 * 30,
        description="Hours after which a session-only claim expires if its session was not "
        "reported ended before.",
    )

    rate_per_s: float = Field(
        default=20.0,
        gt=0,
        le=100_000,
        description="Requests per second each API key may make to `permem serve` (a token "
        "bucket per key); beyond it the service answers 429.",
    )
    rate_burst: int = Field(
        default=40,
        ge=1,
        le=1_000_000,
        description="How many requests an API key may make at once before `rate_per_s` "
        "applies (the token bucket's size).",
    )
    jwks_file: Path | None = Field(
        default=None,
        description="A JSON Web Key Set file: `permem serve` then also accepts bearer JWTs "
        "signed by one of its keys (see docs/serve.md). Unset: API keys only.",
    )

    @property
    def session_ttl(self) -> timedelta:
        """How long a session-only claim lives at most (`session_hours`)."""
        return timedelta(hours=self.session_hours)

    @field_validator("home")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser().absolute()

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        scheme = value.split("://", 1)[0]
        if scheme in ("postgresql", "postgres"):
            return "postgresql+psycopg://" + value.split("://", 1)[1]
        if scheme != "postgresql+psycopg":
            raise ValueError(
                f"must be a postgresql:// or postgresql+psycopg:// URL, got scheme {scheme!r}"
            )
        return value

    @field_validator("dask_address")
    @classmethod
    def _scheduler_address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if any(c.isspace() for c in value) or value.endswith(("://", ":")):
            raise ValueError(f"must be a scheduler address such as tcp://host:8786, got {value!r}")
        return value

    @field_validator("app_role")
    @classmethod
    def _role_name(cls, value: str) -> str:
        if not _ROLE_NAME.match(value):
            raise ValueError(f"must be a plain lower-case identifier, got {value!r}")
        return value

    @property
    def resolved_lance_uri(self) -> str:
        return self.lance_uri or str(self.home / "lance")

    @property
    def embedded_pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def exports_dir(self) -> Path:
        """Where export files are written (each is a lineage node that deletion reaches)."""
        return self.home / "exports"

    @property
    def backups_dir(self) -> Path:
        """Where backup snapshot files are written (one folder per tenant)."""
        return self.home / "backups"


# The settings a caller put in effect for the flows it runs in this context (`permem serve`
# runs the forget flow over its own stores): flows read them instead of the environment.
_IN_EFFECT: ContextVar[Settings | None] = ContextVar("permem_settings", default=None)


@contextmanager
def settings_in_effect(settings: Settings) -> Iterator[None]:
    """Within the block (this thread or task), `load_settings` returns `settings`."""
    token = _IN_EFFECT.set(settings)
    try:
        yield
    finally:
        _IN_EFFECT.reset(token)


def load_settings() -> Settings:
    """Read the environment once (or the settings a caller put in effect,
    `settings_in_effect`); a bad value becomes a one-line `ConfigurationError`."""
    chosen = _IN_EFFECT.get()
    if chosen is not None:
        return chosen
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "settings"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigurationError(f"invalid setting PERMEM_{where.upper()}: {message}") from exc
