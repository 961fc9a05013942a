"""What LLM tokens cost: $ per million input, cached-input and output tokens, per model.

The shipped table holds LIST PRICES (standard tier, prompts under 200k tokens, no batch discount), checked on
2026-11-30 against what could be read offline (see ``LIST_PRICES`` for each entry's source and how sure it is); they
change, and they are not what a discounted, batched or self-hosted deployment pays: check them, and add or override
your own:

    table = price_table({"my-model": {"input": 0.2, "cached_input": 0.05, "output": 0.8}})
    cost_usd("my-model", 12_000, 800, prices=table)

A model is looked up by exact name, then as a model served on this machine (``local/<name>``, see ``llm/local.py``:
$0, known), then case-insensitively without a ``provider/`` prefix, then by the longest known name its name starts
with (``gpt-4o-2024-08-06`` -> ``gpt-4o``, never ``gpt-4o-mini`` for ``gpt-4o``). An unknown model costs 0 with
``known=False`` so a report can say the figure is missing instead of pretending it is free.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sodamem.errors import InputError

PER_MILLION = 1_000_000


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """$ per million tokens. ``cached_input`` defaults to ``input`` (no cache discount)."""

    input: float
    output: float
    cached_input: float | None = None

    def __post_init__(self) -> None:
        for name in ("input", "output", "cached_input"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"price {name} must be >= 0, got {value}")

    @property
    def cached(self) -> float:
        return self.input if self.cached_input is None else self.cached_input


@dataclass(frozen=True, slots=True)
class CostEstimate:
    usd: float
    known: bool  # False: the model is not in the table and ``usd`` is 0
    model: str
    priced_as: str | None = None  # the table entry used


# LIST PRICES (USD per 1M tokens), checked 2026-11-30 with the project's offline search index (no live web access):
#
# * DeepSeek (deepseek-chat / deepseek-reasoner, DeepSeek-V3.2 since the Sept 2025 price cut): 0.28 input (cache
#   miss), 0.028 cache hit, 0.42 output, per Roo-Code's provider table ("Updated Dec 9, 2025") and an nxcode.io API
#   guide. NOT verified against DeepSeek's own page: the indexed copy of api-docs.deepseek.com/quick_start/
#   pricing-details-usd is older (V3 / R1: chat 0.27 / 0.07 hit / 1.10, reasoner 0.55 / 0.14 / 2.19), and 2026
#   third-party pages describe newer V4 models and prices, so the aliases may now point elsewhere.
# * OpenAI gpt-4o, gpt-4o-mini (input, cached input, output): the openai-models crate's table copied from
#   openai.com/api/pricing, matching several 2026 guides (aimodelcalc.pages.dev, deploybase.ai, May / March 2026).
# * OpenAI gpt-4.1 family: 2.00 / 8.00, 0.40 / 1.60, 0.10 / 0.40 (tokenmath.io "verified, checked Jun 21, 2026",
#   deploybase.ai, aumiqx.com); cached input a quarter of input (adk-model's OpenAI table: "GPT-4.1 family: 75% off
#   cached input reads"). One guide quotes half these figures for gpt-4.1 — that is the Batch API price.
# * OpenAI gpt-5-mini: 0.25 / 2.00 (deploybase.ai, "from OpenAI pricing page, March 2026"), cached input a tenth of
#   input (adk-model: "GPT-5 family: 90% off"). Third-party only.
# * Google gemini-2.0-flash 0.10 / 0.40 and gemini-2.5-flash 0.30 / 2.50 (morphllm.com "from Google's pricing page
#   at ai.google.dev", deploybase.ai, March 2026; gemini-2.0-flash is deprecated, shut down 2026-06-01). Their cached
#   (context caching) rates could not be verified, so no cache discount is applied (an upper bound).
LIST_PRICES: dict[str, ModelPrice] = {
    "deepseek-chat": ModelPrice(input=0.28, cached_input=0.028, output=0.42),
    "deepseek-reasoner": ModelPrice(input=0.28, cached_input=0.028, output=0.42),
    "gpt-4o-mini": ModelPrice(input=0.15, cached_input=0.075, output=0.60),
    "gpt-4o": ModelPrice(input=2.50, cached_input=1.25, output=10.00),
    "gpt-4.1": ModelPrice(input=2.00, cached_input=0.50, output=8.00),
    "gpt-4.1-mini": ModelPrice(input=0.40, cached_input=0.10, output=1.60),
    "gpt-4.1-nano": ModelPrice(input=0.10, cached_input=0.025, output=0.40),
    "gpt-5-mini": ModelPrice(input=0.25, cached_input=0.025, output=2.00),
    "gemini-2.0-flash": ModelPrice(input=0.10, output=0.40),
    "gemini-2.5-flash": ModelPrice(input=0.30, output=2.50),
}

PriceSpec = ModelPrice | Mapping[str, float] | tuple[float, ...]

# A model served on this machine (``llm/local.py`` names its models ``local/<name>``) costs nothing per token: it is
# priced at $0 and counted as known (an exact entry in the table still wins, e.g. to charge for electricity).
LOCAL_PREFIX = "local/"
LOCAL_PRICE = ModelPrice(input=0.0, output=0.0)


def _as_price(spec: PriceSpec) -> ModelPrice:
    if isinstance(spec, ModelPrice):
        return spec
    if isinstance(spec, tuple):
        if len(spec) == 2:
            return ModelPrice(input=float(spec[0]), output=float(spec[1]))
        if len(spec) == 3:  # (input, cached_input, output), the order of the pricing pages
            return ModelPrice(input=float(spec[0]), cached_input=float(spec[1]), output=float(spec[2]))
        raise ValueError(f"a price tuple is (input, output) or (input, cached_input, output), got {spec!r}")
    unknown = set(spec) - {"input", "cached_input", "output"}
    if unknown or "input" not in spec or "output" not in spec:
        raise ValueError(f"a price mapping has 'input', 'output' and optionally 'cached_input', got {dict(spec)!r}")
    cached = spec.get("cached_input")
    return ModelPrice(
        input=float(spec["input"]), output=float(spec["output"]), cached_input=None if cached is None else float(cached)
    )


class PriceTable(Mapping[str, ModelPrice]):
    """An immutable model -> price mapping with the forgiving lookup described in the module docstring."""

    def __init__(self, prices: Mapping[str, PriceSpec] | None = None) -> None:
        self._prices: dict[str, ModelPrice] = {name: _as_price(spec) for name, spec in (prices or {}).items()}

    def __getitem__(self, model: str) -> ModelPrice:
        return self._prices[model]

    def __iter__(self) -> Iterator[str]:
        return iter(self._prices)

    def __len__(self) -> int:
        return len(self._prices)

    def with_prices(self, extra: Mapping[str, PriceSpec]) -> PriceTable:
        """A new table: this one with ``extra`` added (an entry of the same name replaces the old one)."""
        merged: dict[str, PriceSpec] = dict(self._prices)
        merged.update(extra)
        return PriceTable(merged)

    def lookup(self, model: str) -> tuple[str, ModelPrice] | None:
        if model in self._prices:
            return model, self._prices[model]
        if model.strip().lower().startswith(LOCAL_PREFIX):
            return LOCAL_PREFIX, LOCAL_PRICE
        name = model.strip().lower().rsplit("/", 1)[-1]
        lowered = {key.lower(): key for key in self._prices}
        if name in lowered:
            return lowered[name], self._prices[lowered[name]]
        prefixes = [key for key in lowered if name.startswith(key + "-") or name.startswith(key + ":")]
        if not prefixes:
            return None
        best = lowered[max(prefixes, key=len)]
        return best, self._prices[best]

    def cost(self, model: str, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> CostEstimate:
        """The cost of a request; ``cached_tokens`` are the part of ``input_tokens`` served from the prompt cache."""
        if min(input_tokens, output_tokens, cached_tokens) < 0:
            raise ValueError("token counts must be >= 0")
        found = self.lookup(model)
        if found is None:
            return CostEstimate(0.0, False, model)
        name, price = found
        cached = min(cached_tokens, input_tokens)
        usd = (
            (input_tokens - cached) * price.input + cached * price.cached + output_tokens * price.output
        ) / PER_MILLION
        return CostEstimate(usd, True, model, name)

    def to_dict(self) -> dict[str, Any]:
        return {
            name: {"input": p.input, "cached_input": p.cached, "output": p.output} for name, p in self._prices.items()
        }


DEFAULT_PRICES = PriceTable(LIST_PRICES)


def price_table(extra: Mapping[str, PriceSpec] | None = None) -> PriceTable:
    """The shipped list prices with ``extra`` added (a model -> ``ModelPrice`` / ``{"input", "cached_input",
    "output"}`` / ``(input, output)`` / ``(input, cached_input, output)`` mapping, $ per million tokens)."""
    return DEFAULT_PRICES.with_prices(extra or {})


def cost_usd(
    model: str,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: int = 0,
    *,
    prices: Mapping[str, PriceSpec] | None = None,
) -> CostEstimate:
    """The cost of ``input_tokens`` / ``output_tokens`` on ``model`` from ``prices`` (default: the list prices)."""
    table = prices if isinstance(prices, PriceTable) else DEFAULT_PRICES if prices is None else PriceTable(prices)
    return table.cost(model, input_tokens, output_tokens, cached_tokens)


ENV_PRICES = "SODAMEM_LLM_PRICES"


def prices_from_env(env: Mapping[str, str] | None = None) -> PriceTable:
    """The list prices plus the user's own from ``SODAMEM_LLM_PRICES``: a JSON object, or the path of a JSON file
    holding one, mapping model -> ``{"input": ..., "cached_input": ..., "output": ...}`` ($ per million tokens).

    A self-hosted or discounted model is priced this way without code:
    ``SODAMEM_LLM_PRICES='{"my-vllm-model": {"input": 0.05, "output": 0.1}}'``.
    """

    raw = (os.environ if env is None else env).get(ENV_PRICES, "").strip()
    if not raw:
        return DEFAULT_PRICES
    text = raw if raw.startswith(("{", "[")) else _read_prices_file(Path(raw))
    try:
        extra = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{ENV_PRICES} is not valid JSON: {exc}") from None
    if not isinstance(extra, dict):
        raise InputError(f"{ENV_PRICES} must hold a JSON object of model -> prices, got {type(extra).__name__}")
    try:
        return price_table(extra)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{ENV_PRICES}: {exc}") from None


def _read_prices_file(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except OSError as exc:
        raise InputError(f"{ENV_PRICES} names {str(path)!r}, which cannot be read: {exc.strerror}") from None
