"""The named parameter layout of the Automobile decision procedure (the tuned policy).

One float per named entry, in the order of ``ENTRIES`` (name, rule-based value, CMA-ES
step). The first entries are every constant of the rule-based agent
(``agents/rule_based/automobile.py``) at its value; the others are decision features the
rule-based agent lacks, each at a value that leaves its play unchanged (a feature the
rule-based agent never uses has a gate entry at ``OFF``, on above 0, so one CMA-ES step
can switch it on):

- ``select.*``: a character's selection score (highest legal wins) when holding few loss
  cubes (``low.*``) or many (``high.*``), Howard's bonus once cars are expected, and a
  weight on the R&D cubes lying on a tile (RB P2);
- ``build.*`` / ``space.*`` / ``what.*``: when to build, where (a score per segment before
  and after ``space.late_turn``, R&D and cost weights) and what (the parts factory);
- ``loan.*``: borrow up to ``loan.max`` loans when the cash is below ``loan.cash_below``
  (RB Loans: a factory keeps its full value at the end, a loan costs $100 plus $50 a turn);
- ``ford.*``: take Ford's extra build with this much cash (RB Ford);
- ``salesmen.*``, ``produce.*``, ``qty.*``: salesmen kept, when to produce and how many
  cars (the expected demand per tile, own tiles, salesmen, Howard, a scale and a bias, the
  cars already on the board, skipping a space whose minimum is far above the target; RB
  IV and P7: an unsold car is a loss cube);
- ``close.*``: action V, close the least advanced own space with many loss cubes;
- ``exec.*``: P6 advertisement, discount and closure thresholds (RB P6; closing discards
  half the loss cubes, RB V).

The kernels freeze these indices and the rule-based point: the name ``automobile_*`` puts
this module under the kernel cache stamp of the Automobile agents (``envs/_numba_cache.py``).
"""

from __future__ import annotations

from transit_gym.agents.tuned.packing import entry_functions

GAME = "automobile"
LAYOUT_VERSION = 1
OFF = -1.0   # a gate at this value: the feature is off (on above 0)
#: the characters in action order (``data``: Ford, Kettering, Sloan, Howard, Durant, Chrysler)
CHARACTERS = ("ford", "kettering", "sloan", "howard", "durant", "chrysler")
SEGMENTS = ("mass", "middle", "premium")

#: (name, rule-based value, CMA-ES step) of every entry, in vector order
ENTRIES: tuple[tuple[str, float, float], ...] = (
    # P2 selection: scores with few / many loss cubes (rule-based preference orders)
    *((f"select.low.{c}", s, 1.5) for c, s in zip(CHARACTERS, (2, 6, 4, 3, 1, 5), strict=True)),
    *((f"select.high.{c}", s, 1.5) for c, s in zip(CHARACTERS, (2, 4, 6, 3, 1, 5), strict=True)),
    ("select.low_loss", 4.0, 2.0),          # fewer loss cubes than this: the ``low`` scores
    ("select.howard_bonus", 10.0, 3.0),     # Howard's bonus once factories exist ...
    ("select.howard_turn", 1.0, 1.0),       # ... from this turn (0-based)
    ("select.rd_weight", 0.0, 1.0),         # + this per R&D cube lying on the tile
    # P3 action
    ("produce.force_round", 2.0, 1.0),      # produce in this round (0-based) with no cars
    ("produce.min_round", 1.0, 1.0),        # produce from this round when holding no cars
    ("build.min_factories", 2.0, 1.0),      # build while owning fewer factories ...
    ("build.max_factories", 5.0, 2.0),      # ... or fewer than this with cash above
    ("build.cash_base", 1200.0, 300.0),     # this ...
    ("build.cash_per_turn", 300.0, 150.0),  # ... plus this per turn
    ("salesmen.target", 2.0, 1.0),          # salesmen kept in the showrooms
    ("salesmen.per_turn", 0.0, 0.5),        # + this per turn
    # build space: score by segment before / from ``space.late_turn``
    *((f"space.early.{s}", v, 10.0) for s, v in zip(SEGMENTS, (0, 40, -30), strict=True)),
    *((f"space.late.{s}", v, 10.0) for s, v in zip(SEGMENTS, (40, 25, -30), strict=True)),
    ("space.late_turn", 2.0, 1.0),
    ("space.index", 1.0, 0.5),              # per space further along the track
    ("space.rd_cost", 6.0, 2.0),            # a new space: minus this per R&D cube to open it
    ("space.own", 30.0, 10.0),              # an own space: plus this ...
    ("space.per_factory", 10.0, 5.0),       # ... minus this per factory on it
    ("space.cost", 10.0, 5.0),              # minus this per $1000 of a factory's cost
    # build what
    ("what.one_parts_cash", 1500.0, 300.0),  # a factory + the parts factory above this cash
    ("what.parts_first", OFF, 1.0),         # > 0: the parts factory first above that cash
    # P3 loans and Ford's extra build (the rule-based agent never takes either)
    ("loan.max", 0.0, 1.0),                 # loans held at most
    ("loan.cash_below", 1000.0, 300.0),     # borrow in P3 with less cash than this
    ("ford.use", OFF, 1.0),                 # > 0: take Ford's extra build ...
    ("ford.build_cash", 1000.0, 300.0),     # ... with at least this much cash
    # production quantity: expected demand per opponent's tile by segment and turn
    ("qty.own_tile", 5.0, 1.0),             # cars per unit of an own tile (obs: value / 5)
    ("qty.middle_t1", 3.5, 1.0),
    ("qty.middle_t2", 4.2, 1.0),
    ("qty.middle_late", 2.8, 1.0),
    ("qty.mass_t2", 2.8, 1.0),
    ("qty.mass_late", 4.2, 1.0),
    ("qty.bag_tile", 3.5, 1.0),             # a tile drawn from the bag (premium, mass turn 4)
    ("qty.salesman", 1.0, 0.5),             # cars per salesman (not premium)
    ("qty.howard", 2.0, 1.0),               # cars for Howard
    ("qty.scale", 1.0, 0.3),                # times one's share of the demand
    ("qty.bias", 0.5, 1.0),                 # added before rounding down
    ("qty.own_cars", 0.0, 0.5),             # minus this per own car already in the segment
    ("qty.rival_cars", 0.0, 0.5),           # demand minus this per rival car in the segment
    ("qty.skip", OFF, 1.0),                 # > 0: produce nothing where the fewest legal ...
    ("qty.skip_excess", 3.0, 2.0),          # ... cars exceed the target by more than this
    # P3 action V: close a space (RB V: discard half the loss cubes)
    ("close.use", OFF, 1.0),                # > 0: close the least advanced own space ...
    ("close.min_loss", 10.0, 3.0),          # ... holding at least this many loss cubes
    # P6 executive decisions
    ("exec.ad_min_rd", 3.0, 1.0),           # an ad with this many R&D cubes ...
    ("exec.ad_min_cars", 4.0, 2.0),         # ... and an own space with this many cars
    ("exec.disc", OFF, 1.0),                # > 0: take a discount ...
    ("exec.disc_min_cars", 4.0, 2.0),       # ... with an own non-premium space this full
    ("exec.close", OFF, 1.0),               # > 0: close a space (P6) ...
    ("exec.close_min_loss", 10.0, 3.0),     # ... holding at least this many loss cubes
)
NAMES: tuple[str, ...] = tuple(name for name, _, _ in ENTRIES)
VECTOR_SIZE = len(NAMES)
#: index of every entry by name
INDEX = {name: i for i, name in enumerate(NAMES)}
(SEL_LOW, SEL_HIGH) = INDEX["select.low.ford"], INDEX["select.high.ford"]
(SEL_LOW_LOSS, SEL_HOWARD_BONUS, SEL_HOWARD_TURN, SEL_RD_WEIGHT) = (
    INDEX[n] for n in ("select.low_loss", "select.howard_bonus", "select.howard_turn",
                       "select.rd_weight"))
