"""The OpenAPI pages load nothing from the web: /docs and /redoc name only this server's
files, and those files are served."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webutil import client

from forest_shuffle.server.app import DOCS_ASSETS_URL, add_api_pages

PAGES = ("/docs", "/redoc")


def _refs(html: str) -> list[str]:
    return re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)


@pytest.mark.parametrize("path", PAGES)
def test_the_openapi_pages_are_served_from_here(path: str) -> None:
    with client() as c:
        r = c.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert not re.search(r"https?://|//cdn|fonts\.googleapis", r.text), r.text
        refs = _refs(r.text)
        assert len(refs) >= 2, refs  # the script and the icon (and Swagger UI's styles)
        for ref in refs:
            assert ref.startswith("/docs-assets/"), ref
            asset = c.get(ref)
            assert asset.status_code == 200 and len(asset.content) > 1000, ref
        assert c.get("/openapi.json").json()["info"]["title"] == "Forest Shuffle"


def test_no_cdn_in_the_swagger_page_settings() -> None:
    with client() as c:
        html = c.get("/docs").text
        assert '"validatorUrl": null' in html
        assert "swagger-ui-bundle.js" in html and "swagger-ui.css" in html


def test_without_the_files_the_pages_answer_404_in_one_line() -> None:
    app = FastAPI(docs_url=None, redoc_url=None)
    add_api_pages(app, None)
    with TestClient(app) as c:
        for path in PAGES:
            r = c.get(path)
            assert r.status_code == 404, path
            line = r.json()["error"]
            assert "fastapi-offline" in line and "\n" not in line
        assert c.get(f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js").status_code == 404
