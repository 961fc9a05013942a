"""Extractors: ``rules`` (offline default), ``llm`` (any OpenAI-compatible API), loaded lazily by name."""

from __future__ import annotations

import os

from sodamem.ingest.extract.base import Extractor

EXTRACTOR_CHOICES = ("rules", "llm", "none")
DEFAULT_EXTRACTOR = "rules"
ENV_EXTRACT_PROMPT = "SODAMEM_LLM_EXTRACT_PROMPT"  # auto (default), full or compact: see extract/llm.py


def load_extractor(spec: str) -> Extractor | None:
    """``"rules"``, ``"llm"`` (configured by SODAMEM_LLM_* / OPENAI_* variables, its prompt by
    SODAMEM_LLM_EXTRACT_PROMPT) or ``"none"``."""
    name = spec.strip().lower()
    if name == "none":
        return None
    if name == "rules":
        from sodamem.ingest.extract.rules import RulesExtractor

        return RulesExtractor()
    if name == "llm":
        from sodamem.ingest.extract.llm import LLMExtractor
        from sodamem.llm.client import ChatClient
        from sodamem.llm.config import LLMConfig

        return LLMExtractor(ChatClient(LLMConfig.from_env()), prompt=os.environ.get(ENV_EXTRACT_PROMPT, "auto"))
    raise ValueError(f"unknown extractor {spec!r}: choose one of {', '.join(EXTRACTOR_CHOICES)}")
