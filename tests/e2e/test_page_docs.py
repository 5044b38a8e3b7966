"""The OpenAPI page in real Chromium with every request off this server refused: it still
shows the API (its scripts ship with the package)."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect


def test_docs_work_offline(desktop: Page, server: str) -> None:
    page = desktop
    outside: list[str] = []

    def only_here(route: Route) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_here)
    page.goto(server + "/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Forest Shuffle")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert outside == []
