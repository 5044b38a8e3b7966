"""The refusals of the server's parts (no HTTP here): each is a status and one line for the
client, answered by the app as ``{"error": "one line"}``."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status, ``str()`` one line for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Unwritable(ServiceError):
    """503: the database refused the write (:class:`~.store.StoreUnwritable`); nothing
    changed, and the same request works once the database can write again."""

    def __init__(self, message: str) -> None:
        super().__init__(503, message)


__all__ = ["ServiceError", "Unwritable"]
