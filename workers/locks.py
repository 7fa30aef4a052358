"""One Redis lock per dimension, so concurrent updates of a dimension never interleave.

Why a lock and not a queue per key: ``eywa.nous`` already makes the *result* independent of
arrival order (an observation older than a dimension's last event triggers a replay in event
time), but an update is a read-modify-write of the dimension's state. Two workers updating
the same (space, entity, attribute) at once would each read the old state and the second
save would drop the first one's observation. A lease lock around each key's update makes the
updates serial per key while different keys run in parallel on any worker; routing by key
would need one queue per key range and pin work to workers.

A key's update is short (one read, one replay, one write), so the lease
(``EYWA_DIMENSION_LOCK_TIMEOUT_S``) only matters when a worker dies holding it: the lock then
expires and the redelivered task takes it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from redis.exceptions import LockNotOwnedError, RedisError

from eywa.errors import StoreError
from eywa.level1 import DimensionKey

__all__ = ["dimension_lock", "lock_name"]

log = logging.getLogger(__name__)


def lock_name(key: DimensionKey) -> str:
    """The Redis key of a dimension's lock (space, entity key, canonical attribute)."""
    space, entity, attribute = key
    return f"eywa:lock:dimension:{space}:{entity}:{attribute}"


@contextmanager
def dimension_lock(client: redis.Redis, key: DimensionKey, lease_s: float, wait_s: float) -> Iterator[None]:
    """Hold the lock of one dimension for the ``with`` block.

    Raises:
        StoreError: Redis failed, or the lock stayed taken for ``wait_s`` seconds (the task
            is retried with backoff).
    """
    lock = client.lock(lock_name(key), timeout=lease_s, blocking_timeout=wait_s)
    try:
        acquired = lock.acquire()
    except RedisError as exc:
        raise StoreError("redis", "lock", str(exc)) from exc
    if not acquired:
        raise StoreError("redis", "lock", f"{lock_name(key)} still taken after {wait_s:.0f}s")
    try:
        yield
    finally:
        try:
            lock.release()
        except LockNotOwnedError:
            log.warning("dimension lock %s expired before release", lock_name(key))
        except RedisError as exc:
            log.warning("dimension lock %s not released: %s", lock_name(key), exc)
