"""Browser play: the authoritative game server (docs/web.md).

``store`` keeps games in a database, ``service`` runs them (no HTTP), ``app`` is the
FastAPI app with the WebSocket hub and the page in ``static/``.
"""
