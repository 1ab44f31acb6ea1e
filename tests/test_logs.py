"""Reading logs: every malformed line quarantined with file, line and reason; nothing lost."""

import json
from pathlib import Path

import pytest

from permem.errors import BadInput
from permem.logs import Quarantined, batches, log_files, read_log
from permem.records import Message, Role

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


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{not json", "invalid JSON"),
        (b"[1, 2]", "line is not a JSON object"),
        (_line(text=...), "missing required field text"),
        (_line(tenant=None), "missing required field tenant"),
        (_line(turn="3"), "field turn must be an integer"),
        (_line(turn=True), "field turn must be an integer"),
        (_line(role="admin"), "unknown role 'admin'"),
        (_line(ts="yesterday"), "field ts is not an RFC 3339 timestamp"),
        (_line(ts="2026-01-01T10:00:00"), "field ts has no timezone offset"),
        (_line(scope="team"), "field scope must be global"),
        (_line(purpose="Ads Team"), "field purpose must be a lower-case identifier"),
        (_line(incognito="yes"), "field incognito must be true or false"),
        (_line(message_id=" m1"), "must be non-empty without surrounding spaces"),
        (b"\xff\xfe{}", "line is not valid UTF-8"),
    ],
)
def test_malformed_lines_are_quarantined_and_the_rest_is_read(
    tmp_path: Path, line: bytes, reason: str
) -> None:
    log = _write(
        tmp_path / "log.jsonl", [_line(message_id="before"), line, _line(message_id="after")]
    )
    items = list(read_log(log))
    assert [i.message_id for i in items if isinstance(i, Message)] == ["before", "after"]
    (bad,) = [i for i in items if isinstance(i, Quarantined)]
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
