# transit-gym: every target creates .venv and installs what it needs on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# the one command of every tool (transit-gym --help lists them)
TG := $(VENV)/bin/transit-gym
PIP := $(PY) -m pip
TORCH_PIN := torch==2.13.0
STAMP_CORE := $(VENV)/.stamp-core
STAMP_BASE := $(VENV)/.stamp-base
STAMP_ALL := $(VENV)/.stamp-all
JOBS ?= 2

.PHONY: demo cache test fuzz bench lint train balance ladder curves clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# the core alone (numpy, numba, gymnasium, pettingzoo): all the demo needs
$(STAMP_CORE): pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	touch $@

# core + dev tools (lint)
$(STAMP_BASE): pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[dev]"
	touch $@ $(STAMP_CORE)

# everything: torch pinned first (the CPU build), then training, Ray and the interop
# extras (RLlib, Tianshou: their tests run in `make test`)
$(STAMP_ALL): pyproject.toml | $(PY)
	$(PIP) install --quiet "$(TORCH_PIN)"
	$(PIP) install --quiet -e ".[dev,train,dist,render,play,rllib,tianshou]"
	touch $@ $(STAMP_BASE) $(STAMP_CORE)

# the warm-up compiles what the demo uses (AEC env, text table, rule-based agents) of every
# game, on $(JOBS) cores (progress bar; about a second a game when the cache is already
# warm), so the demo itself starts at once; other kernels compile on first use.
# `make demo CACHE=kernels.tar.gz` first unpacks an archive made by `make cache` (same
# Python, numba and numpy; code for any x86-64 CPU), so nothing compiles
CACHE ?=
demo: $(STAMP_CORE)
	$(if $(CACHE),NUMBA_CPU_NAME=generic) $(TG) warmup --demo --jobs $(JOBS) \
		$(if $(CACHE),--unpack $(CACHE))
	$(if $(CACHE),NUMBA_CPU_NAME=generic) $(TG) demo

# the demo's kernels, compiled for any CPU of this architecture, packed for `make demo CACHE=`
cache: $(STAMP_CORE)
	NUMBA_CPU_NAME=generic $(TG) warmup --demo --jobs $(JOBS) \
		--pack $(or $(CACHE),kernels.tar.gz)

# the warm-up first compiles every game's main kernels once, the games spread over $(JOBS)
# processes; the tests then go to the workers a file at a time (--dist loadfile), so two
# workers seldom wait on one kernel's compile (a cold cache's cost is mostly compile)
test: $(STAMP_ALL)
	$(TG) warmup --jobs $(JOBS)
	$(PY) -m pytest -n $(JOBS) --dist loadfile

# saved-state fuzzing with every kernel compiled with numba's bounds checks (an index out of
# range raises instead of reading past an array): about 5 CPU-minutes of compile, so it runs
# apart from the suite (CI runs both)
fuzz: $(STAMP_ALL)
	$(PY) -m pytest -n $(JOBS) -m bounds

bench: $(STAMP_ALL)
	$(TG) warmup --jobs $(JOBS)
	$(TG) bench throughput
	$(TG) bench startup

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
# AGENT=net rebuilds the shipped network agents/learned/checkpoints/$(GAME)_$(PLAYERS)p_net.npz
# (spec `net`) by expert iteration from a teacher; EXIT_ARGS_<game> is the recipe of
# docs/learning.md
AGENT ?= ppo
# PLAYERS_<game>: the player count of the game's shipped network when PLAYERS is not given
PLAYERS_automobile := 3
PLAYERS ?= $(or $(PLAYERS_$(GAME)),2)
EXIT_ARGS_automobiles := --teacher tuned:agents/tuned/markets/first-game-daytona-2p-drivers-off.json \
	--teacher-games 150 --teacher-epochs 30 --iterations 0 --hidden 128,128 \
	--eval-games 40 --eval-vs random rule_based --workers 1 --seed 1
EXIT_ARGS_automobiles_season := $(EXIT_ARGS_automobiles)
EXIT_ARGS_loose_caboose := --teacher tuned --teacher-games 2000 --teacher-epochs 40 \
	--dagger-rounds 3 --dagger-games 500 --iterations 0 --hidden 128,128 --value-weight 0.1 \
	--eval-games 0 --workers 2 --seed 1
EXIT_ARGS_automobile := --teacher tuned --teacher-games 150 --teacher-epochs 30 \
	--iterations 0 --hidden 128,128 --value-weight 0.1 --eval-games 0 --workers 2 --seed 1
EXIT_ARGS ?= $(EXIT_ARGS_$(GAME))
# AGENT=generalist (GAME=automobiles) rebuilds agents/learned/checkpoints/
# automobiles_$(PLAYERS)p_generalist_net.npz (spec `net:generalist`): the shipped `tuned`
# vector's games over random markets of all 35 cards, four boards, drivers off or on, with
# three suggested sets and Tucson held out (training/generalist.py, docs/learning.md)
GENERALIST_ARGS := --option card_set=random --option card_pool=all \
	--option 'exclude_sets=["Expert Invitational","Rinse & Repeat","Well Oiled Machine"]' \
	--option 'track=["daytona","monza","talladega","monte_carlo"]' --option drivers=random \
	--teacher tuned --iterations 0 --hidden 128,128 --eval-games 0 --workers 1 --seed 1
