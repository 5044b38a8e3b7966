"""Per-address bounds shared by every server process through Redis (``serve --pubsub``,
docs/web.md, "Limits").

Contract: :class:`SharedBuckets` is the token bucket of :class:`~.limits.Buckets` (``rate``
tokens a second up to ``size``, one per client address) kept in Redis, so N processes
behind one port (``--workers N``) or behind one proxy let an address have the bound once,
not N times. One atomic script per request takes a token (Redis's own clock, so the
processes' clocks need not agree); a bucket's key expires once it would be full again. When
Redis cannot be asked the bucket of this process answers instead (logged once until Redis
answers again): a Redis outage loosens the bound to per process, it never refuses a client.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from forest_shuffle.server.limits import Buckets

log = logging.getLogger(__name__)

#: The keys of the shared buckets: this prefix, the bucket's name, the client address.
PREFIX = "forest-shuffle:limit:"

_TAKE = """
local rate = tonumber(ARGV[1])
local size = tonumber(ARGV[2])
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local got = redis.call('hmget', KEYS[1], 'tokens', 'when')
local tokens = tonumber(got[1]) or size
local when = tonumber(got[2]) or now
tokens = math.min(size, tokens + math.max(0, now - when) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('hset', KEYS[1], 'tokens', tostring(tokens), 'when', tostring(now))
redis.call('pexpire', KEYS[1], ARGV[3])
return tostring(wait)
"""


class SharedBuckets:
    """Token buckets per client address in Redis at ``url`` under ``name`` (see the module
    docstring); ``take`` answers as :meth:`Buckets.take` does."""

    def __init__(self, url: str, name: str, rate: float, size: int) -> None:
        self.url = url
        self.name = name
        self.rate = rate
        self.size = float(max(1, size))
        #: Milliseconds after which an unused bucket is full again (its key then goes).
        self.keep_ms = math.ceil(self.size / rate * 1000) + 1000
        self.local = Buckets(rate, int(self.size))
        self._client: Any = None
        self._script: Any = None
        self._failing = False

    def _connect(self) -> Any:
        if self._script is None:
            import redis.asyncio as aredis

            self._client = aredis.Redis.from_url(self.url, socket_timeout=2,
                                                 socket_connect_timeout=2)
            self._script = self._client.register_script(_TAKE)
        return self._script

    async def take(self, key: str, now: float) -> float:
        """Take one token of ``key``'s shared bucket: 0.0, else the seconds until there is
        one; this process's bucket when Redis does not answer."""
        try:
            script = self._connect()
            wait = float(await script(keys=[f"{PREFIX}{self.name}:{key}"],
                                      args=[repr(self.rate), repr(self.size), self.keep_ms]))
        except Exception as exc:  # Redis down or unreachable: bounded per process
            if not self._failing:
                self._failing = True
                line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                log.warning("per-address bound %s counted in this process only: Redis "
                            "does not answer (%s)", self.name, line)
            return self.local.take(key, now)
        if self._failing:
            self._failing = False
            log.warning("per-address bound %s shared through Redis again", self.name)
        return wait
