import re
from pathlib import Path

import pytest

from permem.errors import ConfigurationError
from permem.settings import Settings, load_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOME", "DATABASE_URL", "APP_ROLE", "APP_PASSWORD", "LANCE_URI"):
        monkeypatch.delenv(f"PERMEM_{name}", raising=False)


def test_defaults_use_embedded_database_under_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/someone")
    settings = load_settings()
    assert settings.database_url is None
    assert settings.home == Path("/home/someone/.permem")
    assert settings.embedded_pgdata == Path("/home/someone/.permem/pgdata")
    assert settings.resolved_lance_uri == "/home/someone/.permem/lance"
    assert settings.app_role == "permem_app"


def test_environment_is_read_with_prefix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PERMEM_HOME", str(tmp_path))
    monkeypatch.setenv("PERMEM_DATABASE_URL", "postgresql://u@db.example:5432/mem")
    monkeypatch.setenv("PERMEM_LANCE_URI", "s3://bucket/lance")
    monkeypatch.setenv("PERMEM_APP_ROLE", "mem_reader")
    monkeypatch.setenv("PERMEM_APP_PASSWORD", "s3cret")
    settings = load_settings()
    assert settings.home == tmp_path
    assert settings.database_url == "postgresql+psycopg://u@db.example:5432/mem"
    assert settings.resolved_lance_uri == "s3://bucket/lance"
    assert settings.app_role == "mem_reader"
    assert settings.app_password is not None
    assert "s3cret" not in repr(settings)


def test_empty_database_url_means_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERMEM_DATABASE_URL", "")
    assert load_settings().database_url is None


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DATABASE_URL", "mysql://x/y", "must be a postgresql:// or postgresql+psycopg:// URL"),
        ("APP_ROLE", "Robert'); DROP", "plain lower-case identifier"),
    ],
)
def test_bad_values_give_one_line_errors(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(f"PERMEM_{name}", value)
    with pytest.raises(ConfigurationError, match=re.escape(message)) as caught:
        load_settings()
    assert f"PERMEM_{name}" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_settings_are_immutable() -> None:
    settings = Settings()
    with pytest.raises(ValueError, match="frozen"):
        settings.app_role = "other"  # type: ignore[misc]
