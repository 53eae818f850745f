"""Play any game in the terminal against built-in agents.

    transit-gym play --game planes --players 3 --seat 0 --vs rule_based random

Each time it is your turn you see the other seats' moves since your last turn, the lines
of the table that changed (the whole table on your first turn, after an undo or a load,
and on ``t``) and your legal actions, each with its key. **The key of an action is its
action id**: the same choice has the same key in every menu of a game (Automobiles'
"remove a white cube from the discard pile" is always the same number), so a recurring
choice can be typed from memory. Type one key to play it, or a command:
``u`` undo your last move (the agents' moves after it are taken back too),
``s FILE`` save the game as JSON, ``l FILE`` load a saved game, ``t`` show the whole table,
``h`` what is being decided now and what each kind of listed action does (in our own
words from the rulebooks), ``h CARD`` what a card (or Racing Season driver) does, ``q``
quit. End of input quits as well. Anything else (``1 2``, an id that is not on the menu) is
refused with a message.
``--load FILE`` starts from a saved game (the header then shows that game's seed).
``--window`` also shows the table's picture in a pygame window (the ``render`` extra). The
table hides the other seats' hands (and Automobile's demand tiles) until the game is
over; ``--open`` shows everything. The text is coloured with ``rich`` (the ``play``
extra) when the output is a terminal; ``--plain`` (or no rich) prints plain text.
Every table line fits in 100 columns.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import importlib
import json
import sys
import textwrap
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
from transit_gym.envs.core.text import WIDTH
from transit_gym.envs.registry import env_module, game_for_cli
from transit_gym.training.runs.options import parse_options
from transit_gym.training.tool_parser import ToolParser

SAVE_FORMAT = "transit_gym.play/1"
#: attributes holding the random streams of the built-in agents (``agents.base``)
STREAM_ATTRIBUTES = ("_words", "_rng")
HELP = ("type the key of an action (its number in [ ]; a choice keeps its key in every "
        "menu), or: u = undo your last move, s FILE = save, l FILE = load, t = whole table, "
        "h = explain this decision, h CARD = what a card does, q = quit")
#: rich styles of the kinds of lines (plain output ignores them)
STYLES = {"header": "bold", "move": "magenta", "you": "bold green", "changed": "yellow",
          "key": "cyan", "error": "bold red", "title": "bold underline"}
SEAT_STYLES = ("red", "blue", "yellow", "green", "magenta")


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


class Printer:
    """Writes lines to ``out``: coloured through ``rich`` when ``out`` is a terminal and
    rich is installed (unless ``plain``), else as plain text."""

    def __init__(self, out: TextIO, plain: bool = False):
        self.out = out
        self.console = None
        if not plain and getattr(out, "isatty", lambda: False)():
            try:
                from rich.console import Console
            except ImportError:
                return
            self.console = Console(file=out, highlight=False, soft_wrap=True)

    def say(self, text: str, style: str | None = None) -> None:
        if self.console is None:
            self.out.write(text + "\n")
            self.out.flush()
            return
        from rich.markup import escape

        self.console.print(escape(text), style=style)

    def menu(self, entries: list[tuple[int, str]]) -> None:
        """The actions with their keys, the keys coloured."""
        width = max(len(str(key)) for key, _ in entries)
        for key, text in entries:
            if self.console is None:
                self.say(f"  [{key:>{width}}] {text}")
            else:
                from rich.markup import escape

                self.console.print(f"  [cyan]\\[{key:>{width}}][/cyan] {escape(text)}")

    def prompt(self) -> None:
        self.out.write("> ")
        self.out.flush()


class Window:
    """The table's picture in a pygame window (the ``render`` extra), redrawn each turn."""

    def __init__(self, title: str):
        try:
            import pygame
        except ImportError as exc:
            raise ConfigError("--window needs pygame: pip install 'transit-gym[render]'") \
                from exc
        self.pygame = pygame
        pygame.init()
        self.title = title
        self.surface = None

    def show(self, picture: np.ndarray) -> None:
        pygame = self.pygame
        size = (picture.shape[1], picture.shape[0])
        if self.surface is None or self.surface.get_size() != size:
            self.surface = pygame.display.set_mode(size)
            pygame.display.set_caption(self.title)
        self.surface.blit(pygame.surfarray.make_surface(picture.swapaxes(0, 1)), (0, 0))
        pygame.event.pump()
        pygame.display.flip()

    def close(self) -> None:
        self.pygame.display.quit()


