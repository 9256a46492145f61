# carom: two commands. `make run` sets up and runs the main job (the scoreboard on SQLite);
# `make test` sets up and runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,batch,gym,video,fit

KERNELS := $(VENV)/.kernels-built

.PHONY: setup run test lint system kernels clean

# The environment: carom and the tools, installed.
$(BIN)/carom: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

# The simulator's and the shot finder's kernels compiled once (numba's cache), and the sources.
$(KERNELS): $(BIN)/carom
	$(BIN)/python -m carom.physics.build
	$(BIN)/python -m carom.solve.build
	$(BIN)/python -m compileall -q src
	touch $@

kernels: $(KERNELS)

setup: $(KERNELS)

run: setup
	$(BIN)/carom serve $(ARGS)

lint: $(BIN)/carom
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

# The linters and the kernels' compilation (one core each) side by side; then the sources
# compiled once (a shell with PYTHONDONTWRITEBYTECODE set would otherwise compile them again
# in every `carom serve` and command line the tests start) and the tests on two workers.
test: system $(AXE)
	$(MAKE) -j2 lint kernels
	$(BIN)/python -m compileall -q src
	$(BIN)/pytest -n 2 --durations=25

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
