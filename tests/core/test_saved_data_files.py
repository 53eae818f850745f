"""Saved states never open the files their options name.

A game built from a user data file reads it once; ``State.to_dict()`` and pickles carry
its text and SHA-256 digest, and ``State.from_dict`` / unpickling rebuild the game from
that copy. A path with no carried copy, or a copy that fails its digest, is refused with
``StateDictError``. The tests prove the path is not opened by deleting or rewriting the
file before loading.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from transit_gym.envs.core.embedded import digest
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State, _rebuild_game
from transit_gym.envs.registry import env_module, game_class

ENVS = Path(__file__).resolve().parents[2] / "envs"


def _planes_cards() -> str:
    text = (ENVS / "planes" / "data.toml").read_text()
    return text[text.index("[[cards]]"):]


#: (game, option, text of a valid user file, another valid text)
FILE_OPTIONS = [
    ("automobiles", "track", (ENVS / "automobiles" / "track_daytona.toml").read_text(),
     (ENVS / "automobiles" / "track_monza.toml").read_text()),
    ("automobiles", "card_data", "# the shipped tables\n", "[setup]\nhand_size = 8\n"),
    ("automobile", "data", "# the shipped tables\n", "# another comment\n"),
    ("planes", "airport", (ENVS / "planes" / "airports" / "zephyr.toml").read_text(),
     (ENVS / "planes" / "airports" / "flying_cloud.toml").read_text()),
    ("planes", "cards", _planes_cards(), _planes_cards() + "\n# changed\n"),
    ("automobiles_season", "sponsor_data",   # Racing Season sponsors
     (ENVS / "automobiles" / "racing_season" / "sponsors.toml").read_text(),
     (ENVS / "automobiles" / "racing_season" / "sponsors.toml").read_text() + "\n# changed\n"),
    ("automobiles", "driver_data", "# the shipped drivers\n",
     "[[drivers]]\nnumber = 1\namount = 2\n"),
    ("automobiles", "track_data", "# the shipped grids\n",
     "[[daytona.grid]]\nslot = 1\nallowance = 12\n"),
    # the season reads these once and hands its copies to every race
    ("automobiles_season", "driver_data", "[[drivers]]\nnumber = 9\namount = 3\n",
     "[[drivers]]\nnumber = 1\namount = 2\n"),
    ("automobiles_season", "card_data", "# the shipped tables\n", "[setup]\nhand_size = 8\n"),
    ("loose_caboose", "deck", "# the shipped deck\n",
     "[setup]\ninitial_railway = 4\ncards_removed = { 2 = 13, 3 = 11, 4 = 7 }\nhand_size = 2\n"),
]
IDS = [f"{g}-{o}" for g, o, _, _ in FILE_OPTIONS]


def _game_with_file(tmp_path, name: str, option: str, text: str):
    path = tmp_path / f"user_{option}.toml"
    path.write_text(text)
    cls = game_class(name)
    return cls(num_players=cls.min_players + 1, **{option: str(path)}), path


def _mid_game(game, moves: int = 12) -> State:
    state = game.new_state(3)
    rng = np.random.default_rng(3)
    for _ in range(moves):
        if game.is_over(state):
            break
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    return state


@pytest.mark.parametrize(("name", "option", "text", "other"), FILE_OPTIONS, ids=IDS)
def test_saved_state_carries_the_file_and_loads_without_it(tmp_path, name, option, text,
                                                           other):
    """``to_dict`` embeds the text and digest; after the file is deleted, and again after
    it is rewritten with other content, ``from_dict`` and unpickling rebuild the same game
    from the embedded copy (so the path was never opened)."""
    game, path = _game_with_file(tmp_path, name, option, text)
    state = _mid_game(game)
    payload = json.loads(json.dumps(state.to_dict()))
    pickled = pickle.dumps(state)
    carried = payload["data_files"][option]
    assert carried["path"] == str(path) and carried["text"] == text
    assert carried["sha256"] == game.data_files[option].sha256
    path.unlink()
    restored = State.from_dict(payload)
    assert restored == state and restored.game.data_files[option].text == text
    assert pickle.loads(pickled) == state
    path.write_text(other)
    assert State.from_dict(payload) == state
    assert pickle.loads(pickled).game.data_files[option].text == text


@pytest.mark.parametrize(("name", "option", "text", "other"), FILE_OPTIONS, ids=IDS)
def test_tampered_embedded_file_fails_its_digest(tmp_path, name, option, text, other):
    """An embedded text changed without its digest is refused, naming the option."""
    game, _ = _game_with_file(tmp_path, name, option, text)
    payload = json.loads(json.dumps(game.new_state(1).to_dict()))
    payload["data_files"][option]["text"] = other
    with pytest.raises(StateDictError, match=f"{option}.*digest"):
        State.from_dict(payload)


@pytest.mark.parametrize(("name", "option", "text", "other"), FILE_OPTIONS, ids=IDS)
def test_path_without_embedded_content_is_refused(tmp_path, name, option, text, other):
    """A state dict or pickle naming a file but carrying no copy is refused, even though
    the (valid) file exists: loading never falls back to reading the path."""
    game, path = _game_with_file(tmp_path, name, option, text)
    payload = json.loads(json.dumps(game.new_state(1).to_dict()))
    del payload["data_files"]
    with pytest.raises(StateDictError, match=f"{option}=.*embeds no content"):
        State.from_dict(payload)

    class Tampered:
        def __reduce__(self):
            return (_rebuild_game, (type(game), game.options))

    with pytest.raises(StateDictError, match="embeds no content"):
        pickle.loads(pickle.dumps(Tampered()))
    assert path.read_text() == text


@pytest.mark.parametrize(("name", "option", "text", "other"), FILE_OPTIONS, ids=IDS)
def test_embedded_copy_must_match_the_option_and_be_valid(tmp_path, name, option, text,
                                                          other):
    """The carried copy must name the option's path, have the three keys, and parse as
    the game's data; a copy for an option that names no file is refused."""
    game, _ = _game_with_file(tmp_path, name, option, text)
    base = json.loads(json.dumps(game.new_state(1).to_dict()))
    wrong_path = json.loads(json.dumps(base))
    wrong_path["data_files"][option]["path"] = "/etc/passwd"
    missing_key = json.loads(json.dumps(base))
    del missing_key["data_files"][option]["sha256"]
    not_toml = json.loads(json.dumps(base))
    not_toml["data_files"][option].update(text="= = =", sha256=digest("= = ="))
    unused = json.loads(json.dumps(base))
    unused["data_files"]["first_player"] = base["data_files"][option]
    not_table = json.loads(json.dumps(base))
    not_table["data_files"] = [1, 2]
    for bad, match in ((wrong_path, "option names"), (missing_key, "keys"),
                       (not_toml, "not valid TOML"), (unused, "name no data file"),
                       (not_table, "'data_files' must be a table")):
        with pytest.raises(StateDictError, match=match):
            State.from_dict(bad)


