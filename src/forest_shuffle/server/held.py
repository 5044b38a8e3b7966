"""Counts of things held, shared by every server process through Redis (``serve --pubsub``,
docs/deploy.md, "Bounds"): per address the coach's searches under way
(``coach_per_address``), the unfinished games of bots only (``bot_games_per_address``) and
the open sockets (``sockets_per_address``); per seat its sockets (``sockets_per_seat``,
key ``game:seat``); per game its spectators (``spectators_per_game``). The "address" of
the API below is any such key.

Contract: :class:`HeldCounts` answers "may ``address`` hold one more?" against a bound
counted over every process. Each process publishes its own count per address as a Redis key
with a time to live (``ttl`` seconds), renewed by a keeper thread every third of it from
``counts()`` (what this process holds now, its own truth); so a process that dies stops
counting within ``ttl``, never for ever. :meth:`HeldCounts.admit` checks the total and
counts one more for this process in one atomic script (two processes cannot both take the
last place). When Redis does not answer, this process's own count decides (one log line
until Redis answers again): an outage loosens the bound to per process, it refuses nobody
more. Without a Redis URL it is that per-process count alone.

Keys: ``forest-shuffle:held:<name>:<address>`` is the set of the processes holding
something for that address, and ``...:<address>:<process>`` each one's count.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

#: The keys of the shared counts: this prefix, the count's name, the client address.
PREFIX = "forest-shuffle:held:"
#: Seconds a process's published count lives unless renewed.
TTL = 10.0

# KEYS[1] the address's set of processes; ARGV: this process, the bound (-1: none), the
# time to live in ms, this process's count now. The total of the other processes (their
# keys that expired leave the set), refused (-1) at the bound, else this process's count
# becomes one more and the new total is returned.
_ADMIT = """
local total = 0
for _, p in ipairs(redis.call('smembers', KEYS[1])) do
  if p ~= ARGV[1] then
    local v = redis.call('get', KEYS[1] .. ':' .. p)
    if v then total = total + tonumber(v) else redis.call('srem', KEYS[1], p) end
  end
end
local mine = tonumber(ARGV[4])
local bound = tonumber(ARGV[2])
if bound >= 0 and total + mine >= bound then return -1 end
redis.call('set', KEYS[1] .. ':' .. ARGV[1], mine + 1, 'PX', ARGV[3])
redis.call('sadd', KEYS[1], ARGV[1])
redis.call('pexpire', KEYS[1], ARGV[3])
return total + mine + 1
"""


class HeldCounts:
    """A bound on what one address holds, over every process (see the module contract).
    ``counts()`` is this process's count per address now; ``url`` None: alone."""

    def __init__(self, url: str | None, name: str,
                 counts: Callable[[], Mapping[str, int]], ttl: float = TTL) -> None:
        self.url = url
        self.name = name
        self.counts = counts
        self.ttl = ttl
        self.process = secrets.token_hex(8)
        self._client: Any = None
        self._admit: Any = None
        self._failing = False
        self._published: set[str] = set()  # addresses whose count this process wrote
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None
        if url is not None:
            self._keeper = threading.Thread(target=self._keep, name=f"held-{name}",
                                            daemon=True)
            self._keeper.start()

    def _redis(self) -> Any:
        if self._admit is None:
            import redis

            assert self.url is not None
            self._client = redis.Redis.from_url(self.url, socket_timeout=2,
                                                socket_connect_timeout=2)
            self._admit = self._client.register_script(_ADMIT)
        return self._admit

    def _key(self, address: str) -> str:
        return f"{PREFIX}{self.name}:{address}"

    def admit(self, address: str, bound: int | None, mine: int | None = None) -> bool:
        """Whether ``address`` may hold one more (``bound`` None: always): fewer than
        ``bound`` held over every process. If so, this process counts one more for it at
        once (the caller then holds it, and ``counts()`` says so from then on). ``mine``:
        this process's count before the new one (default: ``counts()``'s)."""
        if bound is None:
            return True
        if mine is None:
            mine = int(self.counts().get(address, 0))
        if self.url is None:
            return mine < bound
        try:
            total = int(self._redis()(keys=[self._key(address)],
                                      args=[self.process, bound, self._ms(), mine]))
        except Exception as exc:  # Redis down or unreachable: this process's count
            self._fail(exc)
            return mine < bound
        self._ok()
        with self._lock:
            self._published.add(address)
        return total >= 0

    def sync(self, address: str) -> None:
        """Publish this process's count of ``address`` now (after it let one go)."""
        if self.url is not None:
            self._publish({address: int(self.counts().get(address, 0))})

    def _ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    def _publish(self, counts: Mapping[str, int]) -> None:
        """Write this process's counts (a count of 0 deletes its key) with their time to
        live; a failure is logged once."""
        try:
            self._redis()
            pipe = self._client.pipeline(transaction=False)
            for address, n in counts.items():
                key = self._key(address)
                if n > 0:
                    pipe.set(f"{key}:{self.process}", n, px=self._ms())
                    pipe.sadd(key, self.process)
                    pipe.pexpire(key, self._ms())
                else:
                    pipe.delete(f"{key}:{self.process}")
                    pipe.srem(key, self.process)
            pipe.execute()
        except Exception as exc:
            self._fail(exc)
            return
        self._ok()
        with self._lock:
            for address, n in counts.items():
                if n > 0:
                    self._published.add(address)
                else:
                    self._published.discard(address)

    def refresh(self) -> None:
        """Renew every count of this process (and drop those that went to 0)."""
        now = {a: int(n) for a, n in self.counts().items() if n > 0}
        with self._lock:
            gone = {a: 0 for a in self._published if a not in now}
        self._publish({**now, **gone})

    def _keep(self) -> None:
        while not self._stop.wait(self.ttl / 3):
            self.refresh()

    def _fail(self, exc: Exception) -> None:
        if not self._failing:
            self._failing = True
            line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning("shared count %s kept in this process only: Redis does not "
                        "answer (%s)", self.name, line)

    def _ok(self) -> None:
        if self._failing:
            self._failing = False
            log.warning("count %s shared through Redis again", self.name)

    def close(self) -> None:
        """Stop renewing and take this process's counts out of Redis."""
        self._stop.set()
        if self._keeper is not None:
            self._keeper.join(2)
            with self._lock:
                gone = dict.fromkeys(self._published, 0)
            if gone:
                self._publish(gone)
            with contextlib.suppress(Exception):
                self._client.close()


__all__ = ["PREFIX", "TTL", "HeldCounts"]
