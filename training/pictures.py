"""Regenerate (or check) the pictures of ``docs/img/`` with one command.

    transit-gym pictures            # redraw every picture
    transit-gym pictures --check    # exit 1 if one is out of date

Each picture is one :mod:`transit_gym.training.replay` command (listed in
:data:`PICTURES`). Redrawing writes the files and ``docs/img/pictures.json``, which records
per picture its command and two SHA-256 digests of its frames' pixels: ``drawn`` (as
written, with Pillow's TrueType font) and ``pixel_font`` (the same frames drawn with the
built-in pixel font, which depends on numpy alone). ``--check`` redraws every picture with
the pixel font and compares it with ``pixel_font`` (so a change in a game or a renderer
that was not followed by a redraw is caught on any machine, whatever its Pillow and
FreeType versions), and compares the files' own pixels with ``drawn``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.core import render
from transit_gym.training import replay
from transit_gym.training.out_file import check_out_folder
from transit_gym.training.tool_parser import ToolParser


@dataclass(frozen=True)
class Picture:
    """One file of ``docs/img``, drawn by ``replay`` with ``args`` (plus ``--out``)."""

    name: str
    args: tuple[str, ...]
    fps: float = 4.0

    def command(self) -> str:
        return ("transit-gym replay " + " ".join(self.args)
                + f" --out docs/img/{self.name}")


def _frame(game: str, at: int, players: int = 4) -> tuple[str, ...]:
    return ("--game", game, "--players", str(players), "--agents", "rule_based",
            "--seed", "3", "--at", str(at))


PICTURES: tuple[Picture, ...] = (
    Picture("automobiles.png", _frame("automobiles", 60)),
    Picture("automobile.png", _frame("automobile", 150)),
    Picture("planes.png", _frame("planes", 60)),
    Picture("loose_caboose.png", _frame("loose_caboose", 30)),
    Picture("automobiles_season.png", _frame("automobiles_season", 400, players=3)),
    Picture("loose_caboose.gif", ("--game", "loose_caboose", "--players", "3", "--agents",
                                  "rule_based", "--seed", "3", "--every", "2"), fps=2.0),
)
MANIFEST = "pictures.json"


def default_folder() -> Path:
    """``docs/img`` of the source tree this module sits in."""
    return Path(__file__).resolve().parents[1] / "docs" / "img"


def digest(frames: list[np.ndarray]) -> str:
    """SHA-256 of the frames' shapes and pixels."""
    h = hashlib.sha256()
    for frame in frames:
        h.update(repr(frame.shape).encode())
        h.update(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
    return h.hexdigest()


def draw(picture: Picture, pixel_font: bool = False) -> list[np.ndarray]:
    """The frames of ``picture`` as its command draws them (optionally with the pixel font)."""
    parser = argparse.ArgumentParser(add_help=False)
    for flag, kind in (("--game", str), ("--players", int), ("--seed", int), ("--at", int),
                       ("--every", int), ("--scale", int)):
        parser.add_argument(flag, type=kind)
    parser.add_argument("--agents", nargs="+")
    a = parser.parse_args(picture.args)
    before = render.USE_PILLOW
    render.USE_PILLOW = before and not pixel_font
    try:
        return replay.record(a.game, a.players, a.agents, a.seed, None, a.every or 1, a.at,
                             a.scale or 1)
    finally:
        render.USE_PILLOW = before


def read_frames(path: Path) -> list[np.ndarray]:
    """The RGB frames of a PNG or GIF file."""
    from PIL import Image, ImageSequence

    with Image.open(path) as image:
        return [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(image)]


def regenerate(folder: Path, names: list[str] | None = None) -> dict[str, dict]:
    """Redraw the pictures (all, or those in ``names``) into ``folder`` and update the
    manifest; returns the manifest."""
    path = folder / MANIFEST
    manifest = json.loads(path.read_text()) if path.exists() else {}
    for picture in PICTURES:
        if names and picture.name not in names:
            continue
        frames = draw(picture)
        replay.write(frames, folder / picture.name, picture.fps)
        manifest[picture.name] = {
            "command": picture.command(),
            "drawn": digest(read_frames(folder / picture.name)),
            "pixel_font": digest(draw(picture, pixel_font=True)),
        }
        print(f"wrote {folder / picture.name}", file=sys.stderr)
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def check(folder: Path, names: list[str] | None = None) -> list[str]:
    """The problems found: pictures missing, drawn differently by their command now, or
    whose file differs from what was recorded (empty when all is up to date)."""
    path = folder / MANIFEST
    manifest = json.loads(path.read_text()) if path.exists() else {}
    problems = []
    for picture in PICTURES:
        if names and picture.name not in names:
            continue
        entry = manifest.get(picture.name)
        if entry is None or not (folder / picture.name).exists():
            problems.append(f"{picture.name}: missing; run {picture.command()}")
            continue
        if entry.get("command") != picture.command():
            problems.append(f"{picture.name}: recorded for another command")
        if digest(draw(picture, pixel_font=True)) != entry.get("pixel_font"):
            problems.append(f"{picture.name}: its command now draws a different picture")
        if digest(read_frames(folder / picture.name)) != entry.get("drawn"):
            problems.append(f"{picture.name}: the file is not the picture recorded")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym pictures --check --only planes.png")
    parser.add_argument("--check", action="store_true",
                        help="do not write: exit 1 when a picture is out of date")
    names = [p.name for p in PICTURES]
    parser.add_argument("--only", nargs="+", default=None, choices=names, metavar="PICTURE",
                        help="these pictures only: " + ", ".join(names))
    parser.add_argument("--folder", type=Path, default=None, help="default: docs/img")
    args = parser.parse_args(argv)
    folder = args.folder or default_folder()
    if args.check:
        problems = check(folder, args.only)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print("redraw with: transit-gym pictures", file=sys.stderr)
        return 1 if problems else 0
    try:
        check_out_folder(folder, "--folder")   # before drawing, not after it
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    regenerate(folder, args.only)
    return 0