def test_untrusted_path_is_never_read(tmp_path):
    """A hand-made dict naming any file (here one that would parse) is refused before the
    file is opened; the refusal names the option."""
    secret = tmp_path / "secret.toml"
    secret.write_text("# private\n")
    game = game_class("loose_caboose")(num_players=2)
    payload = game.new_state(0).to_dict()
    payload["options"]["deck"] = str(secret)
    with pytest.raises(StateDictError, match="deck="):
        State.from_dict(payload)


@pytest.mark.parametrize(("name", "option", "value"), [
    ("automobiles", "track", "monza"), ("planes", "airport", "zephyr"),
])
def test_builtin_names_need_nothing_embedded(name, option, value):
    """The shipped boards are named, not embedded, and load as before."""
    game = game_class(name)(**{option: value})
    payload = json.loads(json.dumps(game.new_state(2).to_dict()))
    assert "data_files" not in payload
    assert State.from_dict(payload) == game.new_state(2)


def test_game_identity_includes_the_file_content(tmp_path):
    """Two games built from the same path with different content differ, so an env or a
    batch built from the old file refuses a state of the new one; the restored game of a
    saved state equals the game built from the file, so ``set_state`` accepts it."""
    name, option, text, other = FILE_OPTIONS[-1]
    game, path = _game_with_file(tmp_path, name, option, text)
    state = _mid_game(game)
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.game == game and hash(restored.game) == hash(game)
    env = env_module(name).raw_env(num_players=game.num_players, **{option: str(path)})
    env.reset(seed=0)
    env.set_state(restored)
    assert np.array_equal(env.state(), state.data)
    path.write_text(other)
    changed = type(game)(num_players=game.num_players, **{option: str(path)})
    assert changed != game and changed.options == game.options
