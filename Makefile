# carom: two commands. `make run` sets up and runs the main job (the scoreboard on SQLite);
# `make test` sets up and runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,batch,gym,fit

.PHONY: setup run test lint system bench clean

$(BIN)/carom: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	$(BIN)/python -m carom.physics.build
	touch $@

setup: $(BIN)/carom

run: setup
	$(BIN)/carom serve $(ARGS)

lint: setup
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/lint-imports

# Debian's chromium and postgresql: installed when root with apt-get, else named at once.
system:
	@.ci/system-packages

test: system lint
	$(BIN)/pytest -n 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
