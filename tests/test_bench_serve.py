"""The load benchmark's pure arithmetic (benchmarks/serve.py is run by hand, not here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_rss_trend_ignores_the_warm_up_and_measures_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    # By file, under a name of its own: another module called `serve` may be loaded already.
    spec = importlib.util.spec_from_file_location("permem_bench_serve", BENCHMARKS / "serve.py")
    assert spec is not None and spec.loader is not None
    serve = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "permem_bench_serve", serve)  # dataclasses look it up
    spec.loader.exec_module(serve)
    # Warm-up from 100 to 200 MB in the first tenth, then flat: no growth.
    flat = [(0.0, 100.0), (5.0, 200.0), *((float(t), 200.0) for t in range(10, 101, 10))]
    assert serve.rss_trend(flat) == (0.0, 0.0)
    # 1 MB a second after the warm-up: 60 MB/min, the fitted rise over its mean.
    rising = [(float(t), 100.0 + t) for t in range(0, 101, 10)]
    growth, per_minute = serve.rss_trend(rising)
    assert per_minute == pytest.approx(60.0)
    assert growth == pytest.approx(90.0 / (100.0 + 55.0))
    assert serve.rss_trend([(0.0, 100.0)]) == (0.0, 0.0)
