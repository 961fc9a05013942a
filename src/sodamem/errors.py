"""Typed exceptions. Bad input never leaves the database half-written; the CLI maps these to exit code 2."""

from __future__ import annotations


class SodaMemError(Exception):
    """Base class of every error the library raises on purpose."""


class InputError(SodaMemError):
    """Input that cannot be ingested; names the file, the session and the field at fault."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        session: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.session = session
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.file:
            where.append(f"file {self.file}")
        if self.session is not None:
            where.append(f"session {self.session!r}")
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def with_file(self, file: str) -> InputError:
        """The same error (same class), naming the file it came from."""
        return type(self)(self.message, file=file, session=self.session, field=self.field)


class SessionConflictError(InputError):
    """A session id that is already stored with different content (pass ``replace=True`` to overwrite)."""


class MessageConflictError(InputError):
    """A message id that is already stored in its session with different content."""


class NotFoundError(SodaMemError):
    """A requested session, turn or piece does not exist for this user."""


class AmbiguousIdError(SodaMemError):
    """An id that matches more than one record; the message lists the candidates."""


class MissingDependencyError(SodaMemError):
    """An optional backend whose packages are not installed; the message names the extra to install."""


class StoreOpenError(SodaMemError):
    """A database path that cannot be opened or created, or that holds something other than a SodaMem database."""


class StoreBusyError(SodaMemError):
    """Another process kept the database locked for longer than the store waits (with backoff)."""
