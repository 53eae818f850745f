"""Tuned play in the balance tools, on tiny budgets: the skill
level ``tuned:markets`` plays each set with the vector tuned on its own market (and refuses
a set without one), card usage is reported for tuned seats, and forced play measures what a
seat gains when its vector buys a card first."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from transit_gym.agents.tuned import vector as tv
from transit_gym.benchmarks.balance import card_power, card_sets, skill_levels
from transit_gym.benchmarks.balance.card_power import Settings, run
from transit_gym.benchmarks.balance.sweep import Sweep, load_csv, run_sweep
from transit_gym.envs.automobiles.data import load_cards
from transit_gym.envs.core.errors import ConfigError

NAMED = (card_sets.parse_sets("automobiles", "suggested", 0, {})
         + card_sets.parse_sets("automobiles", "expansion", 0, {}))


def test_tuned_markets_gives_each_of_the_13_sets_the_vector_tuned_on_it():
    specs = skill_levels.market_specs("tuned:markets", "automobiles", 2, NAMED, {})
    assert len(specs) == 13
    for name, spec in specs.items():
        assert spec.startswith("tuned:")
        market = tv.load(spec[len("tuned:"):]).market
        assert market["players"] == 2 and market["markets"]["card_set"] == name


def test_a_set_without_a_matching_vector_is_a_config_error_listing_the_vectors():
    first = [("First Game", {"card_set": "First Game"})]
    with pytest.raises(ConfigError, match="'First Game'.*first-game-daytona-2p-drivers-off"):
        skill_levels.market_specs("tuned:markets", "automobiles", 3, first, {})
    for other in ({"drivers": True}, {"laps": 2}, {"track": "monza"}):   # another market
        with pytest.raises(ConfigError, match="no tuned vector"):
            skill_levels.market_specs("tuned:markets", "automobiles", 2, first, other)
    with pytest.raises(ConfigError, match="no folder"):
        skill_levels.market_specs("tuned:markets:no/such/dir", "automobiles", 2, first, {})


def test_a_vector_matches_a_set_by_its_game_not_by_its_name(tmp_path):
    """A vector recorded with the five cards of First Game is First Game's vector; the
    shipped generalist (several markets) matches no set."""
    cards = list(load_cards(None).sets["First Game"])
    market = {"game": "automobiles", "players": 2,
              "markets": {"track": "daytona", "card_set": cards, "drivers": False}}
    tv.TunedVector(tv.rule_based_vector(), market=market).save(tmp_path / "mine.json")
    (tmp_path / "notes.json").write_text(json.dumps({"not": "a vector"}))
    specs = skill_levels.market_specs(f"tuned:markets:{tmp_path}", "automobiles", 2,
                                      [("First Game", {"card_set": "First Game"})], {})
    assert specs == {"First Game": f"tuned:{tmp_path / 'mine.json'}"}
    with pytest.raises(ConfigError, match="'Fine Tuning'.*mine.json"):
        skill_levels.market_specs(f"tuned:markets:{tmp_path}", "automobiles", 2,
                                  [("Fine Tuning", {"card_set": "Fine Tuning"})], {})


def test_sets_join_with_commas_and_level_games_override_games():
    sets = skill_levels.parse_set_specs("automobiles", "suggested,expansion", 0, {})
    assert [n for n, _ in sets] == [n for n, _ in NAMED]
    with pytest.raises(ConfigError, match="twice"):
        skill_levels.parse_set_specs("automobiles", "suggested,suggested", 0, {})
    levels = ["random", "rule_based", "mcts"]
    assert skill_levels.parse_level_games(["mcts=40"], levels, 200) == {
        "random": 200, "rule_based": 200, "mcts": 40}
    for bad in (["mcts:8=4"], ["mcts=0"], ["mcts"]):
        with pytest.raises(ConfigError, match="--level-games"):
            skill_levels.parse_level_games(bad, levels, 200)


def test_skill_levels_with_each_sets_own_tuned_vector(tmp_path):
    cards = load_cards(None).sets
    sets = tmp_path / "sets.txt"
    sets.write_text(f"rr: {', '.join(cards['Rinse & Repeat'])}\n"
                    f"sc: {', '.join(cards['Squeaky Clean'])}\n")
    out = tmp_path / "out"
    result = skill_levels.main(["automobiles", "--sets", str(sets), "--players", "2",
                                "--games", "3", "--level-games", "random=2", "--levels",
                                "random", "rule_based", "tuned:markets", "--bootstrap", "10",
                                "--workers", "1", "--quiet", "--no-plots", "--out", str(out)])
    assert result["games"] == {"random": 2, "rule_based": 3, "tuned:markets": 3}
    assert set(result["sets"]["rr"]["levels"]) == {"random", "rule_based", "tuned:markets"}
    level = out / "level-tuned-markets"
    for slug, market in (("rr", "rinse-repeat"), ("sc", "squeaky-clean")):
        settings = json.loads((level / slug / "settings.json").read_text())
        assert all(f"{market}-daytona-2p-drivers-off.json" in a for a in settings["agents"])
        assert len(load_csv(level / slug / "games.csv")) == 3
    summary = json.loads((level / "summary.json").read_text())
    assert summary["sets"]["rr"]["games"] == 3 and set(summary["vectors"]) == {"rr", "sc"}
    assert summary["run"]["games_played"] == 6 and summary["run"]["games_resumed"] == 0
    assert "s0 (tuned:markets)" in (level / "report.md").read_text()
    assert "random 2, rule_based 3, tuned:markets 3" in (out / "skill.md").read_text()


def test_card_usage_is_reported_for_tuned_seats(tmp_path):
    """Item 3 under tuned play: cubes of each market card bought and played per seat and
    game, for a tuned seat as for any other."""
    sweep = Sweep(game="automobiles", players=2,
                  sets=[("Squeaky Clean", {"card_set": "Squeaky Clean"})],
                  agents=["tuned", "rule_based"], games=6, seed=5)
    summary = run_sweep(sweep, tmp_path, workers=1, plots=False, progress=False)
    rows = load_csv(tmp_path / "games.csv")
    cards = summary["sets"]["Squeaky Clean"]["cards"]
    assert set(load_cards(None).sets["Squeaky Clean"]) <= set(cards)   # and the gears
    for usage in cards.values():
        colour = usage["colour"]
        for seat in (0, 1):
            assert usage["bought_per_seat"][seat] == pytest.approx(
                np.mean([r[f"s{seat}_bought_{colour}"] for r in rows]))
            assert usage["played_per_seat"][seat] == pytest.approx(
                np.mean([r[f"s{seat}_activated_{colour}"] for r in rows]))
    assert sum(u["bought_per_seat"][0] for u in cards.values()) > 0   # the tuned seat buys
    assert "s0 (tuned)" in (tmp_path / "report.md").read_text()


FORCED = Settings(kinds=("cards", "forced"), players=2, games=4, agent="tuned", seed=1,
                  markets=1, pool="all", items=("Air Jacks",))


def test_forced_play_buys_and_plays_the_card_in_the_restriction_runs_markets(tmp_path):
    summary = run(FORCED, tmp_path, workers=1, plots=True, progress=False)
    plan = card_power.make_plan(FORCED)
    assert plan.markets[("forced", "Air Jacks")] == plan.markets[("cards", "Air Jacks")]
    rows = card_power.load_rows(tmp_path / "games.csv")
    assert len(rows) == 8 and all(r["bought"] is not None for r in rows)
    assert all(r["bought"] == 0 for r in rows if r["kind"] == "cards")   # restricted
    forced = summary["kinds"]["forced"][0]
    assert forced["bought"] > 0 and forced["played"] > 0     # the forced seat uses it
    assert forced["verdict"] in ("forcing wins more", "forcing costs", "nothing measurable")
    low, high = forced["interval"]
    assert low <= forced["score_rate"] <= high
    restricted = summary["kinds"]["cards"][0]
    if restricted["others_bought"] == 0:   # nobody buys it: the restriction changes nothing
        assert restricted["score_rate"] == pytest.approx(0.5)
    text = (tmp_path / "power.md").read_text()
    assert "## Forced play" in text and "forced seat: bought, played" in text
    assert (tmp_path / "power_forced.png").read_bytes()[:4] == b"\x89PNG"


def test_forced_vector_puts_the_card_first_and_drops_its_gate():
    base = tv.rule_based_vector()
    v = card_power.forced_vector(base, "Camber & Toe")
    card = tv.card_of_name("Camber & Toe")
    assert v[tv.card_param(card, tv.K_BUY)] == card_power.FORCED_BUY
    assert v[tv.card_param(card, tv.K_ORDER)] == card_power.FORCED_ORDER
    assert v[tv.card_param(card, tv.K_GATE)] == 0.0
    assert v[tv.card_param(card, tv.K_WANT)] == 10.0
    assert card_power.forced_vector(base, "Camber & Toe", 2.0)[tv.card_param(card,
                                                                            tv.K_WANT)] == 2.0
    changed = np.flatnonzero(v != base)
    assert all(i // tv.NUM_CARD_PARAMS == card for i in changed)


def test_fewer_forced_cubes_are_bought(tmp_path):
    """``--forced-want 2``: the forced seat stops buying the card at two cubes (none in the
    start bag), so it buys fewer than with the default ten; the run's settings keep it."""
    light = Settings(**{**FORCED.__dict__, "kinds": ("forced",), "forced_want": 2.0})
    heavy = Settings(**{**light.__dict__, "forced_want": 10.0})
    few = run(light, tmp_path / "light", workers=1, plots=False, progress=False)
    many = run(heavy, tmp_path / "heavy", workers=1, plots=False, progress=False)
    assert 0 < few["kinds"]["forced"][0]["bought"] <= 2.0
    assert many["kinds"]["forced"][0]["bought"] > few["kinds"]["forced"][0]["bought"]
    assert json.loads((tmp_path / "light" / "settings.json").read_text())["forced_want"] == 2
    assert "up to 2 cubes" in (tmp_path / "light" / "power.md").read_text()
    record = card_power.settings_record(Settings(("cards",), 2, 2, "rule_based", 0, 1, "all"))
    assert "forced_want" not in record   # restriction runs resume from older folders


