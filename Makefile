# transit-gym: every target creates .venv and installs what it needs on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
TORCH_PIN := torch==2.13.0
STAMP_BASE := $(VENV)/.stamp-base
STAMP_ALL := $(VENV)/.stamp-all
JOBS ?= 2

.PHONY: demo test bench lint train balance clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# core + dev tools (demo, lint)
$(STAMP_BASE): pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[dev]"
	touch $@

# everything: torch pinned first (the CPU build), then training, Ray and the interop
# extras (RLlib, Tianshou: their tests run in `make test`)
$(STAMP_ALL): pyproject.toml | $(PY)
	$(PIP) install --quiet "$(TORCH_PIN)"
	$(PIP) install --quiet -e ".[dev,train,dist,render,rllib,tianshou]"
	touch $@ $(STAMP_BASE)

# the warm-up compiles every game's kernels once (progress bar; about a second a game
# when the cache is already warm), so the demo itself starts at once
demo: $(STAMP_BASE)
	$(PY) -m transit_gym.training.warmup
	$(PY) -m transit_gym.training.demo

test: $(STAMP_ALL)
	$(PY) -m pytest -n $(JOBS) --dist loadgroup

bench: $(STAMP_ALL)
	$(PY) -m transit_gym.training.warmup
	$(PY) -m transit_gym.benchmarks.throughput
	$(PY) -m transit_gym.benchmarks.startup

lint: $(STAMP_BASE)
	$(PY) -m ruff check .

# rebuilds the shipped checkpoint agents/learned/checkpoints/$(GAME)_ppo.zip and its report (agent
# spec `ppo`); TRAIN_ARGS_<game> is the recipe of the README's training table
GAME ?= loose_caboose
TRAIN_ARGS_loose_caboose := --steps 5000000 --bc-steps 300000 \
	--opponents random rule_based rule_based --self-play 500000 --eval-every 500000 \
	--eval-games 2000 --seed 1
TRAIN_ARGS_automobile := --players 3 --steps 0 --bc-steps 25000 --teacher mcts:100 \
	--hint rule_based --dagger-rounds 2 --dagger-seating tournament --bc-epochs 6 --net 96,96 \
	--collect-envs 64 --opponents random rule_based rule_based --round-eval-games 300 \
	--eval-games 600 --seed 1
TRAIN_ARGS_automobiles := --steps 0 --bc-steps 12000 --teacher mcts --hint rule_based \
	--bc-epochs 6 --net 40,40 --collect-envs 64 --opponents random rule_based rule_based \
	--round-eval-games 300 --eval-games 600 --seed 1
TRAIN_ARGS ?= $(TRAIN_ARGS_$(GAME))
train: $(STAMP_ALL)
	$(PY) -m transit_gym.training.warmup
	$(PY) -m transit_gym.training.train --game $(GAME) $(TRAIN_ARGS) --out checkpoints/$(GAME)_ppo
	cp checkpoints/$(GAME)_ppo.zip agents/learned/checkpoints/$(GAME)_ppo.zip
	cp checkpoints/$(GAME)_ppo.json agents/learned/checkpoints/$(GAME)_ppo.json

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache .ruff_cache .hypothesis