@dataclass
class Session:
    """A game in progress: the env, the human's seat, the agents and the undo history."""

    env: TransitAECEnv
    seat: int
    specs: dict[int, str]
    agents: dict[int, Agent]
    out: TextIO
    #: the seed the game was started with (None: unknown, e.g. a bare saved state)
    seed: int | None = None
    #: show every seat's hidden cards (by default only the human's own)
    open_table: bool = False
    #: per human move: the state before it, its name, the agents' random streams then
    history: list[tuple[State, str, dict[int, dict[str, Any]]]] = field(default_factory=list)
    #: the table lines the human saw last (None: show the whole table next time)
    seen: list[str] | None = None
    #: the other seats' moves since the human's last decision
    moves: list[tuple[int, str]] = field(default_factory=list)
    plain: bool = True
    printer: Printer | None = None
    #: the picture in a pygame window (``--window``), or None
    window: Window | None = None

    def __post_init__(self) -> None:
        if self.printer is None:
            self.printer = Printer(self.out, self.plain)

    @property
    def state(self) -> State:
        return self.env.game_state

    def table(self) -> str:
        """The table as text, as the human's seat may see it (everything once the game
        is over, or with ``open_table``)."""
        game = self.env.game
        viewer = None if self.open_table or game.is_over(self.state) else self.seat
        return render_module(game).render_text(game, self.state, viewer=viewer)

    def say(self, text: str, style: str | None = None) -> None:
        self.printer.say(text, STYLES.get(style, style) if style else None)

    def show_table(self) -> None:
        """The whole table; it becomes what the human has seen."""
        text = self.table()
        for line in text.splitlines():
            self.say(line)
        self.seen = text.splitlines()


def render_module(game: Any) -> Any:
    return importlib.import_module(game.render_module)


def changed_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines of ``after`` that are new or different compared with ``before``."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    out = []
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            out.extend(after[j1:j2])
    return out


def new_session(game_name: str, players: int | None, seat: int, vs: list[str],
                seed: int | None, options: dict[str, Any], out: TextIO,
                plain: bool = True, announce: bool = True) -> Session:
    """A fresh game (or one resumed with :func:`load_into`) with agents on the other seats."""
    cls, players = game_for_cli(game_name, players)
    if not 0 <= seat < players:
        raise ConfigError(f"--seat must be 0-{players - 1} for {players} players, got {seat}")
    specs = opponent_specs(vs, players, seat)
    env = env_module(game_name).raw_env(num_players=players, render_mode="ansi", **options)
    seed = fresh_seed() if seed is None else seed
    env.reset(seed=seed)
    agents = {s: make_agent(kind, env.game, seed=seed + 1 + s) for s, kind in specs.items()}
    session = Session(env, seat, specs, agents, out, seed=seed, plain=plain)
    if announce:
        session.say(header(session), "header")
    return session


def header(session: Session) -> str:
    """Game, players, seed and who sits where."""
    game = session.env.game
    seed = "unknown (a bare saved state)" if session.seed is None else session.seed
    return (f"{game.name}, {game.num_players} players, seed {seed}: you are "
            f"player_{session.seat}; "
            + ", ".join(f"player_{s} is {k}" for s, k in session.specs.items()))


