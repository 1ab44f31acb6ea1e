"""What the HTTP service holds for its lifetime: the runtime (engines, models, index), the
recaller, the per-key token buckets, the erasure worker and the metrics registry."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Histogram

from interfaces.http.problems import RateLimited
from permem import forget
from permem.recall import Recaller
from permem.runtime import Runtime, runtime, shared_redactor
from permem.settings import Settings, settings_in_effect

__all__ = ["Service", "TokenBuckets"]

_log = logging.getLogger("permem.serve")


@dataclass
class TokenBuckets:
    """One token bucket per key: `rate` tokens a second, at most `burst` saved up."""

    rate: float
    burst: int
    _buckets: dict[uuid.UUID, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: uuid.UUID) -> None:
        """Spend one token of `key`; RateLimited (with the wait) when there is none."""
        now = time.monotonic()
        with self._lock:
            tokens, since = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                raise RateLimited((1.0 - tokens) / self.rate)
            self._buckets[key] = (tokens - 1.0, now)


class Service:
    """Built once at startup (`start`), closed at shutdown (`close`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.buckets = TokenBuckets(settings.rate_per_s, settings.rate_burst)
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "permem_http_requests", "HTTP requests answered", ["method", "route", "status"],
            registry=self.registry,
        )  # fmt: skip
        self.latency = Histogram(
            "permem_http_request_seconds", "Time to answer a request", ["route"],
            registry=self.registry,
        )  # fmt: skip
        self._erasures = ThreadPoolExecutor(max_workers=1, thread_name_prefix="permem-erase")
        self._runtime: Runtime | None = None
        self._recaller: Recaller | None = None
        self.models_loaded = False

    def start(self) -> None:
        """Open the stores (migrating to head) and load the models a request may need."""
        rt = runtime(self.settings)
        self._recaller = Recaller(rt.db, rt.index, rt.embedder)
        rt.embedder.embed(["warm up"])
        shared_redactor()
        self._runtime = rt
        self.models_loaded = True

    @property
    def rt(self) -> Runtime:
        if self._runtime is None:
            raise RuntimeError("the service has not started")
        return self._runtime

    @property
    def recaller(self) -> Recaller:
        if self._recaller is None:
            raise RuntimeError("the service has not started")
        return self._recaller

    def finish_forget(
        self, tenant: str, target: forget.Target, requested_by: str, request_id: uuid.UUID
    ) -> Future[None]:
        """Run the forget flow for a request already committed, in the background (one at a
        time): a Prefect flow run like `permem forget`'s, over this service's stores, that
        expands the request, erases, purges backups and verifies."""
        return self._erasures.submit(self._forget_flow, tenant, target, requested_by, request_id)

    def _forget_flow(
        self, tenant: str, target: forget.Target, requested_by: str, request_id: uuid.UUID
    ) -> None:
        from flows.forget import ForgetParams
        from flows.forget import forget as forget_flow

        params = ForgetParams.model_validate(
            {
                "tenant": tenant,
                "requested_by": requested_by,
                "request_id": request_id,
                target.kind.value: target.value,
            }
        )
        try:
            with settings_in_effect(self.settings):
                forget_flow(params)
        except Exception:  # the ledger keeps the request blocked; verify-erasure finishes it
            _log.exception("the forget flow for tenant %s did not complete", tenant)
            raise

    def close(self) -> None:
        """Let running erasures finish, then dispose of the engines."""
        self._erasures.shutdown(wait=True)
        if self._runtime is not None:
            self._runtime.db.dispose()