def test_forced_play_needs_a_vector_agent(tmp_path):
    with pytest.raises(SystemExit):
        card_power.main(["--kinds", "forced", "--agents", "mcts:2", "--out", str(tmp_path)])
    with pytest.raises(ConfigError, match="rule_based, tuned or tuned:FILE"):
        card_power.base_vector("random")


def test_an_old_games_csv_gains_the_usage_columns_on_resume(tmp_path):
    settings = Settings(kinds=("cards",), players=2, games=4, agent="rule_based", seed=1,
                        markets=1, pool="all", items=("Tires",))
    run(settings, tmp_path, workers=1, plots=False, progress=False)
    path = tmp_path / "games.csv"
    lines = path.read_text().splitlines()
    old = [",".join(line.split(",")[:6]) for line in lines]     # the columns before usage
    path.write_text("\n".join(old[:-1]) + "\n")                  # and one game missing
    again = run(settings, tmp_path, workers=1, plots=False, progress=False)
    header = path.read_text().splitlines()[0].split(",")
    assert header == card_power.FIELDS
    assert len(card_power.load_rows(path)) == 4 and again["kinds"]["cards"][0]["games"] == 4
    assert again["kinds"]["cards"][0]["others_bought"] is None   # unknown for old games


def test_designer_report_joins_a_restriction_run_and_a_forced_run(tmp_path):
    from transit_gym.benchmarks.balance import designer_report

    parts = []
    for name, heading in (("restrict", "## Market cards (may not buy it)"),
                          ("forced", "## Forced play (one seat's vector ...)")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "power.md").write_text(f"# Per-item power\n\n{heading}\n\n| rank |\n")
        (folder / "power_cards.png").write_bytes(b"png")
        parts.append(folder)
    report = tmp_path / "out" / "report.md"
    designer_report.main(["--power", str(parts[0]), "--power", str(parts[1]), "--out",
                          str(tmp_path / "out")])
    text = report.read_text()
    assert "### Market cards (may not buy it)" in text and "### Forced play" in text
    assert "](power_power_cards.png)" in text and "](power2_power_cards.png)" in text
    assert (tmp_path / "out" / "power2_power_cards.png").read_bytes() == b"png"


