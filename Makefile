# carom: two commands. `make run` sets up and runs the main job (the scoreboard on SQLite);
# `make test` sets up and runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,batch,gym,video,fit

.PHONY: setup run test lint system bench clean

$(BIN)/carom: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	$(BIN)/python -m carom.physics.build
	$(BIN)/python -m carom.solve.build
	$(BIN)/python -m compileall -q src
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

# axe-core, for the browser tests' accessibility checks (tests/web/accessibility.py)
AXE := tests/web/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/web/axe/package.json tests/web/axe/package-lock.json
	npm ci --prefix tests/web/axe --no-audit --no-fund --loglevel=error
	touch $@

# The sources compiled once: a shell with PYTHONDONTWRITEBYTECODE set would otherwise compile
# them again in every `carom serve` and command line the tests start.
test: system lint $(AXE)
	$(BIN)/python -m compileall -q src
	$(BIN)/pytest -n 2 --durations=25

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
