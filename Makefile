# The two commands: `make test` and `make run`. Both create .venv and install on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: test run bench lint clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tabletop needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	@touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,rl,bench]'
	@touch $(BENCH_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest -n 2 --dist loadgroup

run: $(STAMP)
	$(BIN)/tabletop showcase

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .ruff_cache .hypothesis
