"""Facts, entities and links in SQLite. Functions take a connection inside the caller's transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sodamem.ingest.entities import entity_key, value_key
from sodamem.ingest.supersede import SlotFact, ends_any_partner, resolve_slot, slot_of
from sodamem.model import FactKind, FactStatus, LinkType, Modality, NodeKind, TimeSpec
from sodamem.store.connection import Connection
from sodamem.store.hashes import text_hash
from sodamem.store.in_lists import IN_LIST_CHUNK, chunked, marks


@dataclass(frozen=True, slots=True)
class FactRow:
    """A grounded, dated fact ready to store; ``sources`` are ``(piece_pk, char_start, char_end, quote)``."""

    kind: FactKind
    predicate: str
    modality: Modality
    subject: str
    object: str | None
    polarity: bool
    text: str
    mentioned_at: str
    occurred: TimeSpec | None
    valid_from: str
    slot: str | None
    order_key: str
    session_pk: int
    sources: tuple[tuple[int, int, int, str], ...]
    roles: tuple[tuple[str, str], ...]  # (role, entity name), subject and object included
    embed_hash: str


def entity_pk(conn: Connection, user: str, name: str, type_: str = "unknown") -> int:
    """The entity a name refers to, created on first mention."""
    key = entity_key(name) or name.casefold()
    row = conn.execute("SELECT entity_pk FROM entity_aliases WHERE user = ? AND key = ?", (user, key)).fetchone()
    if row is not None:
        return int(row[0])
    display = name.strip()
    taken = conn.execute("SELECT id FROM entities WHERE user = ? AND name = ?", (user, display)).fetchone()
    return _new_alias(conn, user, key, display, None if taken is None else int(taken[0]), type_)


def _new_alias(conn: Connection, user: str, key: str, display: str, taken: int | None, type_: str = "unknown") -> int:
    """The entity of a name whose key has no alias yet: ``taken`` (the entity already displayed as ``display``,
    under another key, e.g. punctuation: one entity), else a new one; the key becomes its alias."""
    pk = taken
    if pk is None:
        pk = conn.execute(
            "INSERT INTO entities (user, name, type, aliases, embed_hash) VALUES (?, ?, ?, '[]', ?)",
            (user, display, type_, text_hash(display)),
        ).lastrowid
        assert pk is not None
    conn.execute("INSERT INTO entity_aliases (user, key, entity_pk) VALUES (?, ?, ?)", (user, key, pk))
    return pk


def _new_alias_unread(conn: Connection, user: str, key: str, display: str, *, create: bool) -> None:
    """The key as an alias of the entity displayed as ``display`` (``create``: a new one), its id not read back:
    the alias names the entity by its display name (unique per user), so that nothing waits for the server."""
    if create:
        conn.execute(
            "INSERT INTO entities (user, name, type, aliases, embed_hash) VALUES (?, ?, 'unknown', '[]', ?)",
            (user, display, text_hash(display)),
        )
    conn.execute(
        "INSERT INTO entity_aliases (user, key, entity_pk)"
        " VALUES (?, ?, (SELECT id FROM entities WHERE user = ? AND name = ?))",
        (user, key, user, display),
    )


def entity_name(conn: Connection, pk: int) -> str:
    return str(conn.execute("SELECT name FROM entities WHERE id = ?", (pk,)).fetchone()[0])


def canonical_name(conn: Connection, user: str, name: str) -> str:
    """The name of the entity ``name`` refers to ("Maya" for "user" once they are one entity), created on first
    mention."""
    return entity_name(conn, entity_pk(conn, user, name))


def entities_of(conn: Connection, user: str, names: Sequence[str]) -> dict[str, tuple[int, str]]:
    """``(id, canonical name)`` of the entity each name refers to, as ``entity_pk`` and ``canonical_name`` one name
    at a time would give (created on first mention, in the order of ``names``). The known ones, and the entities
    already displayed under the names, are read in one statement, where a read a name cost the PostgreSQL store a
    wait for the server each (an add holds its user's write lock through those waits); a new name then costs one
    wait, for its new entity's id."""
    known, displayed = _known_entities(conn, user, names)
    found: dict[str, tuple[int, str]] = {}
    for name in names:
        key = entity_key(name) or name.casefold()
        if key not in known:  # new: created as entity_pk does (its display name is the name, stripped)
            display = name.strip()
            pk = _new_alias(conn, user, key, display, displayed.get(display))
            displayed[display] = pk
            known[key] = (pk, display)
        found[name] = known[key]
    return found


def canonical_names_of(conn: Connection, user: str, names: Sequence[str]) -> dict[str, str]:
    """The canonical name of each name's entity, as ``entities_of`` gives it, the new entities created alike, but
    without reading their ids back: the one read of the known names is all this waits for."""
    known, displayed = _known_entities(conn, user, names)
    names_by_key = {key: name for key, (_, name) in known.items()}
    shown = set(displayed)  # display names that have an entity (stored, or made here)
    found: dict[str, str] = {}
    for name in names:
        key = entity_key(name) or name.casefold()
        if key not in names_by_key:  # new: created as entity_pk does (its display name is the name, stripped)
            display = name.strip()
            _new_alias_unread(conn, user, key, display, create=display not in shown)
            shown.add(display)
            names_by_key[key] = display
        found[name] = names_by_key[key]
    return found


def _known_entities(
    conn: Connection, user: str, names: Sequence[str]
) -> tuple[dict[str, tuple[int, str]], dict[str, int]]:
    """The entities the names' keys are aliases of (``key -> (id, name)``), and those displayed under the names
    (``name -> id``), in one read (a chunk of names a read)."""
    wanted = sorted({entity_key(name) or name.casefold() for name in names})
    shown = sorted({name.strip() for name in names})
    known: dict[str, tuple[int, str]] = {}
    displayed: dict[str, int] = {}
    size = IN_LIST_CHUNK // 2  # two lists in one statement: together under the bound on parameters
    for part in range(0, max(len(wanted), len(shown)), size):
        key_part, name_part = wanted[part : part + size], shown[part : part + size]
        rows = conn.execute(  # a row with a key: an alias; without: an entity displayed under one of the names
            "SELECT a.key, e.id, e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_pk"
            f" WHERE a.user = ? AND a.key IN ({_in_list(key_part)})"
            f" UNION ALL SELECT NULL, id, name FROM entities WHERE user = ? AND name IN ({_in_list(name_part)})",
            (user, *key_part, user, *name_part),
        )
        for key, pk, name in rows:
            if key is None:
                displayed[str(name)] = int(pk)
            else:
                known[str(key)] = (int(pk), str(name))
    return known, displayed


def _in_list(items: Sequence[str]) -> str:
    """The inside of an ``IN (...)`` list; ``NULL`` (matching nothing) for none, which PostgreSQL cannot take empty."""
    return marks(items) if items else "NULL"


def entity_names(conn: Connection, pks: set[int]) -> dict[int, str]:
    """The canonical name of each entity id."""
    names: dict[int, str] = {}
    for part in chunked(sorted(pks)):
        rows = conn.execute(f"SELECT id, name FROM entities WHERE id IN ({','.join('?' * len(part))})", part)
        names.update((int(r[0]), str(r[1])) for r in rows)
    return names


def entity_pks_by_key(conn: Connection, user: str, keys: Iterable[str]) -> dict[str, int]:
    """The entity each name key (``entity_key``) belongs to, for the keys that have one."""
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    rows = conn.execute(
        f"SELECT key, entity_pk FROM entity_aliases WHERE user = ? AND key IN ({','.join('?' * len(wanted))})",
        (user, *wanted),
    )
    return {str(key): int(pk) for key, pk in rows}


def add_alias(conn: Connection, user: str, alias: str, canonical: str) -> set[int]:
    """Tie ``alias`` to the entity named ``canonical`` (merging entities); return the facts whose subject moved."""
    target = entity_pk(conn, user, canonical)
    key = entity_key(alias) or alias.casefold()
    row = conn.execute("SELECT entity_pk FROM entity_aliases WHERE user = ? AND key = ?", (user, key)).fetchone()
    moved: set[int] = set()
    if row is None:
        conn.execute("INSERT INTO entity_aliases (user, key, entity_pk) VALUES (?, ?, ?)", (user, key, target))
    elif int(row[0]) != target and _another_named_relative(conn, int(row[0]), key, canonical.strip()):
        # "my sister Hannah", later "my sister Ines": two sisters, not one. "my sister" now means the latest named;
        # Hannah keeps her facts
        conn.execute("UPDATE entity_aliases SET entity_pk = ? WHERE user = ? AND key = ?", (target, user, key))
        _drop_alias_name(conn, int(row[0]), alias.strip())
    elif int(row[0]) != target:
        moved = _merge(conn, user, int(row[0]), target)
    _record_alias_name(conn, target, alias.strip())
    return moved


def _another_named_relative(conn: Connection, holder: int, key: str, newer: str = "") -> bool:
    """Whether a role alias ("maya's sister") is held by a person known by a name of their own ("Hannah"), not by
    the entity the role itself named ("my sister moved to Paris" before her name was said) and other than the newer
    name's (same first name: "Hannah Smith" is "Hannah"): merging them would make two people one."""
    if "'s " not in key:
        return False  # a speaker's name ("I'm Maya"): the same person, whatever they were called before
    (name,) = conn.execute("SELECT name FROM entities WHERE id = ?", (holder,)).fetchone()
    return entity_key(str(name)) != key and (not newer or str(name).split()[0] != newer.split()[0])


def _drop_alias_name(conn: Connection, entity: int, alias: str) -> None:
    (aliases,) = conn.execute("SELECT aliases FROM entities WHERE id = ?", (entity,)).fetchone()
    kept = [a for a in json.loads(aliases) if a != alias]
    conn.execute("UPDATE entities SET aliases = ? WHERE id = ?", (json.dumps(kept), entity))


def _merge(conn: Connection, user: str, source: int, target: int) -> set[int]:
    moved = {int(r[0]) for r in conn.execute("SELECT id FROM facts WHERE subject_pk = ?", (source,))}
    conn.execute("UPDATE facts SET subject_pk = ? WHERE subject_pk = ?", (target, source))
    conn.execute(
        "INSERT OR IGNORE INTO fact_roles (fact_pk, entity_pk, role) SELECT fact_pk, ?, role FROM fact_roles"
        " WHERE entity_pk = ?",
        (target, source),
    )
    conn.execute(
        "UPDATE links SET dst_id = ? WHERE user = ? AND dst_kind = 'entity' AND dst_id = ?", (target, user, source)
    )
    conn.execute("UPDATE entity_aliases SET entity_pk = ? WHERE entity_pk = ?", (target, source))
    old = conn.execute("SELECT name, aliases FROM entities WHERE id = ?", (source,)).fetchone()
    conn.execute("DELETE FROM entities WHERE id = ?", (source,))
    for name in [old[0], *json.loads(old[1])]:
        _record_alias_name(conn, target, name)
    return moved


def _record_alias_name(conn: Connection, entity: int, alias: str) -> None:
    name, aliases = conn.execute("SELECT name, aliases FROM entities WHERE id = ?", (entity,)).fetchone()
    known = json.loads(aliases)
    if alias != name and alias not in known:
        conn.execute("UPDATE entities SET aliases = ? WHERE id = ?", (json.dumps([*known, alias]), entity))


def insert_facts(conn: Connection, user: str, facts: Sequence[FactRow]) -> list[int]:
    """Store facts with their sources, roles and DERIVED_FROM/MENTIONS links; their ids, in order. Every fact row
    goes out before any id is read (on PostgreSQL, one wait for them all), then the rows that cite them."""
    entities = entities_of(conn, user, [name for fact in facts for name in (fact.subject, *(n for _, n in fact.roles))])
    cursors = []
    for fact in facts:
        occurred = fact.occurred
        cursors.append(
            conn.execute(
                "INSERT INTO facts (user, kind, predicate, modality, status, text, mentioned_at, occurred_start,"
                " occurred_end, occurred_granularity, occurred_expression, valid_from, valid_to, session_pk,"
                " subject_pk, object, polarity, slot, order_key, embed_hash) VALUES (?, ?, ?, ?, 'active', ?, ?, ?,"
                " ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user,
                    fact.kind.value,
                    fact.predicate,
                    fact.modality.value,
                    fact.text,
                    fact.mentioned_at,
                    occurred.start.isoformat() if occurred else None,
                    occurred.end.isoformat() if occurred else None,
                    occurred.granularity.value if occurred else None,
                    occurred.expression if occurred else None,
                    fact.valid_from,
                    fact.session_pk,
                    entities[fact.subject][0],
                    fact.object,
                    int(fact.polarity),
                    fact.slot,
                    fact.order_key,
                    fact.embed_hash,
                ),
            )
        )
    pks = []
    for cursor in cursors:
        pk = cursor.lastrowid
        assert pk is not None
        pks.append(pk)
    for pk, fact in zip(pks, facts, strict=True):
        conn.executemany(
            "INSERT OR IGNORE INTO fact_sources (fact_pk, piece_pk, char_start, char_end, quote)"
            " VALUES (?, ?, ?, ?, ?)",
            [(pk, *source) for source in fact.sources],
        )
        for piece_pk in dict.fromkeys(s[0] for s in fact.sources):
            _link(conn, user, LinkType.DERIVED_FROM, NodeKind.FACT, pk, NodeKind.PIECE, piece_pk, fact.mentioned_at)
        for role, name in fact.roles:
            entity = entities[name][0]
            conn.execute(
                "INSERT OR IGNORE INTO fact_roles (fact_pk, entity_pk, role) VALUES (?, ?, ?)", (pk, entity, role)
            )
            _link(conn, user, LinkType.MENTIONS, NodeKind.FACT, pk, NodeKind.ENTITY, entity, fact.mentioned_at)
    return pks


