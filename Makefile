# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
OUT ?= out

.PHONY: install run test verify bench lint clean

# (Re)install when the venv is missing or pyproject.toml changed.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m analyser run --out $(OUT)/default

test: install
	$(PY) -m pytest -q

# The full-size checks (slow tests, >= 1,000 deals against DDS).
verify: install
	BOSTON_FULL=1 $(PY) -m pytest -q -m slow

bench: install
	$(PY) -m bench

lint: install
	$(PY) -m ruff check analyser kernels reports tests bench

clean:
	rm -rf $(OUT) .pytest_cache .hypothesis
	find . -name __pycache__ -prune -not -path './.venv/*' -exec rm -rf {} +
