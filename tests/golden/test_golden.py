"""Golden playthroughs: the recorded seeded games replay with the same observations,
masks and rewards at every step (regenerate with ``python -m tests.golden.playthrough``
after an intended rules change)."""

from __future__ import annotations

import json

import pytest

from tests.golden.playthrough import FORMAT, cases, path_of, play

CASES = cases()


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_golden_playthrough_replays_identically(name, players):
    path = path_of(name, players)
    assert path.exists(), f"no golden file {path.name}: run python -m tests.golden.playthrough"
    golden = json.loads(path.read_text())
    assert golden["format"] == FORMAT
    replay = play(name, players, actions=golden["actions"])
    for i, (want, got) in enumerate(zip(golden["steps"], replay["steps"], strict=False)):
        assert got == want, (
            f"{name} {players}p diverges at step {i} (seat:mask digest:observation digest): "
            f"recorded {want}, now {got}. If this rules change is intended, regenerate with "
            f"`python -m tests.golden.playthrough {name}` and say why in the commit"
        )
    assert len(replay["steps"]) == len(golden["steps"])
    assert replay["rewards"] == golden["rewards"]
    assert replay["final_state"] == golden["final_state"]
    assert replay["final_obs"] == golden["final_obs"]


def test_golden_seeded_choice_is_reproducible():
    """The recorder itself is deterministic: two recordings of one case are equal."""
    name, players = CASES[0]
    assert play(name, players) == play(name, players)
