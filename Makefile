# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
OUT ?= out

.PHONY: install run analysis test verify bench lint clean

# (Re)install when the venv is missing or pyproject.toml changed.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

install: $(STAMP)

# The default run (under a minute on 2 cores once numba's cache is warm): the Monte Carlo
# pipeline on 40 deals, solved double-dummy in chunks of 2 on every core, aggregated and
# reported (out/default/run/report.html); then dealing statistics on 1,000,000 deals (R4,
# R5) and a single-hand analysis. Running it again resumes: solved chunks are kept.
run: install
	mkdir -p $(OUT)/default
	$(PY) -m analyser run --deals 40 --seed 1 --chunk 2 --out $(OUT)/default/run
	$(PY) -m analyser shapes --deals 1000000 --seed 1 | tee $(OUT)/default/shapes.txt
	$(PY) -m analyser hand A5432.2.5432.432 --samples 200 --seed 1 \
		--plot $(OUT)/default/hand.png | tee $(OUT)/default/hand.txt

# A larger run: `make analysis DEALS=400` (resumable; the same DEALS and CHUNK resume it).
DEALS ?= 200
CHUNK ?= 10
analysis: install
	$(PY) -m analyser run --deals $(DEALS) --chunk $(CHUNK) --out $(OUT)/analysis-$(DEALS)

test: install
	$(PY) -m pytest -q

# The full-size checks: every test, the slow ones (>= 1,000 deals against DDS) and the
# research tools' included, each random check at its full sample size (tests/conftest.py
# `sized`).
verify: install
	BOSTON_FULL=1 $(PY) -m pytest -q -m "slow or tools or not slow"

bench: install
	$(PY) -m bench

lint: install
	$(PY) -m ruff check analyser kernels reports tests bench tools

clean:
	rm -rf $(OUT) .pytest_cache .hypothesis
	find . -name __pycache__ -prune -not -path './.venv/*' -exec rm -rf {} +
