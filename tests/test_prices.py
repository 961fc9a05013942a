"""The shipped list prices: lookup by family prefix never picks a shorter name's price for a longer model."""

from __future__ import annotations

import pytest

from sodamem.llm.prices import DEFAULT_PRICES, LIST_PRICES, cost_usd


def test_every_shipped_price_is_per_million_and_cached_is_not_dearer() -> None:
    for name, price in LIST_PRICES.items():
        assert 0 < price.input <= price.output, name
        assert price.cached <= price.input, name


@pytest.mark.parametrize(
    ("model", "priced_as"),
    [
        ("gpt-4.1", "gpt-4.1"),
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"),
        ("gpt-5-mini-2025-08-07", "gpt-5-mini"),
        ("models/gemini-2.5-flash", "gemini-2.5-flash"),
        ("gemini-2.0-flash-001", "gemini-2.0-flash"),
    ],
)
def test_dated_and_prefixed_names_find_their_family(model: str, priced_as: str) -> None:
    assert cost_usd(model, 1, 1).priced_as == priced_as


def test_a_model_without_a_verified_cache_rate_gets_no_discount() -> None:
    full = cost_usd("gemini-2.5-flash", 1_000_000, 1_000_000)
    cached = cost_usd("gemini-2.5-flash", 1_000_000, 1_000_000, cached_tokens=1_000_000)
    assert full.usd == cached.usd == pytest.approx(0.30 + 2.50)
    assert DEFAULT_PRICES["gpt-4.1"].cached == pytest.approx(DEFAULT_PRICES["gpt-4.1"].input / 4)
