"""How the server answers: JSON bytes as built, and one-line errors (docs/web.md, REST).

Contract: :func:`answer` sends data as it is (the models of :mod:`.schemas` only document
it); :func:`error` is ``{"error": "one line"}`` with a status; :func:`validation_line` is the
one line of a request that did not validate.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response


def json_bytes(data: Any) -> bytes:
    """``data`` as compact JSON bytes."""
    return json.dumps(data, separators=(",", ":")).encode()


def answer(data: Any) -> Response:
    """A JSON answer sent as it is (the models in :mod:`.schemas` only document it)."""
    return Response(json_bytes(data), media_type="application/json")


#: Any run of white space but a no-break one (French typography keeps its no-break spaces).
_SPACES = re.compile(r"[^\S\u00a0\u202f]+")


def error(status: int, message: str) -> JSONResponse:
    """``{"error": message}`` on one line with ``status`` (no-break spaces kept)."""
    return JSONResponse({"error": _SPACES.sub(" ", message).strip(" ")}, status_code=status)


def validation_line(exc: RequestValidationError) -> str:
    """The first problem of a request that did not validate, in one line."""
    errors = exc.errors()
    if not errors:
        return "bad request"
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    msg = str(first.get("msg", "invalid"))
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    if not where:
        return "the body must be a JSON object"
    return f"{where}: {msg}" if where else msg
