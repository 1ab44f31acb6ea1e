"""Reading conversation logs (FORMATS.md): streaming, validating, normalising, quarantining.

A log is a JSON Lines file or a folder of `*.jsonl` files read in name order. Every line becomes
either a `Message` or a `Quarantined` entry naming the file, the line number and the reason; a
bad line never stops the rest. Lines are read one at a time, so memory stays flat whatever the
size of the log. Every line is checked here, before anything touches a store, so no line can
fail a batch later on.

Line rules (a line that breaks one is quarantined with the field and the rule it broke):

- A line is at most `MAX_LINE_BYTES` bytes of UTF-8 holding one JSON object.
- No string field may hold U+0000 (NUL) or a lone UTF-16 surrogate (JSON's `\\u0000`,
  `\\ud800`): PostgreSQL cannot store either.
- `turn` is an integer from 0 to 2**31-1 (PostgreSQL `integer`; a position in a
  conversation is never negative).
- `ts` is an RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS[.frac]` then `Z` or `+HH:MM`/`-HH:MM`;
  the offset is required and lies within -12:00 .. +14:00, the offsets in use on Earth) whose
  instant lies in the window [`TS_MIN`, `TS_MAX`) = [1970-01-01T00:00:00Z,
  2100-01-01T00:00:00Z). The message keeps the writer's offset, since relative times
  ("tonight", "until Friday") resolve in the writer's time zone (`permem.temporal`); the
  stores hold the instant (`timestamptz`).
- Identifiers (`message_id`, `tenant`, `account`, `conversation_id`, `session`, `subject`,
  `scope`) are normalised to Unicode NFC first, then must be: non-empty; without leading or
  trailing whitespace; at most `MAX_IDENTIFIER_LENGTH` characters; free of control and format
  characters (Unicode categories Cc, Cf, Cs, Zl and Zp: C0/C1 controls, zero-width U+200B to
  U+200D, U+FEFF, the bidi controls U+202A to U+202E and U+2066 to U+2069, line and paragraph
  separators).
- `subject` (optional, default the account) is the account itself or `<account>:<person>`,
  where the person id is non-empty, unpadded and holds no `:` (a third party the person
  mentions becomes `<account>:<person>:<relation>`, see `permem.classify.subject_of`).
- `scope` is `global`, `workspace:<name>` or `project:<name>`; `purpose` a lower-case
  identifier (`[a-z][a-z0-9_.:-]{0,63}`); `role` one of FORMATS.md's; `incognito` a boolean;
  `text` a string. Optional fields given as null or "" count as absent.

A quarantine entry is always storable: its reason names the field and the rule and shows a
raw value only escaped (`ascii`) and cut short; its tenant is the line's tenant only when that
passes the identifier rules, else None; its file name is escaped the same way.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from permem.errors import BadInput
from permem.records import DEFAULT_PURPOSE, DEFAULT_SCOPE, Message, Role

MAX_LINE_BYTES = 1_000_000
# Far below PostgreSQL's btree row limit (~2,700 bytes) even at 4 bytes a character.
MAX_IDENTIFIER_LENGTH = 200
TURN_MAX = 2**31 - 1  # PostgreSQL `integer` (sources.turn)
TS_MIN = datetime(1970, 1, 1, tzinfo=UTC)
TS_MAX = datetime(2100, 1, 1, tzinfo=UTC)  # exclusive
OFFSET_MIN = timedelta(hours=-12)
OFFSET_MAX = timedelta(hours=14)
# Longest excerpt of a raw value a reason may show (escaped).
_SHOWN = 40

_SCOPE = re.compile(r"global|(?:workspace|project):\S.*", re.DOTALL)
_PURPOSE = re.compile(r"[a-z][a-z0-9_.:-]{0,63}")
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?"
    r"(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII,
)
_REQUIRED = ("message_id", "tenant", "account", "conversation_id", "turn", "role", "text", "ts")
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_ROLES = ", ".join(r.value for r in Role)


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


def storable(text: str, limit: int = 500) -> str:
    """`text` made safe for a PostgreSQL text column and a terminal: NUL and lone surrogates
    (a file name with undecodable bytes holds them) escaped, cut to `limit` characters."""
    if "\x00" in text:
        text = text.replace("\x00", "\\x00")
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show(value: object) -> str:
    """A raw value for a reason: escaped to ASCII and cut short, so it is always storable."""
    shown = ascii(value)
    return shown if len(shown) <= _SHOWN else shown[: _SHOWN - 3] + "..."


def identifier_problem(value: str) -> str | None:
    """Why an NFC-normalised identifier breaks the identifier rules, or None when it is fine."""
    if not value:
        return "must not be empty"
    if value != value.strip():
        return "must not have leading or trailing whitespace"
    if len(value) > MAX_IDENTIFIER_LENGTH:
        return f"is longer than {MAX_IDENTIFIER_LENGTH} characters"
    for char in value:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            return f"holds control or format character U+{ord(char):04X}"
    return None


def usable_tenant(obj: Any) -> str | None:
    """The line's tenant for its quarantine entry: only a tenant passing the identifier rules."""
    if not isinstance(obj, dict):
        return None
    tenant = obj.get("tenant")
    if not isinstance(tenant, str) or unstorable_problem(tenant) is not None:
        return None
    tenant = unicodedata.normalize("NFC", tenant)
    return tenant if identifier_problem(tenant) is None else None


def unstorable_problem(value: str) -> str | None:
    if "\x00" in value:
        return "holds U+0000 (NUL), which cannot be stored"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"holds a lone UTF-16 surrogate U+{ord(value[exc.start]):04X}"
    return None


