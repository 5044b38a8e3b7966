"""The refusals of the server's parts (no HTTP here): each is a status and one line for the
client, answered by the app as ``{"error": "one line"}``."""

from __future__ import annotations

from collections.abc import Callable


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status, ``str()`` one line for the client
    (English); ``said``, if given, says the same line in a language (the ``server``
    catalog's): :meth:`said_in`."""

    def __init__(self, status: int, message: str,
                 said: Callable[[str], str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.said = said

    def said_in(self, lang: str) -> str:
        """The refusal in ``lang`` (English, or a refusal not translated: ``str()``)."""
        return str(self) if self.said is None or lang == "en" else self.said(lang)


class Unwritable(ServiceError):
    """503: the database refused the write (:class:`~.store.StoreUnwritable`); nothing
    changed, and the same request works once the database can write again."""

    def __init__(self, message: str) -> None:
        super().__init__(503, message)


__all__ = ["ServiceError", "Unwritable"]
