"""Round-robin tournaments with Bradley-Terry Elo."""

from __future__ import annotations

import pytest

from transit_gym.training import tournament
from transit_gym.training.tournament import run_tournament, seating


def test_seats_alternate_between_the_two_agents_and_flip_every_game():
    assert seating(2, 0) == [0, 1] and seating(2, 1) == [1, 0]
    assert seating(3, 0) == [0, 1, 0] and seating(3, 1) == [1, 0, 1]


def test_rule_based_outrates_random_and_results_do_not_depend_on_workers():
    one = run_tournament("loose_caboose", 2, ["random", "rule_based"], 300, seed=1,
                         workers=1, progress=False)
    two = run_tournament("loose_caboose", 2, ["random", "rule_based"], 300, seed=1,
                         workers=2, progress=False)
    assert one == two
    elo = one["elo"]
    assert elo["rule_based"]["elo"] > elo["random"]["elo"]
    assert elo["rule_based"]["low"] > elo["random"]["high"], "intervals should separate"
    rate = one["score_rate"]
    assert rate["rule_based"]["random"] == pytest.approx(1 - rate["random"]["rule_based"])


def test_checkpoint_agents_play_through_the_python_path(tmp_path):
    """A MaskablePPO checkpoint is an agent like the built-in ones."""
    from transit_gym.training.train import train

    train("loose_caboose", 2, 512, ["random"], 0, tmp_path / "tiny", seed=0, n_envs=2,
          eval_games=2, options={}, n_steps=256, batch_size=64)
    checkpoint = str(tmp_path / "tiny.zip")
    report = run_tournament("loose_caboose", 2, ["random", checkpoint], 20, seed=2,
                            workers=1, progress=False)
    assert set(report["elo"]) == {"random", checkpoint}
    assert 0.0 <= report["score_rate"][checkpoint]["random"] <= 1.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game"),
        (["--game", "loose_caboose", "--players", "9"], "--players"),
        (["--game", "loose_caboose", "--games", "0"], "--games"),
        (["--game", "loose_caboose", "--agents", "random", "wizard"], "unknown agent"),
        (["--game", "loose_caboose", "--agents", "random"], "at least two agents"),
        (["--game", "loose_caboose", "--agents", "random", "random"], "distinct"),
        (["--game", "planes", "--option", "airport=nowhere"], "'nowhere' does not exist"),
        (["--game", "planes", "--option", "airport"], "--option takes key=value"),
    ],
)
def test_bad_arguments_give_clear_errors(argv, message, capsys):
    with pytest.raises(SystemExit):
        tournament.main([*argv, "--quiet"])
    assert message in capsys.readouterr().err


def test_env_options_reach_the_games_and_the_report(tmp_path, capsys):
    """``--option KEY=VALUE`` plays the tournament's games with that env option (Planes'
    second airport, Zephyr): the command's report is the one ``run_tournament`` gives
    with the option, which is stored in the folder's settings and named in the report."""
    argv = ["--game", "planes", "--agents", "random", "rule_based", "--games", "8",
            "--workers", "1", "--quiet"]
    zephyr = tournament.main([*argv, "--option", "airport=zephyr", "--out",
                              str(tmp_path / "z")])
    plain = run_tournament("planes", 2, ["random", "rule_based"], 8, seed=0, workers=1,
                           progress=False)
    direct = run_tournament("planes", 2, ["random", "rule_based"], 8, seed=0,
                            options={"airport": "zephyr"}, workers=1, progress=False)
    assert zephyr == direct and zephyr["options"] == {"airport": "zephyr"}
    assert plain["options"] == {}
    assert 'options airport="zephyr"' in (tmp_path / "z" / "report.md").read_text()
    assert '"airport": "zephyr"' in (tmp_path / "z" / "settings.json").read_text()
