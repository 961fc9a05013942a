"""Variants of the fused search's settings written as text (``default+session_share=0.3+weight.dense=1.0``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.retrieve.overrides import apply_override, parse_overrides
from sodamem.retrieve.presets import ALL_TUNNELS, FusedSettings, fused_settings


def test_a_preset_alone_is_the_preset() -> None:
    assert fused_settings("default") == FusedSettings()
    assert fused_settings("no-graph").tunnels == ALL_TUNNELS - {"graph"}


def test_each_kind_of_key() -> None:
    s = fused_settings(
        "no-graph+session_share=0.25+candidates=50+gates=false+fusion=rrf+weight.dense=1.1"
        "+density.spill=0.2+graph.max_hops=1"
    )
    assert s.tunnels == fused_settings("no-graph").tunnels  # the preset is kept
    assert (s.session_share, s.candidates, s.gates, s.fusion) == (0.25, 50, False, "rrf")
    assert s.density.tunnel_weights["dense"] == 1.1 and s.density.spill == 0.2 and s.graph.max_hops == 1
    # everything not named is the preset's
    base = FusedSettings()
    assert s.density.tunnel_weights["bm25"] == base.density.tunnel_weights["bm25"]
    assert s.temporal_weight == base.temporal_weight and s.graph.hop_decay == base.graph.hop_decay


def test_a_later_setting_wins() -> None:
    assert fused_settings("default+session_share=0.1+session_share=0.2").session_share == 0.2


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("default+foo=1", "unknown setting 'foo'"),
        ("default+weight.telepathy=1", "unknown tunnel 'telepathy'"),
        ("default+session_share=lots", "'session_share' takes a number"),
        ("default+candidates=1.5", "'candidates' takes a number"),
        ("default+gates=maybe", "takes true or false"),
        ("default+density.spill=2", "spill must be within"),
        ("default+session_share", "not of the form key=value"),
        ("default+=3", "not of the form key=value"),
        ("default+tunnels=bm25", "cannot be set from text"),
        ("nope+session_share=0.1", "unknown preset"),
        ("default+fusion=telepathy", "fusion must be"),
        ("default+candidates=0", "candidates"),
        ("default+session_share=-1", "session shares must be"),
        ("default+session_share=1e400", "'session_share' takes a finite number"),
        ("default+weight.dense=nan", "'weight.dense' takes a finite number"),
        ("default+density.spill=inf", "takes a finite number"),
    ],
)
def test_bad_variants_name_the_problem(variant: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fused_settings(variant)


def test_parse_overrides_keeps_order_and_trims() -> None:
    assert parse_overrides(" a = 1 +b.c=x") == [("a", "1"), ("b.c", "x")]


@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False), st.integers(min_value=1, max_value=10_000))
def test_numbers_round_trip(share: float, candidates: int) -> None:
    s = apply_override(FusedSettings(), "session_share", repr(share))
    s = apply_override(s, "candidates", str(candidates))
    assert (s.session_share, s.candidates) == (share, candidates)
