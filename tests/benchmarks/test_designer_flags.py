"""The designer report's flags for degenerate play (``benchmarks.balance.flags``) on small
hand-made tables: each of the five rules on both sides of its line, the severities and
their ranking. The lines are the designer's spec: more than half of a market's spending
or activations; race length 35% or more from the median; a seat interval excluding the
fair share; a market card no skill level buys; a power interval 10 points or more from
the fair share."""

from __future__ import annotations

import pytest

from transit_gym.benchmarks.balance import flags

KEYS = {"kind", "item", "rule", "figure", "interval", "markets", "severity", "text"}


def _share(spending: float, activations: float = 0.1) -> dict:
    return {"spending": spending, "spending_interval": [spending - 0.05, spending + 0.05],
            "activations": activations,
            "activations_interval": [activations - 0.05, activations + 0.05]}


def _market(rounds: float = 10.0, rates=(0.5, 0.5), intervals=((0.4, 0.6), (0.4, 0.6)),
            shares: dict | None = None, cards=()) -> dict:
    return {"cards": list(cards), "games": 200, "seat_win_rate": list(rates),
            "seat_win_interval": [list(i) for i in intervals], "rounds_mean": rounds,
            "rounds_interval": [rounds - 0.2, rounds + 0.2], "shares": shares or {}}


def test_a_card_with_more_than_half_the_spending_or_activations_is_flagged():
    markets = {"A": _market(shares={"Crate Motor": _share(0.73), "Nitro": _share(0.27)}),
               "B": _market(shares={"Crate Motor": _share(0.51)}),
               "C": _market(shares={"Turbo": _share(0.2, activations=0.55)}),
               "D": _market(shares={"Tires": _share(0.5, activations=0.5)})}
    found = {f["item"]: f for f in flags.dominant_cards(markets)}
    assert set(found) == {"Crate Motor", "Turbo"}        # exactly half is not more than half
    crate = found["Crate Motor"]
    assert set(crate) == KEYS and crate["kind"] == "card" and crate["rule"] == "dominant_card"
    assert crate["markets"] == ["A", "B"] and crate["figure"] == pytest.approx(0.73)
    assert crate["severity"] == pytest.approx((0.73 - 0.5) / 0.5)
    assert "spending in A" in crate["text"] and "also in B" in crate["text"]
    assert "activations in C" in found["Turbo"]["text"]


def test_race_length_35_percent_from_the_median_is_flagged_on_both_sides():
    markets = {"mid": _market(10.0), "at_line": _market(6.5), "inside": _market(6.6),
               "long": _market(13.5), "longer": _market(15.0)}
    # median 10.0: 6.5 is 35% shorter (flagged), 6.6 34% (not), 13.5 35% longer (flagged)
    found = {f["item"]: f for f in flags.race_length(markets)}
    assert set(found) == {"at_line", "long", "longer"}
    assert found["at_line"]["severity"] == pytest.approx(0.0, abs=1e-6)
    assert found["longer"]["severity"] == pytest.approx((0.5 - 0.35) / 0.35, abs=1e-4)
    assert found["at_line"]["kind"] == "market" and "shorter" in found["at_line"]["text"]
    assert found["longer"]["interval"] == [14.8, 15.2]
    assert flags.race_length({"only": _market(3.0)}) == []


def test_a_seat_whose_interval_excludes_the_fair_share_is_flagged():
    markets = {"fair": _market(rates=(0.55, 0.45), intervals=((0.5, 0.62), (0.38, 0.5))),
               "biased": _market(rates=(0.825, 0.175),
                                 intervals=((0.766, 0.871), (0.129, 0.234))),
               "just": _market(rates=(0.43, 0.57), intervals=((0.36, 0.499), (0.501, 0.64)))}
    found = {f["item"]: f for f in flags.seat_advantage(markets, 2)}
    assert set(found) == {"biased", "just"}     # an interval ending at 0.5 contains it
    assert found["biased"]["figure"] == pytest.approx(0.825)
    assert found["biased"]["severity"] == pytest.approx(0.65)
    assert "seat 0 wins 82.5%" in found["biased"]["text"]
    assert "seat 1" in found["just"]["text"]


