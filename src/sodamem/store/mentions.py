"""What turns name (``turn_mentions``, migration 0011; 0005 on PostgreSQL), in the portable SQL both backends run.

Each row is a turn's mentions as JSON, ``[[words, label], ...]``, written once after the turn is stored. The rows
are derived data, like the vectors: they go with their turn (``ON DELETE CASCADE``), dumps leave them out, and a
turn without a row is simply read again by whoever needs its mentions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

from sodamem.store.connection import Connection
from sodamem.store.in_lists import chunked, marks

MentionPairs = tuple[tuple[str, str], ...]


def encode_mentions(mentions: Sequence[tuple[str, str]]) -> str:
    return json.dumps([[text, label] for text, label in mentions], ensure_ascii=False, separators=(",", ":"))


@lru_cache(maxsize=100_000)
def decode_mentions(value: str) -> MentionPairs:
    """Decoded once per distinct row value: a list question reads a speaker's every turn's mentions each time."""
    return tuple((str(text), str(label)) for text, label in json.loads(value))


def stored_mentions(conn: Connection, user: str, turn_pks: Sequence[int]) -> dict[int, MentionPairs]:
    """The stored mentions of the user's turns among ``turn_pks`` (turns without a row are absent)."""
    found: dict[int, MentionPairs] = {}
    for chunk in chunked(list(turn_pks)):
        rows = conn.execute(
            "SELECT m.turn_pk, m.mentions FROM turn_mentions m JOIN turns t ON t.id = m.turn_pk"
            f" WHERE t.user = ? AND m.turn_pk IN ({marks(chunk)})",
            (user, *chunk),
        )
        found.update({int(pk): decode_mentions(str(value)) for pk, value in rows})
    return found


def mentions_by_text(conn: Connection, user: str) -> dict[str, MentionPairs]:
    """The user's stored mentions keyed by what was read for them (``mention_text``): mentions depend on the text
    alone, so a copy of the turns (``sodamem migrate``) can take them over whatever ids its turns got."""
    rows = conn.execute(
        "SELECT t.text, t.caption, m.mentions FROM turn_mentions m JOIN turns t ON t.id = m.turn_pk WHERE t.user = ?",
        (user,),
    )
    return {mention_text(text, caption): decode_mentions(str(value)) for text, caption, value in rows}


def turns_without_mentions(
    conn: Connection, user: str | None = None, turn_pks: Sequence[int] | None = None
) -> dict[int, str]:
    """``turn pk -> text (and caption)`` of turns that have no mentions row: all of them, one user's, or those
    among ``turn_pks``."""
    sql = (
        "SELECT t.id, t.text, t.caption FROM turns t LEFT JOIN turn_mentions m ON m.turn_pk = t.id"
        " WHERE m.turn_pk IS NULL"
    )
    params: tuple[object, ...] = ()
    if user is not None:
        sql += " AND t.user = ?"
        params += (user,)
    if turn_pks is None:
        rows = conn.execute(sql + " ORDER BY t.id", params)
        return {int(pk): mention_text(text, caption) for pk, text, caption in rows}
    out: dict[int, str] = {}
    for chunk in chunked(list(turn_pks)):
        rows = conn.execute(sql + f" AND t.id IN ({marks(chunk)})", (*params, *chunk))
        out.update({int(pk): mention_text(text, caption) for pk, text, caption in rows})
    return out


def mention_text(text: str, caption: str | None) -> str:
    """What is read for a turn's mentions: its text, and its image's caption after it."""
    return f"{text} {caption or ''}".strip()


def put_mentions(conn: Connection, items: Sequence[tuple[int, Sequence[tuple[str, str]]]]) -> None:
    """Store turns' mentions; turns deleted since they were read are skipped, and a turn's existing row is kept
    (its text cannot have changed: a changed session is stored as new turns)."""
    conn.executemany(
        "INSERT OR IGNORE INTO turn_mentions (turn_pk, mentions) SELECT ?, ? WHERE EXISTS"
        " (SELECT 1 FROM turns WHERE id = ?)",
        [(pk, encode_mentions(mentions), pk) for pk, mentions in items],
    )
