"""Which variant of a prompt a model gets: the full one, or the compact one small local models follow."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from sodamem.llm.prices import LOCAL_PREFIX

T = TypeVar("T")


def choose_variant(choice: str, model: str, variants: Mapping[str, T], what: str) -> T:
    """``auto``: ``compact`` for a local model (``local/<name>``), ``full`` otherwise; else the named variant.
    ``what`` names the prompt in the error for an unknown choice."""
    name = choice.strip().lower()
    if name == "auto":
        name = "compact" if model.startswith(LOCAL_PREFIX) else "full"
    if name not in variants:
        raise ValueError(f"unknown {what} prompt {choice!r}: choose one of {', '.join(('auto', *variants))}")
    return variants[name]
