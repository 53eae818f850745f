"""Record a seeded game between built-in agents as a GIF, an MP4 or one PNG frame.

    transit-gym replay --game planes --players 4 --agents rule_based \\
        --seed 3 --out planes.gif

Every frame is the game's ``rgb_array`` picture with a caption naming the decision just
taken. ``--every K`` keeps one frame in K decisions (the first and last are always kept).
An ``.mp4`` needs the ``ffmpeg`` program on the PATH; a ``.png`` writes the single frame
after ``--at`` decisions (the last one by default). ``--scale N`` draws N times larger.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.render import FELT, WHITE, Canvas, fit, zoom, zoomed
from transit_gym.envs.registry import env_module, game_for_cli
from transit_gym.training.out_file import check_out_file
from transit_gym.training.runs.options import parse_options
from transit_gym.training.tool_parser import ToolParser

CAPTION_H = 20
WRITERS = (".gif", ".mp4", ".png")


def seat_specs(agents: list[str], players: int) -> list[str]:
    """One agent kind per seat: a single kind for every seat, or exactly one per seat."""
    if len(agents) == 1:
        return agents * players
    if len(agents) != players:
        raise ConfigError(f"--agents takes one agent kind or {players} (one per seat), "
                          f"got {len(agents)}: {agents}")
    return list(agents)


def captioned(picture: np.ndarray, caption: str) -> np.ndarray:
    """``picture`` with a caption strip added below it."""
    height, width = picture.shape[0] // zoom(), picture.shape[1] // zoom()
    canvas = Canvas(height + CAPTION_H, width, (0, 0, 0))
    canvas.paste(0, 0, picture)
    canvas.text(6, height + 5, fit(caption, width - 12), WHITE)
    return canvas.image()


def same_size(frames: list[np.ndarray]) -> list[np.ndarray]:
    """Pad every frame (bottom and right, table colour) to the largest height and width."""
    height = max(f.shape[0] for f in frames)
    width = max(f.shape[1] for f in frames)
    out = []
    for frame in frames:
        if frame.shape[:2] == (height, width):
            out.append(frame)
            continue
        padded = np.empty((height, width, 3), dtype=np.uint8)
        padded[:, :] = FELT
        padded[:frame.shape[0], :frame.shape[1]] = frame
        out.append(padded)
    return out


def record(game_name: str, players: int | None, agents: list[str], seed: int,
           options: dict[str, Any] | None = None, every: int = 1,
           at: int | None = None, scale: int = 1) -> list[np.ndarray]:
    """Play one seeded game and return its frames (all the same size), drawn ``scale``
    times larger than the games' layout (text stays sharp with Pillow's font).

    With ``at`` set, only the frame after ``at`` decisions is returned (the last frame if
    the game is shorter)."""
    with zoomed(scale):
        return _record(game_name, players, agents, seed, options, every, at)


def _record(game_name: str, players: int | None, agents: list[str], seed: int,
            options: dict[str, Any] | None, every: int, at: int | None) -> list[np.ndarray]:
    if every < 1:
        raise ConfigError(f"--every must be at least 1, got {every}")
    if at is not None and at < 0:
        raise ConfigError(f"--at must be 0 or more, got {at}")
    _, players = game_for_cli(game_name, players)
    env = env_module(game_name).raw_env(num_players=players, render_mode="rgb_array",
                                        **(options or {}))
    env.reset(seed=seed)
    game = env.game
    seats = [make_agent(kind, game, seed=seed + 1 + i)
             for i, kind in enumerate(seat_specs(agents, players))]
    frames = [captioned(env.render(), f"{game_name} seed {seed}: start")]
    step = 0
    while (at is None or step < at) and not game.is_over(env.game_state):
        player = game.current_player(env.game_state)
        action = seats[player].act_state(env.game_state, player)
        caption = f"{step + 1}: P{player} {game.describe_action(env.game_state, action)}"
        env.step(action)
        step += 1
        last = game.is_over(env.game_state) or step == at
        if at is None and (step % every == 0 or last) or at is not None and last:
            frames.append(captioned(env.render(), caption))
    if at is not None:
        frames = frames[-1:]
    return same_size(frames)


def write_gif(frames: list[np.ndarray], path: Path, fps: float) -> None:
    """An endlessly looping animated GIF (Pillow)."""
    from PIL import Image

    images = [Image.fromarray(f) for f in frames]
    images[0].save(path, save_all=True, append_images=images[1:],
                   duration=max(int(round(1000 / fps)), 20), loop=0, optimize=False)


def find_ffmpeg(path: Path) -> str:
    """The ``ffmpeg`` program an MP4 needs (``ConfigError`` when it is not on the PATH)."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise ConfigError(f"cannot write {path}: MP4 needs the ffmpeg program on the PATH; "
                          "write a .gif instead")
    return ffmpeg


def write_mp4(frames: list[np.ndarray], path: Path, fps: float) -> None:
    """An H.264 MP4 through the ``ffmpeg`` program (raw RGB frames on its stdin)."""
    ffmpeg = find_ffmpeg(path)
    height, width = frames[0].shape[:2]
    command = [ffmpeg, "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
               "-s", f"{width}x{height}", "-r", str(fps), "-i", "-",
               "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", str(path)]
    data = b"".join(np.ascontiguousarray(f).tobytes() for f in frames)
    subprocess.run(command, input=data, check=True)


def write(frames: list[np.ndarray], path: Path, fps: float) -> None:
    """Write ``frames`` to ``path``: the suffix chooses GIF, MP4 or a PNG of the last one."""
    suffix = path.suffix.lower()
    if suffix not in WRITERS:
        raise ConfigError(f"--out must end in one of {WRITERS}, got {path.name!r}")
    if fps <= 0:
        raise ConfigError(f"--fps must be positive, got {fps}")
    if suffix == ".gif":
        write_gif(frames, path, fps)
    elif suffix == ".mp4":
        write_mp4(frames, path, fps)
    else:
        from PIL import Image

        Image.fromarray(frames[-1]).save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym replay --game loose_caboose --players 3 --seed 3 "
                                "--at 30 --out caboose.png")
    parser.add_argument("--game", required=True, metavar="NAME")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agents", nargs="+", default=["rule_based"], metavar="AGENT",
                        help="agent kind for every seat, or one per seat (random, rule_based, "
                             "mcts, tuned, tuned:FILE)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="file.gif, file.mp4 or file.png (its folder must exist)")
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="keep one frame in K decisions")
    parser.add_argument("--at", type=int, default=None, metavar="N",
                        help="for a .png: the frame after this many decisions")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option (repeatable)")
    parser.add_argument("--scale", type=int, default=1, metavar="N",
                        help="draw the pictures this many times larger (1-16)")
    args = parser.parse_args(argv)
    try:
        check_out_file(args.out, WRITERS)   # before the game, not after it
        if args.out.suffix.lower() == ".mp4":
            find_ffmpeg(args.out)
        at = args.at if args.out.suffix.lower() == ".png" else None
        frames = record(args.game, args.players, args.agents, args.seed,
                        parse_options(args.option), args.every, at, args.scale)
        write(frames, args.out, args.fps)
    except (ValueError, OSError, subprocess.CalledProcessError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    height, width = frames[0].shape[:2]
    print(f"wrote {args.out}: {len(frames)} frame(s) of {width}x{height}")
    return 0
