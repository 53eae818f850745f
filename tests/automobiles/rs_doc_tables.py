"""The layout tables of ``docs/automobiles.md``, generated from the code.

Indices and sizes come from ``encode.OBS``, ``state.PHASE_NAMES`` and the action
constants of ``kernels.py``; only the words are written here, keyed by field or phase
name, so a field, phase or action kind added without words fails
``test_expansion_conformance.py`` (and so does a doc not regenerated). Regenerate with
``PYTHONPATH=_shim python -m tests.automobiles.rs_doc_tables``.
"""

from __future__ import annotations

import re
from pathlib import Path

from transit_gym.envs.automobiles import kernels as K
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import MAX_PLAYERS, NUM_COLOURS
from transit_gym.envs.automobiles.encode import OBS, PLAYER_BLOCK, SPACE_BLOCK
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS

DOC = Path(__file__).resolve().parents[2] / "docs" / "automobiles.md"

#: observation field -> (contents, option that makes it non-zero or "" for the base game)
OBS_WORDS: dict[str, tuple[str, str]] = {
    "decision": ("one-hot pending decision (if this seat decides); one slot per phase of "
                 "`PHASE_NAMES`, the expansion's phases included", ""),
    "waiting": ("another seat decides", ""),
    "money": ("Buy Phase / allowance money, or Pit Team's money", ""),
    "move": ("spaces left, spaces still owed, spaces moved, moving", ""),
    "move_colours": ("colours the moving cube may still use", ""),
    "effect_colour": ("colour of the cube whose effect is resolving", ""),
    "picks": ("may still choose, must still choose, chosen", ""),
    "drawn": ("Nitro's drawn cubes", ""),
    "turn": ("standard turn started, Aerodynamics used, position at the Action Phase "
             "start, highest colour moved on + 1", ""),
    "market_effect": ("one-hot effect of each colour's card (base and expansion effects)",
                      ""),
    "cards_in_play": ("card ids in play (base and expansion cards)", ""),
    "cost": ("cost per colour", ""),
    "value": ("value per colour", ""),
    "stock": ("stock per colour", ""),
    "players": ("per seat from the observer's left: present, on turn, deciding, race "
                "position, crossings, position within the lap, segments past the finish "
                "line, lane, segment, bag size, waiting free draws, wear gained, pit stops, "
                "active[10], used[10], discard[10], bag[10]", ""),
    "spaces": ("per space: colour bits[4], lane, segments, cars, own car, a cube placed "
               "this turn by the player on turn, how far ahead of the own car (fraction of "
               "a lap), the moving cube (own turn only)", ""),
    "game": ("laps, lap length, rounds played, max rounds, final round, players", ""),
    "delayed": ("Adrenaline option 2: spaces per position gained, Car Phase spaces left; "
                "Crate Motor: spaces each car behind gets this turn; then each seat's "
                "awarded spaces not moved yet (observer first). Public",
                "a set with Adrenaline or Crate Motor, once one is activated"),
    "move_cards": ("Redline on, Fuel Injection multiplier (both public reminder cubes); "
                   "the moving cube may mix colours, its Redline wear (own move only)",
                   "a set with Redline, Fuel Injection Engine or Overdrive, while one is "
                   "in effect"),
    "drivers": ("each seat's driver, one-hot (10 per seat), observer first",
                "`drivers=True` / `\"all\"`, after the draft"),
    "driver_pool": ("drivers revealed in the draft and not taken yet",
                    "`drivers`, during the draft"),
    "driver_turn": ("own driver ability used this turn, wear gained in this Decline Phase",
                    "`drivers`"),
    "driver_held": ("Driver 04's drawn cubes waiting to be sorted", "`drivers`, Driver 04"),
}

