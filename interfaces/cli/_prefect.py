"""Running a Prefect flow from a command: offline, quiet defaults and one-line errors."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable
from typing import Any

import typer

from permem.errors import ConfigurationError

__all__ = ["prefect_defaults", "quiet_prefect", "report_flow", "run_flow", "server_error"]


def prefect_defaults() -> None:
    """Offline and quiet defaults for Prefect, unless set by the user. Set before any command
    runs: Prefect reads them when it is first imported, which a command's imports may do."""
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    # The temporary server needs ~10 s on an idle machine and much longer on a loaded one.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")


def quiet_prefect() -> None:
    """Before a flow runs in this process: Prefect's defaults, and its run logs kept off the
    terminal."""
    prefect_defaults()
    # Flow and task run logs (an expected failure's traceback among them) go to the run, where
    # the UI shows them, not to the terminal: the command prints one line and its exit code.
    # Prefect's config offers no override for `propagate`, so it is set once Prefect has
    # configured logging (on import).
    import prefect  # noqa: F401  # configures Prefect's logging

    for name in ("prefect.flow_runs", "prefect.task_runs"):
        logging.getLogger(name).propagate = False


def server_error(exc: RuntimeError) -> ConfigurationError | None:
    """Prefect's "no server" failure as the contract's configuration error; None for others."""
    if "Prefect" not in str(exc):
        return None
    return ConfigurationError(f"{exc} (set PREFECT_API_URL to a running server)")


def run_flow(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a Prefect flow in this process (a temporary server unless PREFECT_API_URL is set)."""
    quiet_prefect()
    try:
        return fn(*args)
    except RuntimeError as exc:
        error = server_error(exc)
        if error is None:
            raise
        raise error from exc


def report_flow(
    fn: Callable[..., Any], *args: Any, as_json: bool, lines: Callable[[Any], Iterable[str]]
) -> None:
    """Run a flow (`run_flow`) and print its report: as one JSON line with --json, else the
    `lines` it makes for people."""
    report = run_flow(fn, *args)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, default=str))
        return
    for line in lines(report):
        typer.echo(line)
