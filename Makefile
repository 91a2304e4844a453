# The two commands: `make test` and `make run`. Both create .venv and install on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
ENGINE_STAMP := $(VENV)/.built-engine
ENGINE_SOURCES := $(wildcard src/tabletop/games/deadweight_board/*.py) \
	src/tabletop/games/deadweight_board/bots/random_bot.py src/tabletop/dice/draw.py

.PHONY: test walk stress run bench lint clean chromium nginx

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tabletop needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	@touch $(STAMP) $(ENGINE_STAMP)

# The compiled copy of the board game's engine (setup.py), rebuilt when its sources change;
# if it cannot be built the plain Python engine serves (engine.py), so this never fails.
$(ENGINE_STAMP): $(STAMP) setup.py $(ENGINE_SOURCES)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(ENGINE_STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,rl,bench]'
	@touch $(BENCH_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports

# The browser tests drive Debian's Chromium, its headless shell (the screenshots and a headed
# run the full browser): Playwright cannot download its own browser here.
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then \
		echo "installing Debian's chromium for the browser tests (apt-get install chromium chromium-headless-shell)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-headless-shell; \
	fi

# The many-processes tests put Debian's nginx in front of two servers (deploy/nginx.conf);
# each test runs its own nginx as a child, on loopback ports, never the system's service.
nginx:
	@if [ ! -x /usr/sbin/nginx ]; then \
		echo "installing Debian's nginx for the many-processes tests (apt-get install nginx)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nginx; \
	fi

# In a fixed order (pytest-randomly off), so a first run is stable; .ci/run runs the suite a
# second time in a random order to show any test that passes only after another.
# Python may keep its bytecode (an environment can turn that off with
# PYTHONDONTWRITEBYTECODE): pytest keeps each test module with its asserts rewritten beside
# it in __pycache__, and without that both test processes rewrite all of them on every run
# (about 6 s of each one's start on this machine).
test: lint chromium nginx $(ENGINE_STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 --dist loadgroup -p no:randomly -m "not walk and not stress"

# The control walks (tests/pages/test_walk.py): every control of each system's room page,
# pressed as GM, player and observer on phones. About ten minutes on two cores, so kept
# out of `make test`; CI (.ci/run) runs them after it. They press every control in
# the full browser: in the headless shell "Print this sheet" showed the walk no change.
walk: chromium $(ENGINE_STAMP)
	TABLETOP_FULL_CHROMIUM=1 $(BIN)/pytest -n 2 -p no:randomly -m walk tests/pages/test_walk.py

# The stress tests (marked `stress`): a dice room's pace beside thinking bots, health and
# other rooms during a slow verify, every acknowledged event kept when a server is killed,
# a loaded room's memory as its log grows, the server benchmark's quick mode. Each takes a
# server's measure for seconds on end (about two minutes in all), and a machine busy with
# other work is what they would measure; CI runs them after `make test`, alone.
stress: nginx $(ENGINE_STAMP)
	$(BIN)/pytest -n 2 -p no:randomly -m stress tests/rooms

run: $(STAMP)
	$(BIN)/tabletop showcase
	@echo
	@echo "Play together: $(BIN)/tabletop serve, then open http://127.0.0.1:8000 in a browser"
	@echo "(a GM opens a room there; players join from its invite links or QR codes)."

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build src/*.egg-info src/*.so src/tabletop/games/deadweight_board/fast .pytest_cache .ruff_cache .hypothesis
