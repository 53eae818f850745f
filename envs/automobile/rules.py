"""Automobile as a configured game: options, parameters and the rules API.

Module functions follow DESIGN.md (``new_game``, ``legal_mask``, ``apply``,
``current_player``, ``is_over``, ``scores``); they delegate to the jitted kernels.

Options (each settles a point the rulebook leaves open; defaults documented in
``docs/automobile.md``):
- ``first_player="random"``: the seat that selects first in turn 1 ("randomly
  determine the starting player"), drawn from the seed; or a seat number.
- ``frontier="furthest"``: R&D for building ahead counts from the most advanced
  space ever built in (a closed space keeps counting); ``"open"`` counts from the
  most advanced space that still holds factories.
- ``parts_with_new_factory=False``: the parts factory goes only on a space that
  already holds the player's factories before the build action (RB Components,
  "General Information", and the summary of I. Build both say "already"); ``True``
  lets one action open a new space with a factory and the parts factory together.
- ``sloan="held"``: Sloan discards half (rounded up) of all loss cubes held;
  ``"taken"``: half of the cubes taken this turn.
- ``shortfall="loan_then_debt"``: a P8 payment the player cannot meet takes loans
  automatically (while any are left), the rest becomes negative cash; ``"debt"``:
  negative cash without loans; ``"forgive"``: the player pays what they have. The
  final loan repayment follows the same option (no loans can be taken for it).
- ``markers_on_closed=True``: ads and discounts may go on a space closed this turn
  after it produced (its cars are still sold); ``False`` forbids it.
- ``durant_borrow=False``: Durant may decline his forced build when he cannot pay
  for any unoccupied space from his cash; ``True``: he must first take the loans
  that would make one affordable.
- ``reward="win"``: +1 to the winner, -1 shared by the others; ``"cash"``: own
  final cash minus the others' mean, in thousands of dollars (zero-sum).
- ``data=None``: path of a TOML file replacing tables of ``data.toml``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.automobile import data as auto_data
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.actions import NUM_ACTIONS, action_name
from transit_gym.envs.automobile.determinize import determinize
from transit_gym.envs.automobile.encode import OBS, low_high, observe, one_hot_groups
from transit_gym.envs.automobile.violation import MESSAGES, violation
from transit_gym.envs.core.functional import *  # noqa: F403  (the functional API)
from transit_gym.envs.core.functional import make_new_game
from transit_gym.envs.core.game import Game, Kernels, State
from transit_gym.envs.core.layout import widen_fixed_slots
from transit_gym.envs.core.options import (
    check_choice,
    check_flag,
    check_optional_path,
    check_seat_or_random,
)

KERNELS = Kernels.of(k, observe, violation=violation, determinize=determinize)

FRONTIER_MODES = {"furthest": 0, "open": 1}
SLOAN_MODES = {"held": 0, "taken": 1}
SHORTFALL_MODES = {"loan_then_debt": 0, "debt": 1, "forgive": 2}
REWARD_MODES = {"win": 0, "cash": 1}


_flag, _choice = check_flag, check_choice   # the shared option checkers (envs/core/options)


class AutomobileGame(Game):
    """Automobile (Martin Wallace) for 3-5 players."""

    name = "automobile"
    random_options = ({"first_player": "random"},)
    layout = st.LAYOUT
    kernels = KERNELS
    render_module = "transit_gym.envs.automobile.render"
    potential_module = "transit_gym.envs.automobile.potential"
    obs = OBS
    min_players = 3
    max_players = 5
    violation_messages = MESSAGES

    def __init__(self, num_players: int = 3, **options: Any):
        super().__init__(num_players, **options)

    def _build(self, first_player: int | str = "random", frontier: str = "furthest",
               parts_with_new_factory: bool = False, sloan: str = "held",
               shortfall: str = "loan_then_debt", markers_on_closed: bool = True,
               durant_borrow: bool = False, reward: str = "win",
               data: str | None = None) -> None:
        first = check_seat_or_random("first_player", first_player, self.num_players)
        check_optional_path("data", data)
        d = auto_data.load(self._data_file("data", data))
        self.data = d
        p = np.zeros(st.PARAMS.size, dtype=np.int64)
        p[st.P_NUM_PLAYERS] = self.num_players
        p[st.P_FIRST] = first
        p[st.P_FRONTIER_MODE] = _choice("frontier", frontier, FRONTIER_MODES)
        p[st.P_PARTS_WITH_NEW] = _flag("parts_with_new_factory", parts_with_new_factory)
        p[st.P_SLOAN_MODE] = _choice("sloan", sloan, SLOAN_MODES)
        p[st.P_SHORTFALL] = _choice("shortfall", shortfall, SHORTFALL_MODES)
        p[st.P_MARKERS_ON_CLOSED] = _flag("markers_on_closed", markers_on_closed)
        p[st.P_DURANT_BORROW] = _flag("durant_borrow", durant_borrow)
        p[st.P_REWARD] = _choice("reward", reward, REWARD_MODES)
        p[st.P_BANK_TOTAL] = st.BANK_TOTAL
        setup = d.setup
        p[st.P_MONEY] = setup["money"]
        p[st.P_START_RD] = setup[f"rd_{self.num_players}"]
        p[st.P_RD_CUBES] = setup["rd_cubes"]
        p[st.P_MAX_CARS] = setup["cars"]
        p[st.P_SALESMEN] = setup["salesmen"]
        p[st.P_MAX_FACTORIES] = setup["factories"]
        p[st.P_PARTS_FACTORIES] = setup["parts_factories"]
        p[st.P_LOANS_MAX] = setup["loans_max"]
        p[st.P_LOAN_AMOUNT] = setup["loan_amount"]
        p[st.P_LOAN_INTEREST] = setup["loan_interest"]
        p[st.P_LOAN_REPAY] = setup["loan_repay"]
        p[st.P_MAX_PER_SPACE] = setup["max_per_space"]
        p[st.P_PARTS_COST] = setup["parts_cost"]
        p[st.P_PARTS_REFUND] = setup["parts_refund"]
        p[st.P_CLOSE_REDUCTION] = setup["close_reduction"]
        p[st.P_PARTS_DISCOUNT] = setup["parts_discount"]
        p[st.P_PER_ACTION] = setup["salesmen_per_action"]
        p[st.P_HOWARD_CARS] = setup["howard_cars"]
        p[st.P_CLOSURES] = setup["closures"]
        p[st.P_NUM_ADS] = len(d.ad_costs)
        p[st.P_NUM_STACKS] = len(d.discount_stacks)
        p[st.P_NUM_TILE_KINDS] = len(d.tile_values)
        p[st.P_SEGMENT:st.P_SEGMENT + auto_data.NUM_SPACES] = d.segment
        p[st.P_COST:st.P_COST + auto_data.NUM_SPACES] = d.cost
        p[st.P_PROD_COST:st.P_PROD_COST + 3] = d.prod_cost
        p[st.P_PROD_MIN:st.P_PROD_MIN + 9] = d.prod_min.ravel()
        p[st.P_PROD_MAX:st.P_PROD_MAX + 9] = d.prod_max.ravel()
        p[st.P_PRICE_TOP:st.P_PRICE_TOP + 3] = d.price_top
        p[st.P_PRICE_LOW:st.P_PRICE_LOW + 3] = d.price_low
        caps = np.zeros((3, auto_data.NUM_TURNS), dtype=np.int64)
        for turn in range(auto_data.NUM_TURNS):
            usable = min(turn + 1, auto_data.NUM_LABELS)   # labels '1-4', '2-4', '3-4'
            caps[:, turn] = d.boxes[:, :usable].sum(axis=1)
        p[st.P_BOX_CAP:st.P_BOX_CAP + caps.size] = caps.ravel()
        nt = auto_data.NUM_TURNS
        p[st.P_LOSS_PRICE:st.P_LOSS_PRICE + nt] = d.loss_price
        p[st.P_TILES_PER_PLAYER:st.P_TILES_PER_PLAYER + nt] = d.tiles_per_player
        p[st.P_HIGHER_SEG:st.P_HIGHER_SEG + nt] = d.higher_seg
        p[st.P_LOWER_SEG:st.P_LOWER_SEG + nt] = d.lower_seg
        p[st.P_PREMIUM_BAG:st.P_PREMIUM_BAG + nt] = d.premium_bag
        p[st.P_MASS_BAG:st.P_MASS_BAG + nt] = d.mass_bag
        kinds = len(d.tile_values)
        p[st.P_TILE_VALUES:st.P_TILE_VALUES + kinds] = d.tile_values
        p[st.P_TILE_COUNTS:st.P_TILE_COUNTS + kinds] = d.tile_counts
        p[st.P_CHAR_RD:st.P_CHAR_RD + st.NUM_CHARACTERS] = d.char_rd
        p[st.P_AD_COSTS:st.P_AD_COSTS + len(d.ad_costs)] = d.ad_costs
        p[st.P_STACKS:st.P_STACKS + len(d.discount_stacks)] = d.discount_stacks
        self.params = p
        self.num_actions = NUM_ACTIONS
        self.obs_size = OBS.size

    # ----- observation bounds --------------------------------------------------------------------
    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """True per-slot bounds of every observation (``encode.low_high``)."""
        return widen_fixed_slots(*low_high(self.params))

    def obs_one_hot_groups(self) -> list[slice]:
        """The one-hot codes of the observation (``encode.one_hot_groups``)."""
        return one_hot_groups(self.num_players)

    # ----- words and pictures ------------------------------------------------------------------
    def describe_action(self, state: State, action: int) -> str:
        return action_name(int(action), self.data.names)

    # ----- results -------------------------------------------------------------------------------
    def scores(self, state: State) -> list[int]:
        """Cash per seat (final cash once the game is over)."""
        return [int(v) for v in state["cash"][: self.num_players]]

    def ranks(self, state: State) -> list[int]:
        """Rank 1 = most cash; ties ordered by the last P6 pass order (Winning the game)."""
        s = state.data
        order = [int(x) for x in s[st.NEXT_ORDER:st.NEXT_ORDER + self.num_players]]
        pos = {seat: (order.index(seat) if seat in order else self.num_players)
               for seat in range(self.num_players)}
        cash = self.scores(state)
        ranking = sorted(range(self.num_players), key=lambda seat: (-cash[seat], pos[seat]))
        ranks = [0] * self.num_players
        for r, seat in enumerate(ranking):
            ranks[seat] = r + 1
        return ranks

    def final_info(self, state: State) -> list[dict[str, Any]]:
        s = state.data
        ranks = self.ranks(state)
        best = int(k.winner(s, self.params))
        info = []
        for seat in range(self.num_players):
            def stat(name: str, seat: int = seat) -> int:
                return int(state[name][seat])

            sold = stat("stat_sold_howard") + stat("stat_sold_salesmen") + stat("stat_sold_demand")
            info.append({
                "cash": stat("cash"),
                "rank": ranks[seat],
                "winner": seat == best,
                "cars_produced": stat("stat_produced"),
                "cars_sold": sold,
                "sold_to_howard": stat("stat_sold_howard"),
                "sold_by_salesmen": stat("stat_sold_salesmen"),
                "sold_by_demand": stat("stat_sold_demand"),
                "cars_unsold": stat("stat_unsold"),
                "idle_salesmen": stat("stat_idle_salesmen"),
                "loss_cubes": stat("loss"),
                "loss_cubes_taken": stat("stat_loss_taken"),
                "loss_paid": stat("stat_loss_paid"),
                "interest_paid": stat("stat_interest"),
                "loans": stat("loans"),
                "forced_loans": stat("stat_forced_loans"),
                "revenue": stat("stat_revenue"),
                "factories_built": stat("stat_built"),
                "spaces_closed": stat("stat_closed"),
                "factory_value": stat("stat_end_value"),
                "unpaid": stat("stat_unpaid"),
                "rd_cubes": stat("rd"),
            })
        return info

    # ----- invariants ----------------------------------------------------------------------------
    def check_invariants(self, state: State) -> None:
        from transit_gym.envs.automobile.invariants import check

        check(self, state)


# ----- DESIGN.md's functional rules API (shared; see envs.core.functional) ---
new_game = make_new_game(AutomobileGame)