def _link(
    conn: Connection,
    user: str,
    type_: LinkType,
    src_kind: NodeKind,
    src: int,
    dst_kind: NodeKind,
    dst: int,
    when: str | None,
) -> None:
    conn.execute(
        "INSERT INTO links (user, type, src_kind, src_id, dst_kind, dst_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (user, type_.value, src_kind.value, src, dst_kind.value, dst, when),
    )


SLOT_LINKS = (LinkType.SUPERSEDES.value, LinkType.CONTRADICTS.value, LinkType.UPDATES.value)


def reslot(conn: Connection, user: str, fact_ids: Iterable[int]) -> None:
    """Give moved facts their slot under their (new) subject's key, then recompute the slots involved."""
    slots: set[str] = set()
    for fact_id in fact_ids:
        row = conn.execute(
            "SELECT f.slot, e.name FROM facts f JOIN entities e ON e.id = f.subject_pk WHERE f.id = ?", (fact_id,)
        ).fetchone()
        if row is None or row[0] is None:
            continue
        old_slot = str(row[0])
        new_slot = "|".join([entity_key(row[1]), *old_slot.split("|")[1:]])
        conn.execute("UPDATE facts SET slot = ? WHERE id = ?", (new_slot, fact_id))
        slots.update({old_slot, new_slot})
    resolve_slots(conn, user, slots)


