"""Read what stored turns name (``retrieve/mentions.py``) and keep it in the store, so that no search has to: the
answer-type tunnel's mentions, written right after the turns they come from (as their vectors are)."""

from __future__ import annotations

from collections.abc import Sequence

from sodamem.retrieve.mentions import Annotator
from sodamem.store.write_protocol import Store

BATCH = 256


def annotate_missing(
    store: Store, annotator: Annotator, *, user: str | None = None, turn_pks: Sequence[int] | None = None
) -> int:
    """Store the mentions of every turn that has none (one user's, or those among ``turn_pks``); return how many
    turns were read."""
    todo = list(store.turns_to_annotate(user, turn_pks).items())
    for start in range(0, len(todo), BATCH):
        batch = todo[start : start + BATCH]
        found = annotator.mentions([text for _, text in batch])
        store.put_turn_mentions(
            [(pk, [(m.text, m.label) for m in mentions]) for (pk, _), mentions in zip(batch, found, strict=True)]
        )
    return len(todo)
