"""DAgger data from tournament seating: the policy in alternate seats, labelled by search.

The batched env (``training.vec_env``) gives the learner one seat among built-in agents. A
tournament (``training.tournament``) seats two agents alternately (A, B, A, ...), so with
three players the policy also meets a copy of itself. ``collect_seated`` plays such games
one by one through the rules API: game ``i`` of opponent ``k`` (cycling through
``opponents``) seats the policy first when ``i`` is even, the opponent first when odd; the
policy plays greedily in every seat it holds, and each of its decisions is labelled with
the search teacher's choice (reseeded per decision, as in ``behaviour_cloning``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.mcts import MCTSAgent, is_search_spec, parse_spec
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.training.behaviour_cloning import (
    Demonstrations,
    check_teacher,
    decision_seed,
    greedy_actions,
)
from transit_gym.training.runs.seating import play_seated


class GreedyPolicy(Agent):
    """The learner's actor policy as an agent: its most likely legal action."""

    name = "policy"

    def __init__(self, policy):
        self.policy = policy

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = np.asarray(observation, dtype=np.float32)[None]
        mask = np.asarray(action_mask, dtype=bool)[None]
        return int(greedy_actions(self.policy, view, mask)[0])


def seating(players: int, policy_first: bool) -> list[bool]:
    """Which seats the policy holds: alternate seats, starting with seat 0 or seat 1."""
    return [(seat % 2 == 0) == policy_first for seat in range(players)]


def _seated_game(game: Game, learner: Agent, kind: str, seed: int, index: int,
                 before=None) -> tuple[list[bool], np.ndarray]:
    """Game ``index`` in tournament seating (``training.runs.seating``): the policy's
    seats and the final rewards. The opponent is made per game with the seed
    ``seed * 7919 + index`` (the scheme the shipped training runs were collected with)."""
    seats = seating(game.num_players, policy_first=index % 2 == 0)
    other = make_agent(kind, game, seed=seed * 7919 + index)
    played = play_seated(game, [learner, other], [0 if mine else 1 for mine in seats], seed,
                         stream=index, agent_seeds=[None, None], before=before)
    return seats, played.rewards


def collect_seated(game: Game, policy, n_samples: int, seed: int, teacher: str,
                   opponents: Sequence[str] = ("rule_based",)) -> Demonstrations:
    """Exactly ``n_samples`` decisions of ``policy`` in tournament seating (see module; whole
    games are played, then ``Demonstrations.trimmed`` keeps ``n_samples``)."""
    check_teacher(teacher)
    if not is_search_spec(teacher):
        raise ConfigError(f"seated collection labels with the search agent; got teacher "
                          f"{teacher!r}")
    if n_samples < 1:
        raise ConfigError(f"n_samples must be positive, got {n_samples}")
    search = MCTSAgent(game, **parse_spec(teacher), seed=0)
    learner = GreedyPolicy(policy)
    obs, masks, labels, returns = [], [], [], []
    game_index = 0
    while len(labels) < n_samples:
        kind = opponents[(game_index // 2) % len(opponents)]
        decided: list[int] = []
        seats = seating(game.num_players, policy_first=game_index % 2 == 0)

        def label(state, player: int, seats=seats, decided=decided) -> None:
            if not seats[player]:
                return
            search.reset(decision_seed(seed, len(labels)))
            labels.append(search.act_state(state, player))
            obs.append(np.asarray(game.observe(state, player), dtype=np.float32))
            masks.append(np.asarray(game.legal_mask(state), dtype=bool))
            decided.append(player)

        _, final = _seated_game(game, learner, kind, seed, game_index, label)
        returns.extend(float(final[p]) for p in decided)
        game_index += 1
    return Demonstrations(np.stack(obs), np.stack(masks), np.asarray(labels, dtype=np.int64),
                          np.asarray(returns, dtype=np.float32)).trimmed(n_samples, seed)


def seated_score(game: Game, policy, n_games: int, seed: int, kind: str = "rule_based"
                 ) -> float:
    """The policy's share of the wins against ``kind`` in tournament seating (a shared win
    split among the winning seats), as ``training.tournament`` scores a pair."""
    learner = GreedyPolicy(policy)
    total = 0.0
    for i in range(n_games):
        seats, final = _seated_game(game, learner, kind, seed, i)
        winners = np.flatnonzero(final == final.max())
        total += sum(seats[w] for w in winners) / len(winners)
    return total / n_games
