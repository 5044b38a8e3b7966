"""Fixtures of the web server tests (helpers: ``webutil.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from webutil import client


@pytest.fixture
def c() -> Iterator[TestClient]:
    """A test client of a fresh app on an in-memory database."""
    with client() as test_client:
        yield test_client
