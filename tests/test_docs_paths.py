"""The documents name only files a reader of the repository can open."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: A file path in backticks: a folder, a slash and a file name with an extension.
PATH = re.compile(r"`((?:src|docs|tests|benchmarks|shared)/[\w./-]+\.(?:json|md|py|txt|js))`")


@pytest.mark.parametrize("doc", ["docs/forest-json.md"])
def test_paths_named_in_a_document_are_in_the_repository(doc: str) -> None:
    named = PATH.findall((ROOT / doc).read_text(encoding="utf-8"))
    assert named, "the document names the card data it uses"
    missing = [p for p in named if not (ROOT / p).is_file()]
    assert not missing, f"{doc} names files not in the repository: {missing}"
