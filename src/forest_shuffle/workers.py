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

Ctrl-C reaches the whole process group, so the workers too: a worker busy with a job
aborts it (the job's future gets the ``KeyboardInterrupt``, as before), an idle one ignores
it (it used to die printing a ``KeyboardInterrupt`` traceback); the parent decides what
Ctrl-C means and shuts its pool down.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from types import FrameType

__all__ = ["START_METHOD", "WATCH_SECONDS", "exit_with_parent", "process_pool"]

#: How often a worker checks that its parent still lives.
WATCH_SECONDS = 0.5
#: The start method of the pools.
START_METHOD = "spawn"


#: Where the pool's own code lives: a frame there, right below the worker loop, is the
#: worker waiting for a job or sending a result back, not running one.
_POOL_CODE = (os.path.dirname(multiprocessing.__file__),
              os.path.dirname(ProcessPoolExecutor.__init__.__code__.co_filename))


def _busy(frame: FrameType | None) -> bool:
    """Is the worker whose main thread is at ``frame`` running a job (the frame right
    below the pool's worker loop is the job's code, not the pool's)?"""
    below: FrameType | None = None
    while frame is not None:
        if frame.f_code.co_name == "_process_worker":
            return below is not None and not below.f_code.co_filename.startswith(_POOL_CODE)
        below, frame = frame, frame.f_back
    return False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """A worker's Ctrl-C: abort the job it runs; between jobs, nothing."""
    if _busy(frame):
        raise KeyboardInterrupt


def exit_with_parent(parent: int) -> None:
    """In a child process: exit (status 1) at once if its parent, the process ``parent``
    that started it, is gone (the child was re-parented, so ``os.getppid`` is another),
    and from then on within about :data:`WATCH_SECONDS` of the parent's end (a daemon
    thread watches). The pid comes from the parent: a child that read its own ``getppid``
    at start would take the new parent for the old one if the parent died while it was
    starting (a spawn takes a second), and never exit."""
    if os.getppid() != parent:
        os._exit(1)

    def loop() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=loop, name="forest-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    """Worker initializer: Ctrl-C aborts only a running job, and the worker exits with
    the process ``parent`` that made the pool (:func:`exit_with_parent`)."""
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, _on_interrupt)


def process_pool(max_workers: int) -> ProcessPoolExecutor:
    """A pool of ``max_workers`` fresh worker processes that exit with this process."""
    context = multiprocessing.get_context(START_METHOD)
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=context,
                               initializer=_watch, initargs=(os.getpid(),))
