"""The shipped list prices: lookup by family prefix never picks a shorter name's price for a longer model."""

from __future__ import annotations

from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.errors import InputError
from sodamem.llm.prices import DEFAULT_PRICES, ENV_PRICES, LIST_PRICES, cost_usd, prices_from_env


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


def test_user_prices_from_the_environment_inline_or_file(tmp_path: Path) -> None:
    inline = prices_from_env({ENV_PRICES: '{"my-vllm": {"input": 1.0, "output": 2.0}}'})
    assert inline.cost("my-vllm", 1_000_000, 500_000).usd == pytest.approx(2.0)
    assert "gpt-4o" in inline  # the list prices stay
    path = tmp_path / "prices.json"
    path.write_text('{"gpt-4o": {"input": 1.0, "cached_input": 0.5, "output": 4.0}}', "utf-8")
    overridden = prices_from_env({ENV_PRICES: str(path)})
    assert overridden.cost("gpt-4o", 1_000_000, 0).usd == pytest.approx(1.0)
    assert prices_from_env({}) is DEFAULT_PRICES


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"m": {"input": 1}}', "'output'"),
        ("/nonexistent/prices.json", "cannot be read"),
    ],
)
def test_bad_user_prices_name_the_problem(value: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        prices_from_env({ENV_PRICES: value})


def test_ask_refuses_a_bad_price_table_before_any_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SODAMEM_LLM_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens: no request may be sent
    monkeypatch.setenv("SODAMEM_LLM_MODEL", "m")
    monkeypatch.setenv(ENV_PRICES, "{broken")
    db = tmp_path / "m.db"
    Memory(db, embedder="none").close()
    with pytest.raises(SystemExit) as exit_info:
        main(["--db", str(db), "ask", "Where do I live?"])
    assert exit_info.value.code == 2