def test_with_more_players_a_seat_below_the_fair_share_is_flagged_when_none_is_above():
    low = _market(rates=(0.1, 0.3, 0.3, 0.3),
                  intervals=((0.05, 0.2), (0.2, 0.4), (0.2, 0.4), (0.2, 0.4)))
    (found,) = flags.seat_advantage({"X": low}, 4)
    assert "seat 0 wins only 10.0%" in found["text"]
    assert found["severity"] == pytest.approx(0.6)


def test_a_market_card_no_skill_level_buys_is_flagged_and_random_is_not_judged():
    skill = {"levels": ["random", "rule_based", "tuned"],
             "markets": {"A": {"Manager": {"random": [40, 200], "rule_based": [0, 200],
                                           "tuned": [0, 200]},
                               "Nitro": {"random": [50, 200], "rule_based": [0, 200],
                                         "tuned": [1, 200]}},
                         "B": {"Manager": {"random": [3, 200], "rule_based": [0, 200],
                                           "tuned": [0, 200]}}}}
    (found,) = flags.unbought_cards(skill)
    assert found["item"] == "Manager" and found["markets"] == ["A", "B"]
    assert found["figure"] == 0.0 and found["interval"][0] == pytest.approx(0.0)
    assert 0 < found["interval"][1] < 0.01           # 0 of 400 games: at most 0.95%
    # the market's other card, Nitro, is bought in 1 of 400 judged games
    assert found["severity"] == pytest.approx(1 / 400, abs=1e-4)
    assert "other cards in 0.2%" in found["text"]


def test_power_10_points_or_more_from_the_fair_share_is_flagged_both_ways():
    def row(item, rate, lo, hi):
        return {"item": item, "score_rate": rate, "interval": [lo, hi], "games": 200}

    table = {"fair_share": 0.5, "kinds": {
        "cards": [row("Crate Motor", 0.07, 0.042, 0.114), row("Nine", 0.41, 0.34, 0.48),
                  row("Ten", 0.40, 0.33, 0.47), row("Wide", 0.38, 0.2, 0.55),
                  row("Trap", 0.62, 0.55, 0.69)],
        "drivers": [row("Driver 01", 0.35, 0.287, 0.418)],
        "forced": [row("Nitro", 0.155, 0.11, 0.21)]}}
    markets = {"Well Oiled Machine": _market(cards=["Crate Motor"]), "Other": _market()}
    found = {f["item"]: f for f in flags.power(table, markets)}
    # Nine: 9 points; Wide: its interval contains the fair share; forced play is not power
    assert set(found) == {"Crate Motor", "Ten", "Trap", "Driver 01"}
    assert found["Ten"]["severity"] == pytest.approx(0.0, abs=1e-6)
    assert found["Crate Motor"]["severity"] == pytest.approx(3.3)
    assert found["Crate Motor"]["markets"] == ["Well Oiled Machine"]
    assert found["Driver 01"]["kind"] == "driver" and found["Driver 01"]["markets"] == []
    assert "costs 43.0 points" in found["Crate Motor"]["text"]
    assert "does better without it" in found["Trap"]["text"]


def test_all_flags_are_ranked_most_severe_first():
    tables = {"players": 2,
              "markets": {"a": _market(10.0, shares={"X": _share(0.9)}), "b": _market(10.0),
                          "c": _market(4.0)},
              "power": [{"fair_share": 0.5, "kinds": {
                  "cards": [{"item": "Y", "score_rate": 0.3, "interval": [0.2, 0.4]}]}}]}
    found = flags.all_flags(tables)
    # severities: power (0.2 - 0.1) / 0.1 = 1.0, share (0.9 - 0.5) / 0.5 = 0.8, race length
    # (0.6 - 0.35) / 0.35 = 0.71 (median 10, 4 rounds: 60% shorter)
    assert [(f["rule"], f["item"]) for f in found] == [
        ("power", "Y"), ("dominant_card", "X"), ("race_length", "c")]
    assert [f["severity"] for f in found] == sorted((f["severity"] for f in found),
                                                    reverse=True)
    assert flags.all_flags({}) == []
    with pytest.raises(ValueError, match="rule"):
        flags.flag("card", "X", "no_such_rule", 0.0, [0, 1], [], 0.0, "")
