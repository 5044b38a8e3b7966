"""Order of the whole test session: the browser tests (``tests/e2e``) run last.

Why: the search bot's helper process (``bots/mcts.py``, a fork-context pool that lives until
the interpreter exits) forked while the Playwright driver runs inherits the driver's pipes;
the driver then never sees the end of its input when the session closes it, and the session
hangs after the last test. Forked before the driver starts, the helper holds none of them.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Move the browser tests behind all others, keeping both groups' order."""
    late = [i for i in items if i.nodeid.startswith("tests/e2e/")]
    if late:
        ids = {id(i) for i in late}
        items[:] = [i for i in items if id(i) not in ids] + late