def reslot_all(conn: Connection, user: str) -> int:
    """Give every fact of ``user`` the slot today's rules give it (``ingest.supersede.slot_of``), then recompute
    every slot: the upgrade of a store written under older supersession rules. How many facts changed slot."""
    rows = conn.execute(
        "SELECT f.id, f.kind, f.predicate, f.modality, e.name, f.object, f.slot FROM facts f"
        " JOIN entities e ON e.id = f.subject_pk WHERE f.user = ? ORDER BY f.id",
        (user,),
    ).fetchall()
    slots: set[str] = set()
    moved = 0
    for fact_id, kind, predicate, modality, subject, obj, old in rows:
        new = _slot_today(kind, predicate, modality, subject, obj)
        slots.update(slot for slot in (old, new) if slot is not None)
        if new != old:
            conn.execute("UPDATE facts SET slot = ? WHERE id = ?", (new, fact_id))
            moved += 1
    resolve_slots(conn, user, slots)
    return moved


def _slot_today(kind: str, predicate: str, modality: str, subject: str, obj: str | None) -> str | None:
    """The slot today's rules give a stored fact (its subject entity's name, its object as stored)."""
    return slot_of(FactKind(kind), str(predicate), Modality(modality), entity_key(str(subject)), value_key(obj))


def _slot_fact(
    fact_id: int, order: str, starts: str, obj: str | None, polarity: int, modality: str, said: str
) -> SlotFact:
    negated = modality == Modality.NEGATED.value
    return SlotFact(fact_id, order, starts, value_key(obj), bool(polarity), negated, said)


