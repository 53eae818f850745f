"""The fix search's pieces (benchmarks/balance/fixes*.py): the numbers it may change and
the order of its candidates, the fair band, the Pareto front, the caches by data hash,
resuming, and the patch file the env loads. No games are played here but the one env
built from a patch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transit_gym.benchmarks.balance import (
    fixes,
    fixes_band,
    fixes_data,
    fixes_measure,
    fixes_report,
)
from transit_gym.envs.automobiles.data import MAX_COST, load_cards
from transit_gym.envs.core.errors import ConfigError


def change(entry: str, field: str, old: int, new: int) -> dict:
    return {"file": "data.toml", "entry": entry, "field": field, "from": old, "to": new}


def played_by(measure, names: tuple[str, ...], tmp_path: Path, monkeypatch) -> dict:
    """No game is played: ``measure`` gives every figure, a re-tuned vector is today's and
    today's vector of every market one empty file. The named sets ``names``."""
    monkeypatch.setattr(fixes_measure, "measure", measure)
    monkeypatch.setattr(fixes_measure, "retuned_vector", lambda options, *a, **k: a[1])
    monkeypatch.setattr(fixes_measure, "today_vectors",
                        lambda players, sets, base: {n: tmp_path / "v.json" for n in sets})
    (tmp_path / "v.json").write_text("{}")
    return {n: list(load_cards().sets[n]) for n in names}


# ----- candidates --------------------------------------------------------------------------
def test_crate_motor_numbers_are_its_price_and_effect_numbers():
    """Crate Motor: cost 5, value 1, count 3, bonus 1 (data.toml); wear 0 is not searched."""
    got = {f: today for _, _, f, today in fixes_data.card_fields("Crate Motor")}
    assert got == {"cost": 5, "value": 1, "count": 3, "bonus": 1}


def test_the_wide_card_search_adds_every_number_the_supply_and_the_markets_cards():
    """--wide: Crate Motor's wear 0 too (the loader decides), the 16 blue cubes of the
    supply (Crate Motor is the blue card of its markets) and the numbers of the other four
    cards of each of its markets (Squeaky Clean, Well Oiled Machine)."""
    sets = {n: list(c) for n, c in load_cards().sets.items()}
    markets = ["Squeaky Clean", "Well Oiled Machine"]
    got = fixes.fields("card+", "Crate Motor", sets, 2, markets)
    own = {f: today for _, e, f, today in got if e == "Crate Motor"}
    assert own == {"cost": 5, "value": 1, "count": 3, "bonus": 1, "wear": 0}
    assert ("data.toml", "cubes.supply", "blue", 16) in got
    others = {e for _, e, _, _ in got} - {"Crate Motor", "cubes.supply"}
    assert others == (set(sets["Squeaky Clean"]) | set(sets["Well Oiled Machine"])) - {
        "Crate Motor"}
    supply = [c for c in fixes_data.single_changes(got) if c["entry"] == "cubes.supply"]
    assert [c["to"] for c in supply] == [16 + s for s in fixes_data.STEPS["supply"]]
    assert fixes_data.describe((supply[2],)) == "supply blue 16->8"
    assert fixes_data.item_name(supply[2]) == fixes_data.SUPPLY


def test_single_changes_stay_within_the_steps_and_the_loaders_bounds():
    singles = fixes_data.single_changes(fixes_data.card_fields("Crate Motor"))
    for c in singles:
        assert c["to"] - c["from"] in fixes_data.STEPS[c["field"]]
        assert 0 <= c["to"] <= MAX_COST
    costs = sorted(c["to"] for c in singles if c["field"] == "cost")
    assert costs == [2, 3, 4, 6, 7, 8]
    values = sorted(c["to"] for c in singles if c["field"] == "value")
    assert values == [0, 2, 3]   # 1 - 2 = -1 is no value


def test_a_value_the_loader_refuses_is_never_a_candidate():
    """Tires moves exactly ``count`` spaces: count 0 is refused by the loader (data.py)."""
    assert not fixes_data.loader_accepts([change("Tires", "count", 1, 0)])
    singles = fixes_data.single_changes(fixes_data.card_fields("Tires"))
    assert [c["to"] for c in singles if c["field"] == "count"] == [2, 3]


