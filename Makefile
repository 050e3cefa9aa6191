# The two README commands (`make demo`, `make test`) bootstrap .venv themselves:
# a fresh machine needs only Python 3.11+, make and git.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test coverage test-slow bench notebooks strategies exploits houseways results ofc ofc-strategies paigow-poker clean warm browser serve docs screenshots

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "sapsam needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

# Compiled kernels are cached (kernels/__pycache__); this compiles what is missing or stale,
# once, with a progress bar, so that no command below or test pays for it.
warm: $(STAMP)
	$(VENV)/bin/sapsam compile

demo: warm
	$(VENV)/bin/sapsam settings "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
	$(VENV)/bin/sapsam best "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d" --rules standard --samples 4000 --top 5
	$(VENV)/bin/sapsam best "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d" --rules two-four --players 2 --samples 4000 --top 3
	$(VENV)/bin/sapsam rules
	$(VENV)/bin/sapsam review --file docs/night.csv --samples 4000
	$(VENV)/bin/sapsam score --rules standard --names Amy,Bob \
	    "6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d" "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"
	$(VENV)/bin/sapsam simulate --rules standard,two-four,pagat-typical,taiwanese \
	    --seats fitted,fitted,greedy,balanced --tables 4000 --block-size 500 --out results/demo --fresh
	$(VENV)/bin/sapsam houseway --rules standard --tables 4000 --out results/demo
	$(VENV)/bin/sapsam chart policies --rules standard --policies greedy,balanced,houseway \
	    --samples 4000 --out results/demo
	$(VENV)/bin/sapsam paigow best "6-6 1-1 4-2 5-3"
	$(VENV)/bin/sapsam paigow table
	$(VENV)/bin/sapsam ofc fantasyland "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"
	$(VENV)/bin/sapsam ofc place --board "As Ad | Kc Qc 5d | 9h 9s" --hand "Ah 2c 7d" --top 5