def _string(obj: dict[str, Any], name: str) -> str:
    value = obj[name]
    if not isinstance(value, str):
        raise ValueError(f"field {name} must be a string")
    problem = unstorable_problem(value)
    if problem:
        raise ValueError(f"field {name} {problem}")
    return value


def _identifier(obj: dict[str, Any], name: str) -> str:
    value = unicodedata.normalize("NFC", _string(obj, name))
    problem = identifier_problem(value)
    if problem:
        raise ValueError(f"field {name} {problem}")
    return value


def _optional(obj: dict[str, Any], name: str) -> str | None:
    if obj.get(name) is None or obj[name] == "":
        return None
    return _identifier(obj, name)


def _turn(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= TURN_MAX:
        raise ValueError(f"field turn must be an integer from 0 to {TURN_MAX}")
    return value


def parse_ts(value: str) -> datetime:
    """An RFC 3339 timestamp inside the window, with the writer's offset; ValueError if not."""
    match = _RFC3339.fullmatch(value)
    if match is None:
        if _RFC3339.fullmatch(value + "Z") is not None:
            raise ValueError("field ts has no timezone offset")
        raise ValueError("field ts is not an RFC 3339 timestamp")
    year, month, day, hour, minute, second, fraction, zulu, sign, off_h, off_m = match.groups()
    if zulu:
        offset = timedelta(0)
    else:
        if int(off_m) > 59:
            raise ValueError("field ts has an invalid timezone offset")
        offset = timedelta(hours=int(off_h), minutes=int(off_m)) * (-1 if sign == "-" else 1)
        if not OFFSET_MIN <= offset <= OFFSET_MAX:
            raise ValueError("field ts has a timezone offset outside -12:00 .. +14:00")
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    try:
        ts = datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second), micro,
            tzinfo=timezone(offset),
        )  # fmt: skip
        instant = ts.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError("field ts is not a valid date and time") from None
    if not TS_MIN <= instant < TS_MAX:
        raise ValueError("field ts is outside 1970-01-01T00:00:00Z .. 2100-01-01T00:00:00Z")
    return ts


def _subject(obj: dict[str, Any], account: str) -> str:
    subject = _optional(obj, "subject")
    if subject is None or subject == account:
        return account
    person = subject[len(account) + 1 :] if subject.startswith(account + ":") else ""
    if not person:
        raise ValueError("field subject must be the account or <account>:<person>")
    if ":" in person or identifier_problem(person) is not None:
        raise ValueError("field subject has a person id that is empty, padded or holds ':'")
    return subject


def parse_message(obj: Any, log_line: tuple[str, int] | None = None) -> Message:
    """Validate and normalise one decoded log line (see the module's rules); raise ValueError
    with a storable reason naming the field and the rule."""
    if not isinstance(obj, dict):
        raise ValueError("line is not a JSON object")
    missing = [name for name in _REQUIRED if name not in obj or obj[name] is None]
    if missing:
        raise ValueError(f"missing required field {', '.join(missing)}")
    message_id = _identifier(obj, "message_id")
    tenant = _identifier(obj, "tenant")
    account = _identifier(obj, "account")
    conversation_id = _identifier(obj, "conversation_id")
    turn = _turn(obj["turn"])
    role_name = _string(obj, "role")
    try:
        role = Role(role_name)
    except ValueError:
        raise ValueError(f"field role must be one of {_ROLES}, got {show(role_name)}") from None
    text = _string(obj, "text")
    ts = parse_ts(_string(obj, "ts"))
    scope = _optional(obj, "scope") or DEFAULT_SCOPE
    if not _SCOPE.fullmatch(scope):
        raise ValueError("field scope must be global, workspace:<name> or project:<name>")
    purpose = DEFAULT_PURPOSE if obj.get("purpose") in (None, "") else _string(obj, "purpose")
    if not _PURPOSE.fullmatch(purpose):
        raise ValueError("field purpose must be a lower-case identifier")
    session = _optional(obj, "session")
    incognito = obj.get("incognito", False)
    if not isinstance(incognito, bool):
        raise ValueError("field incognito must be true or false")
    return Message(
        message_id=message_id,
        tenant=tenant,
        account=account,
        conversation_id=conversation_id,
        turn=turn,
        role=role,
        text=text,
        ts=ts,
        scope=scope,
        purpose=purpose,
        session=session,
        incognito=incognito,
        subject=_subject(obj, account),
        log_line=log_line,
    )


def _decode(raw: bytes) -> Any:
    """The line's JSON value; ValueError with a storable reason when it is not readable."""
    if len(raw) > MAX_LINE_BYTES:
        raise ValueError(f"line longer than {MAX_LINE_BYTES} bytes")
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("line is not valid UTF-8") from None
    try:
        return json.loads(decoded)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg}") from None
    except ValueError:  # an integer beyond Python's digit limit for conversions
        raise ValueError("invalid JSON: a number has too many digits") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None


def read_line(file: str, line_no: int, raw: bytes) -> Message | Quarantined:
    """One raw line of the log named `file` as a message or a quarantined entry; never raises
    for any content of `raw` (every rule broken becomes the entry's reason)."""
    obj: Any = None
    try:
        obj = _decode(raw)
        return parse_message(obj, (file, line_no))
    except ValueError as exc:
        return Quarantined(
            file=file,
            line_no=line_no,
            reason=storable(str(exc)),
            content_hash=hashlib.sha256(raw).hexdigest(),
            tenant=usable_tenant(obj),
        )


def read_lines(file: Path) -> Iterator[Message | Quarantined]:
    """Every line of one file as a message or a quarantined entry (blank lines are skipped)."""
    name = storable(str(file))
    with file.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if line_no == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]  # editors on Windows write one
            if raw.strip():
                yield read_line(name, line_no, raw)


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
