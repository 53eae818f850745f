"""Play any game in the terminal against built-in agents.

    python -m transit_gym.training.play --game planes --players 3 --seat 0 --vs rule_based random

Each time it is your turn the table is printed and your legal actions are listed,
numbered from 1 with their names. Type a number to play it, or a command:
``u`` undo your last move (the agents' moves after it are taken back too),
``s FILE`` save the game as JSON, ``l FILE`` load a saved game, ``t`` show the table
again, ``h`` help, ``q`` quit. End of input quits as well. ``--load FILE`` starts from
a saved game. The table hides the other seats' hands (and Automobile's demand tiles)
until the game is over; ``--open`` shows everything.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.aec import TransitAECEnv
from transit_gym.envs.core.errors import ConfigError, StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import fresh_seed
from transit_gym.envs.registry import env_module, game_for_cli
from transit_gym.training.train import parse_options

SAVE_FORMAT = "transit_gym.play/1"
#: attributes holding the random streams of the built-in agents (``agents.base``)
STREAM_ATTRIBUTES = ("_words", "_rng")
HELP = ("type the number of an action, or: u = undo your last move, s FILE = save, "
        "l FILE = load, t = table, h = help, q = quit")


class QuitGame(Exception):
    """The player quit (``q`` or end of input)."""


def opponent_specs(vs: list[str], players: int, seat: int) -> dict[int, str]:
    """The agent kind of every seat but ``seat``: one kind for all, or one per seat."""
    others = [s for s in range(players) if s != seat]
    if len(vs) == 1:
        return {s: vs[0] for s in others}
    if len(vs) != len(others):
        raise ConfigError(f"--vs takes one agent kind or {len(others)} (one per other seat), "
                          f"got {len(vs)}: {vs}")
    return dict(zip(others, vs, strict=True))


@dataclass
class Session:
    """A game in progress: the env, the human's seat, the agents and the undo history."""

    env: TransitAECEnv
    seat: int
    specs: dict[int, str]
    agents: dict[int, Agent]
    out: TextIO
    #: show every seat's hidden cards (by default only the human's own)
    open_table: bool = False
    #: per human move: the state before it, its name, the agents' random streams then
    history: list[tuple[State, str, dict[int, dict[str, Any]]]] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.env.game_state

    def table(self) -> str:
        """The table as text, as the human's seat may see it (everything once the game
        is over, or with ``open_table``)."""
        game = self.env.game
        viewer = None if self.open_table or game.is_over(self.state) else self.seat
        return importlib.import_module(game.render_module).render_text(game, self.state,
                                                                        viewer=viewer)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


def new_session(game_name: str, players: int | None, seat: int, vs: list[str],
                seed: int | None, options: dict[str, Any], out: TextIO) -> Session:
    """A fresh game (or one resumed with :func:`load_into`) with agents on the other seats."""
    cls, players = game_for_cli(game_name, players)
    if not 0 <= seat < players:
        raise ConfigError(f"--seat must be 0-{players - 1} for {players} players, got {seat}")
    specs = opponent_specs(vs, players, seat)
    env = env_module(game_name).raw_env(num_players=players, render_mode="ansi", **options)
    seed = fresh_seed() if seed is None else seed
    env.reset(seed=seed)
    agents = {s: make_agent(kind, env.game, seed=seed + 1 + s) for s, kind in specs.items()}
    session = Session(env, seat, specs, agents, out)
    session.say(f"{game_name}, {players} players, seed {seed}: you are player_{seat}; "
                + ", ".join(f"player_{s} is {k}" for s, k in specs.items()))
    return session


def save_game(session: Session, path: str) -> None:
    """Write the game as JSON: the state dict plus the seat and the agents' kinds."""
    payload = {"format": SAVE_FORMAT, "seat": session.seat,
               "vs": {str(s): k for s, k in session.specs.items()},
               "streams": {str(s): _streams_json(a) for s, a in session.agents.items()},
               "state": session.state.to_dict()}
    Path(path).write_text(json.dumps(payload))


def _streams_json(agent: Agent) -> dict[str, Any]:
    """An agent's random stream as JSON: the words of a jitted agent, the numpy
    generator state of a random one."""
    memory: dict[str, Any] = {}
    if isinstance(getattr(agent, "_words", None), np.ndarray):
        memory["words"] = [int(w) for w in agent._words]
    if isinstance(getattr(agent, "_rng", None), np.random.Generator):
        memory["rng"] = agent._rng.bit_generator.state
    return memory