def test_candidates_come_fewest_numbers_first_then_smallest_steps():
    singles = fixes_data.single_changes(fixes_data.card_fields("Crate Motor"))
    ones = fixes_data.combine(singles, 1)
    twos = fixes_data.combine(singles, 2)
    ordered = sorted(twos + ones, key=fixes_data.order_key)
    assert [len(c) for c in ordered] == sorted(len(c) for c in ordered)
    sizes = [fixes_data.size(c) for c in ordered if len(c) == 1]
    assert sizes == sorted(sizes) and sizes[0] == 1
    for pair in twos:   # two different numbers, never one number twice
        assert pair[0]["field"] != pair[1]["field"]


def test_an_unknown_card_or_number_is_a_clear_error():
    with pytest.raises(ConfigError, match="has no entry 'Crate Mtr'"):
        fixes_data.shipped_value("data.toml", "Crate Mtr", "cost")
    with pytest.raises(ConfigError, match="has no field 'price'"):
        fixes_data.shipped_value("data.toml", "Crate Motor", "price")


def test_a_drivers_numbers_are_its_amount_and_its_price_where_it_has_one():
    """drivers.toml: Driver 01 amount 1; Driver 05 amount 0 ("any number") at price 1. A
    driver's own numbers take every value the loader accepts (0..12; an amount of 0 reads
    "any number", another card text); the other drivers' numbers move by their steps."""
    assert fixes_data.driver_fields("Driver 01") == [("drivers.toml", "1", "amount", 1)]
    assert [f for _, _, f, _ in fixes_data.driver_fields("Driver 05")] == ["amount", "price"]
    fields = fixes.fields("driver", "Driver 01", {})
    singles = fixes_data.single_changes(fields, fixes.wide("driver", "Driver 01"))
    own = [c["to"] for c in singles if c["entry"] == "1"]
    assert own == list(range(2, 13))
    assert fixes_data.describe((singles[0],)) == "Driver 01 amount 1->2"
    rivals = {c["entry"] for c in singles} - {"1"}
    assert rivals == {str(n) for n in range(2, 11)}
    assert [c["to"] for c in singles if c["entry"] == "8"] == [1, 2, 4, 5]   # steps of 1-2
    assert [c["to"] for c in singles if c["entry"] == "5" and c["field"] == "price"] == \
        [0, 2, 3]
    eight = fixes_data.single_changes(fixes_data.driver_fields("Driver 08"),
                                      fixes.wide("driver", "Driver 08"))
    assert [c["to"] for c in eight] == [1, 2, *range(4, 13)]
    assert not fixes_data.loader_accepts([{"file": "drivers.toml", "entry": "8",
                                           "field": "amount", "from": 3, "to": 13}])


def test_a_driver_is_judged_in_the_markets_restricted_play_drew_for_it():
    """The designer report measures a driver's power by restricted play: random markets
    (card_power's plan from the seed), every driver on offer, the generalist vector. The
    fix search draws the same markets, or takes those the flag carries."""
    from transit_gym.benchmarks.balance import card_power, flags

    setup = {"players": 2, "seed": 0}
    plan = card_power.make_plan(card_power.Settings(("drivers",), 2, 200, "tuned", 0, 4,
                                                    "all"))
    drawn = [m["card_set"] for m in plan.markets[("drivers", "Driver 08")]]
    markets, vector = fixes.power_markets({"kind": "driver", "item": "Driver 08"}, setup)
    assert list(markets.values()) == drawn
    assert list(markets) == [f"Driver 08 market {k}" for k in range(1, 5)]
    assert vector == fixes_measure.generalist_vector()
    table = {"fair_share": 0.5, "settings": {"agent": "tuned", "seed": 0, "games": 200,
                                             "options": [["card_data", "x.toml"]]},
             "kinds": {"drivers": [{"item": "Driver 01", "score_rate": 0.35,
                                    "interval": [0.29, 0.42], "markets": [["A"], ["B"]]}]}}
    flag = flags.power(table)[0]
    assert flag["setting"]["markets"] == [["A"], ["B"]]
    carried, _ = fixes.power_markets(flag, setup)
    assert carried == {"Driver 01 market 1": ["A"], "Driver 01 market 2": ["B"]}
    assert fixes.item_markets(flag, {"First Game": []}) == []
    with pytest.raises(ConfigError, match="re-tunes a tuned vector"):
        fixes.power_markets({**flag, "setting": {**flag["setting"], "agent": "rule_based"}},
                            setup)


