"""The scenario harness: scripted histories run against fresh stores, scored against gold.

A scenario folder (the format of `shared/data/scenarios/`) holds `steps.jsonl` (the script),
the logs it ingests, recall queries and gold answers, and a README whose `Family:` line names
the families it exercises. Each scenario gets its own new database and LanceDB directory, so
no scenario can see another's memory.

Scoring, per recall query (FORMATS.md "Evaluation gold files"):

- a **hit** is a gold `relevant` message that is the source of a returned record; a **miss**
  is one that is not;
- a **wrong personalization** is a returned record whose source is `forbidden`;
- `expect_denied` / `expect_empty` compare with the answer's `denied` and emptiness (a query
  that is denied without `expect_denied`, or answers when `expect_denied` says it must be
  refused, is a mismatch too);
- `claim_must_not_contain` substrings are looked for, case-insensitively, in every claim the
  scenario's stores hold after each recall step (a **leak**); so is residue that a `forget`
  step's verification finds in any store.

A step whose operation permem does not support yet ends its scenario there: what ran is
scored, and the rest is reported as not run, with the operation named. What a run came to, and
the cause of each miss and wrong personalization, is `permem.scenario_report`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from permem import controls, nightly
from permem.errors import BadInput
from permem.records import UserMemory
from permem.scenario_report import (
    HarnessReport,
    ScenarioReport,
    miss_cause,
    wrong_cause,
)
from permem.settings import Settings
from permem.stores.database import list_tenants

STEPS_FILE = "steps.jsonl"
_FAMILY = re.compile(r"^Family:\s*(.+?)\.?\s*$", re.MULTILINE)


def scenario_folders(paths: Sequence[Path]) -> list[Path]:
    """Each path that is a scenario folder, or the scenario folders directly inside it."""
    found: list[Path] = []
    for path in paths:
        if (path / STEPS_FILE).is_file():
            found.append(path)
            continue
        if not path.is_dir():
            raise BadInput(f"not a scenario folder or a folder of them: {path}")
        inside = sorted(p for p in path.iterdir() if (p / STEPS_FILE).is_file())
        if not inside:
            raise BadInput(f"no scenario (a folder with {STEPS_FILE}) in {path}")
        found.extend(inside)
    return found


def families_of(folder: Path) -> list[str]:
    """The families a scenario's README names on its `Family:` line (`unlabelled` without)."""
    readme = folder / "README.md"
    match = _FAMILY.search(readme.read_text(encoding="utf-8")) if readme.is_file() else None
    if match is None:
        return ["unlabelled"]
    return [f.strip() for f in match.group(1).split(",") if f.strip()]


