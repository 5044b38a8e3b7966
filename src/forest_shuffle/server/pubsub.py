"""Telling every server process that a game moved on, and who drives each game's bots.

Contract:

- A :class:`Bus` carries "game G is at version V" between server processes:
  :meth:`Bus.publish` after an action is committed, and every process's callback (given to
  :meth:`Bus.start`) is called with ``(game_id, version)`` for every publication, its own
  included, from a thread of the bus. :class:`LocalBus` is the one-process bus (nothing to
  carry: the service calls its own listeners); :class:`RedisBus` uses Redis pub/sub.
- A :class:`Leases` hands out, per game, the right to drive that game's bots to exactly one
  process at a time: :meth:`Leases.acquire` (true if this process holds it now),
  :meth:`Leases.renew` (false once it was lost), :meth:`Leases.release`. A lease lasts
  ``ttl`` seconds unless renewed, so a killed process's games are taken over by another
  within ``ttl``. :class:`LocalLeases` always grants; :class:`RedisLeases` uses
  ``SET NX PX`` and compare-and-set scripts keyed by a random holder id.

Redis comes from the ``scale`` extra (``pip install 'forest-shuffle[scale]'``); nothing here
imports it unless a Redis URL is given.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

CHANNEL = "forest-shuffle:games"
LEASE_PREFIX = "forest-shuffle:bots:"

Callback = Callable[[str, int], None]
#: The version published when a game's seats changed (an invite claimed or re-issued):
#: every process reads the game's seats again (their tokens).
SEATS_CHANGED = -1


class Bus(Protocol):
    """Carries (game id, version) to every server process."""

    def start(self, callback: Callback) -> None: ...

    def publish(self, game_id: str, version: int) -> None: ...

    def close(self) -> None: ...


class Leases(Protocol):
    """One holder per game for its bots."""

    ttl: float

    def acquire(self, game_id: str) -> bool: ...

    def renew(self, game_id: str) -> bool: ...

    def release(self, game_id: str) -> None: ...

    def close(self) -> None: ...


class LocalBus:
    """One process: nothing travels (the service calls its listeners itself)."""

    def start(self, callback: Callback) -> None:
        pass

    def publish(self, game_id: str, version: int) -> None:
        pass

    def close(self) -> None:
        pass


class LocalLeases:
    """One process: it holds every lease."""

    ttl = float("inf")

    def acquire(self, game_id: str) -> bool:
        return True

    def renew(self, game_id: str) -> bool:
        return True

    def release(self, game_id: str) -> None:
        pass

    def close(self) -> None:
        pass


def _redis(url: str) -> Any:
    try:
        import redis
    except ImportError:
        raise ValueError("--pubsub needs the redis package: "
                         "pip install 'forest-shuffle[scale]'") from None
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5,
                                health_check_interval=10)


class RedisBus:
    """Redis pub/sub on one channel (``channel``: the games' by default; the score pad
    has its own); messages are ``"<game id> <version>"``. The listener thread reconnects
    after an error (callers catch up from the database anyway)."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self.client = _redis(url)
        self.client.ping()  # fail at start, not at the first action
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.ready = threading.Event()

    def start(self, callback: Callback) -> None:
        self._thread = threading.Thread(target=self._listen, args=(callback,),
                                        name="redis-bus", daemon=True)
        self._thread.start()
        self.ready.wait(5)

    def _listen(self, callback: Callback) -> None:
        while not self._stop.is_set():
            pubsub = None
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                self.ready.set()
                while not self._stop.is_set():
                    msg = pubsub.get_message(timeout=0.5)
                    if msg is None:
                        continue
                    data = msg.get("data")
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    game_id, _, version = text.partition(" ")
                    number = version.removeprefix("-")  # SEATS_CHANGED is negative
                    if game_id and number.isascii() and number.isdigit():
                        callback(game_id, int(version))
            except Exception as exc:  # the connection dropped: reconnect
                if not self._stop.is_set():
                    log.warning("redis bus: %s; reconnecting", exc)
                    time.sleep(0.5)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()

    def publish(self, game_id: str, version: int) -> None:
        try:
            self.client.publish(self.channel, f"{game_id} {version}")
        except Exception as exc:  # others catch up on their next use of the game
            log.warning("redis bus: publish failed: %s", exc)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        with contextlib.suppress(Exception):
            self.client.close()


# KEYS[1] the lease, ARGV[1] the holder, ARGV[2] the ttl in ms.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class RedisLeases:
    """A lease is the key ``forest-shuffle:bots:<game id>`` holding this process's random
    id, with a time to live; only the holder renews or releases it."""

    def __init__(self, url: str, ttl: float = 5.0) -> None:
        self.client = _redis(url)
        self.ttl = ttl
        self.holder = secrets.token_hex(8)
        self._renew = self.client.register_script(_RENEW)
        self._release = self.client.register_script(_RELEASE)

    def _ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    def acquire(self, game_id: str) -> bool:
        key = LEASE_PREFIX + game_id
        try:
            if self.client.set(key, self.holder, nx=True, px=self._ms()):
                return True
            return bool(self._renew(keys=[key], args=[self.holder, self._ms()]))
        except Exception as exc:
            log.warning("redis leases: %s", exc)
            return False

    def renew(self, game_id: str) -> bool:
        try:
            return bool(self._renew(keys=[LEASE_PREFIX + game_id],
                                    args=[self.holder, self._ms()]))
        except Exception as exc:
            log.warning("redis leases: %s", exc)
            return False

    def release(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            self._release(keys=[LEASE_PREFIX + game_id], args=[self.holder])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
