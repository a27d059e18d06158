# rulewright: the two commands of the README, plus helpers.
#   make demo   install, then compile every spec, score a grid, play a game, answer a query
#   make test   install, then run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test install bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/rulewright check spec/ecosystem_savanna
	$(BIN)/rulewright score spec/ecosystem_savanna examples/margot.grid
	$(BIN)/rulewright play spec/ecosystem_savanna --players 4 --seed 1
	$(BIN)/rulewright query spec/ecosystem_savanna best-placement --state examples/partial.grid --card hyena
	$(BIN)/rulewright query spec/ecosystem_savanna best-arrangement --cards examples/margot.cards --time-limit 20

test: $(STAMP)
	$(BIN)/python -m pytest tests

bench: $(STAMP)
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/queries.py

docs: $(STAMP)
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) site .pytest_cache .hypothesis