def json_lines(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise BadInput(f"scenario file does not exist: {path}")
    rows = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadInput(f"{path}:{line_no}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BadInput(f"{path}:{line_no}: not a JSON object")
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------- fresh stores


class StoreFactory:
    """New, empty stores for each scenario, on the server of `base` or an embedded one.

    With `base.database_url` set, each scenario gets a new database on that server (the URL's
    user must be allowed to create databases); otherwise one embedded server is started in a
    temporary folder for the whole run. Every database and folder is removed afterwards.
    """

    def __init__(self, base: Settings) -> None:
        self._base = base
        self._scratch = Path(tempfile.mkdtemp(prefix="permem-scenarios-"))
        self._embedded: Path | None = None
        if base.database_url:
            self._server = base.database_url
        else:
            from permem.stores.embedded import start_embedded

            self._embedded = self._scratch / "pgdata"
            self._server = start_embedded(self._embedded, database="postgres")

    @contextlib.contextmanager
    def fresh(self) -> Iterator[Settings]:
        from permem.runtime import close_all

        name = f"permem_scenario_{uuid.uuid4().hex[:12]}"
        admin = sa.create_engine(self._server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        home = self._scratch / name
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            url = make_url(self._server).set(database=name).render_as_string(hide_password=False)
            yield self._base.model_copy(
                update={"database_url": url, "home": home, "lance_uri": None}
            )
        finally:
            close_all()
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
            shutil.rmtree(home, ignore_errors=True)

    def close(self) -> None:
        if self._embedded is not None:
            from permem.stores.embedded import stop_embedded

            stop_embedded(self._embedded)
        shutil.rmtree(self._scratch, ignore_errors=True)


# ---------------------------------------------------------------------------- running


def _stored(settings: Settings) -> list[UserMemory]:
    """Every record the scenario's database holds, any status, tenant by tenant, oldest first."""
    from permem.runtime import runtime

    db = runtime(settings).db
    return [r for tenant in list_tenants(db) for r in controls.inspect(db, tenant)]


def _by_message(records: Sequence[UserMemory]) -> dict[str, list[UserMemory]]:
    found: dict[str, list[UserMemory]] = {}
    for record in records:
        found.setdefault(record.source.message_id or "", []).append(record)
    return found


def _score_recall(
    settings: Settings, folder: Path, step: Mapping[str, Any], report: ScenarioReport
) -> None:
    from permem.recall import Recaller, parse_query
    from permem.runtime import runtime

    queries = json_lines(folder / str(step.get("queries", "queries.jsonl")))
    gold = {
        g["query_id"]: g for g in json_lines(folder / str(step.get("gold", "gold_recall.jsonl")))
    }
    rt = runtime(settings)
    recaller = Recaller(rt.db, rt.index, rt.embedder)
    outcome, must_not_contain = report.outcome, set[str]()
    # The scenario's stored records, read once, and only when a miss, a wrong or a leak check
    # needs them.
    stored = functools.cache(lambda: _stored(settings))
    by_message = functools.cache(lambda: _by_message(stored()))

    for obj in queries:
        query_id = str(obj.get("query_id"))
        expected = gold.get(query_id)
        if expected is None:
            raise BadInput(f"{folder.name}: query {query_id} has no gold line")
        outcome.queries += 1
        try:
            answer = recaller.recall(parse_query(obj))
        except (ValueError, BadInput) as exc:
            outcome.errors += 1
            report.details.append({"query_id": query_id, "error": str(exc)})
            continue
        sources = [r.record.source.message_id or "" for r in answer.records]
        relevant = [str(m) for m in expected.get("relevant", [])]
        for message_id in relevant:
            if message_id in sources:
                outcome.hits += 1
            else:
                outcome.misses += 1
                report.details.append(
                    {
                        "query_id": query_id,
                        "miss": message_id,
                        "cause": miss_cause(by_message().get(message_id, [])),
                    }
                )
        forbidden = set(expected.get("forbidden", []))
        for recalled in answer.records:
            if recalled.record.source.message_id in forbidden:
                outcome.wrong += 1
                beside, said = wrong_cause(
                    recalled.record, sources, [r for m in relevant for r in by_message().get(m, [])]
                )
                report.details.append(
                    {
                        "query_id": query_id,
                        "wrong_personalization": recalled.record.source.message_id,
                        "claim_id": str(recalled.record.id),
                        "beside": beside,
                        "said": said,
                        "kind": recalled.record.kind.value,
                    }
                )
        want_denied = bool(expected.get("expect_denied", False))
        if want_denied != (answer.denied is not None):
            outcome.denied_mismatches += 1
            report.details.append(
                {"query_id": query_id, "expect_denied": want_denied, "denied": answer.denied}
            )
        if expected.get("expect_empty", False) and answer.records:
            outcome.empty_mismatches += 1
            report.details.append(
                {"query_id": query_id, "expect_empty": True, "returned": len(answer.records)}
            )
        must_not_contain.update(expected.get("claim_must_not_contain", []))
    if must_not_contain:
        for record in stored():
            for needle in sorted(must_not_contain):
                if needle.casefold() in record.claim.casefold():
                    outcome.leaks += 1
                    report.details.append(
                        {"tenant": record.tenant, "claim_id": str(record.id), "leaked": needle}
                    )


def _set_paused(settings: Settings, step: Mapping[str, Any], paused: bool) -> None:
    from permem.runtime import runtime

    tenant, subject = str(step["tenant"]), str(step["subject"])
    controls.set_paused(
        runtime(settings).db, tenant, subject, paused=paused, actor=subject, now=datetime.now(UTC)
    )


def _forget(
    settings: Settings, _folder: Path, step: Mapping[str, Any], report: ScenarioReport
) -> None:
    from permem.forget import Target, block, erase, verify
    from permem.runtime import runtime

    rt = runtime(settings)
    tenant = str(step["tenant"])
    target = Target.of(
        subject=step.get("subject"), source=step.get("source"), claim=step.get("claim")
    )
    now = datetime.now(UTC)
    block(rt.db, tenant, target, actor=str(step.get("by", "scenario")), now=now)
    erase(rt.db, rt.index, tenant, now=now, backups=settings.backups_dir)
    checked = verify(rt.db, rt.index, tenant, now=now)
    for residue in checked.residue:
        report.outcome.leaks += 1
        report.details.append({"forget": target.value, "residue": residue})


def _rebuild_index(
    settings: Settings, _folder: Path, _step: Mapping[str, Any], _report: ScenarioReport
) -> None:
    from permem.indexing import rebuild_index
    from permem.runtime import runtime

    rt = runtime(settings)
    rebuild_index(rt.db, rt.index, rt.embedder)


def _expire(
    settings: Settings, _folder: Path, step: Mapping[str, Any], _report: ScenarioReport
) -> None:
    from permem.expiry import expire
    from permem.runtime import runtime

    try:
        at = datetime.fromisoformat(str(step["at"]))
    except (KeyError, ValueError):
        raise BadInput(f"an expire step needs an RFC 3339 `at`, got {step.get('at')!r}") from None
    rt = runtime(settings)
    expire(rt.db, rt.index, at=at, session_hours=settings.session_hours)


StepRunner = Callable[[Settings, Path, Mapping[str, Any], ScenarioReport], None]


def _nightly(
    settings: Settings, folder: Path, step: Mapping[str, Any], _report: ScenarioReport
) -> None:
    nightly.run(settings, folder / str(step.get("logs", "logs.jsonl")))


STEPS: dict[str, StepRunner] = {
    "nightly": _nightly,
    "recall": _score_recall,
    "pause": lambda s, _f, step, _r: _set_paused(s, step, True),
    "resume": lambda s, _f, step, _r: _set_paused(s, step, False),
    "forget": _forget,
    "rebuild-index": _rebuild_index,
    "expire": _expire,
}


def run_scenario(
    folder: Path,
    settings: Settings,
    *,
    steps: Mapping[str, StepRunner] = STEPS,
    script: Sequence[Mapping[str, Any]] | None = None,
) -> ScenarioReport:
    """Run one scenario's steps, in order, against the (fresh) stores of `settings`: its
    `steps.jsonl`, or `script` when given; each step by its runner in `steps` (the lifecycle
    evaluation swaps in its own `recall`)."""
    report = ScenarioReport(name=folder.name, families=families_of(folder))
    if script is None:
        script = json_lines(folder / STEPS_FILE)
    for number, step in enumerate(script, start=1):
        op = step.get("op")
        runner = steps.get(str(op))
        if runner is None:
            report.not_run = f"step {number} ({op}) and later: `{op}` is not supported yet"
            break
        runner(settings, folder, step, report)
    return report


def run_scenarios(
    paths: Sequence[Path],
    base: Settings,
    *,
    progress: Callable[[ScenarioReport], None] | None = None,
) -> HarnessReport:
    """Run every scenario under `paths`, each against new stores; report per family."""
    folders = scenario_folders(paths)
    factory = StoreFactory(base)
    reports: list[ScenarioReport] = []
    try:
        for folder in folders:
            with factory.fresh() as settings:
                report = run_scenario(folder, settings)
            reports.append(report)
            if progress is not None:
                progress(report)
    finally:
        factory.close()
    return HarnessReport(reports)
