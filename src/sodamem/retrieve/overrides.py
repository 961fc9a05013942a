"""Ad-hoc variants of the fused search's settings, written as text: ``<preset>+<key>=<value>+...``.

A variant names a preset and then changes some of its settings, e.g.
``default+session_share=0.3+weight.dense=1.0+density.spill=0.2``. This is how the bench measures a change without
editing code (``sodamem bench locomo --system 'sodamem:default+session_share=0.3'``), so every figure of a tried
variant can be reproduced from its name.

Keys: a scalar field of ``FusedSettings`` (``session_share``, ``candidates``, ...); ``density.<field>`` of its
``DensitySettings``; ``weight.<tunnel>`` for a tunnel weight; ``graph.<field>`` of ``GraphSettings``. Values are
parsed as the field's current type (int, float, bool, str). Every bad key or value raises ``ValueError`` naming
it, and so do values the settings refuse (``fusion=foo``, ``candidates=0``).
"""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import Any, TypeVar

T = TypeVar("T")


def parse_overrides(text: str) -> list[tuple[str, str]]:
    """``"a=1+b.c=2"`` -> ``[("a", "1"), ("b.c", "2")]``."""
    out = []
    for part in text.split("+"):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"setting {part!r} is not of the form key=value")
        out.append((key.strip(), value.strip()))
    return out


def apply_override(settings: T, key: str, value: str) -> T:
    """A copy of the (frozen dataclass) ``settings`` with ``key`` set to ``value``; ``a.b`` reaches into field ``a``."""
    head, _, rest = key.partition(".")
    if head == "weight" and rest:
        if hasattr(settings, "tunnel_weights"):  # a DensitySettings
            weights = settings.tunnel_weights
            if rest not in weights:
                raise ValueError(f"unknown tunnel {rest!r} in {key!r} (known: {', '.join(sorted(weights))})")
            return settings.with_weights(**{rest: _number(key, value, float)})  # type: ignore[attr-defined, no-any-return]
        if hasattr(settings, "density"):  # weight.<tunnel> of a FusedSettings is its density's
            return apply_override(settings, f"density.{key}", value)
    names = {f.name for f in fields(settings)}  # type: ignore[arg-type]
    if head not in names:
        raise ValueError(f"unknown setting {key!r} (known: {', '.join(sorted(names))}, weight.<tunnel>)")
    current = getattr(settings, head)
    if rest:
        return replace(settings, **{head: apply_override(current, rest, value)})  # type: ignore[type-var]
    return replace(settings, **{head: _parse_like(key, current, value)})  # type: ignore[type-var]


def _parse_like(key: str, current: Any, value: str) -> Any:
    if isinstance(current, bool):
        if value.lower() in ("true", "1", "yes", "on"):
            return True
        if value.lower() in ("false", "0", "no", "off"):
            return False
        raise ValueError(f"{key!r} takes true or false, got {value!r}")
    if isinstance(current, int):
        return _number(key, value, int)
    if isinstance(current, float):
        return _number(key, value, float)
    if isinstance(current, str):
        return value
    raise ValueError(f"{key!r} cannot be set from text (it is a {type(current).__name__})")


def _number(key: str, value: str, kind: type[int] | type[float]) -> int | float:
    try:
        number = kind(value)
    except ValueError:
        raise ValueError(f"{key!r} takes a number ({kind.__name__}), got {value!r}") from None
    if not math.isfinite(number):  # "nan", "inf", "1e400": no setting means them, and JSON cannot write the scores
        raise ValueError(f"{key!r} takes a finite number, got {value!r}")
    return number
