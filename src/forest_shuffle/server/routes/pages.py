"""The page and the OpenAPI pages (docs/web.md, "The page" and REST).

Contract: :data:`router` serves ``index.html`` at ``/``, ``/game/{id}``, ``/replay`` and
``/replay/{id}`` (a one-line 404 when the page is not installed); :func:`add_static` mounts
``/static``; :func:`add_api_pages` serves ``/docs`` and ``/redoc`` from this server's own
files (never a CDN), each with a policy that runs only its own inline script.
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from forest_shuffle.server.answers import error
from forest_shuffle.server.headers import inline_script_policy

STATIC = Path(__file__).resolve().parents[1] / "static"
#: Where the OpenAPI pages (/docs, /redoc) load their scripts and styles from: this server.
DOCS_ASSETS_URL = "/docs-assets"
log = logging.getLogger(__name__)
router = APIRouter()


def index() -> Response:
    """The page (one file for every address of the page)."""
    page = STATIC / "index.html"
    if not page.is_file():
        return error(404, "the page is not installed (server/static/index.html)")
    return FileResponse(page, media_type="text/html")


@router.get("/", include_in_schema=False)
def root() -> Response:
    return index()


@router.get("/game/{game_id}", include_in_schema=False)
def game_page(game_id: str) -> Response:
    return index()


@router.get("/replay", include_in_schema=False)
def replay_page() -> Response:
    return index()


@router.get("/replay/{game_id}", include_in_schema=False)
def game_replay_page(game_id: str) -> Response:
    return index()


def add_static(app: FastAPI) -> None:
    """Serve the page's files at ``/static`` (when installed)."""
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")


#: The files /docs and /redoc load, all from :data:`DOCS_ASSETS_URL`.
DOCS_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")


def docs_assets() -> Path | None:
    """The folder of Swagger UI's and ReDoc's files (:data:`DOCS_FILES`), shipped by the
    ``fastapi-offline`` package (a dependency; only its files are used), or None if it is
    not installed or lacks one of them."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if all((folder / name).is_file() for name in DOCS_FILES) else None


def add_api_pages(app: FastAPI, assets: Path | None) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) on ``app``, their scripts, styles and
    icon served from ``assets`` at :data:`DOCS_ASSETS_URL`: the pages never load anything
    from the web. Without the files (``assets`` None) both pages answer 404 in one line
    and nothing is served at :data:`DOCS_ASSETS_URL`."""
    if assets is None:
        log.warning("no OpenAPI pages: the fastapi-offline package's files are missing")

        @app.get("/docs", include_in_schema=False)
        @app.get("/redoc", include_in_schema=False)
        def no_api_pages() -> Response:
            return error(404, "the API pages need the fastapi-offline package's files "
                               "(pip install fastapi-offline); /openapi.json is served")
        return

    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=assets), name="docs-assets")
    schema = app.openapi_url or "/openapi.json"
    title = "Forest Shuffle - API"

    @app.get("/docs", include_in_schema=False)
    def swagger_page() -> Response:
        """The OpenAPI page by Swagger UI (no badge from a validator site)."""
        return own_policy(get_swagger_ui_html(
            openapi_url=schema, title=title,
            swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None}))

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> Response:
        """The API reference by ReDoc (no web fonts)."""
        return own_policy(get_redoc_html(
            openapi_url=schema, title=title,
            redoc_js_url=f"{DOCS_ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png", with_google_fonts=False))


def own_policy(page: Response) -> Response:
    """An OpenAPI page with the policy that runs its own inline script (by its hash) and
    ReDoc's search worker."""
    policy = inline_script_policy(bytes(page.body).decode())
    page.headers["Content-Security-Policy"] = policy + "; worker-src 'self' blob:"
    return page