# teacher games and passes per player count (the shipped 2- and 3-player networks)
GENERALIST_SIZE_2 := --teacher-games 1000 --teacher-epochs 20
GENERALIST_SIZE_3 := --teacher-games 500 --teacher-epochs 15
train: $(STAMP_ALL)
	$(TG) warmup
ifeq ($(AGENT),net)
	$(TG) exit --game $(GAME) --players $(PLAYERS) $(EXIT_ARGS) \
		--out checkpoints/$(GAME)_$(PLAYERS)p_net
	cp checkpoints/$(GAME)_$(PLAYERS)p_net/latest.npz \
		agents/learned/checkpoints/$(GAME)_$(PLAYERS)p_net.npz
else ifeq ($(AGENT),generalist)
	$(TG) exit --game automobiles --players $(PLAYERS) \
		$(GENERALIST_ARGS) $(GENERALIST_SIZE_$(PLAYERS)) \
		--out checkpoints/automobiles_$(PLAYERS)p_generalist
	cp checkpoints/automobiles_$(PLAYERS)p_generalist/latest.npz \
		agents/learned/checkpoints/automobiles_$(PLAYERS)p_generalist_net.npz
else
	$(TG) train --game $(GAME) $(TRAIN_ARGS) --out checkpoints/$(GAME)_ppo
	cp checkpoints/$(GAME)_ppo.zip agents/learned/checkpoints/$(GAME)_ppo.zip
	cp checkpoints/$(GAME)_ppo.json agents/learned/checkpoints/$(GAME)_ppo.json
endif

# rebuilds docs/reports/curves/<folder>/ (training/curve.py: MaskablePPO from scratch with
# and without reward shaping, scored against random and rule-based seats); CURVE_<folder> is
# its recipe in docs/training.md's "Learning from scratch"; CURVES=automobiles rebuilds one.
# Finished runs in a folder are kept (a rerun only redraws): delete it to train again.
# Not run in CI.
CURVES ?= loose_caboose loose_caboose_long automobiles automobiles_long planes automobile \
	automobiles_season automobiles_season_long
CURVE_LARGE := --envs 128 --n-steps 128 --batch-size 2048 --epochs 6 --net 128,128 \
	--ent-coef 0.005
CURVE_loose_caboose := --game loose_caboose --steps 500000 --points 5 --eval-games 200
CURVE_loose_caboose_long := --game loose_caboose --steps 1200000 --points 6 --eval-games 200 \
	$(CURVE_LARGE)
CURVE_automobiles := --game automobiles --steps 300000 --points 6 --eval-games 100
CURVE_automobiles_long := --game automobiles --shaping on --steps 400000 --points 4 \
	--eval-games 100 $(CURVE_LARGE)
CURVE_planes := --game planes --steps 1000000 --points 5 --eval-games 200
CURVE_automobile := --game automobile --players 3 --steps 1000000 --points 5 --eval-games 200
CURVE_automobiles_season := --game automobiles_season --steps 300000 --points 5 --eval-games 100
CURVE_automobiles_season_long := --game automobiles_season --steps 500000 --points 4 \
	--eval-games 100 $(CURVE_LARGE)
curves: $(STAMP_ALL)
	$(foreach curve,$(CURVES),nice -n 15 $(TG) learning-curve $(CURVE_$(curve)) --seed 0 \
		--out docs/reports/curves/$(curve) &&) true

# writes docs/ladders/$(GAME).md and .json: every pair of LADDER_<game>'s
# agents, seats alternated, on one core and niced; the games stay in ladders/$(GAME)/, so a
# rerun with larger counts plays only the missing games (delete the folder after retraining
# an agent: a changed checkpoint is refused there)
LADDER_loose_caboose := --players 2 --agents random rule_based tuned mcts mcts:1000 ppo net \
	--games 200 --games-for mcts=100 mcts:1000=100
LADDER_planes := --players 2 --agents random rule_based tuned mcts \
	--games 200 --games-for mcts=100
LADDER_automobile := --players 3 --agents random rule_based tuned mcts ppo net \
	--games 200 --games-for mcts=50
LADDER_automobiles := --players 2 --agents random rule_based tuned mcts ppo net net_mcts \
	--games 200 --games-for mcts=100 net_mcts=40
LADDER_automobiles_season := --players 2 --agents random rule_based tuned mcts net net_mcts \
	--games 200 --games-for mcts=60 net_mcts=40
ladder: $(STAMP_ALL)
	nice -n 15 $(TG) ladder --game $(GAME) $(LADDER_$(GAME)) \
		--seed 0 --workers 1 --games-dir ladders/$(GAME) --out docs/ladders/$(GAME).md

# a small balance sweep of $(GAME) with the rule-based agents (seat win rates, balance, race
# statistics) into reports/balance-$(GAME); larger: BALANCE_GAMES=2000
BALANCE_GAMES ?= 200
balance: $(STAMP_BASE)
	$(TG) balance sweep $(GAME) --games $(BALANCE_GAMES) --workers $(JOBS) \
		--out reports/balance-$(GAME)

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache .ruff_cache .hypothesis
