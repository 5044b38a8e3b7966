"""The ``rl`` extra for the tests of tests/rl: skipped when it is not installed, except under
CI (``FOREST_SHUFFLE_NEED_SERVICES=1``, set by ``.ci/run``, which installs ``.[rl]``): there a
missing package fails the test module, so a green CI has really run them."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

NEED = os.environ.get("FOREST_SHUFFLE_NEED_SERVICES") == "1"


def require(*modules: str) -> list[ModuleType]:
    """Import ``modules`` (skip the calling test module if one is missing, or fail under CI)."""
    out = []
    for name in modules:
        if NEED:
            out.append(importlib.import_module(name))
        else:
            out.append(pytest.importorskip(name, reason=f"the rl extra is not installed "
                                                        f"(no {name})"))
    return out