def stale_supersession(conn: Connection) -> dict[str, int]:
    """Per user, how many facts sit in another slot, or hold another status or end, than today's supersession
    rules give them (a store written by an older version): what ``reslot_all`` would change."""
    rows = conn.execute(
        "SELECT f.user, f.id, f.kind, f.predicate, f.modality, e.name, f.object, f.slot, f.status, f.valid_to,"
        " f.order_key, f.valid_from, f.polarity, f.mentioned_at FROM facts f JOIN entities e ON e.id = f.subject_pk"
        " WHERE f.status != 'invalid' ORDER BY f.user, f.id"
    ).fetchall()
    stale: dict[str, int] = {}
    in_slot: dict[tuple[str, str], list[SlotFact]] = {}
    stored: dict[int, tuple[str, str | None]] = {}
    for row in rows:
        (
            user,
            fact_id,
            kind,
            predicate,
            modality,
            subject,
            obj,
            slot,
            status,
            valid_to,
            order,
            starts,
            polarity,
            said,
        ) = row
        user = str(user)
        expected = _slot_today(kind, predicate, modality, subject, obj)
        if expected != slot:
            stale[user] = stale.get(user, 0) + 1
        if expected is None:
            continue
        fact = _slot_fact(int(fact_id), str(order), str(starts), obj, int(polarity), str(modality), str(said))
        in_slot.setdefault((user, expected), []).append(fact)
        stored[int(fact_id)] = (str(status), None if valid_to is None else str(valid_to))
    for (user, slot), slot_facts in in_slot.items():
        guest_slot = ends_any_partner(slot)
        guests = in_slot.get((user, guest_slot), []) if guest_slot is not None else []
        outcomes, _ = resolve_slot(slot_facts, guests)
        wrong = sum(stored[o.fact_id] != (o.status.value, o.valid_to) for o in outcomes)
        if wrong:
            stale[user] = stale.get(user, 0) + wrong
    return stale


