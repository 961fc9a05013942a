"""Move a whole memory from one store to another (SQLite file <-> PostgreSQL, either way): every user's dump,
imported as ``sodamem import`` would, then the cached vectors, the turns' stored mentions and the embedder setting,
so that nothing is embedded or read again, and what belongs to the deployment: the server's API keys (their hashes)
and the forget audit log. Checked by equality: each user's dump read back from the target is byte for byte the
source's, and every key and forget record of the source is in the target as it was.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sodamem.embed.resolve import SETTING_KEY
from sodamem.errors import InputError
from sodamem.memory import Memory
from sodamem.store.opening import require_database


@dataclass(slots=True)
class MigrateReport:
    users: list[str] = field(default_factory=list)
    sessions: int = 0
    facts: int = 0
    vectors: int = 0
    mentions: int = 0  # turns whose stored mentions (the answer-type tunnel's) came along
    api_keys: int = 0
    forget_records: int = 0
    identical: bool = False  # every user's export from the target equals the source's

    def to_dict(self) -> dict[str, object]:
        return {
            "users": self.users,
            "sessions": self.sessions,
            "facts": self.facts,
            "vectors": self.vectors,
            "mentions": self.mentions,
            "api_keys": self.api_keys,
            "forget_records": self.forget_records,
            "identical": self.identical,
        }


def migrate(source: str | Path, target: str | Path) -> MigrateReport:
    """Copy every user of ``source`` into ``target``, which must hold none of them yet."""
    require_database(source, "--from")
    report = MigrateReport()
    with Memory(source, embedder="none") as src, Memory(target, embedder="none") as dst:
        users = [s.user for s in src.stats(all_users=True) if s.sessions or s.entities or s.facts]
        dumps = {user: "".join(src.export(user=user)) for user in users}
        clash = [s.user for s in dst.stats(all_users=True) if s.user in dumps and (s.sessions or s.facts)]
        if clash:
            raise InputError(f"the target already holds users {', '.join(clash)}", field="--to")
        key_rows, log_rows = src.store.deployment_rows()
        held_keys = {row[1] for row in dst.store.deployment_rows()[0]}
        shared = [row for row in key_rows if row[1] in held_keys]
        if shared:  # checked before anything is written: a migration stopped half-way helps nobody
            raise InputError(
                f"the target already holds {len(shared)} of the source's API keys (of users "
                f"{', '.join(sorted({row[0] for row in shared}))}): was it migrated already?",
                field="--to",
            )
        for user, text in dumps.items():
            imported = dst.import_dump(io.StringIO(text), user=user)
            report.sessions += imported.sessions
            report.facts += imported.facts
            report.mentions += _carry_mentions(src, dst, user)
        for model, dim, items in src.store.stored_embeddings():
            dst.store.put_embeddings(model, items, dim)
            report.vectors += len(items)
        spec = src.store.get_setting(SETTING_KEY)
        if spec is not None:
            dst.store.set_setting(SETTING_KEY, spec)
        dst.store.put_deployment_rows(key_rows, log_rows)
        report.api_keys, report.forget_records = len(key_rows), len(log_rows)
        report.users = users
        moved_keys, moved_log = dst.store.deployment_rows()
        report.identical = (
            all("".join(dst.export(user=user)) == text for user, text in dumps.items())
            and not Counter(key_rows) - Counter(moved_keys)
            and not Counter(log_rows) - Counter(moved_log)
        )
    return report


def _carry_mentions(src: Memory, dst: Memory, user: str) -> int:
    """The user's stored mentions onto the target's copies of the turns (matched by text: mentions depend on it
    alone), so that no search there has to read them again; turns the source had not read stay unread."""
    by_text = src.store.mentions_by_text(user)
    items = [(pk, by_text[text]) for pk, text in dst.store.turns_to_annotate(user).items() if text in by_text]
    dst.store.put_turn_mentions(items)
    return len(items)