def save_game(session: Session, path: str) -> None:
    """Write the game as JSON: the state dict plus the seat and the agents' kinds."""
    payload = {"format": SAVE_FORMAT, "seat": session.seat, "seed": session.seed,
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
    seed = saved.get("seed")
    session.seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
    session.seen = None
    session.moves.clear()


def play_agents(session: Session) -> None:
    """Let the agents move until it is the human's turn or the game is over; their moves
    are kept for the human's next turn."""
    env, game = session.env, session.env.game
    while True:
        player = game.current_player(session.state)
        if player < 0 or player == session.seat:
            return
        action = session.agents[player].act_state(session.state, player)
        session.moves.append((player, game.describe_action(session.state, action)))
        env.step(action)


def show_news(session: Session) -> None:
    """The other seats' moves since the human's last decision, then the table lines that
    changed (the whole table when the human has not seen it yet)."""
    if session.moves:
        session.say("since your last move:", "title")
        for player, what in session.moves:
            session.say(f"  player_{player} ({session.specs[player]}): {what}",
                        SEAT_STYLES[player % len(SEAT_STYLES)])
        session.moves.clear()
    if session.window is not None:
        session.window.show(session.env.game.render_rgb(session.state))
    if session.seen is None:
        session.show_table()
        return
    now = session.table().splitlines()
    changed = changed_lines(session.seen, now)
    session.seen = now
    if changed:
        session.say("changed on the table (t shows all of it):", "title")
        for line in changed:
            session.say(line, "changed")
    else:
        session.say("the table did not change (t shows it)")


def show_turn(session: Session) -> list[int]:
    """Show what happened and the legal actions with their keys (the action ids);
    return the legal actions."""
    game = session.env.game
    legal = game.legal_actions(session.state)
    show_news(session)
    session.say(f"your move, player_{session.seat}:", "you")
    session.printer.menu([(int(a), game.describe_action(session.state, a)) for a in legal])
    return legal


def show_result(session: Session) -> None:
    """Print the final table, each seat's reward and its final statistics."""
    env = session.env
    show_news(session)
    rewards = env.game.rewards(session.state)
    session.say("game over:", "title")
    for seat, agent in enumerate(env.possible_agents):
        who = "you" if seat == session.seat else session.specs[seat]
        info = ", ".join(f"{k} {v}" for k, v in env.infos.get(agent, {}).items()
                         if isinstance(v, (int, float, str, bool)))
        session.say(f"  {agent} ({who}): reward {float(rewards[seat]):+.2f}"
                    + (f"; {info}" if info else ""))


def card_text(session: Session, name: str) -> str:
    """What card ``name`` does (exact name, or the only one it starts or appears in)."""
    helper = getattr(render_module(session.env.game), "card_help", None)
    if helper is None:
        return f"{session.env.game.name} has no cards to explain"
    texts = helper(session.env.game)
    wanted = name.strip().lower()
    exact = [n for n in texts if n.lower() == wanted]
    found = exact or [n for n in texts if n.lower().startswith(wanted)] \
        or [n for n in texts if wanted in n.lower()]
    if len(found) == 1:
        return f"{found[0]}: {texts[found[0]]}"
    if found:
        return f"{name!r} could be {', '.join(found)}; type more of the name"
    return f"no card {name!r}; the cards are: {', '.join(texts)}"


def help_lines(session: Session) -> list[str]:
    """``h``: what the pending decision is and what each kind of listed action does (the
    game's ``phase_help``, folded to 100 columns), then the commands."""
    game = session.env.game
    helper = getattr(render_module(game), "phase_help", None)
    lines = []
    if helper is not None and not game.is_over(session.state):
        for kind, text in helper(game, session.state):
            line = f"what to decide now: {text}" if kind == "now" else f"  {kind}: {text}"
            lines.extend(textwrap.wrap(line, WIDTH, subsequent_indent="      "))
    return lines + packed(f"commands: {HELP}".split(", "), WIDTH)


def packed(items: list[str], width: int) -> list[str]:
    """``items`` joined with ", " into lines of at most ``width`` columns, never cutting an
    item (so "u = undo" stays whole); continuation lines are indented."""
    lines = [items[0]]
    for item in items[1:]:
        if len(lines[-1]) + 2 + len(item) < width:
            lines[-1] += ", " + item
        else:
            lines[-1] += ","
            lines.append("      " + item)
    return lines


#: commands that take no argument
BARE = {"q": "quit", "quit": "quit", "exit": "quit", "t": "table", "table": "table",
        "u": "undo", "undo": "undo"}


def command(session: Session, line: str, legal: list[int]) -> bool:
    """Act on one line of input; True when the game moved on (new news to show)."""
    word, _, arg = line.strip().partition(" ")
    word, arg = word.lower(), arg.strip()
    if word in BARE and arg:
        session.say(f"{word} takes nothing after it, got {line.strip()!r}", "error")
        return False
    kind = BARE.get(word)
    if kind == "quit":
        raise QuitGame
    if word in ("h", "help", "?"):
        for text in [card_text(session, arg)] if arg else help_lines(session):
            session.say(text)
        return False
    if kind == "table":
        session.show_table()
        return False
    if kind == "undo":
        if not session.history:
            session.say("nothing to undo: you have not moved yet", "error")
            return False
        before, what, streams = session.history.pop()
        session.env.set_state(before)
        for seat, memory in streams.items():
            vars(session.agents[seat]).update(copy.deepcopy(memory))
        session.say(f"undone: {what} (and the moves after it)")
        session.seen = None
        session.moves.clear()
        return True
    if word in ("s", "save", "l", "load"):
        if not arg:
            session.say(f"{word} needs a file name, e.g. '{word} game.json'", "error")
            return False
        try:
            if word in ("s", "save"):
                save_game(session, arg)
                session.say(f"saved to {arg}")
                return False
            load_into(session, *read_save(arg))
        except (ValueError, OSError) as exc:
            session.say(f"could not {'save' if word[0] == 's' else 'load'}: {exc}", "error")
            return False
        session.say(f"loaded {arg}; " + header(session), "header")
        return True
    if not legal:
        session.say(f"the game is over; {HELP.split(', or: ')[1]}", "error")
        return False
    return _play_key(session, line.strip(), legal)


def _play_key(session: Session, text: str, legal: list[int]) -> bool:
    """Play the action whose key is ``text``; refuse anything but one listed key."""
    keys = ", ".join(str(a) for a in legal)
    if not text.isdigit():
        what = "one key at a time" if len(text.split()) > 1 else "a key or a command"
        session.say(f"not understood: {text!r}; type {what} (keys: {keys}; h = help)",
                    "error")
        return False
    action = int(text)
    if action not in legal:
        session.say(f"no action {action} here: choose one of the keys {keys}", "error")
        return False
    what = session.env.game.describe_action(session.state, action)
    streams = {seat: _streams(agent) for seat, agent in session.agents.items()}
    session.history.append((session.state.copy(), what, streams))
    session.env.step(action)
    session.say(f"you: {what}", "you")
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
                session.printer.prompt()
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
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym play --game planes --players 3 --seat 0 --vs "
                                "rule_based random")
    parser.add_argument("--game", default=None, metavar="NAME",
                        help="game name (taken from --load if given)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seat", type=int, default=None, help="your seat (default 0)")
    parser.add_argument("--vs", nargs="+", default=None, metavar="AGENT",
                        help="agent kind for every other seat, or one per other seat "
                             "(random, rule_based, mcts, mcts:N, tuned, tuned:FILE); default "
                             "rule_based")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--load", default=None, metavar="FILE",
                        help="continue a game saved with 's FILE'")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option (repeatable)")
    parser.add_argument("--open", action="store_true",
                        help="show every seat's hidden cards (a teaching view)")
    parser.add_argument("--plain", action="store_true",
                        help="no colours (also without rich or when not on a terminal)")
    parser.add_argument("--window", action="store_true",
                        help="also show the picture in a pygame window (the render extra)")
    args = parser.parse_args(argv)
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    try:
        session = _start(args, out)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    session.open_table = args.open
    if args.window:
        try:
            session.window = open_window(session)
        except ValueError as exc:
            sys.stderr.write(f"error: {exc}\n")
            return 2
    try:
        run(session, inp)
    finally:
        if session.window is not None:
            session.window.close()
    return 0