def test_a_boards_numbers_are_the_allowances_of_the_slots_the_seats_start_on(tmp_path):
    """Daytona's grid: P1 $10, P2 $11 (DATA 4). Two seats start on P1 and P2, so only
    their allowances are searched; the patch is a track_data file the env loads."""
    from transit_gym.envs.registry import game_class

    assert fixes.fields("board", "daytona", {}, 2) == [
        ("track_daytona.toml", "grid.1", "allowance", 10),
        ("track_daytona.toml", "grid.2", "allowance", 11)]
    assert len(fixes.fields("board", "daytona", {}, 4)) == 4
    singles = fixes_data.single_changes(fixes.fields("board", "daytona", {}, 2))
    assert [c["to"] for c in singles if c["entry"] == "grid.1"] == [8, 9, 11, 12]
    assert fixes_data.describe((singles[2],)) == "daytona P1 allowance 10->11"
    assert fixes_data.item_name(singles[0]) == "daytona"
    options = fixes_data.write_patch([singles[2]], tmp_path)
    game = game_class("automobiles")(num_players=2, card_set="First Game", **options)
    assert int(game.track.allowance[0]) == 11 and int(game.track.allowance[1]) == 11
    with pytest.raises(ConfigError, match="no board 'Daytona'"):
        fixes.fields("board", "Daytona", {}, 2)


def test_a_sponsors_numbers_are_its_lists_of_three_one_place_a_change():
    """sponsors.toml: F2 removes [2, 3, 4] extra cubes at $[2, 2, 2] each; a change moves
    one place (first, middle or last) by 1-2, never below 0; its colour lists are names."""
    assert fixes.fields("sponsor", "F2", {}) == [
        ("sponsors.toml", "F2", "extra_remove", [2, 3, 4]),
        ("sponsors.toml", "F2", "money_per_extra", [2, 2, 2])]
    assert [f for _, _, f, _ in fixes.fields("sponsor", "D1", {})] == ["gain"]
    singles = fixes_data.single_changes(fixes.fields("sponsor", "F2", {}))
    for c in singles:
        moved = [a - b for a, b in zip(c["to"], c["from"], strict=True)]
        assert sum(1 for d in moved if d) == 1 and min(c["to"]) >= 0
        assert fixes_data.size((c,)) == sum(map(abs, moved))
    assert {"file": "sponsors.toml", "entry": "F2", "field": "extra_remove",
            "from": [2, 3, 4], "to": [3, 3, 4]} in singles
    assert not any(c["to"][0] < 0 for c in singles)
    for pair in fixes_data.combine(singles, 2):   # two lists, never one list twice
        assert pair[0]["field"] != pair[1]["field"]
    assert fixes_data.describe((singles[0],)) == "F2 extra_remove [2, 3, 4]->[0, 3, 4]"
    with pytest.raises(ConfigError, match="has no entry 'G1'"):
        fixes.fields("sponsor", "G1", {})


def test_a_sponsor_is_judged_by_its_power_over_seasons_without_race_markets(tmp_path,
                                                                           monkeypatch):
    """A sponsor's search plays its seasons (the season campaign's options, no card set,
    today's vector: the tuner tunes races) and judges its power alone."""
    seen = []

    def fake_measure(backend, card, markets, players, games, seed):
        seen.append((card, markets))
        rate = 0.3 if all("sponsor_data" not in o for o, _ in markets.values()) else 0.48
        return {"markets": {n: {"power": {}} for n in markets},
                "power": {"rate": rate, "interval": [rate - 0.01, rate + 0.01],
                          "bought": None}}

    monkeypatch.setattr(fixes_measure, "measure", fake_measure)
    monkeypatch.setattr(fixes.fixes_report, "markdown", lambda fix: "")
    sets = {"First Game": list(load_cards().sets["First Game"])}
    setup = {"players": 2, "games": 1000, "seed": 0, "options": {}, "sets": sets,
             "workers": 1, "screen_games": 4, "retune": 1, "numbers": 1, "progress": False,
             "markets": 2, "season_options": {"seasons": 1}}
    fix = fixes.propose_fixes([{"kind": "sponsor", "item": "F2", "markets": []}], setup,
                              tmp_path)[0]
    assert fix["markets"] == ["F2 season 1", "F2 season 2"]
    card, markets = seen[0]
    assert card == "F2" and sorted(markets) == fix["markets"]
    assert all("card_set" not in o and o["seasons"] == 1 for o, _ in markets.values())
    assert all(v == fixes_measure.generalist_vector() for _, v in markets.values())
    assert fix["status"] == "fix" and fix["changes"][0]["entry"] == "F2"
    assert fix["verified"]["other_markets"] == []
    with pytest.raises(ConfigError, match="season campaign"):
        fixes.item_markets({"kind": "sponsor", "item": "F2", "markets": ["First Game"]}, sets)


