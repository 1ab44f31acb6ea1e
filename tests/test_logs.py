"""Reading logs: every malformed line quarantined with file, line and reason; nothing lost."""

import codecs
import json
import os
import tempfile
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from permem.errors import BadInput
from permem.logs import (
    TS_MAX,
    TS_MIN,
    TURN_MAX,
    Quarantined,
    batches,
    identifier_problem,
    log_files,
    parse_ts,
    read_line,
    read_log,
)
from permem.records import Message, Role

_OPTIONAL = ("scope", "purpose", "session", "subject", "incognito")

GOOD = {
    "message_id": "m1", "tenant": "t", "account": "a", "conversation_id": "c", "turn": 1,
    "role": "user", "text": "I prefer tea", "ts": "2026-01-01T10:00:00Z",
}  # fmt: skip


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _line(**changes: object) -> bytes:
    record = {**GOOD, **changes}
    return json.dumps({k: v for k, v in record.items() if v is not ...}).encode()


def _between_good_lines(tmp_path: Path, line: bytes) -> tuple[Path, Quarantined]:
    """Read `line` between two good lines: both good ones are messages, `line` is the one
    quarantined entry (returned with the log's path)."""
    log = _write(
        tmp_path / "log.jsonl", [_line(message_id="before"), line, _line(message_id="after")]
    )
    items = list(read_log(log))
    assert [i.message_id for i in items if isinstance(i, Message)] == ["before", "after"]
    (bad,) = [i for i in items if isinstance(i, Quarantined)]
    return log, bad


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{not json", "invalid JSON"),
        (b"[1, 2]", "line is not a JSON object"),
        (_line(text=...), "missing required field text"),
        (_line(tenant=None), "missing required field tenant"),
        (_line(turn="3"), "field turn must be an integer"),
        (_line(turn=True), "field turn must be an integer"),
        (_line(role="admin"), "field role must be one of user, assistant"),
        (_line(ts="yesterday"), "field ts is not an RFC 3339 timestamp"),
        (_line(ts="2026-01-01T10:00:00"), "field ts has no timezone offset"),
        (_line(scope="team"), "field scope must be global"),
        (_line(purpose="Ads Team"), "field purpose must be a lower-case identifier"),
        (_line(incognito="yes"), "field incognito must be true or false"),
        (_line(message_id=" m1"), "field message_id must not have leading or trailing"),
        (b"\xff\xfe{}", "line is not valid UTF-8"),
    ],
)
def test_malformed_lines_are_quarantined_and_the_rest_is_read(
    tmp_path: Path, line: bytes, reason: str
) -> None:
    log, bad = _between_good_lines(tmp_path, line)
    assert bad.file == str(log) and bad.line_no == 2
    assert reason in bad.reason
    assert len(bad.content_hash) == 64


def test_quarantine_keeps_the_tenant_when_it_can(tmp_path: Path) -> None:
    log = _write(tmp_path / "log.jsonl", [_line(role="admin")])
    (bad,) = list(read_log(log))
    assert isinstance(bad, Quarantined) and bad.tenant == "t"


def test_fields_defaults_and_optional_values(tmp_path: Path) -> None:
    log = _write(
        tmp_path / "log.jsonl",
        [_line(), _line(message_id="m2", scope="project:x", purpose="budget_coach", session="s",
                        incognito=True, extra_field="ignored")],
    )  # fmt: skip
    first, second = read_log(log)
    assert isinstance(first, Message) and isinstance(second, Message)
    assert (first.scope, first.purpose, first.session, first.incognito) == (
        "global", "assistant", None, False,
    )  # fmt: skip
    assert first.role is Role.USER and first.ts.tzinfo is not None
    assert (second.scope, second.purpose, second.session, second.incognito) == (
        "project:x", "budget_coach", "s", True,
    )  # fmt: skip


