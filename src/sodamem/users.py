"""User names: the namespaces every row, read and key belongs to."""

from __future__ import annotations

from sodamem.errors import InputError


def check_user_name(user: object, field: str = "user", *, session: str | None = None) -> str:
    """``user`` when it can name a user: a string with a character other than space, and no space at either end
    (" maya " would be a user apart from "maya", whose key reaches none of maya's memory)."""
    if not isinstance(user, str) or not user.strip():
        raise InputError("is empty", session=session, field=field)
    if user != user.strip():
        raise InputError(f"has spaces at its ends: {user!r}", session=session, field=field)
    return user
