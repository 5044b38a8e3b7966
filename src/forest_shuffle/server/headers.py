"""Headers a browser can trust (docs/web.md, "Headers").

Contract: :class:`SafeHeaders` is an ASGI middleware that adds to every HTTP answer

- ``Content-Security-Policy``: :data:`PAGE_POLICY` (scripts, styles, images and
  connections from this server only, no inline script, no plugins, never in a frame);
  an answer that already carries a policy (the OpenAPI pages, whose one inline script is
  allowed by its hash) keeps its own;
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (the page's URL
  carries a seat's token) and ``X-Frame-Options: DENY`` (for browsers without
  ``frame-ancestors``);
- ``Cache-Control: no-store`` on every answer but the static files (``/static/``,
  ``/docs-assets/``): the API's answers hold tokens and hands, and the pages' URLs tokens.

:func:`inline_script_policy` is the policy of a page with its own inline scripts.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The policy of the page and of every answer: nothing inline, nothing from elsewhere.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
               "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
               "manifest-src 'self'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
#: Paths whose files may be kept by a cache (they hold no token and no hand).
CACHEABLE = ("/static/", "/docs-assets/")
_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


def inline_script_policy(html: str) -> str:
    """:data:`PAGE_POLICY` that also runs the inline scripts of ``html`` (by their
    SHA-256 hashes, nothing else inline) and its inline styles (the OpenAPI pages')."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _SCRIPT.findall(html))
    return (PAGE_POLICY.replace("script-src 'self'", f"script-src 'self' {hashes}".rstrip())
            .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"))


class SafeHeaders:
    """ASGI middleware: the headers of the module's contract on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        cacheable = path.startswith(CACHEABLE)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY")]
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", PAGE_POLICY.encode()))
                if not cacheable:
                    headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
