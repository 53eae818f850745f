"""Agent specs of the run tools: the list parser, the checks before any game, the loader
and the fingerprints (SHA-256 of the files behind specs) that ``--out`` folders store."""

from __future__ import annotations

from pathlib import Path

from transit_gym.agents.base import Agent
from transit_gym.agents.learned.specs import parse_network_spec
from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.mcts import is_search_spec, parse_spec
from transit_gym.agents.tuned import is_tuned_spec, spec_path, spec_vector
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rollout import AGENT_CODES
from transit_gym.training.runs.folder import file_sha256

ACCEPTED = (f"{sorted(AGENT_CODES)}, mcts, mcts:N, ppo, tuned, tuned:FILE, net, net:FILE, "
            "net_mcts[:N][:FILE] or a MaskablePPO checkpoint path")


def load_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """Any agent spec (``make_agent``'s), a MaskablePPO checkpoint path included."""
    return make_agent(spec, game, seed=seed)


def is_checkpoint_spec(spec: str) -> bool:
    """Whether an agent spec names a MaskablePPO checkpoint (a path, with or without .zip)."""
    return (spec not in AGENT_CODES and spec != "ppo" and not is_search_spec(spec)
            and (spec.endswith(".zip") or Path(spec).with_suffix(".zip").exists()))


def is_network_spec(spec: str) -> bool:
    """Whether an agent spec names a network agent (``net...`` or ``net_mcts...``)."""
    return spec == "net" or spec.startswith(("net:", "net_mcts"))


def agent_fingerprints(specs: list[str], game: Game) -> dict[str, str]:
    """SHA-256 of the file behind every checkpoint spec (``ppo``: the shipped one), network
    spec (``net``, ``net_mcts``: the shipped network) and tuned spec, so that an agent
    retrained into the same file is a different agent."""
    found = {}
    for spec in specs:
        if spec == "ppo":
            from transit_gym.agents.learned.ppo import shipped_checkpoint

            found[spec] = file_sha256(shipped_checkpoint(game))
        elif is_checkpoint_spec(spec):
            found[spec] = file_sha256(Path(spec).with_suffix(".zip"))
        elif is_network_spec(spec):
            from transit_gym.agents.learned.net_agent import shipped_network_path

            path = parse_network_spec(spec)[2]
            found[spec] = file_sha256(Path(path) if path else shipped_network_path(game))
        elif is_tuned_spec(spec):
            found[spec] = file_sha256(spec_path(spec, game.name))
    return found


def check_agents(specs: list[str], game: Game) -> None:
    """Every agent spec valid for ``game``, checkpoints checked against it (their recorded
    game and observation layout): a ``ConfigError`` before any game, not a worker's
    traceback."""
    from transit_gym.agents.learned.ppo import check_agent_spec

    for spec in specs:
        if is_search_spec(spec):
            parse_spec(spec)
        elif spec == "ppo" or is_checkpoint_spec(spec):
            check_agent_spec(spec, game)
        elif is_tuned_spec(spec):
            spec_vector(spec, game.name)   # ConfigError: no such file, no tuned policy
        elif is_network_spec(spec):
            _, _, path = parse_network_spec(spec)
            from transit_gym.agents.learned.net_agent import load_network

            load_network(path, game)   # ConfigError: no such file, another game
        elif spec not in AGENT_CODES:
            raise ConfigError(f"unknown agent {spec!r}: use {ACCEPTED}")


def split_specs(text: str, players: int) -> list[str]:
    """``--agents`` text as one spec per seat: one spec for every seat, or one per seat
    (comma-separated); a ``ConfigError`` for any other count."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ConfigError(f"--agents needs 1 or {players} entries, got {len(specs)}: {text!r}")
    return specs


def parse_agents(text: str, players: int) -> list[str]:
    """``rule_based`` (every seat) or one comma-separated spec per seat: a built-in agent,
    a search agent (``mcts``, ``mcts:N``, ``mcts:N:ROLLOUT``), a tuned spec or a checkpoint
    path (tuned vectors and checkpoints are checked against the game by
    :func:`check_agents`)."""
    specs = split_specs(text, players)
    for spec in specs:
        if is_search_spec(spec):
            parse_spec(spec)   # ConfigError naming the spec and the accepted forms
        elif is_tuned_spec(spec):
            continue   # checked against the game by check_agents (spec_vector)
        elif spec not in AGENT_CODES and not Path(spec).with_suffix(".zip").exists():
            raise ConfigError(f"unknown agent {spec!r}: use {sorted(AGENT_CODES)}, mcts, "
                              f"mcts:N, mcts:N:rule_based, tuned, tuned:FILE or a "
                              f"MaskablePPO checkpoint path")
    return specs