(PRODUCE_FORCE_ROUND, PRODUCE_MIN_ROUND, BUILD_MIN_FACTORIES, BUILD_MAX_FACTORIES,
 BUILD_CASH_BASE, BUILD_CASH_PER_TURN, SALESMEN_TARGET, SALESMEN_PER_TURN) = (
    INDEX[n] for n in ("produce.force_round", "produce.min_round", "build.min_factories",
                       "build.max_factories", "build.cash_base", "build.cash_per_turn",
                       "salesmen.target", "salesmen.per_turn"))
SPACE_EARLY, SPACE_LATE = INDEX["space.early.mass"], INDEX["space.late.mass"]
(SPACE_LATE_TURN, SPACE_INDEX, SPACE_RD_COST, SPACE_OWN, SPACE_PER_FACTORY, SPACE_COST) = (
    INDEX[n] for n in ("space.late_turn", "space.index", "space.rd_cost", "space.own",
                       "space.per_factory", "space.cost"))
(WHAT_ONE_PARTS_CASH, WHAT_PARTS_FIRST, LOAN_MAX, LOAN_CASH_BELOW, FORD_USE,
 FORD_BUILD_CASH) = (
    INDEX[n] for n in ("what.one_parts_cash", "what.parts_first", "loan.max",
                       "loan.cash_below", "ford.use", "ford.build_cash"))
(QTY_OWN_TILE, QTY_MIDDLE_T1, QTY_MIDDLE_T2, QTY_MIDDLE_LATE, QTY_MASS_T2, QTY_MASS_LATE,
 QTY_BAG_TILE, QTY_SALESMAN, QTY_HOWARD, QTY_SCALE, QTY_BIAS) = (
    INDEX[n] for n in ("qty.own_tile", "qty.middle_t1", "qty.middle_t2", "qty.middle_late",
                       "qty.mass_t2", "qty.mass_late", "qty.bag_tile", "qty.salesman",
                       "qty.howard", "qty.scale", "qty.bias"))
(QTY_OWN_CARS, QTY_RIVAL_CARS, QTY_SKIP, QTY_SKIP_EXCESS, CLOSE_USE, CLOSE_MIN_LOSS) = (
    INDEX[n] for n in ("qty.own_cars", "qty.rival_cars", "qty.skip", "qty.skip_excess",
                       "close.use", "close.min_loss"))
(EXEC_AD_MIN_RD, EXEC_AD_MIN_CARS, EXEC_DISC, EXEC_DISC_MIN_CARS, EXEC_CLOSE,
 EXEC_CLOSE_MIN_LOSS) = (
    INDEX[n] for n in ("exec.ad_min_rd", "exec.ad_min_cars", "exec.disc", "exec.disc_min_cars",
                       "exec.close", "exec.close_min_loss"))


#: ``names()``, ``rule_based_vector()`` and ``scales()`` of the entry table
names, rule_based_vector, scales = entry_functions(ENTRIES)