def _restore_streams(agent: Agent, memory: Any) -> None:
    """Put back a stream written by :func:`_streams_json`; ``StateDictError`` if malformed."""
    try:
        if "words" in memory:
            words = np.asarray(memory["words"], dtype=np.int64)
            if words.shape != agent._words.shape:
                raise ValueError(f"{agent._words.size} words expected, got {words.size}")
            agent._words[:] = words
        if "rng" in memory:
            agent._rng.bit_generator.state = memory["rng"]
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError) as exc:
        raise StateDictError(f"saved agent stream {memory!r} does not fit {agent.name}: {exc}") \
            from exc


def read_save(path: str) -> tuple[State, dict[str, Any]]:
    """The state saved in ``path`` (a play save or a bare ``State.to_dict()``) and the
    save's other entries."""
    try:
        payload = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise StateDictError(f"{path} is not JSON: {exc}") from exc
    if isinstance(payload, dict) and payload.get("format") == SAVE_FORMAT:
        return State.from_dict(payload.get("state")), payload
    return State.from_dict(payload), {}


def load_into(session: Session, state: State, saved: dict[str, Any]) -> None:
    """Continue ``session`` from ``state`` (same game and options); clears the undo
    history. When the save has the same agents on the same seats, their random streams
    are restored too, so the game goes on exactly as it would have."""
    if state.game != session.env.game:
        raise ConfigError(f"the saved game is {state.game!r}, this one is {session.env.game!r}")
    streams = saved.get("streams")
    same_agents = saved.get("vs") == {str(s): k for s, k in session.specs.items()}
    if same_agents and isinstance(streams, dict):
        for seat, agent in session.agents.items():
            _restore_streams(agent, streams.get(str(seat), {}))
    session.env.set_state(state)
    session.history.clear()


def play_agents(session: Session) -> None:
    """Let the agents move until it is the human's turn or the game is over."""
    env, game = session.env, session.env.game
    while True:
        player = game.current_player(session.state)
        if player < 0 or player == session.seat:
            return
        action = session.agents[player].act_state(session.state, player)
        session.say(f"player_{player} ({session.specs[player]}): "
                    f"{game.describe_action(session.state, action)}")
        env.step(action)


def show_turn(session: Session) -> list[int]:
    """Print the table and the numbered legal actions; return the actions in that order."""
    game = session.env.game
    legal = game.legal_actions(session.state)
    session.say(session.table())
    session.say(f"your move, player_{session.seat}:")
    for i, action in enumerate(legal, start=1):
        session.say(f"  {i:>3}. {game.describe_action(session.state, action)}")
    return legal


def show_result(session: Session) -> None:
    """Print the final table, each seat's reward and its final statistics."""
    env = session.env
    session.say(session.table())
    rewards = env.game.rewards(session.state)
    session.say("game over:")
    for seat, agent in enumerate(env.possible_agents):
        who = "you" if seat == session.seat else session.specs[seat]
        info = ", ".join(f"{k} {v}" for k, v in env.infos.get(agent, {}).items()
                         if isinstance(v, (int, float, str, bool)))
        session.say(f"  {agent} ({who}): reward {float(rewards[seat]):+.2f}"
                    + (f"; {info}" if info else ""))


