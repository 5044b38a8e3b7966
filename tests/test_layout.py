"""The package layout keeps its layers (docs/architecture.md): each package imports only the
layers below it, so the engine imports no game and no face, and the card model no rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "forest_shuffle"

# package -> the forest_shuffle packages it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "cards": set(),
    "i18n": set(),
    "scoring": {"cards"},
    "engine": {"cards", "scoring"},
    "games": {"cards", "engine"},
    "text": {"cards", "scoring", "engine", "i18n"},
    "formats": {"cards", "scoring", "engine", "games", "text"},
    "bots": {"cards", "scoring", "engine", "games", "workers"},
    "rl": {"cards", "scoring", "engine", "games", "text", "bots"},
}


def _imports(path: Path) -> set[str]:
    """The forest_shuffle top-level packages a module imports (absolute or relative)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            names = [node.module or ""]
            if node.module == "forest_shuffle":
                names = [f"forest_shuffle.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "forest_shuffle" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_lower_layers(package: str) -> None:
    files = sorted((PKG / package).rglob("*.py"))
    assert files, package
    for path in files:
        extra = _imports(path) - ALLOWED[package] - {package}
        assert not extra, f"{path.relative_to(PKG)} imports {sorted(extra)}"


def test_every_module_lives_in_a_package() -> None:
    loose = sorted(p.name for p in PKG.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "_build.py", "cluster.py", "journal.py",
                     "match.py", "workers.py"]


@pytest.mark.parametrize("module", ["workers.py", "cluster.py"])
def test_the_process_helpers_import_no_layer(module: str) -> None:
    """Worker processes and the Ray executor run anything: they know no game, bot or face."""
    assert _imports(PKG / module) == set()


def test_a_layer_violation_is_seen(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from forest_shuffle.server import app\nimport forest_shuffle.games\n")
    assert _imports(bad) == {"server", "games"}
