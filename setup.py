"""Build hook: the opt-in compiled build of forest_shuffle's hot modules (docs/speed.md).

Everything about the package is in pyproject.toml; this file only adds extension modules,
and only when ``FOREST_SHUFFLE_COMPILE=1`` is set at build time. Then the modules named in
``src/forest_shuffle/_build.py`` (``COMPILED_MODULES``) are compiled with mypyc from the same
Python source, and the wheel carries both the extension modules and the ``.py`` files (an
extension module is imported before a ``.py`` of the same name). Without the variable the
build is pure Python and needs neither mypyc nor a C compiler. Asked but impossible (no
mypyc, no C compiler, no Python headers): the build stops with a one-line message.

Build into a wheel, never in place: an extension module left in ``src/forest_shuffle``
would shadow the ``.py`` beside it for everybody working in the checkout.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any, NoReturn

from setuptools import setup

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
FLAG = "FOREST_SHUFFLE_COMPILE"


def _wanted() -> bool:
    value = os.environ.get(FLAG, "").strip().lower()
    if value in ("", "0", "no", "false", "off"):
        return False
    if value in ("1", "yes", "true", "on"):
        return True
    raise SystemExit(f"{FLAG}={value!r}: use 1 to build the compiled modules or 0 for none")


def _modules() -> tuple[str, ...]:
    """COMPILED_MODULES, read from _build.py without importing the package."""
    namespace: dict[str, Any] = {}
    path = SRC / "forest_shuffle" / "_build.py"
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    modules: tuple[str, ...] = namespace["COMPILED_MODULES"]
    return modules


def _fail(why: str) -> NoReturn:
    raise SystemExit(f"{FLAG}=1 but the compiled build is impossible here: {why}")


def _check_toolchain() -> None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    if not words or shutil.which(words[0]) is None:
        _fail(f"no C compiler ({words[0] if words else 'CC'} not found; e.g. apt-get install gcc)")
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        _fail(f"no Python headers (Python.h not in {include}; e.g. apt-get install python3-dev)")


def ext_modules() -> list[Any]:
    """The mypyc extension modules when asked for, else none."""
    if not _wanted():
        return []
    if {"--inplace", "-i", "develop", "editable_wheel"} & set(sys.argv[1:]):
        _fail("it builds wheels only (in place, compiled modules would shadow src/'s .py files)")
    try:
        from mypyc.build import mypycify
    except ImportError:
        _fail("mypyc is not installed in the build environment (pip install mypy, or build "
              "with pip's build isolation, which installs it)")
    _check_toolchain()
    paths = [str(Path("src", *m.split(".")).with_suffix(".py")) for m in _modules()]
    os.chdir(HERE)  # mypy reads [tool.mypy] from pyproject.toml and the paths are relative
    target = Path("build", f"mypyc-{sys.implementation.cache_tag}")
    # A cache of its own: a mypy run in the checkout at the same time keeps .mypy_cache.
    return mypycify(["--cache-dir", str(target / "mypy-cache"), *paths], opt_level="3",
                    group_name="forest_shuffle", target_dir=str(target))


setup(ext_modules=ext_modules())
