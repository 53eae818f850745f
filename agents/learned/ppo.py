"""MaskablePPO policies (sb3-contrib) behind the common ``Agent`` interface, and the
metadata a checkpoint carries (game, options, observation layout) so that a checkpoint is
checked against the game it is asked to play before any game starts."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: the shipped checkpoints: ``<game>_ppo.zip`` (``make train GAME=<game>`` rebuilds one)
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"


#: name of the metadata file inside a checkpoint zip (SB3 ignores files it does not know)
METADATA_NAME = "transit_gym.json"
METADATA_FORMAT = 1


class CheckpointMismatchError(ConfigError):
    """A checkpoint trained for another game (or observation layout) than the one asked."""


def checkpoint_metadata(game: Game) -> dict[str, Any]:
    """What a policy trained on ``game`` depends on: the game, its options and the
    observation layout (field names and sizes, observation size, action count, and a
    SHA-256 of those)."""
    layout = [[name, int(stop - start)] for name, start, stop in game.obs_layout().describe()]
    shape = {"fields": layout, "obs_size": int(game.obs_size),
             "num_actions": int(game.num_actions)}
    digest = hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()
    options = {k: v for k, v in game.options.items() if k != "num_players"}
    return {"format": METADATA_FORMAT, "game": game.name, "players": game.num_players,
            "options": json.loads(json.dumps(options, default=str)),
            "observation": {**shape, "layout_sha256": digest}}


def write_metadata(path: str | Path, game: Game) -> None:
    """Add ``game``'s metadata to the checkpoint zip at ``path`` (``.zip`` added if
    missing)."""
    path = Path(path)
    path = path if path.suffix == ".zip" else path.with_suffix(".zip")
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(METADATA_NAME, json.dumps(checkpoint_metadata(game), indent=2))


def read_metadata(path: str | Path) -> dict[str, Any] | None:
    """The metadata of a checkpoint: the file inside its zip, else the ``observation``
    keys of the JSON report beside it (shipped and older checkpoints); ``None`` when
    neither records the observation layout."""
    path = Path(path)
    archive = path if path.suffix == ".zip" else path.with_suffix(".zip")
    try:
        with zipfile.ZipFile(archive) as handle:
            if METADATA_NAME in handle.namelist():
                return json.loads(handle.read(METADATA_NAME))
    except (OSError, zipfile.BadZipFile, json.JSONDecodeError):
        pass
    report = archive.with_suffix(".json")
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if isinstance(data, dict) and isinstance(data.get("observation"), dict):
        return data
    return None


def check_checkpoint(path: str | Path, game: Game) -> None:
    """``CheckpointMismatchError`` unless the checkpoint at ``path`` was trained for
    ``game``'s observation layout (names both games; run before any game is played).
    Options that leave the layout unchanged (e.g. the number of laps) are allowed. A
    checkpoint without metadata is checked by the shapes of its model."""
    path = Path(path)
    meta = read_metadata(path)
    if meta is None:
        _check_shapes(path, game)
        return
    want = checkpoint_metadata(game)
    trained = f"{meta.get('game')} ({meta.get('players')} players"
    trained += f", options {meta['options']})" if meta.get("options") else ")"
    asked = f"{game.name} ({game.num_players} players"
    asked += f", options {want['options']})" if want["options"] else ")"
    if meta.get("game") != game.name:
        raise CheckpointMismatchError(
            f"checkpoint {path} was trained for {trained}, not for {asked}: give a "
            f"checkpoint of {game.name}")
    have = meta["observation"]
    if have.get("layout_sha256") != want["observation"]["layout_sha256"]:
        diffs = [f"{key} {have.get(key)} vs {want['observation'][key]}"
                 for key in ("obs_size", "num_actions") if have.get(key)
                 != want["observation"][key]]
        fields = {n: s for n, s in have.get("fields", [])}
        diffs += [f"field {n} {fields.get(n)} vs {s}" for n, s in want["observation"]["fields"]
                  if fields.get(n) != s][:5]
        raise CheckpointMismatchError(
            f"checkpoint {path} was trained for {trained}, whose observations differ from "
            f"{asked}'s ({'; '.join(diffs) or 'layout'}): train one for these settings")


def _check_shapes(path: Path, game: Game) -> None:
    """A checkpoint without metadata: its observation and action spaces must fit."""
    from sb3_contrib import MaskablePPO

    archive = path if path.suffix == ".zip" else path.with_suffix(".zip")
    model = MaskablePPO.load(str(archive), device="cpu")
    shape, actions = model.observation_space.shape, model.action_space.n
    if shape != (game.obs_size,) or actions != game.num_actions:
        raise CheckpointMismatchError(
            f"checkpoint {path} (no game recorded) expects observations of shape {shape} and "
            f"{actions} actions; {game.name} ({game.num_players} players) has "
            f"({game.obs_size},) and {game.num_actions}")


def frozen_copy(policy):
    """An independent CPU copy of an SB3 policy (weights copied, not shared)."""
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())
    clone.to("cpu")
    clone.set_training_mode(False)
    return clone


class PolicyAgent(Agent):
    """Acts with a MaskablePPO model: a saved ``.zip`` path or a live model (copied).

    ``game``, when given, is the game the agent plays: a policy hinted by the rule-based
    agent (``training.hinted_policy``) computes its hints with that game's rules and
    options rather than the ones it was trained with."""

    name = "ppo"

    def __init__(self, model, deterministic: bool = True, name: str | None = None,
                 game: Game | None = None, device: str = "cpu"):
        from sb3_contrib import MaskablePPO

        if isinstance(model, (str, Path)):
            path = Path(model)
            if not path.exists() and not path.with_suffix(".zip").exists():
                raise ValueError(f"no MaskablePPO checkpoint at {str(path)!r}")
            if game is not None:
                check_checkpoint(path, game)
            model = MaskablePPO.load(str(path), device=device)
            self.name = name or f"ppo:{path.stem}"
        else:
            self.name = name or "ppo"
        self.policy = frozen_copy(model.policy)
        self.deterministic = deterministic
        if game is not None and hasattr(self.policy, "use_game"):
            self.policy.use_game(game)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask, dtype=bool)
        if not mask.any():
            raise ValueError(f"{self.name}.act: the mask has no legal action")
        action, _ = self.policy.predict(
            np.asarray(observation, dtype=np.float32), deterministic=self.deterministic,
            action_masks=mask,
        )
        return int(action)


def shipped_checkpoint(game: Game) -> Path:
    """Path of the shipped checkpoint of ``game`` (ConfigError when none is shipped)."""
    path = CHECKPOINTS / f"{game.name}_ppo.zip"
    if not path.exists():
        shipped = sorted(p.stem.removesuffix("_ppo") for p in CHECKPOINTS.glob("*_ppo.zip"))
        raise ConfigError(f"no shipped ppo checkpoint for game {game.name!r} (shipped: "
                          f"{shipped}); train one with `make train GAME={game.name}`")
    return path


def shipped_agent(game: Game) -> PolicyAgent:
    """The agent spec ``ppo``: the shipped checkpoint of ``game``, playing greedily, for the
    player count it was trained at (its training report ``<game>_ppo.json`` says which)."""
    path = check_shipped(game)
    return PolicyAgent(path, deterministic=True, name="ppo", game=game)


def check_shipped(game: Game) -> Path:
    """The shipped checkpoint of ``game`` after checking that it fits ``game`` (player
    count, observation layout); ``ConfigError`` otherwise. Cheap: reads JSON only."""
    path = shipped_checkpoint(game)
    report = json.loads(path.with_suffix(".json").read_text())
    if report["players"] != game.num_players:
        raise ConfigError(f"the shipped ppo checkpoint of {game.name!r} was trained for "
                          f"{report['players']} players, not {game.num_players}")
    check_checkpoint(path, game)
    return path


def check_agent_spec(spec: str, game: Game) -> None:
    """For a checkpoint agent spec (``ppo`` or a path), check before any game that the
    checkpoint fits ``game``; other specs pass."""
    if spec == "ppo":
        check_shipped(game)
    elif spec.endswith(".zip") or Path(spec).with_suffix(".zip").exists():
        if not Path(spec).with_suffix(".zip").is_file():
            raise ConfigError(f"no MaskablePPO checkpoint at {spec!r}")
        check_checkpoint(spec, game)