def test_a_board_is_judged_on_its_track_in_every_market_and_checked_there(tmp_path,
                                                                         monkeypatch):
    """A board's search plays every named set on that board with the grid patch, and its
    verification runs the five checks on each of them."""
    seen = []

    def fake_measure(backend, card, markets, players, games, seed):
        seen.append(markets)
        fair = all("track_data" in o for o, _ in markets.values())
        m = {"rounds": 15.0, "balance": 0.95 if fair else 0.7, "balance_interval": [0.9, 1],
             "seat_win_rate": [0.5, 0.5], "seat_win_interval": [[0.45, 0.55]] * 2}
        return {"markets": {n: dict(m) for n in markets},
                **({"power": {"rate": 0.5, "interval": [0.46, 0.54], "bought": None}}
                   if card else {})}

    monkeypatch.setattr(fixes.fixes_report, "markdown", lambda fix: "")
    names = ("First Game", "Fine Tuning")
    sets = played_by(fake_measure, names, tmp_path, monkeypatch)
    setup = {"players": 2, "games": 1000, "seed": 0, "options": {}, "sets": sets,
             "workers": 1, "screen_games": 4, "retune": 1, "numbers": 1, "progress": False}
    fix = fixes.propose_fixes([{"kind": "board", "item": "daytona", "markets": []}], setup,
                              tmp_path)[0]
    assert fix["markets"] == sorted(names) and fix["status"] == "fix"
    assert fix["changes"][0]["file"] == "track_daytona.toml"
    assert all(o["track"] == "daytona" for m in seen for o, _ in m.values())
    assert [m["market"] for m in fix["verified"]["other_markets"]] == sorted(names)


def test_a_change_that_alters_no_game_is_reported_and_keeps_its_place(tmp_path,
                                                                       monkeypatch):
    """Crate Motor, its value unread by these (fake) games: the three value changes
    measure exactly as today's data, so fix.json and fix.md name them; they still take
    their places as on any other change: value 1->0 ties with today's distance, closer
    than the count changes, so it is the pair pool's fourth (after costs 8, 7, 6), its
    pair with cost 8 is the closest pair and is re-tuned (re-tuned agents may play the
    change where today's do not)."""
    import tomllib

    def rate(options):
        row = {"cost": 5, "count": 3, "bonus": 1}
        if "card_data" in options:
            entry = tomllib.loads(Path(options["card_data"]).read_text())["cards"][0]
            row.update({k: v for k, v in entry.items() if k in row})
        return (0.30 + 0.02 * max(0, row["cost"] - 5) - 0.1 * (row["cost"] < 5)
                - 0.025 * (row["count"] != 3) - 0.1 * (row["bonus"] != 1))

    def fake_measure(backend, card, markets, players, games, seed):
        r = min(rate(options) for options, _ in markets.values())
        m = {"rounds": 15.0, "balance": 0.95, "balance_interval": [0.9, 1.0],
             "seat_win_rate": [0.5, 0.5], "seat_win_interval": [[0.45, 0.55]] * 2}
        return {"markets": {n: dict(m) for n in markets},
                **({"power": {"rate": r, "interval": [r - 0.01, r + 0.01], "bought": 3.0}}
                   if card else {})}

    monkeypatch.setattr(fixes, "PAIR_POOL", 4)
    sets = played_by(fake_measure, ("Squeaky Clean", "Well Oiled Machine", "First Game"),
                     tmp_path, monkeypatch)
    setup = {"players": 2, "games": 1000, "seed": 0, "options": {}, "sets": sets,
             "workers": 1, "screen_games": 4, "retune": 3, "numbers": 2, "progress": False}
    fix = fixes.propose_fixes([{"kind": "card", "item": "Crate Motor", "markets": []}],
                              setup, tmp_path)[0]
    assert fix["no_op"] == ["Crate Motor value 1->0", "Crate Motor value 1->2",
                            "Crate Motor value 1->3"]
    retuned = [p["text"] for p in fix["retuned"]]
    assert retuned == ["Crate Motor cost 5->7", "Crate Motor cost 5->8",
                       "Crate Motor cost 5->8, value 1->0"]
    assert fix["changes"] == [change("Crate Motor", "cost", 5, 8)]   # the closest
    # 16 one-number changes (cost 2-4, 6-8; value 0, 2, 3; count 1, 2, 4, 5; bonus 0, 2,
    # 3), then the pool's pairs of different numbers: cost 6, 7, 8 with value 1->0
    assert fix["screened"] == 16 + 3
    text = fixes_report.markdown(fix)
    assert (f"Plays as today's data under today's vectors: 3 of the {fix['screened']} "
            "screened") in text
    assert "Crate Motor value 1->0; Crate Motor value 1->2; Crate Motor value 1->3" in text


