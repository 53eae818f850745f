"""A bad output path is refused before the long work that would fill it: replay checks
``--out`` before playing, pictures checks ``--folder`` before drawing."""

from __future__ import annotations

import pytest

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training import out_file, pictures, replay


@pytest.fixture
def no_work(monkeypatch):
    """Playing or drawing fails the test: the path must be refused first."""
    def refuse(*args, **kwargs):
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr(replay, "record", refuse)
    monkeypatch.setattr(pictures, "regenerate", refuse)


def _replay(out, capsys) -> str:
    assert replay.main(["--game", "loose_caboose", "--out", str(out)]) == 2
    return capsys.readouterr().err


def test_replay_into_a_missing_folder_is_refused_before_playing(tmp_path, capsys, no_work):
    err = _replay(tmp_path / "missing" / "x.gif", capsys)
    assert "does not exist" in err and "missing" in err
    assert "Errno" not in err


def test_replay_with_an_unsupported_suffix_or_a_folder_is_refused(tmp_path, capsys, no_work):
    assert "--out must end in one of" in _replay(tmp_path / "x.avi", capsys)
    (tmp_path / "pic.gif").mkdir()
    assert "is a folder" in _replay(tmp_path / "pic.gif", capsys)


def test_replay_into_a_folder_it_may_not_write_is_refused(tmp_path, capsys, no_work,
                                                          monkeypatch):
    monkeypatch.setattr(out_file.os, "access", lambda path, mode: False)
    assert "no permission to write" in _replay(tmp_path / "x.png", capsys)


def test_a_good_path_passes_the_check(tmp_path):
    out_file.check_out_file(tmp_path / "x.GIF", replay.WRITERS)
    with pytest.raises(ConfigError, match="does not exist"):
        out_file.check_out_file(tmp_path / "a" / "x.gif", replay.WRITERS)


def test_pictures_into_a_folder_under_a_file_is_refused_before_drawing(tmp_path, capsys,
                                                                       no_work):
    (tmp_path / "file").write_text("")
    assert pictures.main(["--folder", str(tmp_path / "file" / "img")]) == 2
    assert "cannot create the folder" in capsys.readouterr().err
    assert pictures.main(["--folder", str(tmp_path / "file")]) == 2
    assert "is a file" in capsys.readouterr().err