def resolve_slots(conn: Connection, user: str, slots: Iterable[str]) -> None:
    """Recompute status, validity end and chain links of every fact in each slot (see ingest.supersede); the
    slots' facts are read at once. A nameless partner slot is recomputed first, then every named partner slot it
    ends (``ends_any_partner``), whose recomputation reads its denials as guests."""
    slots = _with_partner_slots(conn, user, slots)
    read = set(slots) | {g for g in map(ends_any_partner, slots) if g is not None}
    in_slot: dict[str, list[tuple[int, str, str, str | None, int, str, str]]] = {}
    for part in chunked(sorted(read)):
        rows = conn.execute(
            "SELECT slot, id, order_key, valid_from, object, polarity, modality, mentioned_at FROM facts WHERE user = ?"
            f" AND slot IN ({','.join('?' * len(part))}) AND status != 'invalid' ORDER BY slot, id",
            (user, *part),
        )
        for r in rows:
            fact = (int(r[1]), str(r[2]), str(r[3]), r[4], int(r[5]), str(r[6]), str(r[7]))
            in_slot.setdefault(str(r[0]), []).append(fact)
    for slot in slots:
        held = in_slot.get(slot, [])
        guest_slot = ends_any_partner(slot)
        visiting = in_slot.get(guest_slot, []) if guest_slot is not None else []
        facts, guests = [_slot_fact(*r) for r in held], [_slot_fact(*r) for r in visiting]
        starts = {r[0]: r[2] for r in (*held, *visiting)}  # a link's time: its newer fact's start, as stored
        ids = [f.fact_id for f in facts]
        if not ids:
            continue
        marks = ",".join("?" * len(ids))
        conn.execute(
            f"DELETE FROM links WHERE user = ? AND type IN (?, ?, ?) AND src_kind = 'fact' AND src_id IN ({marks})",
            (user, *SLOT_LINKS, *ids),
        )
        if guests:  # the guests' links into this slot (a guest slot's own recomputation dropped them already)
            guest_marks = ",".join("?" * len(guests))
            conn.execute(
                f"DELETE FROM links WHERE user = ? AND type IN (?, ?, ?) AND src_kind = 'fact' AND dst_kind = 'fact'"
                f" AND src_id IN ({guest_marks}) AND dst_id IN ({marks})",
                (user, *SLOT_LINKS, *(g.fact_id for g in guests), *ids),
            )
        outcomes, links = resolve_slot(facts, guests)
        for outcome in outcomes:
            conn.execute(
                "UPDATE facts SET status = ?, valid_to = ? WHERE id = ? AND (status != ? OR valid_to IS NOT ?)",
                (outcome.status.value, outcome.valid_to, outcome.fact_id, outcome.status.value, outcome.valid_to),
            )
        for link in links:
            _link(conn, user, link.type, NodeKind.FACT, link.newer, NodeKind.FACT, link.older, starts[link.newer])