def test_only_identical_figures_mark_a_change_as_playing_as_today():
    today = {"markets": {"m": {"rounds": 7.1, "seat_win_rate": [0.6, 0.4]}},
             "power": {"rate": 0.015, "interval": [0.01, 0.021], "bought": 5.0}}
    assert fixes.same_games(json.loads(json.dumps(today)), today)
    moved = {**today, "markets": {"m": {"rounds": 7.105, "seat_win_rate": [0.6, 0.4]}}}
    assert not fixes.same_games(moved, today)   # the same power, a race one game longer
    assert not fixes.same_games({**today, "power": {**today["power"], "bought": 5.01}},
                                today)


# ----- the band and the front -----------------------------------------------------------------
def test_power_band_is_five_points_around_the_fair_share():
    assert fixes_band.power_distance(0.47, 0.5) == 0.0
    assert fixes_band.power_distance(0.07, 0.5) == pytest.approx(0.38)
    assert fixes_band.power_in_band([0.46, 0.54], 0.5)
    assert not fixes_band.power_in_band([0.44, 0.52], 0.5)   # the interval sticks out


def test_market_band_is_balance_and_race_length_within_twenty_percent_of_the_median():
    assert fixes_band.balance_distance(0.92) == 0.0
    assert fixes_band.balance_distance(0.35) == pytest.approx(0.55)
    assert fixes_band.length_distance(12.4, 15.4) == 0.0
    assert fixes_band.length_distance(6.3, 15.4) == pytest.approx(1 - 6.3 / 15.4 - 0.2)
    lengths = {"a": 6.0, "b": 15.0, "c": 20.0}
    assert fixes_band.median_length(lengths, {"a": 30.0}) == 20.0


def test_board_band_is_every_markets_balance_and_race_length():
    """A board's allowances touch every market: each one's balance at least 0.90."""
    def market(balance, rounds=15.0):
        return {"balance": balance, "rounds": rounds, "balance_interval": [0, 1]}

    lengths = {"a": 15.0, "b": 15.0, "c": 15.0}
    fair = {"markets": {"a": market(0.95), "b": market(0.91)}}
    assert fixes_band.in_band("board", "daytona", fair, lengths, 2)
    one_off = {"markets": {"a": market(0.95), "b": market(0.80)}}
    assert not fixes_band.in_band("board", "daytona", one_off, lengths, 2)
    got = fixes_band.distance("board", "daytona", one_off, lengths, 2)
    assert got["distance"] == pytest.approx(0.10) and got["parts"]["balance a"] == 0.0