def test_a_tau_outside_its_bootstrap_interval_is_pointed_out():
    """Resampling pulls tau towards 0 (measured: random vs mcts:50, 13 sets at 200 and 40
    games, tau +0.62 with the interval -0.33 to +0.50); the report says so."""
    sets = {"A": {"levels": {}, "skill_dependent": False}}
    inside = {"first": "x", "second": "y", "kendall": 0.2, "interval": [-0.1, 0.4]}
    above = {"first": "x", "second": "z", "kendall": 0.62, "interval": [-0.33, 0.5]}
    text = skill_levels.markdown({"levels": ["x", "y", "z"], "players": 2, "sets": sets,
                                  "agreement": [inside, above], "flagged": []},
                                 "automobiles", 10, 0)
    assert "Outside its interval: x vs z." in text and "x vs y." not in text
    assert not skill_levels.outside_interval({**above, "interval": None})


def test_forced_play_in_one_named_set_with_its_own_vector(tmp_path):
    """``--card-set``: every market is the set, its five cards are the items (here with the
    set's own tuned vector, which never buys Air Jacks in Squeaky Clean)."""
    from transit_gym.agents.tuned import markets

    vector = Path(markets.__file__).parent / "squeaky-clean-daytona-2p-drivers-off.json"
    settings = Settings(kinds=("forced",), players=2, games=2, agent=f"tuned:{vector}",
                        seed=0, markets=1, pool="all", items=("Air Jacks", "Crate Motor"),
                        card_set="Squeaky Clean")
    plan = card_power.make_plan(settings)
    squeaky = list(load_cards(None).sets["Squeaky Clean"])
    assert plan.items["forced"] == [n for n in plan.items["forced"] if n in squeaky]
    assert set(plan.items["forced"]) == {"Air Jacks", "Crate Motor"}
    assert all(m == {"card_set": squeaky} for ms in plan.markets.values() for m in ms)
    summary = run(settings, tmp_path, workers=1, plots=False, progress=False)
    assert {r["item"] for r in summary["kinds"]["forced"]} == {"Air Jacks", "Crate Motor"}
    assert json.loads((tmp_path / "settings.json").read_text())["card_set"] == "Squeaky Clean"
    whole = card_power.make_plan(Settings(("cards",), 2, 2, "rule_based", 0, 1, "all",
                                          card_set="Squeaky Clean"))
    assert sorted(whole.items["cards"]) == sorted(squeaky)
    with pytest.raises(ConfigError, match="not a suggested set"):
        card_power.make_plan(Settings(("cards",), 2, 2, "rule_based", 0, 1, "all",
                                      card_set="Nope"))
