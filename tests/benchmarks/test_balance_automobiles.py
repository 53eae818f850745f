"""Card-set balance of Automobiles: set parsing, per-game records and the
statistics of the report, checked on synthetic outcomes where the answer is known."""

from __future__ import annotations

import pytest

from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.benchmarks.balance.balance_report import set_statistics
from transit_gym.benchmarks.balance.card_sets import parse_sets
from transit_gym.benchmarks.balance.sweep import Sweep, run_sweep
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import CARD_COLOURS, COLOURS, SUGGESTED_SETS, load_cards
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError


def test_suggested_means_the_seven_named_sets():
    sets = parse_sets("automobiles", "suggested", 0, {})
    assert [name for name, _ in sets] == list(SUGGESTED_SETS)[:7]
    assert len(sets) == 7
    assert all(options == {"card_set": name} for name, options in sets)


def test_expansion_means_the_racing_season_six_sets():
    """``--sets expansion`` is the six Racing Season sets (R-YUC)."""
    sets = parse_sets("automobiles", "expansion", 0, {})
    assert [name for name, _ in sets] == list(SUGGESTED_SETS)[7:]
    assert "Rinse & Repeat" in dict(sets) and len(sets) == 6


def test_random_sets_are_distinct_one_card_per_colour_and_fixed_by_the_seed():
    cards = load_cards()
    first = parse_sets("automobiles", "random:6", 11, {})
    assert first == parse_sets("automobiles", "random:6", 11, {})
    assert first != parse_sets("automobiles", "random:6", 12, {})
    picks = [tuple(options["card_set"]) for _, options in first]
    assert len(set(picks)) == 6
    for pick in picks:
        colours = [int(cards.colours[cards.card_id(name)]) for name in pick]
        assert sorted(colours) == sorted(CARD_COLOURS)


def test_sets_file_is_parsed_and_its_mistakes_are_named(tmp_path):
    good = list(next(iter(SUGGESTED_SETS.values())))
    path = tmp_path / "sets.txt"
    path.write_text(f"# my sets\nmine: {', '.join(good)}\n{', '.join(reversed(good))}\n")
    sets = parse_sets("automobiles", str(path), 0, {})
    assert [name for name, _ in sets] == ["mine", "line3"]
    assert sets[1][1]["card_set"] == list(reversed(good))
    bad = tmp_path / "bad.txt"
    bad.write_text(f"x: {', '.join(good[:4])}, Flux Capacitor\n")
    with pytest.raises(ConfigError, match=r"bad.txt:1: .*Flux Capacitor"):
        parse_sets("automobiles", str(bad), 0, {})
    twice = tmp_path / "twice.txt"
    twice.write_text(f"a: {', '.join(good)}\na: {', '.join(good)}\n")
    with pytest.raises(ConfigError, match="used twice"):
        parse_sets("automobiles", str(twice), 0, {})
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(ConfigError, match="no card sets"):
        parse_sets("automobiles", str(empty), 0, {})
    with pytest.raises(ConfigError, match="random:N"):
        parse_sets("automobiles", "random:0", 0, {})
    with pytest.raises(ConfigError, match="no such file"):
        parse_sets("automobiles", "no/such/sets.txt", 0, {})


def _row(winner, rounds, last_change, red, blue, wear):
    row = {"set": "s", "game": 0, "decisions": 100, "rounds": rounds,
           "last_lead_change_round": last_change}
    for seat in range(2):
        row[f"win_s{seat}"] = 1.0 if seat == winner else 0.0
        row[f"s{seat}_bought_red"] = red[seat]
        row[f"s{seat}_bought_blue"] = blue[seat]
        row[f"s{seat}_activated_red"] = 2 * red[seat]
        row[f"s{seat}_activated_blue"] = 0
        row[f"s{seat}_wear_gained"] = wear[seat]
    return row


def test_statistics_on_synthetic_games_give_the_known_answers():
    rows = [
        _row(0, 10, 7, red=(3, 1), blue=(0, 0), wear=(4, 6)),   # top red buyer (0) wins
        _row(1, 12, 12, red=(2, 2), blue=(0, 5), wear=(2, 8)),  # red tie; blue buyer wins
        _row(0, 14, 10, red=(0, 4), blue=(1, 1), wear=(6, 4)),  # top red buyer (1) loses
        _row(0, 8, 2, red=(0, 0), blue=(2, 0), wear=(0, 0)),    # blue buyer wins
    ]
    stats = set_statistics(rows, players=2, seed=0)
    assert stats["seat_win_rate"] == [0.75, 0.25]
    assert stats["balance"] == pytest.approx(0.5)
    assert stats["first_player_advantage"] == pytest.approx(0.25)
    assert stats["rounds_mean"] == pytest.approx(11.0)
    assert stats["decisiveness_mean"] == pytest.approx((3 + 0 + 4 + 6) / 4)
    assert stats["wear_gained_mean"] == pytest.approx(30 / 8)
    red = stats["colours"]["red"]
    # top red buyers: g1 seat0 (won), g2 both (seat1 won), g3 seat1 (lost): 2 wins of 4
    assert red["top_buyer_win_rate"] == pytest.approx(0.5)
    assert red["top_buyer_seats"] == 4
    assert red["bought_per_game"] == pytest.approx((4 + 4 + 4 + 0) / 4)
    assert red["activated_per_game"] == pytest.approx(2 * 12 / 4)
    blue = stats["colours"]["blue"]
    # top blue buyers: g2 seat1 (won), g3 both (seat0 won), g4 seat0 (won): 3 of 4
    assert blue["top_buyer_win_rate"] == pytest.approx(0.75)


