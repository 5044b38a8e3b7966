"""docs/deploy.md's table of bounds is complete: every bound of ``server/limits.py`` (each
field of ``Limits`` and each bound constant of the module) has its row, with its default
as the code has it."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from forest_shuffle.server import limits
from forest_shuffle.server.limits import Limits

DOC = Path(__file__).resolve().parents[1] / "docs" / "deploy.md"
#: The module's constants that bound input (a close code is no bound).
CONSTANTS = ("ACTION_CHARS", "VERSION_MAX")


def _rows() -> dict[str, str]:
    """The table's rows: bound name -> its default as written."""
    text = DOC.read_text(encoding="utf-8")
    return {m.group(1): m.group(2)
            for m in re.finditer(r"^\| `(\w+)` \| `([^`]*)` \|", text, re.M)}


def test_every_bound_of_limits_is_in_the_deploy_table() -> None:
    rows = _rows()
    defaults = Limits()
    missing = [f.name for f in fields(Limits) if f.name not in rows]
    assert not missing, f"docs/deploy.md has no row for {missing}"
    wrong = {f.name: (rows[f.name], str(getattr(defaults, f.name)))
             for f in fields(Limits) if rows[f.name] != str(getattr(defaults, f.name))}
    assert not wrong, f"defaults in docs/deploy.md differ from the code: {wrong}"


def test_every_bound_constant_is_in_the_deploy_table() -> None:
    rows = _rows()
    found = {name for name, value in vars(limits).items()
             if name.isupper() and type(value) is int and not name.startswith("CLOSE")}
    assert set(CONSTANTS) == found, found  # a new constant: add it to the table and here
    for name in CONSTANTS:
        assert rows.get(name) == str(getattr(limits, name)), name
