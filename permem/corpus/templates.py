"""Building blocks of generated scenarios: the draws of one variant, and a builder that writes a
scenario folder in the layout of `shared/data/README.md`.

A template is a function of a `Scenario` (already holding its variant's draws, tenant, person,
start date and zone). It writes the conversations, the queries with their gold, and the steps;
the gold is stated once, in the template, against the message ids the builder hands back.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from permem.corpus import pools

T = TypeVar("T")
HALVES = ("dev", "held")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Draw:
    """The random choices of one variant.

    `pick` draws a wording from this half's share of the options: a slot with several wordings
    shows the development half some of them and the held-apart half the others (split by the
    seed), so a rule fitted to the development wordings is not rewarded on the held-apart half.
    `any` draws from every option (names, dates, places).
    """

    def __init__(self, seed: int, half: str, template: str, number: int) -> None:
        self.seed, self.half, self.template = seed, half, template
        self.rng = random.Random(f"{seed}|{template}|{number}")
        self._slots = 0

    def pick(self, options: Sequence[T]) -> T:
        # The n-th slot of a template is split the same way in every variant of it, whatever
        # names or dates its wordings carry.
        self._slots += 1
        if len(options) < 2:
            return options[0]
        order = list(range(len(options)))
        random.Random(f"{self.seed}|{self.template}|{self._slots}|{len(options)}").shuffle(order)
        share = order[HALVES.index(self.half) :: 2]
        return options[self.rng.choice(share)]

    def any(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def chance(self, p: float = 0.5) -> bool:
        return self.rng.random() < p

    def between(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


@dataclass(frozen=True)
class Person:
    first: str
    last: str

    @property
    def account(self) -> str:
        return f"{self.first[0]}.{self.last}".lower()


@dataclass
class Query:
    query_id: str
    row: dict[str, Any]
    gold: dict[str, Any]


def rfc3339(moment: datetime) -> str:
    text = moment.isoformat(timespec="seconds")
    return text.replace("+00:00", "Z")


def ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def first_of_month(moment: datetime, months_ahead: int) -> datetime:
    month = moment.month - 1 + months_ahead
    return moment.replace(year=moment.year + month // 12, month=month % 12 + 1, day=1)


def casual(draw: Draw, text: str) -> str:
    """The way people type in a chat: sometimes lower-case, sometimes no final full stop."""
    if draw.chance(0.35):
        text = text[0].lower() + text[1:]
    if draw.chance(0.3) and text.endswith("."):
        text = text[:-1]
    return text


class Conversation:
    """One conversation: consecutive turns of a tenant's account, a few minutes apart."""

    def __init__(self, scenario: Scenario, number: int, at: datetime, fields: dict[str, Any]):
        self.scenario, self.number, self.clock, self.fields = scenario, number, at, fields
        self.turn = 0

    def add(self, role: str, text: str, **extra: Any) -> str:
        s = self.scenario
        self.turn += 1
        message_id = f"{s.code}-c{self.number}-m{self.turn:02d}"
        row = {
            "message_id": message_id,
            "tenant": self.fields.get("tenant", s.tenant),
            "account": self.fields.get("account", s.account),
            "conversation_id": f"conv-{s.code}-{self.number}",
            "turn": self.turn,
            "role": role,
            "text": text,
            "ts": rfc3339(self.clock),
        }
        row.update({k: v for k, v in self.fields.items() if k not in ("tenant", "account")})
        row.update(extra)
        s.logs.setdefault(self.fields.get("_log", "logs.jsonl"), []).append(row)
        row.pop("_log", None)
        self.clock += timedelta(seconds=s.draw.between(25, 170))
        return message_id

    def user(self, text: str, **extra: Any) -> str:
        return self.add("user", casual(self.scenario.draw, text), **extra)

    def assistant(self, text: str) -> str:
        return self.add("assistant", text)

    def tell(self, *parts: str, split: bool | None = None, acks: Sequence[str] = ()) -> list[str]:
        """User sentences in one message, or one message each (an assistant ack between them
        when `acks` are given); the message id of each part, in order."""
        draw = self.scenario.draw
        if split is None:
            split = draw.chance()
        if not split:
            ended = [p if p[-1] in ".!?" else p + "." for p in parts]
            message_id = self.user(" ".join(ended))
            return [message_id] * len(parts)
        ids = []
        for number, part in enumerate(parts):
            if number and acks and draw.chance(0.6):
                self.assistant(draw.any(acks))
            ids.append(self.user(part))
        return ids