def test_a_small_sweep_records_colours_rounds_and_lead_changes(tmp_path):
    sets = parse_sets("automobiles", "suggested", 0, {})[:2]
    sweep = Sweep("automobiles", 3, sets, ["rule_based"] * 3, 40, seed=2)
    summary = run_sweep(sweep, tmp_path, workers=1, plots=False, progress=False)
    assert summary["ranking"] and set(summary["ranking"]) == {n for n, _ in sets}
    for stats in summary["sets"].values():
        assert stats["games"] == 40
        assert stats["rounds_mean"] > 0
        assert 0 <= stats["decisiveness_mean"] <= stats["rounds_mean"]
        assert set(stats["colours"]) == set(COLOURS)
        bought = sum(c["bought_per_game"] for c in stats["colours"].values())
        assert bought > 0
    report = (tmp_path / "report.md").read_text()
    assert "Race length and decisiveness" in report and "Colours" in report


def test_seat_zero_holds_the_starting_player_card_in_every_swept_game():
    """First-player advantage is seat 0's: the sweep gives seat 0 the Starting Player card
    (Setup 4) although the game's own default draws it at random."""
    sets = parse_sets("automobiles", "suggested", 0, {})[:1]
    sweep = Sweep("automobiles", 4, sets, ["rule_based"] * 4, 3, seed=5)
    for chunk in balance.chunks(sweep, set()):
        game = balance.cached_game(chunk.game, chunk.players, chunk.options)
        assert all(int(game.new_state(seed).data[st.START_PLAYER]) == 0 for seed in range(20))
    default = AutomobilesGame(num_players=4)
    assert {int(default.new_state(seed).data[st.START_PLAYER]) for seed in range(20)} != {0}


def test_track_and_card_data_pass_through_and_bad_ones_are_named(tmp_path, capsys):
    summary = balance.main(["automobiles", "--sets", "suggested", "--players", "2", "--games",
                            "3", "--track", "monza", "--workers", "1", "--quiet",
                            "--no-plots", "--out", str(tmp_path / "monza")])
    assert all(s["games"] == 3 for s in summary["sets"].values())
    with pytest.raises(SystemExit):
        balance.main(["automobiles", "--games", "2", "--track", "no_such_track.toml",
                      "--quiet", "--no-plots", "--out", str(tmp_path / "bad")])
    assert "no_such_track" in capsys.readouterr().err


def test_any_env_option_passes_through_and_bad_ones_are_named(tmp_path, capsys):
    """The balance tool takes the expansion's options (drivers, weaving,
    tracks...) as ``--option KEY=VALUE``, each value read as JSON when it is JSON."""
    assert balance.parse_options(["laps=1", "accelerated_play=true", "track=monza"]) == {
        "laps": 1, "accelerated_play": True, "track": "monza"}
    summary = balance.main(["automobiles", "--sets", "none", "--players", "2", "--games", "2",
                            "--option", "laps=1", "--option", "accelerated_play=true",
                            "--workers", "1", "--quiet", "--no-plots",
                            "--out", str(tmp_path / "one-lap")])
    assert summary["sets"]["default"]["games"] == 2
    for bad, named in ((["--option", "laps"], "KEY=VALUE"),
                       (["--option", "laps=0"], "laps"),
                       (["--option", "no_such_option=1"], "no_such_option")):
        with pytest.raises(SystemExit):
            balance.main(["automobiles", "--games", "2", "--quiet", "--no-plots",
                          "--out", str(tmp_path / "bad"), *bad])
        assert named in capsys.readouterr().err


def test_the_season_env_sweeps_card_sets_and_takes_season_options(tmp_path):
    """The balance tool takes seasons (the season env with its own
    options), with the same card sets as single races."""
    summary = balance.main(["automobiles_season", "--sets", "expansion", "--players", "2",
                            "--games", "2", "--option", 'tracks=["tucson", "monza", "daytona"]',
                            "--option", "drivers=\"all\"", "--workers", "1", "--quiet",
                            "--no-plots", "--out", str(tmp_path / "season")])
    assert len(summary["sets"]) == 6
    assert all(s["games"] == 2 for s in summary["sets"].values())
