"""API keys of the server: each key maps to exactly one user; the store keeps only the key's SHA-256.

Keys are 32 random bytes, so a plain SHA-256 is enough to store them (no password stretching is needed for a
secret nobody chose), and a lookup is one indexed read.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from sodamem.errors import NotFoundError
from sodamem.store.keys import KeyRecord
from sodamem.store.protocol import is_row_id
from sodamem.store.write_protocol import Store
from sodamem.users import check_user_name

KEY_PREFIX = "smk_"
_SHOWN_CHARS = len(KEY_PREFIX) + 6  # what `keys list` shows of a key

__all__ = ["KEY_PREFIX", "KeyRecord", "KeyRing", "hash_key"]


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyRing:
    """Create, check, list and revoke the keys stored in one memory database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, user: str, *, label: str = "") -> tuple[KeyRecord, str]:
        """A new key for ``user``: its record and the key itself, which is not stored and cannot be shown again."""
        check_user_name(user)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        record = self.store.insert_key(user, hash_key(key), key[:_SHOWN_CHARS], label, _now())
        return record, key

    def user_of(self, key: str) -> str | None:
        """The user a live key belongs to; None for an unknown or revoked key."""
        if not key.startswith(KEY_PREFIX):
            return None
        return self.store.user_of_key_hash(hash_key(key))

    def list(self, user: str | None = None) -> list[KeyRecord]:
        return self.store.list_keys(user)

    def revoke(self, key_id: int) -> KeyRecord:
        record = self.store.revoke_key(key_id, _now()) if is_row_id(key_id) else None
        if record is None:
            raise NotFoundError(f"no key with id {key_id}")
        return record


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