def test_folder_is_read_in_name_order_and_blank_lines_skipped(tmp_path: Path) -> None:
    _write(tmp_path / "b.jsonl", [_line(message_id="b1")])
    _write(tmp_path / "a.jsonl", [_line(message_id="a1"), b"", b"   ", _line(message_id="a2")])
    (tmp_path / "notes.txt").write_text("not a log")
    assert [p.name for p in log_files(tmp_path)] == ["a.jsonl", "b.jsonl"]
    ids = [m.message_id for m in read_log(tmp_path) if isinstance(m, Message)]
    assert ids == ["a1", "a2", "b1"]


def test_missing_path_and_empty_folder_are_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="does not exist"):
        log_files(tmp_path / "nope.jsonl")
    with pytest.raises(BadInput, match=r"no \*\.jsonl files"):
        log_files(tmp_path)


def test_batches_stream_in_order(tmp_path: Path) -> None:
    log = _write(tmp_path / "log.jsonl", [_line(message_id=f"m{i}") for i in range(7)] + [b"{"])
    sizes = [(len(b.messages), len(b.quarantined)) for b in batches(read_log(log), 3)]
    assert sizes == [(3, 0), (3, 0), (1, 1)]


# ----------------------------------------------------------------- the line validator's rules

LONG = "m" * 201


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (_line(text="a\u0000b"), "field text holds U+0000 (NUL)"),
        (_line(text="broken \ud800 pair"), "field text holds a lone UTF-16 surrogate U+D800"),
        (_line(message_id="m\udfff"), "field message_id holds a lone UTF-16 surrogate"),
        (_line(conversation_id="c\u0000"), "field conversation_id holds U+0000"),
        (_line(role="user\u0000"), "field role holds U+0000"),
        (_line(ts="2026-01-01T10:00:00Z\u0000"), "field ts holds U+0000"),
        (_line(turn=2**31), "field turn must be an integer from 0 to 2147483647"),
        (_line(turn=10**30), "field turn must be an integer from 0 to 2147483647"),
        (_line(turn=-1), "field turn must be an integer from 0 to 2147483647"),
        (_line(turn=1.0), "field turn must be an integer"),
        (b'{"turn": 1' + b"0" * 5000 + b"}", "invalid JSON: a number has too many digits"),
        (b"[" * 100_000 + b"]" * 100_000, "invalid JSON: nested too deeply"),
        (_line(ts="0001-01-01T00:00:00+14:00"), "field ts is not a valid date and time"),
        (_line(ts="9999-12-31T23:59:59-12:00"), "field ts is not a valid date and time"),
        (_line(ts="9999-12-31T23:59:59-14:00"), "offset outside -12:00 .. +14:00"),
        (_line(ts="2026-01-01T10:00:00+23:00"), "offset outside -12:00 .. +14:00"),
        (_line(ts="2026-01-01T10:00:00+05:75"), "field ts has an invalid timezone offset"),
        (_line(ts="2100-01-01T00:00:00Z"), "field ts is outside 1970-01-01T00:00:00Z"),
        (_line(ts="1969-12-31T23:59:59Z"), "field ts is outside 1970-01-01T00:00:00Z"),
        (_line(ts="1970-01-01T05:00:00+06:00"), "field ts is outside 1970-01-01T00:00:00Z"),
        (_line(ts="2026-02-30T10:00:00Z"), "field ts is not a valid date and time"),
        (_line(ts="2026-01-01T10:00:60Z"), "field ts is not a valid date and time"),
        (_line(ts="2026-W01-1T10:00:00Z"), "field ts is not an RFC 3339 timestamp"),
        (_line(ts="20260101T100000Z"), "field ts is not an RFC 3339 timestamp"),
        (_line(ts="２０２６-01-01T10:00:00Z"), "field ts is not an RFC 3339 timestamp"),
        (_line(ts=1767261600), "field ts must be a string"),
        (_line(account=""), "field account must not be empty"),
        (_line(conversation_id=LONG), "field conversation_id is longer than 200 characters"),
        (_line(message_id="m" * 5000), "field message_id is longer than 200 characters"),
        (_line(account="ana\u200b"), "field account holds control or format character U+200B"),
        (_line(account="ana\u200d"), "holds control or format character U+200D"),
        (_line(message_id="\ufeffm1"), "field message_id holds control or format character U+FEFF"),
        (_line(conversation_id="c\u202ex"), "holds control or format character U+202E"),
        (_line(tenant="t\u2066"), "field tenant holds control or format character U+2066"),
        (_line(session="s\x07"), "field session holds control or format character U+0007"),
        (_line(account="a\nb"), "field account holds control or format character U+000A"),
        (_line(message_id="m\u2028x"), "holds control or format character U+2028"),
        (_line(tenant="t "), "field tenant must not have leading or trailing whitespace"),
        (_line(account="\u00a0a"), "field account must not have leading or trailing whitespace"),
        (_line(subject="b:tom"), "field subject must be the account or <account>:<person>"),
        (_line(subject="a:"), "field subject must be the account or <account>:<person>"),
        (_line(subject="ab"), "field subject must be the account or <account>:<person>"),
        (_line(subject="a:tom:wife"), "field subject has a person id that is empty, padded"),
        (_line(subject="a: tom"), "field subject has a person id that is empty, padded"),
        (_line(subject="a:t\u200bom"), "field subject holds control or format character U+200B"),
        (_line(subject=7), "field subject must be a string"),
        (_line(scope="project:\u2066x"), "field scope holds control or format character U+2066"),
        (_line(scope="global\n"), "field scope must not have leading or trailing whitespace"),
        (_line(scope="project:a\nb"), "field scope holds control or format character U+000A"),
        (_line(scope=0), "field scope must be a string"),
        (_line(purpose="assistant\n"), "field purpose must be a lower-case identifier"),
        (_line(purpose="ads\u0000"), "field purpose holds U+0000"),
    ],
)
def test_each_rule_quarantines_with_the_field_and_the_rule(
    tmp_path: Path, line: bytes, reason: str
) -> None:
    _, bad = _between_good_lines(tmp_path, line)
    assert bad.line_no == 2 and reason in bad.reason, bad.reason
    assert_storable_entry(bad)


