"""The read paths over standard input and files: recall and redact (JSON lines out)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from interfaces.cli._common import JsonFlag, guarded
from permem.errors import BadInput
from permem.settings import load_settings

__all__ = ["recall", "redact"]


@guarded
def redact(as_json: JsonFlag = False) -> None:
    """Redact text lines from standard input: one JSON line out per line in."""
    from permem.runtime import shared_redactor

    redactor = shared_redactor()
    for raw in sys.stdin:
        text = raw.rstrip("\n")
        result = redactor.redact(text)
        entities = [
            {"type": e.type, "start": e.start, "end": e.end, "score": round(e.score, 3)}
            for e in result.entities
        ]
        out = {"text": text, "redacted": result.redacted, "entities": entities}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()


@guarded
def recall(
    queries: Annotated[Path, typer.Option("--queries", help="Recall queries, JSON Lines.")],
    as_json: JsonFlag = False,
) -> None:
    """Answer recall queries (JSON lines in, one JSON answer per query out, in order)."""
    from permem.recall import RecallAnswer, Recaller, parse_query
    from permem.runtime import runtime

    if not queries.is_file():
        raise BadInput(f"queries file does not exist: {queries}")
    rt = runtime(load_settings())
    recaller = Recaller(rt.db, rt.index, rt.embedder)
    with queries.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            query_id = None
            try:
                obj = json.loads(raw)
                query_id = obj.get("query_id") if isinstance(obj, dict) else None
                answer = recaller.recall(parse_query(obj))
            except (ValueError, BadInput) as exc:
                answer = RecallAnswer(str(query_id) if query_id else f"line {line_no}")
                answer.error = str(exc).splitlines()[0]
            sys.stdout.write(json.dumps(answer.as_json(), ensure_ascii=False) + "\n")
            sys.stdout.flush()
