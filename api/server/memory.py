"""Give a worker's memory back after a request that built a lot of objects (a big batch).

CPython frees most objects at once, but objects in reference cycles wait for the cyclic garbage
collector, and glibc keeps freed heap pages in the process instead of returning them to the
system. Worse, glibc raises its mmap threshold each time a large block is freed, so after the
first big answer every later multi-megabyte buffer (an answer's text, its bytes, the single
write of headers and body) comes from the heap and stays there once freed. After a batch of big
answers a worker would stay tens of megabytes larger (measured: 59 MB before, 110 MB after a
batch of fifteen 280 KB answers).

Two measures, both glibc-only (elsewhere they do nothing):

- ``install`` (each worker, at start) fixes the mmap threshold at ``MMAP_THRESHOLD_BYTES``:
  blocks that large are always their own mapping and go back to the system when freed;
- ``release_soon`` (after an answer of ``RELEASE_FROM_BYTES`` or more has been sent) runs a full
  collection and ``malloc_trim(0)`` a moment later, once the answer's buffers are freed too.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
from typing import Any, Final

RELEASE_FROM_BYTES: Final = 1024 * 1024
"""Answers at least this long release memory once sent."""
MMAP_THRESHOLD_BYTES: Final = 1024 * 1024
"""Blocks this large are mapped on their own (glibc's ``M_MMAP_THRESHOLD``, fixed)."""
RELEASE_DELAY_SECONDS: Final = 0.2
M_MMAP_THRESHOLD: Final = -3

_LOCK = threading.Lock()


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    if name is None:  # pragma: no cover - no C library to ask (not Linux)
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to tune
        return None
    return libc


_LIBC = _libc()


def install() -> None:
    """Fix glibc's mmap threshold for this process (a gunicorn worker, after the fork)."""
    if _LIBC is not None:
        _LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)


def release_memory() -> None:
    """Collect cyclic garbage and hand free heap pages back to the system (one at a time)."""
    if not _LOCK.acquire(blocking=False):
        return  # another thread is already doing it
    try:
        gc.collect()
        if _LIBC is not None:
            _LIBC.malloc_trim(0)
    finally:
        _LOCK.release()


def release_soon() -> None:
    """``release_memory`` in ``RELEASE_DELAY_SECONDS``, after the caller's buffers are freed."""
    timer = threading.Timer(RELEASE_DELAY_SECONDS, release_memory)
    timer.daemon = True
    timer.start()
