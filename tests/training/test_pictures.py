"""``docs/img`` is redrawn by one command and checked against it."""

from __future__ import annotations

import json
import shutil

import pytest

from transit_gym.training import pictures

pytest.importorskip("PIL")


def test_every_picture_in_docs_img_is_what_its_command_draws():
    """3 of 4 images no longer matched their documented commands.
    Every picture is listed with its command, and redrawing it (with the pixel font, so
    the check does not depend on the Pillow and FreeType versions) gives the recorded
    pixels; the files hold the recorded pictures."""
    folder = pictures.default_folder()
    assert pictures.check(folder) == []
    names = {p.name for p in pictures.PICTURES}
    assert {f.name for f in folder.iterdir() if f.suffix in (".png", ".gif")} == names
    page = (folder.parent / "pictures.md").read_text()
    for picture in pictures.PICTURES:
        assert f"img/{picture.name}" in page


def test_the_check_names_a_stale_file_a_changed_drawing_and_a_changed_command(tmp_path):
    folder = tmp_path / "img"
    shutil.copytree(pictures.default_folder(), folder)
    only = ["loose_caboose.png", "planes.png"]
    assert pictures.check(folder, only) == []
    shutil.copy(folder / "planes.png", folder / "loose_caboose.png")
    manifest = json.loads((folder / pictures.MANIFEST).read_text())
    manifest["planes.png"]["pixel_font"] = "0" * 64
    manifest["planes.png"]["command"] = "python -m something else"
    (folder / pictures.MANIFEST).write_text(json.dumps(manifest))
    problems = pictures.check(folder, only)
    assert "loose_caboose.png: the file is not the picture recorded" in problems
    assert "planes.png: its command now draws a different picture" in problems
    assert "planes.png: recorded for another command" in problems
    assert pictures.main(["--check", "--folder", str(folder), "--only", *only]) == 1
    (folder / "planes.png").unlink()
    assert any("planes.png: missing; run transit-gym replay" in p
               for p in pictures.check(folder, only))
