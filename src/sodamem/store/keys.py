"""SQL of the server's API keys: rows hold a key's hash, never the key (sodamem.keys makes and checks keys)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sodamem.store.connection import Connection


@dataclass(frozen=True, slots=True)
class KeyRecord:
    """A stored key, as listed: ``prefix`` is the key's first characters, enough to tell keys apart."""

    id: int
    user: str
    prefix: str
    label: str
    created_at: str
    revoked_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_COLUMNS = "id, user, prefix, label, created_at, revoked_at"


KeyRow = tuple[str, str, str, str, str, str | None]  # user, key_hash, prefix, label, created_at, revoked_at


def key_rows(conn: Connection) -> list[KeyRow]:
    """Every stored key as stored (its hash, never the key), oldest first (``sodamem migrate`` moves them)."""
    rows = conn.execute("SELECT user, key_hash, prefix, label, created_at, revoked_at FROM api_keys ORDER BY id")
    return [(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), None if r[5] is None else str(r[5])) for r in rows]


def insert_key_rows(conn: Connection, rows: list[KeyRow]) -> None:
    for row in rows:
        conn.execute(
            "INSERT INTO api_keys (user, key_hash, prefix, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )


def insert_key(conn: Connection, user: str, key_hash: str, prefix: str, label: str, now: str) -> KeyRecord:
    cursor = conn.execute(
        "INSERT INTO api_keys (user, key_hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?)",
        (user, key_hash, prefix, label, now),
    )
    assert cursor.lastrowid is not None
    return KeyRecord(cursor.lastrowid, user, prefix, label, now, None)


def user_of_hash(conn: Connection, key_hash: str) -> str | None:
    """The user of a live (not revoked) key, by its hash."""
    row = conn.execute("SELECT user FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL", (key_hash,)).fetchone()
    return None if row is None else str(row[0])


def list_keys(conn: Connection, user: str | None = None) -> list[KeyRecord]:
    sql = f"SELECT {_COLUMNS} FROM api_keys"
    params: tuple[str, ...] = ()
    if user is not None:
        sql += " WHERE user = ?"
        params = (user,)
    return [_record(row) for row in conn.execute(sql + " ORDER BY id", params)]


def revoke_key(conn: Connection, key_id: int, now: str) -> KeyRecord | None:
    """Mark a key revoked (a second revoke keeps the first time); None when no key has that id."""
    conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now, key_id))
    row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
    return None if row is None else _record(row)


def _record(row: Any) -> KeyRecord:
    return KeyRecord(int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]), row[5])
