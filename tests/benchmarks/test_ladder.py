"""The ladder tool: every cell is the tournament's score rate for the same
seed, with its interval and game count; per-agent training time and hint notes; clear
errors for bad games, agents and counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transit_gym.agents.learned.ppo import shipped_checkpoint
from transit_gym.agents.registry import make_agent
from transit_gym.agents.tuned import SHIPPED
from transit_gym.benchmarks.strength import ladder
from transit_gym.envs.registry import cached_game
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tournament import pair_game_count, parse_games_for, run_tournament

AGENTS = ["random", "rule_based", "mcts:20"]


@pytest.fixture(scope="module")
def small_ladder():
    return ladder.run_ladder("loose_caboose", 2, AGENTS, 6, seed=3,
                             games_for={"mcts:20": 4}, cpu_moves=2, progress=False)


def test_cells_equal_the_tournament_of_the_same_seed(small_ladder):
    same = run_tournament("loose_caboose", 2, AGENTS, 6, seed=3, workers=1, progress=False,
                          games_for={"mcts:20": 4})
    assert small_ladder["score_rate"] == same["score_rate"]
    assert small_ladder["pair_games"] == same["pair_games"]
    # a pair with fewer games plays the first games of the plain tournament of that count
    alone = run_tournament("loose_caboose", 2, ["random", "mcts:20"], 4, seed=3, workers=1,
                           progress=False)
    assert small_ladder["score_rate"]["random"]["mcts:20"] == alone["score_rate"]["random"][
        "mcts:20"]


def test_games_for_sets_the_count_of_the_pairs_holding_that_agent(small_ladder):
    games = small_ladder["pair_games"]
    assert games["random"]["rule_based"] == games["rule_based"]["random"] == 6
    assert games["random"]["mcts:20"] == games["rule_based"]["mcts:20"] == 4
    assert pair_game_count("a", "b", 100, {"a": 40, "b": 20}) == 20
    assert pair_game_count("a", "c", 100, {"b": 20}) == 100


def test_each_cell_shows_rate_wilson_interval_and_count(small_ladder):
    text = ladder.markdown(small_ladder)
    rate = small_ladder["score_rate"]["rule_based"]["random"]
    low, high = wilson_interval(6 * rate, 6)
    assert small_ladder["score_interval"]["rule_based"]["random"] == pytest.approx([low, high])
    row = next(line for line in text.splitlines() if line.startswith("| `rule_based` |"))
    assert f"{100 * rate:.1f}% ({100 * low:.0f}-{100 * high:.0f}, 6)" in row
    for name in AGENTS:   # one row of the agents table each, with its CPU time
        info = small_ladder["agent_info"][name]
        assert f"| `{name}` | " in text and f"| {info['cpu_ms_per_move']:.2f} |" in text
    assert small_ladder["agent_info"]["mcts:20"]["hints"] == "none (random rollouts)"


def test_training_time_is_read_from_what_the_agent_ships_with():
    caboose = cached_game("loose_caboose", 2, ())
    report = json.loads(Path(shipped_checkpoint(caboose)).with_suffix(".json").read_text())
    assert ladder.training_seconds("ppo", caboose) == report["train_seconds"]
    assert ladder.training_seconds("rule_based", caboose) is None
    assert ladder.training_seconds("mcts", caboose) is None
    automobiles = cached_game("automobiles", 2, ())
    tuned = json.loads(SHIPPED["automobiles"].read_text())
    assert ladder.training_seconds("tuned", automobiles) == tuned["meta"]["tuning_seconds"]
    assert ladder.training_seconds("net", automobiles) == ladder.SEE_DOCS


def test_hint_column_names_the_hinted_ppo_policies():
    """The Automobiles ppo policy adds the rule-based choice to its logits (its report
    records ``hint``); the Loose Caboose! one does not."""
    automobiles = cached_game("automobiles", 2, ())
    caboose = cached_game("loose_caboose", 2, ())
    assert "rule-based choice" in ladder.hint_note("ppo", automobiles, None)
    assert ladder.hint_note("ppo", caboose, None) == "none (observation only)"
    net = make_agent("net", automobiles, seed=0)
    assert ladder.hint_note("net", automobiles, net).startswith("none when playing")
    assert ladder.hint_note("rule_based", caboose, None) == "hand-written rules"


def test_main_writes_markdown_and_json(tmp_path, capsys):
    out = tmp_path / "ladders" / "lc.json"
    report = ladder.main(["--game", "loose_caboose", "--agents", "random", "rule_based",
                          "--games", "4", "--cpu-moves", "2", "--out", str(out), "--quiet"])
    saved = json.loads(out.read_text())
    assert saved["score_rate"] == report["score_rate"]
    assert saved["command"].startswith("transit-gym ladder --game")
    assert out.with_suffix(".md").read_text() in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess", "--agents", "random", "rule_based"], "unknown game"),
        (["--game", "loose_caboose", "--agents", "random", "wizard"], "unknown agent"),
        (["--game", "loose_caboose", "--agents", "random", "mcts:x"], "bad search agent"),
        (["--game", "loose_caboose", "--agents", "random"], "two distinct agents"),
        (["--game", "loose_caboose", "--agents", "random", "rule_based", "--games-for",
          "mcts=0"], "--games-for takes SPEC=N"),
        (["--game", "loose_caboose", "--agents", "random", "rule_based", "--games-for",
          "mcts=10"], "not among the agents"),
        (["--game", "loose_caboose", "--agents", "random", "rule_based", "--out", "x.txt"],
         ".md or .json"),
        (["--game", "planes", "--agents", "random", "net"], "no shipped network"),
    ],
)
def test_bad_arguments_give_clear_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        ladder.main([*argv, "--quiet"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_games_for_parsing():
    assert parse_games_for(["mcts:1000=40", "mcts=100"]) == {"mcts:1000": 40, "mcts": 100}
    assert parse_games_for(None) == {}


def test_a_games_folder_resumes_when_a_pair_count_grows(tmp_path):
    """``--games-dir`` keeps the games: raising ``--games-for`` plays only the new ones, and
    the ratings equal those of a fresh run with the larger count."""
    run_tournament("loose_caboose", 2, AGENTS, 4, seed=5, workers=1, progress=False,
                   games_for={"mcts:20": 2}, out=tmp_path)
    grown = run_tournament("loose_caboose", 2, AGENTS, 4, seed=5, workers=1, progress=False,
                           games_for={"mcts:20": 3}, out=tmp_path)
    fresh = run_tournament("loose_caboose", 2, AGENTS, 4, seed=5, workers=1, progress=False,
                           games_for={"mcts:20": 3})
    assert grown["games_played"] == 2   # game 2 of the two pairs holding mcts:20
    assert grown["score_rate"] == fresh["score_rate"]
    assert grown["pair_games"] == fresh["pair_games"]


def test_summary_row_per_agent_from_the_json_reports(small_ladder, tmp_path, capsys):
    from transit_gym.benchmarks.strength import ladder_summary

    path = tmp_path / "lc.json"
    path.write_text(json.dumps({**small_ladder, "command": "x"}))
    text = ladder_summary.main([str(path)])
    assert text == capsys.readouterr().out
    rows = [line for line in text.splitlines() if "`" in line and "vs `" not in line]
    assert [row.split("|")[2].strip() for row in rows] == [f"`{a}`" for a in AGENTS]
    rate = small_ladder["score_rate"]["mcts:20"]["random"]
    assert f"{100 * rate:.1f}%" in rows[2].split("|")[3]
    assert rows[2].split("|")[5].strip() == ""   # no mcts in this ladder: blank, not made up
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(SystemExit):
        ladder_summary.main([str(bad)])
    assert "not a ladder report" in capsys.readouterr().err


def test_a_games_folder_refuses_a_retrained_network(tmp_path, monkeypatch):
    """The games of ``net`` are kept with the network file's fingerprint: a network
    retrained into the same file is another agent, so the folder is refused."""
    from transit_gym.agents.learned import net_agent
    from transit_gym.envs.core.errors import ConfigError

    shipped = net_agent.shipped_network_path(cached_game("automobiles", 2, ()))
    copy = tmp_path / "automobiles_2p_net.npz"
    copy.write_bytes(shipped.read_bytes())
    monkeypatch.setattr(net_agent, "CHECKPOINTS", tmp_path)
    run_tournament("automobiles", 2, ["random", "net"], 1, seed=0, workers=1,
                   progress=False, out=tmp_path / "games")
    copy.write_bytes(shipped.read_bytes()[:-64] + bytes(64))   # "retrained": other bytes
    with pytest.raises(ConfigError, match="checkpoints.net"):
        run_tournament("automobiles", 2, ["random", "net"], 1, seed=0, workers=1,
                       progress=False, out=tmp_path / "games")


def test_a_games_folder_of_another_ladder_is_refused_before_any_timing(tmp_path, capsys,
                                                                      monkeypatch):
    ladder.main(["--game", "loose_caboose", "--agents", "random", "rule_based", "--games",
                 "2", "--cpu-moves", "1", "--games-dir", str(tmp_path), "--quiet"])

    def no_timing(*args):
        raise AssertionError("timed the agents before refusing the folder")

    monkeypatch.setattr(ladder, "cpu_per_move", no_timing)
    with pytest.raises(SystemExit) as exit_info:
        ladder.main(["--game", "loose_caboose", "--agents", "random", "rule_based", "--games",
                     "2", "--seed", "4", "--cpu-moves", "1", "--games-dir", str(tmp_path),
                     "--quiet"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "seed: stored 0, now 4" in err


def test_stored_only_rates_the_games_held_and_plays_none(tmp_path):
    """A stopped ladder's page: each cell counts the games stored, a pair without any says
    'not played', and no game is played."""
    run_tournament("loose_caboose", 2, AGENTS, 3, seed=6, workers=1, progress=False,
                   games_for={"mcts:20": 2}, out=tmp_path)
    csv = tmp_path / "games.csv"
    lines = csv.read_text().splitlines(keepends=True)
    csv.write_text("".join(line for line in lines if not line.startswith("1-2,")))
    report = ladder.run_ladder("loose_caboose", 2, AGENTS, 200, seed=6, cpu_moves=1,
                               progress=False, games_dir=tmp_path, stored_only=True)
    assert report["games_played"] == 0
    assert report["pair_games"]["random"] == {"rule_based": 3, "mcts:20": 2}
    assert report["score_rate"]["rule_based"]["mcts:20"] is None
    text = ladder.markdown(report)
    assert "Stored games only" in text
    row = next(line for line in text.splitlines() if line.startswith("| `rule_based` |"))
    assert row.endswith("| not played |")


def test_hint_column_names_the_searchs_guide():
    """A search's hint is its rollout policy and its prior's guide: rule-based in Planes,
    the tuned agent in Automobiles and the season (their default rollouts are tuned), none
    with random rollouts and no prior (the Loose Caboose! default)."""
    from transit_gym.agents.search.mcts import MCTSAgent

    automobiles = cached_game("automobiles", 2, ())
    planes = cached_game("planes", 2, ())
    season = cached_game("automobiles_season", 2, ())
    caboose = cached_game("loose_caboose", 2, ())
    assert ladder.hint_note("mcts", automobiles, MCTSAgent(automobiles)) == \
        "tuned rollouts and tuned prior"
    assert ladder.hint_note("mcts", planes, MCTSAgent(planes)) == \
        "rule-based rollouts and rule-based prior"
    assert ladder.hint_note("mcts", season, MCTSAgent(season)) == \
        "tuned rollouts and tuned prior"
    assert ladder.hint_note("mcts", caboose, MCTSAgent(caboose)) == "none (random rollouts)"
