# rulewright: the two commands of the README, plus helpers.
#   make demo   install, then compile the specs and their variants, score a grid, run the rulebook's
#               worked examples, play games, answer
#               queries, save and show a position and play it on, diff a house rule, play a variant,
#               simulate a house rule
#   make test   install, then run the whole test suite (what CI runs)
#   make test-fast  the tests marked slow left out (about a minute and a half: the edit loop)
#   make fuzz   the fuzzer's long run: FUZZ inputs per category (default 500) of every kind of input
#   make mutate mutation testing: MUTANTS (default 100) seeded mutants of the rules and the engine
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast install bench docs clean fuzz browser mutate
FUZZ ?= 500
MUTANTS ?= 100
SEED ?= 1

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/rulewright check spec
	$(BIN)/rulewright score spec/ecosystem_savanna examples/margot.grid
	$(BIN)/rulewright examples spec/ecosystem_savanna
	$(BIN)/rulewright play spec/ecosystem_savanna --players 4 --seed 1
	$(BIN)/rulewright query spec/ecosystem_savanna best-placement --state examples/partial.grid --card hyena
	$(BIN)/rulewright query spec/ecosystem_savanna best-arrangement --cards examples/margot.cards --time-limit 20
	$(BIN)/rulewright play spec/ecosystem_savanna --players 4 --seed 3 --stop-at pick:7 --save-state $(VENV)/savanna-pick7.json
	$(BIN)/rulewright query spec/ecosystem_savanna best-pick --state $(VENV)/savanna-pick7.json --player p2
	$(BIN)/rulewright play spec/darwins_choice --players 4 --seed 7
	$(BIN)/rulewright play spec/darwins_choice --players 4 --seed 7 --stop-at evaluation:2 --save-state $(VENV)/darwin-era2.json
	$(BIN)/rulewright show spec/darwins_choice --state $(VENV)/darwin-era2.json
	$(BIN)/rulewright simulate spec/darwins_choice --from $(VENV)/darwin-era2.json --games 20
	$(BIN)/rulewright play spec/darwins_choice --players 4 --seed 7 --stop-at turn:9 --save-state $(VENV)/darwin-turn9.json
	$(BIN)/rulewright query spec/darwins_choice best-move --state $(VENV)/darwin-turn9.json --player p1
	$(BIN)/rulewright query spec/darwins_choice can-place --state $(VENV)/darwin-turn9.json --player p1 \
	  --cards giraffe_head,orca_body,tuna_tail --biome tundra
	$(BIN)/rulewright play spec/darwins_choice --players 4 --seed 7 --agent solver --agent-seats p1
	$(BIN)/rulewright diff spec/darwins_choice spec/house_rules/darwin_no_cannibals.rules
	$(BIN)/rulewright play spec/darwins_choice/variants/two_player.rules --seed 1
	$(BIN)/rulewright simulate spec/house_rules/darwin_no_strength_award.rules --players 3 --games 20 --against spec/darwins_choice
	$(BIN)/rulewright verify spec/house_rules/savanna_rhinos.rules --check property,range --no-progress

test: $(STAMP) browser
	$(BIN)/python -m pytest tests -n auto --dist loadgroup

# the slow marker: tests/conftest.py (SLOW) lists the tests that take a second of CPU or more
test-fast: $(STAMP)
	$(BIN)/python -m pytest tests -n auto --dist loadgroup -m "not slow"

# mutation testing: MUTANTS seeded one-line mutants of the rules and the engine, each run
# against the tests that reach it (tests/mutate.py; about 25 s a mutant on two cores)
mutate: $(STAMP)
	$(BIN)/python tests/mutate.py --mutants $(MUTANTS) --seed $(SEED) --json $(VENV)/mutants.json

# The site's browser test uses the system's Chromium: installed from the system's packages
# where this machine allows it (as root, with apt-get); otherwise that test is skipped.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
	  echo "no Chromium: the site's browser test will be skipped"

fuzz: $(STAMP)
	RULEWRIGHT_FUZZ=$(FUZZ) $(BIN)/python -m pytest tests/security/test_fuzz_inputs.py -m fuzz -s

bench: $(STAMP)
	$(BIN)/python benchmarks/play.py
	$(BIN)/python benchmarks/against.py
	$(BIN)/python benchmarks/branching.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/queries.py
	$(BIN)/python benchmarks/darwin_queries.py
	$(BIN)/python benchmarks/savanna_agents.py
	$(BIN)/python benchmarks/bots.py
	$(BIN)/python benchmarks/study.py

docs: $(STAMP)
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) site .pytest_cache .hypothesis
