"""Running jobs on a Ray cluster (extra ``cluster``) instead of local worker processes.

Contract: :func:`ray_executor` connects to the Ray cluster at ``address`` (``auto``, a
``ray://host:port`` or ``host:port``; ``local`` starts a private one-node cluster) and
returns a :class:`RayExecutor`, a :class:`concurrent.futures.Executor` whose ``submit`` runs
a picklable top-level function as a Ray task and gives back an ordinary future; so the
tournament, statistics and self-play code treat it like a process pool. Without Ray
installed, :class:`ClusterUnavailable` with a one-line message. Nothing here is imported
unless ``--ray`` is given.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")


class ClusterUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached (one-line message)."""


class RayExecutor(Executor):
    """Ray tasks behind the ``concurrent.futures`` interface."""

    def __init__(self, ray: Any, num_cpus: int | None = None) -> None:
        self._ray = ray
        self._remotes: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        remote = self._remotes.get(fn)
        if remote is None:
            remote = self._remotes[fn] = self._ray.remote(fn)
        future: Future[T] = remote.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Leave the cluster running (it is not ours); forget the remote functions."""
        self._remotes.clear()


def ray_executor(address: str, num_cpus: int | None = None) -> RayExecutor:
    """Connect to Ray at ``address`` (see the module contract)."""
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable("--ray needs Ray: pip install 'forest-shuffle[cluster]'") \
            from None
    try:
        if not ray.is_initialized():
            if address == "local":
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
    except Exception as exc:  # noqa: BLE001 - any failure to connect is one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterUnavailable(f"--ray {address}: cannot connect ({first})") from None
    return RayExecutor(ray, num_cpus)