def _with_partner_slots(conn: Connection, user: str, slots: Iterable[str]) -> list[str]:
    """``slots``, each nameless partner slot among them followed by the named partner slots its denials end (their
    links from it are dropped with its own, so they are recomputed after it)."""
    slots = list(dict.fromkeys(slots))
    nameless = [s for s in slots if s.endswith("|partner|") and ends_any_partner(s) is None]
    hosts: list[str] = []
    for guest in nameless:
        rows = conn.execute(
            "SELECT DISTINCT slot FROM facts WHERE user = ? AND substr(slot, 1, ?) = ? AND slot != ? ORDER BY slot",
            (user, len(guest), guest, guest),
        )
        hosts += [str(r[0]) for r in rows]
    rest = [s for s in slots if s not in nameless and s not in hosts]
    return [*nameless, *dict.fromkeys(hosts), *rest]


def slots_of_sessions(conn: Connection, user: str, session_pks: Sequence[int]) -> set[str]:
    if not session_pks:
        return set()
    marks = ",".join("?" * len(session_pks))
    rows = conn.execute(
        f"SELECT DISTINCT slot FROM facts WHERE user = ? AND slot IS NOT NULL AND session_pk IN ({marks})",
        (user, *session_pks),
    )
    return {str(r[0]) for r in rows}


def link_neighbors(conn: Connection, user: str, pairs: Iterable[tuple[int, int]], when: str | None = None) -> None:
    """NEIGHBOR links (one direction stored, read both ways) between semantically close facts; a pair found
    before this transaction whose fact has since been forgotten (by another process) is skipped."""
    for a, b in pairs:
        alive = conn.execute("SELECT COUNT(*) FROM facts WHERE id IN (?, ?) AND user = ?", (a, b, user)).fetchone()
        if int(alive[0]) == 2:
            _link(conn, user, LinkType.NEIGHBOR, NodeKind.FACT, a, NodeKind.FACT, b, when)


def fact_status_counts(conn: Connection, user: str) -> dict[FactStatus, int]:
    rows = conn.execute("SELECT status, count(*) FROM facts WHERE user = ? GROUP BY status", (user,))
    return {FactStatus(r[0]): int(r[1]) for r in rows}