#: expansion phase -> (option / card, asked when, who decides, legal action kinds)
DECISION_WORDS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "adrenaline": ("Adrenaline", "on activation: option 1 now or option 2 later",
                   "turn", ("SPACE+i", "STOP")),
    "adrenaline_move": ("Adrenaline", "Car Phase: light gray spaces for positions gained",
                        "turn", ("SPACE+i", "STOP")),
    "crate_move": ("Crate Motor", "after the End Phase (with `accelerated_play`: at the "
                   "start of that seat's own turn), a car behind moves its awarded spaces",
                   "each car behind in position order", ("SPACE+i", "STOP")),
    "burnout": ("Burnout", "on activation: the discarded gear naming the colour one lower",
                "turn", ("DISCARD+c",)),
    "camber_toe": ("Camber & Toe", "on activation: the active gear to discard", "turn",
                   ("ACTIVE+c",)),
    "factory_support": ("Factory Support", "after its draw: the cube to remove (must)",
                        "turn", ("ACTIVE+c", "DISCARD+c")),
    "maintenance_staff": ("Maintenance Staff", "active cubes to remove, any number",
                          "turn", ("ACTIVE+c", "STOP")),
    "performance_testing": ("Performance Testing", "draw up to 3 cubes, one at a time",
                            "turn", ("DRAW", "STOP")),
    "impact_wrench": ("Impact Wrench", "discarded cubes to remove (up to 4)", "turn",
                      ("DISCARD+c", "STOP")),
    "pit_mechanic": ("Pit Mechanic", "discarded wear to remove (up to 6)", "turn",
                     ("DISCARD+c", "STOP")),
    "internal_combustion": ("Internal Combustion", "the active cube to discard (must)",
                            "turn", ("ACTIVE+c",)),
    "internal_combustion_take": ("Internal Combustion", "discarded cubes to take back "
                                 "(up to 3, 1 wear each)", "turn", ("DISCARD+c", "STOP")),
    "driver_draft": ("`drivers`", "Setup, before the allowance: last player in turn order "
                     "first, then reverse turn order", "the drafting seat", ("DRIVER+n",)),
    "driver_to_active": ("Driver 02", "Action Phase, after `USE_DRIVER`: the discard cube "
                         "for the active pile", "turn", ("DISCARD+c",)),
    "driver_to_bag": ("Driver 03", "Action Phase, after `USE_DRIVER`: discard cubes back "
                      "into the bag (up to 3)", "turn", ("DISCARD+c", "STOP")),
    "driver_declare": ("Driver 04", "Buy Phase, after `USE_DRIVER`: declare one more cube "
                       "(up to 3) or stop and draw them", "turn", ("DRAW", "STOP")),
    "driver_sort": ("Driver 04", "each drawn cube: to the active pile or the stock (STOP: "
                    "the rest to the bag)", "turn", ("ACTIVE+c", "STOCK+c", "STOP")),
    "driver_pay": ("Driver 05", "Buy Phase, after `USE_DRIVER`: discard cubes to remove "
                   "for $1 each", "turn", ("DISCARD+c", "STOP")),
    "driver_car": ("Driver 06", "Car Phase: one more space of any colour", "turn",
                   ("SPACE+i", "STOP")),
    "driver_decline": ("Driver 01", "Decline Phase: light gray spaces for the Decline "
                       "wear", "turn", ("SPACE+i", "STOP")),
    "driver_wear": ("Driver 08", "End Phase, before drawing: wear to remove (up to 3)",
                    "turn", ("DISCARD+c", "STOP")),
    "driver_extra": ("Drivers 07, 09", "End Phase, after drawing: one more cube, or stop",
                     "turn", ("DRAW", "STOP")),
    "driver_redraw": ("Driver 10", "End Phase, after drawing: drawn cubes to discard and "
                      "draw again", "turn", ("ACTIVE+c", "STOP")),
}

#: action kind -> (first index, last index, meaning)
ACTION_KINDS: dict[str, tuple[int, int, str]] = {
    "STOP": (K.A_STOP, K.A_STOP, "end the Action/Buy Phase, stop moving (\"up to\"), stop "
             "choosing, decline a draw; Adrenaline: option 2"),
    "PIT_STOP": (K.A_PIT_STOP, K.A_PIT_STOP, "Alternative Turn - Pit Stop (first action "
                 "decision only)"),
    "DRAW": (K.A_DRAW, K.A_DRAW, "draw a cube (Boost, Performance Testing, Drivers 07/09); "
             "Driver 04: declare one more"),
    "ALL_WEAR": (K.A_ALL_WEAR, K.A_ALL_WEAR, "Pit Crew: remove every wear cube of the "
                 "discard pile"),
    "ACTIVE+c": (K.A_ACTIVE, K.A_DISCARD - 1, "a cube of colour `c` from the active pile "
                 "(activate, choose, keep; Driver 04: to the active pile)"),
    "DISCARD+c": (K.A_DISCARD, K.A_STOCK - 1, "a cube of colour `c` from the discard pile"),
    "STOCK+c": (K.A_STOCK, K.A_SPACE - 1, "buy (or gain) a cube of colour `c`; Driver 04: "
                "return the drawn cube to the stock"),
    "SPACE+i": (K.A_SPACE, K.A_USE_DRIVER - 1, "the next track space `i` of the cube or car "
                "being moved; Adrenaline: option 1's first space"),
    "USE_DRIVER": (K.A_USE_DRIVER, K.A_USE_DRIVER, "Racing Season: use your driver's "
                   "ability (Action Phase: Drivers 02/03; Buy Phase: Drivers 04/05)"),
    "DRIVER+n": (K.A_DRIVER, K.NUM_ACTIONS - 1, "Racing Season: take Driver `n + 1` in the "
                 "draft"),
}