def command(session: Session, line: str, legal: list[int]) -> bool:
    """Act on one line of input; True when the game moved on (the table should be shown)."""
    word, _, arg = line.strip().partition(" ")
    word, arg = word.lower(), arg.strip()
    if word in ("q", "quit", "exit"):
        raise QuitGame
    if word in ("h", "help", "?"):
        session.say(HELP)
        return False
    if word in ("t", "table"):
        session.say(session.table())
        return False
    if word in ("u", "undo"):
        if not session.history:
            session.say("nothing to undo: you have not moved yet")
            return False
        before, what, streams = session.history.pop()
        session.env.set_state(before)
        for seat, memory in streams.items():
            vars(session.agents[seat]).update(copy.deepcopy(memory))
        session.say(f"undone: {what} (and the moves after it)")
        return True
    if word in ("s", "save", "l", "load"):
        if not arg:
            session.say(f"{word} needs a file name, e.g. '{word} game.json'")
            return False
        try:
            if word in ("s", "save"):
                save_game(session, arg)
                session.say(f"saved to {arg}")
                return False
            load_into(session, *read_save(arg))
        except (ValueError, OSError) as exc:
            session.say(f"could not {'save' if word[0] == 's' else 'load'}: {exc}")
            return False
        session.say(f"loaded {arg}")
        return True
    if not legal:
        session.say(f"the game is over; {HELP.split(', or: ')[1]}")
        return False
    try:
        choice = int(word)
    except ValueError:
        session.say(f"not understood: {line.strip()!r}; {HELP}")
        return False
    if not 1 <= choice <= len(legal):
        session.say(f"no action {choice}: choose 1-{len(legal)}")
        return False
    action = legal[choice - 1]
    what = session.env.game.describe_action(session.state, action)
    streams = {seat: _streams(agent) for seat, agent in session.agents.items()}
    session.history.append((session.state.copy(), what, streams))
    session.env.step(action)
    session.say(f"you: {what}")
    return True


def _streams(agent: Agent) -> dict[str, Any]:
    """Copies of an agent's random-stream attributes, so that an undo also rewinds the
    agents: replaying the same move then gives the same game."""
    return {k: copy.deepcopy(v) for k, v in vars(agent).items() if k in STREAM_ATTRIBUTES}


def run(session: Session, inp: TextIO) -> None:
    """The read-play loop until the player quits or input ends."""
    try:
        while True:
            play_agents(session)
            over = session.env.game.is_over(session.state)
            if over:
                show_result(session)
                legal: list[int] = []
            else:
                legal = show_turn(session)
            while True:
                session.out.write("> ")
                session.out.flush()
                line = inp.readline()
                if not line:
                    raise QuitGame
                if not line.strip():
                    continue
                if command(session, line, legal):
                    break
    except QuitGame:
        session.say("bye")


def main(argv: list[str] | None = None, inp: TextIO | None = None,
         out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=None, help="game name (taken from --load if given)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seat", type=int, default=None, help="your seat (default 0)")
    parser.add_argument("--vs", nargs="+", default=None,
                        help="agent kind for every other seat, or one per other seat "
                             "(random, rule_based, mcts, mcts:N, tuned, tuned:FILE); default "
                             "rule_based")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--load", default=None, help="continue a game saved with 's FILE'")
    parser.add_argument("--option", action="append", default=[],
                        help="game option key=value (repeatable)")
    parser.add_argument("--open", action="store_true",
                        help="show every seat's hidden cards (a teaching view)")
    args = parser.parse_args(argv)
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    try:
        session = _start(args, out)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    session.open_table = args.open
    run(session, inp)
    return 0


def _start(args: argparse.Namespace, out: TextIO) -> Session:
    """The session the command line asks for: new, or resumed from ``--load``."""
    if args.load is None:
        if args.game is None:
            raise ConfigError("--game is required (or --load FILE)")
        return new_session(args.game, args.players, 0 if args.seat is None else args.seat,
                           args.vs or ["rule_based"], args.seed, parse_options(args.option),
                           out)
    state, saved = read_save(args.load)
    game = state.game
    if args.game not in (None, game.name):
        raise ConfigError(f"{args.load} holds a {game.name} game, not {args.game}")
    options = {k: v for k, v in game.options.items() if k != "num_players"}
    seat = args.seat if args.seat is not None else int(saved.get("seat", 0))
    vs = args.vs or _saved_specs(saved, game.num_players, seat) or ["rule_based"]
    session = new_session(game.name, game.num_players, seat, vs, args.seed, options, out)
    load_into(session, state, saved)
    session.say(f"continuing {args.load}")
    return session


def _saved_specs(saved: dict[str, Any], players: int, seat: int) -> list[str] | None:
    """The agents' kinds stored in a save, in seat order, if they fit this seat."""
    specs = saved.get("vs")
    if not isinstance(specs, dict):
        return None
    kinds = [specs.get(str(s)) for s in range(players) if s != seat]
    return kinds if all(isinstance(k, str) for k in kinds) else None


if __name__ == "__main__":
    sys.exit(main())
