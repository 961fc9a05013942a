"""The content hash that names a text (rows point to their vectors, and dumps to their texts, by it)."""

from __future__ import annotations

import hashlib


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
