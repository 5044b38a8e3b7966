"""Worker process pools that never outlive the process that made them.

Contract: :func:`process_pool` returns a :class:`~concurrent.futures.ProcessPoolExecutor`
whose workers are fresh interpreters (the ``spawn`` start method, never ``fork``, so a
worker holds none of the parent's open files, pipes or threads) that watch their parent:
when the parent process is gone (killed, even with SIGKILL) a worker exits within about
:data:`WATCH_SECONDS`. Without the watch a worker busy with a long job lives on, since
it holds both ends of its own job queue and never sees the queue close. (``forkserver``
is not used: its server and its workers keep each other alive once the parent is gone.)
The main module must guard its start with ``if __name__ == "__main__"``, as for any
``spawn`` pool; the command line does.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["START_METHOD", "WATCH_SECONDS", "process_pool"]

#: How often a worker checks that its parent still lives.
WATCH_SECONDS = 0.5
#: The start method of the pools.
START_METHOD = "spawn"


def _watch(parent: int) -> None:
    """Worker initializer: exit at once when the worker's parent, the process ``parent``
    that made the pool, is gone (the worker was re-parented, so ``os.getppid`` is another).
    The pid comes from the parent: a worker that read its own ``getppid`` at start would
    take the new parent for the old one if the parent died while it was starting (a spawn
    takes a second), and never exit."""
    if os.getppid() != parent:
        os._exit(1)

    def loop() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=loop, name="forest-parent-watch", daemon=True).start()


def process_pool(max_workers: int) -> ProcessPoolExecutor:
    """A pool of ``max_workers`` fresh worker processes that exit with this process."""
    context = multiprocessing.get_context(START_METHOD)
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=context,
                               initializer=_watch, initargs=(os.getpid(),))
