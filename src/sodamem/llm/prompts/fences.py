"""Fences around dialogue or evidence in prompts: a tag the fenced text cannot contain, so it cannot close itself."""

from __future__ import annotations

import hashlib


def fence_tag(*texts: str) -> str:
    """A tag that none of ``texts`` contains (a hash of them; re-salted in the unlikely clash)."""
    data = "\x00".join(texts)
    salt = 0
    while True:
        tag = hashlib.sha256(f"{salt}\x00{data}".encode()).hexdigest()[:12]
        if tag not in data:
            return tag
        salt += 1