def assert_storable_entry(entry: Quarantined) -> None:
    """What PostgreSQL and a terminal need of a quarantine entry."""
    for value in (entry.reason, entry.file):
        assert "\x00" not in value
        value.encode("utf-8")  # raises on a lone surrogate
    assert 0 < len(entry.reason) <= 500
    if entry.tenant is not None:
        assert identifier_problem(entry.tenant) is None


@pytest.mark.parametrize(
    ("tenant", "kept"),
    [("t", "t"), (" t", None), ("t\u0000", None), ("t\ud800", None), ("t\u200b", None),
     ("", None), ("t" * 201, None), (7, None), ("e\u0301", "\u00e9")],
)  # fmt: skip
def test_the_quarantine_keeps_only_a_usable_tenant(
    tmp_path: Path, tenant: object, kept: str | None
) -> None:
    (bad,) = read_log(_write(tmp_path / "log.jsonl", [_line(tenant=tenant, role="admin")]))
    assert isinstance(bad, Quarantined) and bad.tenant == kept


def test_a_reason_never_echoes_a_raw_value(tmp_path: Path) -> None:
    role = "\u202eadmin" + "x" * 2000
    (bad,) = read_log(_write(tmp_path / "log.jsonl", [_line(role=role)]))
    assert isinstance(bad, Quarantined)
    assert "\u202e" not in bad.reason and "\\u202eadmin" in bad.reason
    assert len(bad.reason) < 200


