"""A synthetic conversation log (FORMATS.md), streamed to disk, deterministic for a seed.

Several tenants, about one account per 20 messages, conversations of 4-20 turns alternating
user and assistant, long-ish assistant answers, user messages of 1-3 sentences of which about
one in four carries a durable statement (preferences, constraints, standing instructions, third
parties, corrections, one-offs, plans, contact details), the rest questions, requests and
chit-chat (`conversation_grammar`). About 0.1% of the lines are malformed, 1% are document or
tool messages, and a few conversations are incognito.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from conversation_grammar import (
    ASSISTANT,
    CHITCHAT,
    DURABLE,
    OPENERS,
    PURPOSES,
    QUESTIONS,
    REQUESTS,
    SCOPES,
    SITUATIONS,
    TENANTS,
    TOOL,
    expand,
)

__all__ = ["T0", "LogStats", "generate"]

T0 = datetime(2026, 11, 1, tzinfo=UTC)  # the first conversation starts here
_DURABLE_WEIGHTS = [w for w, _, _ in DURABLE]


def _sentence(text: str, rng: random.Random) -> str:
    # Most users capitalise; some type everything in lower case.
    return text[0].upper() + text[1:] if rng.random() < 0.75 else text


@dataclass
class LogStats:
    """What the generator wrote, to show the log is the realistic mix it claims to be."""

    lines: int = 0
    tenants: set[str] = field(default_factory=set)
    accounts: int = 0
    conversations: int = 0
    roles: Counter[str] = field(default_factory=Counter)
    words: Counter[str] = field(default_factory=Counter)
    durable: Counter[str] = field(default_factory=Counter)
    durable_user_messages: int = 0
    distinct_durable: set[bytes] = field(default_factory=set)
    malformed: int = 0
    incognito: int = 0
    scoped: int = 0

    def summary(self) -> dict[str, Any]:
        user, assistant = self.roles["user"], self.roles["assistant"]
        durable_total = sum(self.durable.values())
        return {
            "lines": self.lines,
            "tenants": len(self.tenants),
            "accounts": self.accounts,
            "conversations": self.conversations,
            "roles": dict(self.roles),
            "malformed": self.malformed,
            "incognito": self.incognito,
            "scoped": self.scoped,
            "user_mean_words": round(self.words["user"] / user, 1) if user else 0,
            "assistant_mean_words": round(self.words["assistant"] / assistant, 1)
            if assistant
            else 0,
            "durable_share_of_user": round(self.durable_user_messages / user, 3) if user else 0,
            "durable_kinds": dict(self.durable),
            "durable_distinct": round(len(self.distinct_durable) / durable_total, 3)
            if durable_total
            else 0,
        }


class _LogWriter:
    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n_accounts = max(10, n // 20)
        self.weights = [w for _, w in TENANTS]
        self.stats = LogStats(accounts=self.n_accounts)

    def tenant_of(self, account: int) -> str:
        # A fixed tenant per account, spread by the tenants' weights.
        slot = (account * 2654435761) % sum(self.weights)
        for name, weight in TENANTS:
            if slot < weight:
                return name
            slot -= weight
        raise AssertionError("unreachable")

    def user_text(self) -> str:
        rng = self.rng
        count = rng.choices((1, 2, 3), weights=(18, 42, 40))[0]
        durable_at = rng.randrange(count) if rng.random() < 0.25 else None
        parts: list[str] = []
        for i in range(count):
            if i == durable_at:
                _, kind, templates = rng.choices(DURABLE, weights=_DURABLE_WEIGHTS)[0]
                statement = expand(rng, rng.choice(templates))
                self.stats.durable[kind] += 1
                digest = hashlib.blake2b(statement.lower().encode(), digest_size=8).digest()
                self.stats.distinct_durable.add(digest)
                parts.append(_sentence(rng.choice(OPENERS) + statement, rng))
                continue
            alone = count == 1 and durable_at is None
            weights = (42, 32, 6, 20) if alone else (38, 26, 20, 16)
            pool = rng.choices((QUESTIONS, REQUESTS, SITUATIONS, CHITCHAT), weights=weights)[0]
            parts.append(_sentence(expand(rng, rng.choice(pool)), rng))
        if durable_at is not None:
            self.stats.durable_user_messages += 1
        return " ".join(parts)

    def assistant_text(self) -> str:
        target = self.rng.randint(40, 80)
        words: list[str] = []
        while len(words) < target:
            words.extend(expand(self.rng, self.rng.choice(ASSISTANT)).split())
        if len(words) > 80:
            words = words[:80]
            words[-1] = words[-1].rstrip(",.") + "."
        return " ".join(words)

    def extra_message(self) -> tuple[str, str]:
        rng = self.rng
        if rng.random() < 0.5:
            return "tool", expand(rng, rng.choice(TOOL))
        body = [expand(rng, "{title}.")] + [
            expand(rng, "{doc_body}") for _ in range(rng.randint(1, 3))
        ]
        if rng.random() < 0.15:  # memory poisoning planted in retrieved content
            body.insert(rng.randrange(1, len(body) + 1), expand(rng, "{planted}"))
        return "document", " ".join(body)

    def malformed(self, record: dict[str, Any]) -> str:
        rng = self.rng
        broken = dict(record)
        how = rng.randrange(6)
        if how == 0:
            text = json.dumps(record)
            return text[: rng.randrange(5, len(text) - 1)]
        if how == 1:
            del broken[rng.choice(("ts", "account", "tenant", "text"))]
        elif how == 2:
            broken["role"] = rng.choice(("bot", "human", "User"))
        elif how == 3:
            broken["ts"] = broken["ts"].removesuffix("Z")
        elif how == 4:
            broken["turn"] = str(broken["turn"])
        else:
            return json.dumps([broken["message_id"], broken["text"]])
        return json.dumps(broken)

    def conversations(self, n: int) -> Iterator[str]:
        rng = self.rng
        clock = T0
        number = 0
        while True:
            number += 1
            self.stats.conversations += 1
            account = int(self.n_accounts * rng.random() ** 1.3)  # some accounts chat more
            tenant = self.tenant_of(account)
            conversation = f"c{number:07d}"
            common: dict[str, Any] = {}
            if rng.random() < 0.12:
                common["scope"] = rng.choice(SCOPES)
            purpose = rng.choices([p for p, _ in PURPOSES], weights=[w for _, w in PURPOSES])[0]
            if purpose:
                common["purpose"] = purpose
            if rng.random() < 0.7:
                common["session"] = f"s-{rng.getrandbits(40):010x}"
            if rng.random() < 0.004:
                common["incognito"] = True
            clock += timedelta(seconds=rng.uniform(1, 20))
            ts = clock
            turns = rng.randint(4, 20)
            roles = ["user" if t % 2 == 0 else "assistant" for t in range(turns)]
            turn = 0
            for role in roles:
                kinds = [role]
                if role == "user" and rng.random() < 0.021:
                    kinds.append("extra")
                for kind in kinds:
                    turn += 1
                    ts += timedelta(seconds=rng.randint(5, 180))
                    if kind == "user":
                        actual, text = "user", self.user_text()
                    elif kind == "assistant":
                        actual, text = "assistant", self.assistant_text()
                    else:
                        actual, text = self.extra_message()
                    record: dict[str, Any] = {
                        "message_id": f"{conversation}-{turn}",
                        "tenant": tenant,
                        "account": f"acct-{account:06d}",
                        "conversation_id": conversation,
                        "turn": turn,
                        "role": actual,
                        "text": text,
                        "ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        **common,
                    }
                    self.stats.lines += 1
                    self.stats.tenants.add(tenant)
                    if rng.random() < 0.001:
                        self.stats.malformed += 1
                        yield self.malformed(record)
                    else:
                        self.stats.roles[actual] += 1
                        self.stats.words[actual] += len(text.split())
                        self.stats.incognito += bool(common.get("incognito"))
                        self.stats.scoped += "scope" in common
                        yield json.dumps(record, ensure_ascii=False)
                    if self.stats.lines >= n:
                        return


def generate(path: Path, n: int, seed: int = 1) -> dict[str, Any]:
    """Write a log of exactly `n` lines to `path`, streaming; return what it holds.

    Deterministic for a seed: the same (n, seed) writes the same bytes.
    """
    writer = _LogWriter(random.Random(seed), n)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for line in writer.conversations(n):
            fh.write(line)
            fh.write("\n")
    return writer.stats.summary()
