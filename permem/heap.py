"""Giving back to the operating system the memory a finished batch freed.

CPython frees a batch's objects into glibc's heap, which keeps the pages for later. Over a
night of batches of different shapes the kept pages add up: side by side over 12 batches of
5,000 messages, resident memory grew by about 2.9 MB a batch as it was and by 1.4 MB with the
pages handed back after each batch (`malloc_trim`), 48-65 MB lower throughout. It does not
stop the growth: over 300k messages it still grew about 2.4 MB a batch (benchmarks/results/
nightly.txt, stop 29). Elsewhere than glibc, `release_freed` does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # no such library, or a libc without it (musl)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def release_freed() -> bool:
    """Hand the heap's free pages back; whether any went back (always False where the C
    library cannot). No garbage collection first: a full collection walks every object of the
    loaded models (0.42-0.44 s a batch) and returned no more memory than the trim alone."""
    return bool(_TRIM(0)) if _TRIM is not None else False