def test_identifiers_are_normalised_to_nfc_and_ts_keeps_the_writers_offset(
    tmp_path: Path,
) -> None:
    decomposed = "cafe\u0301"  # e + combining acute accent
    log = _write(
        tmp_path / "log.jsonl",
        [_line(message_id=decomposed, account=decomposed, subject=f"{decomposed}:to\u0301m",
               ts="2026-01-01T10:00:00.1234567+02:00")],
    )  # fmt: skip
    (message,) = read_log(log)
    assert isinstance(message, Message)
    assert message.message_id == message.account == "caf\u00e9"
    assert message.subject == "caf\u00e9:t\u00f3m"
    assert message.ts.utcoffset() == timedelta(hours=2)
    assert message.ts.astimezone(UTC) == datetime(2026, 1, 1, 8, 0, 0, 123456, tzinfo=UTC)
    assert message.log_line == (str(log), 1)


def test_window_edges_and_offsets(tmp_path: Path) -> None:
    good = ["1970-01-01T00:00:00Z", "2099-12-31T23:59:59.999999Z", "2026-01-01 10:00:00z",
            "2026-06-01T10:00:00-12:00", "2026-06-01T10:00:00+14:00",
            "2026-06-01T10:00:00-00:00"]  # fmt: skip
    log = _write(
        tmp_path / "log.jsonl", [_line(message_id=f"m{i}", ts=t) for i, t in enumerate(good)]
    )
    read = list(read_log(log))
    assert all(isinstance(m, Message) for m in read), read
    assert parse_ts("1970-01-01T00:00:00Z") == TS_MIN
    with pytest.raises(ValueError, match="outside"):
        parse_ts(TS_MAX.isoformat())


def test_subject_defaults_to_the_account_and_names_a_person(tmp_path: Path) -> None:
    log = _write(
        tmp_path / "log.jsonl",
        [_line(), _line(message_id="m2", subject="a"), _line(message_id="m3", subject="a:tom"),
         _line(message_id="m4", subject=""), _line(message_id="m5", subject=None)],
    )  # fmt: skip
    subjects = [m.subject for m in read_log(log) if isinstance(m, Message)]
    assert subjects == ["a", "a", "a:tom", "a", "a"]


def test_a_utf8_bom_at_the_start_of_a_file_is_not_a_bad_line(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(codecs.BOM_UTF8 + _line() + b"\n" + codecs.BOM_UTF8 + _line(message_id="m2"))
    first, second = read_log(log)
    assert isinstance(first, Message)
    assert isinstance(second, Quarantined) and "invalid JSON" in second.reason


def test_an_unstorable_file_name_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    name = os.fsdecode(b"bad-\xff-name.jsonl")  # holds a lone surrogate (surrogateescape)
    (folder / name).write_bytes(_line(role="admin") + b"\n")
    (bad,) = read_log(folder)
    assert isinstance(bad, Quarantined)
    assert "\\udcff" in bad.file
    assert_storable_entry(bad)


# ------------------------------------------------------------ the validator, property-based

_SPECIAL = ["\x00", "\ud800", "\udfff", "\u200b", "\u200c", "\u200d", "\ufeff", "\u202a",
            "\u202e", "\u2066", "\u2069", "\u2028", "\n", "\t", " ", "\u00a0", "\u0301", ":",
            "e\u0301", "\x7f", "\x85"]  # fmt: skip
_chars = st.one_of(
    st.sampled_from(_SPECIAL),
    st.characters(codec="utf-8"),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
)
_text = st.lists(_chars, max_size=12).map("".join)
_ids = st.one_of(st.sampled_from(["t", "a", "m1", "a:tom", "global", "project:x"]), _text)
_numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 2**31 - 1, 2**31, -1, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
)
_timestamps = st.one_of(
    st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
    st.datetimes().map(lambda d: d.isoformat()),
    st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00",
                     "2099-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2026-01-01T10:00:00Z"]),
    _text,
)  # fmt: skip
_scalars = st.one_of(st.none(), st.booleans(), _numbers, _text)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=8,
)
_FIELD_VALUES: dict[str, Any] = {
    "message_id": _ids, "tenant": _ids, "account": _ids, "conversation_id": _ids,
    "turn": _numbers, "role": st.one_of(st.sampled_from([r.value for r in Role]), _text),
    "text": _text, "ts": _timestamps, "scope": _ids, "purpose": _ids, "session": _ids,
    "subject": _ids, "incognito": st.one_of(st.booleans(), _scalars),
}  # fmt: skip
_messages = st.fixed_dictionaries(
    {name: st.one_of(value, _json) for name, value in _FIELD_VALUES.items()
     if name not in _OPTIONAL},
    optional={name: st.one_of(_FIELD_VALUES[name], _json) for name in _OPTIONAL},
)  # fmt: skip
_lines = st.one_of(
    _messages.map(lambda obj: json.dumps(obj).encode()),
    _json.map(lambda obj: json.dumps(obj).encode()),
    st.binary(max_size=200),
)


