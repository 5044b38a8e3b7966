"""In-tree build backend: setuptools' own, asking for mypy only for the compiled build.

``FOREST_SHUFFLE_COMPILE=1`` at build time (setup.py, docs/speed.md) adds mypy (which
brings mypyc) to the build requirements of a wheel; without it the requirements are
setuptools' alone, so a plain ``pip install .`` needs no compiler and downloads no mypy.
An editable install with the variable set is refused: it would build the extension
modules into ``src/``, where they would shadow the ``.py`` files. Every other hook is
setuptools.build_meta's.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _meta
from setuptools.build_meta import *  # noqa: F403  (the PEP 517 hooks, unchanged)

FLAG = "FOREST_SHUFFLE_COMPILE"
#: What the compiled build needs besides setuptools (mypyc ships with mypy).
COMPILE_REQUIRES = ["mypy>=1.10"]


def _asked() -> bool:
    return os.environ.get(FLAG, "").strip().lower() not in ("", "0", "no", "false", "off")


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, plus mypy when the compiled build is asked for (setup.py
    runs here without the variable: mypyc is not installed yet)."""
    if not _asked():
        return list(_meta.get_requires_for_build_wheel(config_settings))
    value = os.environ[FLAG]
    os.environ[FLAG] = "0"
    try:
        base = list(_meta.get_requires_for_build_wheel(config_settings))
    finally:
        os.environ[FLAG] = value
    return [*base, *COMPILE_REQUIRES]


def _refuse_editable() -> None:
    if _asked():
        raise SystemExit(f"{FLAG}=1 is for wheels only (an editable install would put "
                         f"compiled modules in src/): unset it, or build a wheel")


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements (the compiled build is refused for editable installs)."""
    _refuse_editable()
    return list(_meta.get_requires_for_build_editable(config_settings))


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    """setuptools' editable build, pure Python only."""
    _refuse_editable()
    name: str = _meta.build_editable(wheel_directory, config_settings, metadata_directory)
    return name
