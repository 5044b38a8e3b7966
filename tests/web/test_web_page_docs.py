"""The OpenAPI pages load nothing from the web: /docs and /redoc name only this server's
files, and those files are served."""

from __future__ import annotations

import re

import pytest
from webutil import client

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