def assert_follows_the_rules(message: Message) -> None:
    for name in ("message_id", "tenant", "account", "conversation_id", "subject", "scope"):
        value = getattr(message, name)
        assert unicodedata.normalize("NFC", value) == value
        assert identifier_problem(value) is None, (name, value)
    if message.session is not None:
        assert identifier_problem(message.session) is None
    for value in (message.text, message.role.value, message.purpose):
        assert "\x00" not in value
        value.encode("utf-8")
    assert TS_MIN <= message.ts.astimezone(UTC) < TS_MAX
    assert 0 <= message.turn <= TURN_MAX
    person = message.subject.removeprefix(message.account + ":")
    assert message.subject == message.account or (person and ":" not in person)


@hypothesis_settings(max_examples=400, deadline=None)
@given(raw=_lines)
def test_no_line_raises_and_every_line_is_one_message_or_one_quarantined(raw: bytes) -> None:
    item = read_line("log.jsonl", 7, raw)
    if isinstance(item, Message):
        assert_follows_the_rules(item)
        assert item.log_line == ("log.jsonl", 7)
    else:
        assert isinstance(item, Quarantined) and item.line_no == 7
        assert_storable_entry(item)


_safe_ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=20)


@hypothesis_settings(max_examples=200, deadline=None)
@given(
    ids=st.tuples(_safe_ids, _safe_ids, _safe_ids, _safe_ids),
    turn=st.integers(min_value=0, max_value=TURN_MAX),
    text=st.text(st.characters(codec="utf-8", exclude_characters="\x00")),
    ts=st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2098, 12, 31),
                    timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5)),
                                               timezone(timedelta(hours=5, minutes=30))])),
)  # fmt: skip
def test_a_line_within_the_rules_is_always_read_as_that_message(
    ids: tuple[str, str, str, str], turn: int, text: str, ts: datetime
) -> None:
    message_id, tenant, account, conversation = ids
    obj = {"message_id": message_id, "tenant": tenant, "account": account,
           "conversation_id": conversation, "turn": turn, "role": "user", "text": text,
           "ts": ts.isoformat(), "subject": f"{account}:kid"}  # fmt: skip
    item = read_line("log.jsonl", 1, json.dumps(obj).encode())
    assert isinstance(item, Message), item
    assert (item.message_id, item.tenant, item.account, item.turn, item.text, item.ts) == (
        message_id, tenant, account, turn, text, ts,
    )  # fmt: skip
    assert item.subject == f"{account}:kid"


@hypothesis_settings(max_examples=30, deadline=None)
@given(lines=st.lists(_lines, max_size=8))
def test_a_whole_file_of_arbitrary_lines_reads_one_item_per_line(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        log.write_bytes(b"\n".join(lines) + b"\n")
        expected = [n for n, raw in enumerate(log.read_bytes().split(b"\n")[:-1], 1)
                    if raw.strip() and not (n == 1 and raw.strip() == codecs.BOM_UTF8)]  # fmt: skip
        items = list(read_log(log))
    numbers = [i.line_no if isinstance(i, Quarantined) else (i.log_line or ("", 0))[1]
               for i in items]  # fmt: skip
    assert numbers == expected