@dataclass
class Scenario:
    """The builder of one scenario folder."""

    slug: str
    family: str
    summary: str
    draw: Draw
    start: datetime
    person: Person
    zone: tuple[str, str]
    tenant: str = ""
    code: str = ""
    logs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    recalls: list[list[Query]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _conversations: int = 0
    _queries: int = 0

    def __post_init__(self) -> None:
        self.code = "g" + hashlib.sha1(self.slug.encode()).hexdigest()[:7]
        self.tenant = f"{self.draw.any(pools.APPS)}-{self.code}"

    @property
    def account(self) -> str:
        return self.person.account

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone[1])

    def day(self, days: float, hour: int = 10, minute: int = 0) -> datetime:
        """Local time in the person's zone, `days` after the start date."""
        local = (self.start + timedelta(days=days)).astimezone(self.tz)
        return local.replace(hour=hour, minute=minute, second=0, microsecond=0)

    def other_person(self, *avoid: Person) -> Person:
        taken = {self.person.first, *(p.first for p in avoid)}
        first = self.draw.any([n for n in pools.FIRST_NAMES if n not in taken])
        return Person(first, self.draw.any(pools.LAST_NAMES))

    def chat(self, at: datetime, **fields: Any) -> Conversation:
        """A new conversation starting at `at`; `fields` go on every message (tenant, account,
        scope, purpose, session, incognito, subject; `_log` names another log file)."""
        self._conversations += 1
        return Conversation(self, self._conversations, at, dict(fields))

    def ask(
        self,
        text: str,
        at: datetime,
        *,
        relevant: Sequence[str] = (),
        forbidden: Sequence[str] = (),
        expect_denied: bool = False,
        expect_empty: bool = False,
        must_not_contain: Sequence[str] = (),
        **fields: Any,
    ) -> Query:
        self._queries += 1
        query_id = f"{self.code}-q{self._queries}"
        row: dict[str, Any] = {
            "query_id": query_id,
            "tenant": self.tenant,
            "actor": self.account,
            "subject": self.account,
            "purpose": "assistant",
            "scope": "global",
            "ts": rfc3339(at),
            "text": text,
            "k": 5,
        }
        row.update(fields)
        gold: dict[str, Any] = {
            "query_id": query_id,
            "relevant": sorted(set(relevant)),
            "forbidden": sorted(set(forbidden) - set(relevant)),
        }
        if expect_denied:
            gold["expect_denied"] = True
        if expect_empty:
            gold["expect_empty"] = True
        if must_not_contain:
            gold["claim_must_not_contain"] = list(dict.fromkeys(must_not_contain))
        return Query(query_id, row, gold)

    def nightly(self, logs: str = "logs.jsonl") -> None:
        self.steps.append(
            {"op": "nightly"} if logs == "logs.jsonl" else {"op": "nightly", "logs": logs}
        )

    def recall(self, *queries: Query) -> None:
        number = len(self.recalls) + 1
        suffix = "" if number == 1 else f"_{number}"
        self.recalls.append(list(queries))
        self.steps.append(
            {
                "op": "recall",
                "queries": f"queries{suffix}.jsonl",
                "gold": f"gold_recall{suffix}.jsonl",
            }
        )

    def op(self, name: str, **fields: Any) -> None:
        self.steps.append({"op": name, **fields})

    def write(self, root: Path) -> Path:
        folder = root / self.slug
        folder.mkdir(parents=True, exist_ok=False)
        for name, rows in self.logs.items():
            ordered = sorted(rows, key=lambda r: datetime.fromisoformat(r["ts"]).astimezone(UTC))
            _write_lines(folder / name, ordered)
        for number, queries in enumerate(self.recalls, start=1):
            suffix = "" if number == 1 else f"_{number}"
            _write_lines(folder / f"queries{suffix}.jsonl", [q.row for q in queries])
            _write_lines(folder / f"gold_recall{suffix}.jsonl", [q.gold for q in queries])
        _write_lines(folder / "steps.jsonl", self.steps)
        readme = [f"Family: {self.family}.", self.summary, *self.notes]
        (folder / "README.md").write_text("\n".join(readme) + "\n", encoding="utf-8")
        return folder


def _write_lines(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")


TemplateFunction = Callable[[Scenario], None]


@dataclass(frozen=True)
class Template:
    family: str
    name: str
    summary: str
    build: TemplateFunction


REGISTRY: list[Template] = []


def staged(s: Scenario) -> dict[str, str]:
    """Sometimes the later conversations go to a second log read by a second nightly run, so
    the earlier claim is already stored when the later one arrives (`nightlies`)."""
    return {"_log": "logs_2.jsonl"} if s.draw.chance(0.5) else {}


def nightlies(s: Scenario, later: dict[str, str]) -> None:
    """The nightly run, and a second one over the later log when `staged` made one."""
    s.nightly()
    if later:
        s.nightly(later["_log"])


def template(
    family: str, name: str, summary: str
) -> Callable[[TemplateFunction], TemplateFunction]:
    """Registers a template of `family`; `summary` becomes the second line of its README."""

    def register(build: TemplateFunction) -> TemplateFunction:
        REGISTRY.append(Template(family, name, summary, build))
        return build

    return register
