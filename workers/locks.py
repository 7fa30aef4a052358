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

``task_claim`` is a second kind: one lock per task id, held for the whole task and renewed
by a thread while the task runs. With Redis as broker a message not acknowledged within the
visibility timeout is delivered again while its first delivery still runs; the second
delivery waits for the claim instead of doing the same work at once (and then finds it
done). A worker that dies stops renewing, so its claim ends within one lease.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from redis.exceptions import LockNotOwnedError, RedisError

from eywa.errors import StoreError
from eywa.level1 import DimensionKey

__all__ = ["CLAIM_KEY", "dimension_lock", "lock_name", "task_claim"]

CLAIM_KEY = "eywa:lock:task:{}"

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


@contextmanager
def task_claim(client: redis.Redis, task_id: str, lease_s: float) -> Iterator[bool]:
    """Hold the claim of one task id for the ``with`` block, renewed every third of
    ``lease_s``; waits up to ``lease_s`` for another delivery's claim. Yields whether the claim
    is held: False when Redis failed or the wait ran out (the task runs anyway: its work is
    idempotent; the claim only spares running it twice at once)."""
    # Not thread-local: the renewing thread extends the lease with the token this one took
    # (with redis-py's default, the renewer found no token, died, and the lease ran out under
    # a long task: a redelivery then ran the same job alongside it).
    lock = client.lock(CLAIM_KEY.format(task_id), timeout=lease_s, blocking_timeout=lease_s, thread_local=False)
    try:
        held = bool(lock.acquire())
    except RedisError as exc:
        log.warning("task claim %s not taken: %s", task_id, exc)
        held = False
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(lease_s / 3):
            try:
                lock.extend(lease_s, replace_ttl=True)
            except RedisError as exc:  # LockNotOwnedError too: another delivery took over
                log.warning("task claim %s not renewed: %s", task_id, exc)
                return

    renewer = threading.Thread(target=renew, name="eywa-task-claim", daemon=True) if held else None
    if renewer is not None:
        renewer.start()
    try:
        yield held
    finally:
        stop.set()
        if renewer is not None:
            renewer.join(timeout=5)
            try:
                lock.release()
            except RedisError as exc:
                log.warning("task claim %s not released: %s", task_id, exc)
