# The two commands the README promises: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test venv system servers lint unit bench clean screenshot

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

## system: the Debian packages the tests need (bubblewrap, strace, chromium, node, wordnet-base, publicsuffix,
## the WikDict dictionaries dict-freedict-*);
## installs them as root with apt-get, otherwise stops with the one command to run
system:
	bash scripts/setup-system.sh

servers:
	bash scripts/install-test-servers.sh

## demo: scan the bundled example catalogs and print the report
demo: venv
	-$(BIN)/toolwitness scan examples/catalogs

lint: venv
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src

unit: venv
	$(BIN)/pytest -q

## test: system packages, the venv with dev deps, the real test servers, lint, every test
test: system venv servers lint
	$(BIN)/pytest -q

## screenshot: render the demo's HTML report and screenshot it in headless Chromium
screenshot: venv
	$(BIN)/python scripts/screenshot.py docs/report-demo.png

bench: venv
	$(BIN)/python benchmarks/bench_catalog.py

clean:
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