#: observation slices the base game leaves at 0 (every expansion option off)
EXPANSION_OBS = ("delayed", "move_cards", "drivers", "driver_pool", "driver_turn",
                 "driver_held")


def action_kind(action: int) -> str:
    """The ``ACTION_KINDS`` name of an action index."""
    for kind, (first, last, _) in ACTION_KINDS.items():
        if first <= action <= last:
            return kind
    raise ValueError(f"action {action} is outside 0..{K.NUM_ACTIONS - 1}")


def expansion_phases() -> list[str]:
    """The phases added by the Racing Season: after the base game's last, before over."""
    names = list(st.PHASE_NAMES)
    return names[names.index("supercharged") + 1:names.index("over")]


def _indices(start: int, stop: int) -> str:
    return str(start) if stop - start == 1 else f"{start}-{stop - 1}"


def _size(name: str) -> str:
    size = OBS.length(name)
    blocks = {"players": (MAX_PLAYERS, PLAYER_BLOCK), "spaces": (size // SPACE_BLOCK,
                                                                 SPACE_BLOCK),
              "market_effect": (NUM_COLOURS, size // NUM_COLOURS),
              "drivers": (MAX_PLAYERS, NUM_DRIVERS)}
    if name in blocks:
        return f"{blocks[name][0]} x {blocks[name][1]}"
    return str(size)


def obs_table() -> str:
    rows = [f"Observation: {OBS.size} floats, all >= 0 (`encode.OBS`).", "",
            "| slice | indices | size | contents | non-zero with |",
            "| --- | --- | --- | --- | --- |"]
    for name, start, stop in OBS.describe():
        contents, option = OBS_WORDS[name]
        rows.append(f"| `{name}` | {_indices(start, stop)} | {_size(name)} | {contents} | "
                    f"{option or 'base game'} |")
    return "\n".join(rows)


def action_table() -> str:
    rows = [f"Actions: one flat `Discrete({K.NUM_ACTIONS})` (`kernels.NUM_ACTIONS`).", "",
            "| actions | index | meaning |", "| --- | --- | --- |"]
    for kind, (first, last, meaning) in ACTION_KINDS.items():
        rows.append(f"| `{kind}` | {_indices(first, last + 1)} | {meaning} |")
    return "\n".join(rows)


def decision_table() -> str:
    rows = [f"The {len(expansion_phases())} Racing Season decisions (`state.PHASE_NAMES`, "
            "before `over`). \"turn\" is the seat on turn.", "",
            "| decision (`phase`) | card / option | asked when | who decides | legal answers |",
            "| --- | --- | --- | --- | --- |"]
    for phase in expansion_phases():
        source, when, who, kinds = DECISION_WORDS[phase]
        answers = ", ".join(f"`{k}`" for k in kinds)
        rows.append(f"| `{phase}` | {source} | {when} | {who} | {answers} |")
    return "\n".join(rows)


TABLES = {"obs": obs_table, "actions": action_table, "decisions": decision_table}


def _pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {key} -->\n)(.*?)(<!-- end generated: {key} -->)",
                      re.S)


def doc_blocks(text: str) -> dict[str, str | None]:
    """The generated blocks as they stand in the doc (None when a marker is missing)."""
    found = {}
    for key in TABLES:
        match = _pattern(key).search(text)
        found[key] = match.group(2).removesuffix("\n") if match else None
    return found


def regenerate(path: Path = DOC) -> None:
    text = path.read_text()
    for key, make in TABLES.items():
        pattern = _pattern(key)
        if not pattern.search(text):
            raise SystemExit(f"{path}: no '<!-- generated: {key} -->' block")
        table = make()
        text = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(3), text)
    path.write_text(text)


if __name__ == "__main__":
    regenerate()
