"""DAgger rounds for the expert-iteration trainer: the network plays, the teacher labels.

Distilling a teacher's own games (iteration 0 of a ``--teacher`` run) shows the network
only positions the teacher reaches; playing alone, the network drifts into positions it
never saw labelled. DAgger (Ross, Gordon and Bagnell 2011) closes that gap: with
``--dagger-rounds K --dagger-games N``, iterations 1..K each play N games in which every
seat is the current network (greedy over its logits, the way it plays alone), and at each
decision with more than one legal action the teacher labels the position with its target
(a search teacher's root visit distribution, any other teacher's chosen action); the value
target is the decider's final reward in the network's game. The network is then refitted,
from its current weights, for ``--teacher-epochs`` passes over the union of the teacher's
samples and every DAgger round so far. Self-play iterations (``--iterations``) follow.

Every game is seeded by (seed, iteration, game index) and the teacher by the game's seed,
so a round gives the same samples on any backend and the run stays reproducible and
resumable like the rest of the trainer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from transit_gym.agents.learned.network import Network, NetworkRecord
from transit_gym.training.exit_samples import Decisions, teacher_target
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.tasks import TaskGame


@dataclass(frozen=True)
class DaggerTask(TaskGame):
    """One game played by the network at every seat and labelled by the teacher."""

    record_json: str
    weights: np.ndarray
    teacher: str
    seed: int


def dagger_game(task: DaggerTask) -> dict[str, np.ndarray]:
    """Samples of one game of the network labelled by the teacher: ``obs``, ``mask``,
    ``policy`` (the teacher's target at the network's positions) and ``value`` (the
    decider's final reward)."""
    from transit_gym.agents.learned.net_agent import NetAgent
    from transit_gym.agents.registry import make_agent

    game = task.build()
    player_agent = NetAgent(game, Network(NetworkRecord.from_json(task.record_json),
                                          task.weights))
    teacher = make_agent(task.teacher, game, seed=task.seed)
    decisions = Decisions(game)

    def label(state, player: int) -> None:
        mask = game.legal_mask(state)
        if np.count_nonzero(mask) > 1:
            target, _ = teacher_target(teacher, state, player, mask)
            decisions.add(state, player, mask, target)

    played = play_seated(game, [player_agent], [0] * game.num_players, task.seed,
                         agent_seeds=[task.seed], before=label)
    return decisions.samples(played.state)


def dagger_tasks(settings, net: Network, iteration: int, options, game_seed
                 ) -> list[tuple[Any, DaggerTask]]:
    """The ``--dagger-games`` tasks of one DAgger round (``game_seed(seed, iteration,
    index)`` seeds each game)."""
    record = net.record.to_json()
    return [(dagger_game, DaggerTask(settings.game, settings.players, options, record,
                                     net.weights, settings.teacher,
                                     game_seed(settings.seed, iteration, g)))
            for g in range(settings.dagger_games)]