def test_a_random_market_is_held_to_its_own_race_length():
    """A driver's random markets: their cards set the race length, so each is held within
    20% of its own length today, and the median is the named markets'."""
    lengths = {"a": 15.0, "b": 15.0, "c": 15.0, "Driver 01 market 1": 6.0}
    figures = {"markets": {"Driver 01 market 1": {"rounds": 6.5}},
               "power": {"rate": 0.5, "interval": [0.46, 0.54], "bought": None}}
    own = ["Driver 01 market 1"]
    got = fixes_band.distance("driver", "Driver 01", figures, lengths, 2, own)
    assert got["distance"] == 0.0 and got["median"] == 15.0
    assert fixes_band.in_band("driver", "Driver 01", figures, lengths, 2, own)
    assert not fixes_band.in_band("driver", "Driver 01", figures, lengths, 2)   # median
    longer = {**figures, "markets": {"Driver 01 market 1": {"rounds": 9.0}}}
    assert fixes_band.distance("driver", "Driver 01", longer, lengths, 2, own)[
        "distance"] == pytest.approx(9.0 / 6.0 - 1.2)


def test_distance_adds_the_parts_outside_their_bands():
    figures = {"power": {"rate": 0.10, "interval": [0.05, 0.15]},
               "markets": {"m": {"rounds": 6.0, "balance": 0.9}}}
    lengths = {"m": 6.0, "x": 15.0, "y": 15.0}
    got = fixes_band.distance("card", "C", figures, lengths, 2)
    assert got["median"] == 15.0
    assert got["distance"] == pytest.approx(0.35 + (1 - 6 / 15 - 0.2))
    assert not fixes_band.in_band("card", "C", figures, lengths, 2)


def test_pareto_front_keeps_only_undominated_points():
    points = [{"numbers": 0, "distance": 0.5}, {"numbers": 1, "distance": 0.3},
              {"numbers": 1, "distance": 0.4}, {"numbers": 2, "distance": 0.35},
              {"numbers": 2, "distance": 0.1}]
    front = fixes_band.pareto_front(points)
    assert [(p["numbers"], p["distance"]) for p in front] == [(0, 0.5), (1, 0.3), (2, 0.1)]


# ----- patches and caches ---------------------------------------------------------------------
def test_patch_loads_in_the_env_with_the_changed_numbers(tmp_path):
    from transit_gym.envs.registry import game_class

    options = fixes_data.write_patch([change("Crate Motor", "cost", 5, 6),
                                      change("Crate Motor", "count", 3, 2)], tmp_path)
    game = game_class("automobiles")(num_players=2, card_set="Well Oiled Machine", **options)
    cards = game.cards
    crate = cards.card_id("Crate Motor")
    assert (cards.costs[crate], cards.count[crate], cards.values[crate]) == (6, 2, 1)
    assert load_cards().costs[crate] == 5   # the shipped table is untouched


def test_retune_cache_key_follows_the_data_files_contents(tmp_path):
    start = Path(fixes_measure.today_vectors(2, {"Squeaky Clean": list(
        load_cards().sets["Squeaky Clean"])}, {})["Squeaky Clean"])
    patch = tmp_path / "cards.toml"
    patch.write_text('[[cards]]\nname = "Crate Motor"\ncost = 6\n')
    options = {"card_set": ["x"], "card_data": str(patch)}
    first = fixes_measure.retune_key(options, 2, start, fixes_measure.RETUNE)
    assert fixes_measure.retune_key(dict(options), 2, start, fixes_measure.RETUNE) == first
    patch.write_text('[[cards]]\nname = "Crate Motor"\ncost = 7\n')   # same path, new data
    assert fixes_measure.retune_key(options, 2, start, fixes_measure.RETUNE) != first


def test_retuned_vector_is_tuned_once_then_read_from_the_cache(tmp_path, monkeypatch):
    from transit_gym.agents.tuned import vector as tv

    calls = []

    def fake_tune(markets, players, settings, workers, show):
        calls.append(settings.start)
        return tv.TunedVector(tv.rule_based_vector(), market={}, meta={}), []

    monkeypatch.setattr(fixes_measure.tune, "tune", fake_tune)
    start = tmp_path / "start.json"
    tv.TunedVector(tv.rule_based_vector(), market={}, meta={}).save(start)
    patch = tmp_path / "cards.toml"
    patch.write_text('[[cards]]\nname = "Crate Motor"\ncost = 6\n')
    options = {"card_set": ["x"], "card_data": str(patch)}
    one = fixes_measure.retuned_vector(options, 2, start, tmp_path / "tuned", 1)
    two = fixes_measure.retuned_vector(options, 2, start, tmp_path / "tuned", 1)
    assert one == two and calls == [str(start)]   # warm-started from today's vector
    patch.write_text('[[cards]]\nname = "Crate Motor"\ncost = 7\n')
    fixes_measure.retuned_vector(options, 2, start, tmp_path / "tuned", 1)
    assert len(calls) == 2   # changed data: a cache miss