def open_window(session: Session) -> Window:
    """The pygame window of ``--window``. The pictures are a spectator's view: they show
    Automobile's demand tiles, so that game needs ``--open`` too."""
    game = session.env.game
    if game.name == "automobile" and not session.open_table:
        raise ConfigError("--window shows every seat's demand tiles in Automobile; "
                          "add --open to play with them visible")
    return Window(f"transit-gym: {game.name}")


def _start(args: argparse.Namespace, out: TextIO) -> Session:
    """The session the command line asks for: new, or resumed from ``--load``."""
    if args.load is None:
        if args.game is None:
            raise ConfigError("--game is required (or --load FILE)")
        return new_session(args.game, args.players, 0 if args.seat is None else args.seat,
                           args.vs or ["rule_based"], args.seed, parse_options(args.option),
                           out, plain=args.plain)
    state, saved = read_save(args.load)
    game = state.game
    if args.game not in (None, game.name):
        raise ConfigError(f"{args.load} holds a {game.name} game, not {args.game}")
    options = {k: v for k, v in game.options.items() if k != "num_players"}
    seat = args.seat if args.seat is not None else int(saved.get("seat", 0))
    vs = args.vs or _saved_specs(saved, game.num_players, seat) or ["rule_based"]
    saved_seed = saved.get("seed")
    agent_seed = args.seed if args.seed is not None else (
        saved_seed if isinstance(saved_seed, int) else None)
    session = new_session(game.name, game.num_players, seat, vs, agent_seed, options, out,
                          plain=args.plain, announce=False)
    load_into(session, state, saved)
    session.say(header(session), "header")
    session.say(f"continuing {args.load}")
    return session


def _saved_specs(saved: dict[str, Any], players: int, seat: int) -> list[str] | None:
    """The agents' kinds stored in a save, in seat order, if they fit this seat."""
    specs = saved.get("vs")
    if not isinstance(specs, dict):
        return None
    kinds = [specs.get(str(s)) for s in range(players) if s != seat]
    return kinds if all(isinstance(k, str) for k in kinds) else None
