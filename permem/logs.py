"""Reading conversation logs (FORMATS.md): streaming, validating, quarantining.

A log is a JSON Lines file or a folder of `*.jsonl` files read in name order. Every line becomes
either a `Message` or a `Quarantined` entry naming the file, the line number and the reason; a
bad line never stops the rest. Lines are read one at a time, so memory stays flat whatever the
size of the log.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from permem.errors import BadInput
from permem.records import DEFAULT_PURPOSE, DEFAULT_SCOPE, Message, Role

_SCOPE = re.compile(r"^(global|(workspace|project):\S.*)$")
_PURPOSE = re.compile(r"^[a-z][a-z0-9_.:-]{0,63}$")
_REQUIRED = ("message_id", "tenant", "account", "conversation_id", "turn", "role", "text", "ts")
MAX_LINE_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class Quarantined:
    """A line that could not be read as a message. Holds a hash of the line, not its text."""

    file: str
    line_no: int
    reason: str
    content_hash: str
    tenant: str | None = None


@dataclass(slots=True)
class LogBatch:
    """A slice of the log: messages in log order and the lines quarantined on the way."""

    number: int
    messages: list[Message] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.messages) + len(self.quarantined)


def log_files(path: Path) -> list[Path]:
    """The files a log path names: the file itself, or the folder's `*.jsonl` in name order."""
    if path.is_file():
        return [path]
    if path.is_dir():
        files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
        if not files:
            raise BadInput(f"no *.jsonl files in {path}")
        return files
    raise BadInput(f"log path does not exist: {path}")


def _quarantine(
    file: Path, line_no: int, raw: bytes, reason: str, tenant: Any = None
) -> Quarantined:
    return Quarantined(
        file=str(file),
        line_no=line_no,
        reason=reason,
        content_hash=hashlib.sha256(raw).hexdigest(),
        tenant=tenant if isinstance(tenant, str) and tenant.strip() else None,
    )


def parse_message(obj: Any) -> Message:
    """Validate one decoded log line; raise ValueError with a short reason."""
    if not isinstance(obj, dict):
        raise ValueError("line is not a JSON object")
    missing = [name for name in _REQUIRED if name not in obj or obj[name] is None]
    if missing:
        raise ValueError(f"missing required field {', '.join(missing)}")
    for name in ("message_id", "tenant", "account", "conversation_id", "text", "role", "ts"):
        if not isinstance(obj[name], str):
            raise ValueError(f"field {name} must be a string")
    for name in ("message_id", "tenant", "account", "conversation_id"):
        if not obj[name].strip() or obj[name] != obj[name].strip():
            raise ValueError(f"field {name} must be non-empty without surrounding spaces")
    turn = obj["turn"]
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise ValueError("field turn must be an integer")
    try:
        role = Role(obj["role"])
    except ValueError:
        raise ValueError(f"unknown role {obj['role']!r}") from None
    try:
        ts = datetime.fromisoformat(obj["ts"])
    except ValueError:
        raise ValueError("field ts is not an RFC 3339 timestamp") from None
    if ts.tzinfo is None:
        raise ValueError("field ts has no timezone offset")
    scope = obj.get("scope") or DEFAULT_SCOPE
    if not isinstance(scope, str) or not _SCOPE.match(scope):
        raise ValueError("field scope must be global, workspace:<name> or project:<name>")
    purpose = obj.get("purpose") or DEFAULT_PURPOSE
    if not isinstance(purpose, str) or not _PURPOSE.match(purpose):
        raise ValueError("field purpose must be a lower-case identifier")
    session = obj.get("session")
    if session is not None and not isinstance(session, str):
        raise ValueError("field session must be a string")
    incognito = obj.get("incognito", False)
    if not isinstance(incognito, bool):
        raise ValueError("field incognito must be true or false")
    return Message(
        message_id=obj["message_id"],
        tenant=obj["tenant"],
        account=obj["account"],
        conversation_id=obj["conversation_id"],
        turn=turn,
        role=role,
        text=obj["text"],
        ts=ts,
        scope=scope,
        purpose=purpose,
        session=session or None,
        incognito=incognito,
    )


def read_lines(file: Path) -> Iterator[Message | Quarantined]:
    """Every line of one file as a message or a quarantined entry (blank lines are skipped)."""
    with file.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            if len(raw) > MAX_LINE_BYTES:
                yield _quarantine(file, line_no, raw, f"line longer than {MAX_LINE_BYTES} bytes")
                continue
            try:
                decoded = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield _quarantine(file, line_no, raw, "line is not valid UTF-8")
                continue
            try:
                obj = json.loads(decoded)
            except json.JSONDecodeError as exc:
                yield _quarantine(file, line_no, raw, f"invalid JSON: {exc.msg}")
                continue
            try:
                yield parse_message(obj)
            except ValueError as exc:
                tenant = obj.get("tenant") if isinstance(obj, dict) else None
                yield _quarantine(file, line_no, raw, str(exc), tenant)


def read_log(path: Path) -> Iterator[Message | Quarantined]:
    for file in log_files(path):
        yield from read_lines(file)


def batches(items: Iterable[Message | Quarantined], size: int) -> Iterator[LogBatch]:
    """Group the stream into batches of `size` lines (messages and quarantined together)."""
    if size < 1:
        raise BadInput("batch size must be at least 1")
    batch = LogBatch(number=1)
    for item in items:
        if isinstance(item, Message):
            batch.messages.append(item)
        else:
            batch.quarantined.append(item)
        if len(batch) >= size:
            yield batch
            batch = LogBatch(number=batch.number + 1)
    if len(batch):
        yield batch