def test_a_measured_candidate_is_not_played_again(tmp_path, monkeypatch):
    """Resuming: figures found in the folder are read, not measured."""
    played = []

    def fake_measure(backend, card, markets, players, games, seed):
        played.append(card)
        return {"markets": {n: {"rounds": 10.0} for n in markets}}

    monkeypatch.setattr(fixes_measure, "measure", fake_measure)
    setup = {"players": 2, "sets": {"m": ["a"]}, "options": {}}
    (tmp_path / "v.json").write_text("{}")
    search = fixes.Search("card", "Crate Motor", setup, tmp_path, None,
                          {"m": tmp_path / "v.json"}, ["m"])
    first = search.figures((), False, 20, 0)
    again = fixes.Search("card", "Crate Motor", setup, tmp_path, None,
                         {"m": tmp_path / "v.json"}, ["m"]).figures((), False, 20, 0)
    assert first == again and played == ["Crate Motor"]
    search.figures((), False, 40, 0)   # other games: measured
    assert len(played) == 2
    (tmp_path / "v.json").write_text('{"other": 1}')   # today's vector changed: measured
    search.figures((), False, 40, 0)
    assert len(played) == 3
    assert len(list((tmp_path / "candidates").glob("*.json"))) == 3


def test_a_fix_outside_the_band_is_reported_as_such():
    entry = {"figure": 0.2, "interval": [0.15, 0.25], "rounds": {"m": 8.0}, "median": 15.0,
             "distance": 0.5, "in_band": False}
    fix = {"kind": "card", "item": "C", "changes": [change("C", "cost", 5, 6)],
           "markets": ["m"], "proposed": False, "front": [], "patch": [],
           "setup": {"players": 2, "sets": {"m": []}, "screen_games": 20, "retune": 1},
           "verified": {**entry, "games": 40, "seed": 1, "before": entry,
                        "without_retune": entry, "other_markets": []}}
    text = fixes_report.markdown(fix)
    assert "No fix reaches the band" in text and "Proposed fix" not in text
    json.dumps(fix)


def test_the_next_candidate_is_verified_when_fresh_games_put_the_first_outside(monkeypatch):
    """Search figures on 200 games can pass a candidate that 1000 fresh games put just
    outside the band: the next smallest that reached the band is verified, and a fix is
    only ever a candidate verified in the band."""
    a, b = (change("C", "cost", 5, 6),), (change("C", "cost", 5, 7),)

    def verified(in_band, distance):
        return {"in_band": in_band, "distance": distance, "figure": 0.5,
                "interval": [0.4, 0.6]}

    outcome = {"C cost 5->6": verified(False, 0.01), "C cost 5->7": verified(True, 0.0)}
    monkeypatch.setattr(fixes, "verify", lambda search, c: outcome[fixes_data.describe(c)])
    found = {"reached": [{"changes": list(a)}, {"changes": list(b)}], "chosen": {}}
    candidate, got, tried = fixes.verify_first(None, found)
    assert candidate == b and got["in_band"]
    assert [t["text"] for t in tried] == ["C cost 5->6"]
    outcome["C cost 5->7"] = verified(False, 0.02)   # none verified: the closest, not a fix
    candidate, got, _ = fixes.verify_first(None, found)
    assert candidate == a and not got["in_band"]
    assert fixes.status(candidate, got) == "closest"