# The lint first (seconds), then the documentation site in strict mode (seconds: a broken link
# or a missing page fails), then the tests with the public examples in the docstrings.  The
# tests run in one process per CPU (pytest-xdist), a test file at a time, each process taking
# the next file as it finishes one (a file's tests share its fixtures: the wheel's module, one
# fresh install), in the order collected (tests/conftest.py puts the wheel's first).
PYTEST = $(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder
PYTEST_FAST = $(PYTEST) -m "not slow"
test: warm
	$(VENV)/bin/ruff check analysis kernels tests benchmarks notebooks
	$(DOCS_BUILD)
	$(PYTEST_FAST)

# The same tests with a coverage report of the Python code (the Numba kernels run compiled, so
# coverage cannot see inside them; tests/naive.py holds them to a plain-Python reference
# instead).  Apart from `make test`: its tracing makes the Python-heavy tests half as slow again.
coverage: warm
	$(PYTEST_FAST) --cov --cov-report=term

# The documentation site (docs/, mkdocs.yml) into build/site/, strict: a broken link, a missing
# page or a docstring that does not render fails it; `make test` builds it too.  Serve it while
# editing with `.venv/bin/mkdocs serve`.
DOCS_BUILD = $(VENV)/bin/mkdocs build --strict -f mkdocs.yml -d build/site
docs: $(STAMP)
	$(DOCS_BUILD)

# Debian's chromium and its driver for the web app's browser tests (tests/test_browser.py, which
# skip without them on a person's machine and fail without them under CI); needs root or sudo.
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
	    echo "chromium and chromedriver are installed"; \
	else \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

# The documentation's screenshots of the web app (results/screenshots/), as the browser tests
# see each view; the tests themselves write theirs under build/screenshots/.
screenshots: warm browser
	SAPSAM_SCREENSHOTS=results/screenshots $(PYTEST) tests/test_browser.py

# The web app on http://localhost:8000/ (the API's docs at /docs)
serve: warm
	$(VENV)/bin/sapsam serve --open

# The long statistical tests (marked slow), in one process per CPU as `make test` runs its own
test-slow: warm
	$(PYTEST) -m slow

# Compiling is not timed (a kernel source changed since the cache was written: the whole cache
# is dropped and compiled afresh, sapsam.base.jit.forget_stale).
bench: $(STAMP)
	$(PY) benchmarks/bench.py --out results/benchmarks.md

# Runs every notebooks/*.ipynb in place with its full sample budget and saves the outputs
# (a few minutes); the tests run them with a small budget and never write them back.
notebooks: $(STAMP)
	$(PY) notebooks/execute.py

# Fitted strategies shipped in the package (analysis/play/strategies/): every named ruleset at
# each table it is played at, 2, 3 and 4 players (criss-cross 2 only; about an hour on 2 cores,
# the card-removal rounds most of it).  Written there explicitly: a plain `sapsam fit`
# writes into the user's data folder.
SHIPPED := analysis/play/strategies
strategies: warm
	$(PY) -m sapsam.game.ruleset_files --tables | while read -r rules players; do \
	    features=$$($(PY) -c "from sapsam.play.strategy_files import shipped_features as f; \
	        print(f('$$rules', $$players))"); \
	    $(VENV)/bin/sapsam fit --rules $$rules --players $$players --seed 1 --quiet \
	        --removal-features $$features --fresh --out $(SHIPPED)/$$rules-$${players}p.npz || exit 1; done

# The house ways every command plays (seed 0, shipped in the package; 3 players derive on
# demand in seconds and are cached), their costs at 2 and 4 players, the price of simplicity
# per ruleset at 4 players and for heads-up two-four (about 40 min on 2 cores)
houseways: warm
	for players in 4 2; do \
	    $(VENV)/bin/sapsam houseway --rules all --players $$players --tables 20000 --seed 0 \
	        --out results/houseway --ship --quiet || exit 1; done
	$(VENV)/bin/sapsam houseway --rules all --players 4 --tables 20000 --seed 0 \
	    --out results/houseway --price --quiet
	$(VENV)/bin/sapsam houseway --rules two-four --players 2 --tables 20000 --seed 0 \
	    --out results/houseway --price --quiet

# Every committed artifact under results/, regenerated in order (most of a day on 2 cores):
# strategies, the exploitability bracket, the million-table report, the house ways and their
# price, the strategy charts, the executed notebooks and the benchmark table.
results: strategies exploits ofc-strategies
	$(VENV)/bin/sapsam simulate --rules all --players 4 --seats fitted --tables 1000000 --seed 1 \
	    --block-size 2000 --out results/simulations/all-4p-fitted --quiet --fresh
	$(VENV)/bin/sapsam simulate --rules basic,low-middle --players 4 --seats fitted --tables 400000 \
	    --seed 1 --out results/simulations/low-middle-4p-fitted --quiet --fresh
	for rules in criss-cross basic; do \
	    $(VENV)/bin/sapsam simulate --rules $$rules --players 2 --seats fitted --tables 200000 --seed 1 \
	        --out results/simulations/$$rules-2p-fitted --quiet --fresh || exit 1; done
	for seats in fitted,balanced,balanced,balanced fitted,balanced; do \
	    players=$$(echo $$seats | tr ',' '\n' | wc -l); \
	    $(VENV)/bin/sapsam simulate --rules basic,first-to-11 --players $$players --seats $$seats \
	        --tables 200000 --seed 1 --out results/simulations/first-to-11-$${players}p-fitted-v-balanced \
	        --quiet --fresh || exit 1; \
	    $(VENV)/bin/sapsam match --seats $$seats --matches 20000 --seed 1 --json --quiet \
	        > results/match/first-to-11-$${players}p-fitted-v-balanced.json || exit 1; done
	$(VENV)/bin/sapsam match --seats fitted,fitted,fitted,fitted --matches 20000 --seed 1 --json \
	    --quiet > results/match/first-to-11-4p-fitted.json
	$(VENV)/bin/sapsam chart match --rules first-to-11 --players 2 --samples 200 --seed 1 --quiet
	$(MAKE) houseways
	for kind in rows front declare policies; do \
	    $(VENV)/bin/sapsam chart $$kind --rules standard --policies greedy,balanced,houseway --seed 1 || exit 1; done
	$(VENV)/bin/sapsam chart rulesets --rules all --policies greedy,balanced,houseway --seed 1
	$(VENV)/bin/sapsam paigow chart --out results/paigow
	$(MAKE) paigow-poker
	$(MAKE) ofc
	$(MAKE) notebooks
	$(MAKE) bench

# Pai Gow Poker's results (results/paigow_poker/, about an hour on 2 cores, each house way's
# table built first if missing, 2 minutes): the strategy chart not banking and banking, shipped
# to the web tab, and the best play's house edge against every house way to about 0.007 points.
PGP := $(VENV)/bin/sapsam paigow-poker
paigow-poker: warm
	$(PGP) chart --house-way all --hands 600 --seed 1 --out results/paigow_poker
	$(PGP) chart --house-way all --hands 300 --seed 1 --banking --out results/paigow_poker
	$(PY) -c "from sapsam.paigow_poker.output.chart_files import ship_charts; ship_charts()"
	$(PGP) best-play --house-way all --hands 300000 --exact-hands 500 --seed 1 \
	    --out results/paigow_poker/best-play.json --quiet --resume

# Open-Face Chinese Poker's shipped self-play weights (analysis/ofc/strategies/, the
# `improved` policy; ~23 min on 2 cores), written there explicitly as `make strategies` does;
# then the `learned` policy's, fitted by self-play from the improved ones (8-18 min a table).
OFC := $(VENV)/bin/sapsam ofc
OFC_SHIPPED := analysis/ofc/strategies
OFC_TABLES := ofc-pineapple:2 ofc-pineapple:3 ofc-pineapple-progressive:2 ofc-pineapple-progressive:3 \
    ofc-classic:2 ofc-classic:3
ofc-strategies: warm
	for table in $(OFC_TABLES); do \
	    rules=$${table%:*}; players=$${table#*:}; \
	    $(OFC) improve --rules $$rules --players $$players --seed 1 --quiet \
	        --out $(OFC_SHIPPED)/$$rules-$${players}p.json || exit 1; done
	for table in $(OFC_TABLES); do \
	    rules=$${table%:*}; players=$${table#*:}; \
	    $(OFC) learn --rules $$rules --players $$players --rounds 12 --hands 30000 --seed 1 --quiet \
	        --out $(OFC_SHIPPED)/learned-$$rules-$${players}p.json || exit 1; done

# Open-Face results (results/ofc/, ~2 hours on 2 cores): the chance of staying in Fantasyland
# with 13 to 17 cards, hands between policies under each ruleset, the learned policy in duplicate,
# and the lookahead's self-play (20,000 hands, checkpointed: 55-80 min) and duplicates (22-30 min).
ofc: warm
	mkdir -p results/ofc
	$(OFC) stay --samples 1000000 --seed 1 --json --quiet > results/ofc/stay-pineapple.json
	$(OFC) simulate --rules ofc-pineapple,ofc-pineapple-progressive,ofc-classic --seats improved,improved \
	    --hands 20000 --seed 1 --json --quiet > results/ofc/rulesets-improved.json
	for seats in heuristic,random improved,heuristic rollout,improved learned,learned; do \
	    case $$seats in rollout*) hands=1000;; *) hands=20000;; esac; \
	    $(OFC) simulate --seats $$seats --hands $$hands --seed 1 --json --quiet \
	        > results/ofc/ofc-pineapple-$$(echo $$seats | sed 's/,/-v-/').json || exit 1; done
	$(OFC) duel learned improved --hands 20000 --seed 1 --json --quiet \
	    > results/ofc/ofc-pineapple-learned-duel-improved.json
	$(OFC) duel learned rollout --hands 1000 --seed 1 --json --quiet > results/ofc/ofc-pineapple-learned-duel-rollout.json
	$(OFC) duel learned improved --rules ofc-pineapple-progressive --hands 10000 --seed 1 --json --quiet \
	    > results/ofc/ofc-pineapple-progressive-learned-duel-improved.json
	$(OFC) duel learned improved --rules ofc-classic --hands 10000 --seed 1 --json --quiet \
	    > results/ofc/ofc-classic-learned-duel-improved.json
	$(OFC) duel learned improved --players 3 --hands 10000 --seed 1 --json --quiet \
	    > results/ofc/ofc-pineapple-3p-learned-duel-improved.json
	$(OFC) simulate --seats lookahead,lookahead --hands 20000 --seed 1 --quiet \
	    --out results/ofc/ofc-pineapple-lookahead-v-lookahead.json --fresh
	for other in improved learned; do \
	    $(OFC) duel lookahead $$other --hands 4000 --seed 1 --json --quiet \
	        > results/ofc/ofc-pineapple-lookahead-duel-$$other.json || exit 1; done

# The exploitability of every shipped fit (results/exploit/, hours on 2 cores): heads-up
# two-four, the one with a published peer, on 2,000 deals, `standard` at 4 players and
# criss-cross on 1,000, every other table on 300 (each deal is played from every seat).  Only
# the tables whose result is missing or older than their fit (manifest dates) are measured; an
# interrupted run resumes from its checkpoint, so `make exploits` can be stopped and started
# again, and each finished table committed as it lands.
exploits: warm
	$(PY) -m sapsam.output.exploits --stale results/exploit | while read -r rules players deals; do \
	    echo "exploit $$rules, $$players players, $$deals deals"; \
	    $(VENV)/bin/sapsam exploit --rules $$rules --players $$players --deals $$deals \
	        --samples 2000 --seed 1 --out results/exploit/$$rules-$${players}p-fitted.json \
	        --quiet --resume || exit 1; done
	$(PY) -m sapsam.output.exploits results/exploit

clean:
	rm -rf $(VENV) .pytest_cache
