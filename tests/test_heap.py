"""permem.heap: what a finished batch freed goes back to the operating system."""

from __future__ import annotations

import pytest

from permem import heap


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


@pytest.mark.skipif(heap._TRIM is None, reason="this C library has no malloc_trim (not glibc)")
def test_freed_pages_in_the_middle_of_the_heap_go_back() -> None:
    # Objects of 2 KB come from malloc's heap (CPython's own allocator takes up to 512 bytes);
    # one kept at the end pins the heap's top, so only an explicit trim can return the rest.
    blocks = [bytes(2048) for _ in range(60_000)]
    pin = bytes(2048)
    del blocks
    before = _rss_mb()
    assert heap.release_freed()
    after = _rss_mb()
    assert before - after > 60, (before, after)
    assert pin  # kept alive until here