def test_a_power_flag_is_checked_to_be_reproduced_where_it_was_flagged():
    """The report's power figure and interval travel with the flag; the search's own
    figure for today's data must lie within that interval, and fix.md says whether it
    does (other rules flag other figures: nothing to compare)."""
    flag = {"kind": "driver", "item": "Driver 08", "rule": "power", "figure": 0.36,
            "interval": [0.297, 0.429], "markets": []}
    got = fixes.flagged(flag)
    assert got == {"figure": 0.36, "interval": [0.297, 0.429]}
    assert fixes.reproduced(got, {"figure": 0.376}) is True
    assert fixes.reproduced(got, {"figure": 0.462}) is False
    assert fixes.flagged({**flag, "rule": "seat_advantage"}) is None
    assert fixes.reproduced(None, {"figure": 0.5}) is None
    entry = {"figure": 0.376, "interval": [0.361, 0.391], "rounds": {"m": 8.0},
             "median": 15.0, "distance": 0.07, "in_band": False}
    fix = {"kind": "driver", "item": "Driver 08", "changes": [], "markets": ["m"],
           "proposed": False, "front": [], "patch": [], "status": "none closer",
           "flagged": got, "reproduced": True,
           "setup": {"players": 2, "sets": {"m": []}, "screen_games": 20, "retune": 1},
           "verified": {**entry, "games": 40, "seed": 1, "before": entry,
                        "without_retune": entry, "other_markets": []}}
    assert "Flagged at 36.0% (29.7-42.9%); today's data on the verification games: 37.6%" \
        in fixes_report.markdown(fix)
    assert "OUTSIDE" in fixes_report.markdown({**fix, "reproduced": False})


# ----- a whole search, tiny ---------------------------------------------------------------------
def test_a_tiny_search_writes_its_fix_and_resumes_without_playing(tmp_path, monkeypatch):
    """Aerodynamics (Well Oiled Machine only): the fix dict the report's caller reads,
    fix.md and a patch the env loads; a second run reads every figure from the folder."""
    from transit_gym.envs.registry import game_class

    sets = {n: list(c) for n, c in load_cards().sets.items()
            if n in ("Well Oiled Machine", "First Game", "Squeaky Clean")}
    setup = {"players": 2, "games": 8, "seed": 3, "options": {}, "sets": sets, "workers": 1,
             "ray": False, "screen_games": 4, "retune": 1, "progress": False,
             "tune": {"generations": 1, "games": 4, "eval_games": 2, "popsize": 4}}
    flag = {"kind": "card", "item": "Aerodynamics", "rule": "", "figure": 0.3,
            "interval": [0.2, 0.4], "markets": [], "severity": "high", "text": ""}
    fix = fixes.propose_fixes([flag], setup, tmp_path)[0]
    assert fix["item"] == "Aerodynamics" and fix["markets"] == ["Well Oiled Machine"]
    assert 1 <= len(fix["changes"]) <= 2
    assert {"figure", "interval", "games", "before", "without_retune",
            "other_markets"} <= set(fix["verified"])
    assert fix["verified"]["games"] == 8 and not fix["proposed"]   # too few games to propose
    assert [m["market"] for m in fix["verified"]["other_markets"]] == ["Well Oiled Machine"]
    numbers = [p["numbers"] for p in fix["front"]]
    assert numbers == sorted(set(numbers)) and numbers[0] == 0
    assert (tmp_path / "aerodynamics" / "fix.md").is_file()
    options = {Path(p).stem: p for p in fix["patch"]}
    game = game_class("automobiles")(num_players=2, card_set="Well Oiled Machine", **options)
    aero = game.cards.card_id("Aerodynamics")
    got = {c["field"]: c["to"] for c in fix["changes"]}
    assert all(int(getattr(game.cards, {"cost": "costs", "value": "values"}[f])[aero]) == v
               for f, v in got.items())

    def no_games(*args, **kwargs):
        raise AssertionError("a resumed search played games")

    monkeypatch.setattr(fixes_measure, "measure", no_games)
    monkeypatch.setattr(fixes_measure.tune, "tune", no_games)
    again = fixes.propose_fixes([flag], setup, tmp_path)[0]
    assert again["changes"] == fix["changes"] and again["verified"] == fix["verified"]


@pytest.mark.parametrize("argv, message", [
    (["--kind", "sponsor", "--item", "Sponsor"], "has no entry 'Sponsor'"),
    (["--kind", "board", "--item", "Daytona"], "no board 'Daytona'"),
    (["--kind", "card", "--item", "Crate Mtr"], "has no entry 'Crate Mtr'"),
    (["--kind", "driver", "--item", "Driver 01", "--markets", "No Such Set"],
     "not among the markets judged"),
    (["--kind", "card", "--item", "Crate Motor", "--games", "0"], "--games must be positive"),
])
def test_the_command_names_what_is_wrong(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        fixes.main([*argv, "--out", str(tmp_path / "fix")])
    assert stop.value.code == 2 and message in capsys.readouterr().err
