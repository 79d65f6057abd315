"""A hand-written legal-move generator for Kingdom Combat: a test oracle, not part of the engine.

The engine finds legal moves by *running* each compiled action up to its payment, once
per parameter combination, and rolling the change back (cardsmith/engine/moves.py). This
module computes the same moves the way a hand-written engine for this one game would:
plain Python that knows the rules of library/kingdom_combat (gold, fortresses, zones
and the card texts) and reads the live match state directly — cards, zones, counters,
statuses — without calling any compiled rule. It serves two purposes:

* a correctness check of the engine's legality (tests/test_kc_oracle.py): both must
  offer exactly the same moves, in the same order, at every action window;
* a speed baseline (benchmarks/bench_legality.py): what legality *should* cost in
  Python, the yardstick for the engine's probing (target: engine <= 2x the oracle).

It covers the action windows only (the stages `precombat` and `postcombat`, and the
combat steps `declare` and `defend`, which offer Dirty Tricks): a choice inside an effect
is not its business. A move is described exactly as the engine describes it
(`Hire a unit: Footman#4`, `Longbowman: Ranged shot: Orc Grunt#8`, `pass`), and has a
canonical key: (the action's name or `Card: ability label`, the chosen cards' ids).

Knowledge of the cards is written out below (ABILITIES, GRANTS): if a card's text in
the .cards files changes, the oracle must change with it — the test then says so.
"""

from __future__ import annotations

from typing import Any, NamedTuple

# Zones where a card is on the table ("in play": `in_play` in rules.cards).
TABLE = ("fortress_zone", "structures_zone", "battlefield")

# The actions each window offers, in the order the stage lists them (rules.cards).
# `play_dirty_trick` is instant, so it is offered in every window, listed or not.
MAIN_ACTIONS = ("play_unit", "play_structure", "play_event", "play_dirty_trick", "play_ability",
                "play_equipment", "move_to_fortress", "move_to_structures", "move_to_battlefield",
                "invade_structures", "storm_fortress")
WINDOW_ACTIONS = {"precombat": MAIN_ACTIONS, "postcombat": MAIN_ACTIONS,
                  "declare": ("play_dirty_trick",), "defend": ("play_dirty_trick",)}
STAGES_WITH_ACTIVATE = ("precombat", "postcombat")

LABELS = {
    "play_unit": "Hire a unit",
    "play_structure": "Build a structure",
    "play_event": "Play an Event",
    "play_dirty_trick": "Play a Dirty Trick",
    "play_ability": "Attach an Ability",
    "play_equipment": "Equip a unit",
    "move_to_fortress": "Move a unit to your Fortress Zone",
    "move_to_structures": "Move a unit to your Structures Zone",
    "move_to_battlefield": "Move a unit to the Battlefield",
    "invade_structures": "Move a unit into an enemy Structures Zone",
    "storm_fortress": "Move a unit into an enemy Fortress Zone",
}

# The card type each "play a card from your hand" action takes.
HAND_PLAYS = {"play_unit": "Unit", "play_structure": "Structure", "play_event": "Event",
              "play_dirty_trick": "DirtyTrick"}

# Activated abilities printed on cards: label, instant ("any turn, any time") or not,
# the gold it costs, and what its target is (None: it has no target).
#   fortress  — only the upper Fortress (not tucked under another) may use it
#   mend      — a friendly unit in play up to 1 zone away (Battle Cleric)
#   arrows    — any unit in play up to 1 zone away (Watchtower)
#   stab      — an exhausted enemy unit in the card's own zone (Goblin Sneak)
#   offering  — a friendly unit in play (Dark Altar)
ABILITIES: dict[str, tuple[str, bool, int, str | None]] = {
    "Castle Valoria": ("Muster the Levy", False, 3, "fortress"),
    "The Bone Citadel": ("Release the rabble", False, 2, "fortress"),
    "Battle Cleric": ("Mend", True, 1, "mend"),
    "Watchtower": ("Loose arrows", True, 1, "arrows"),
    "Goblin Sneak": ("Stab in the back", False, 0, "stab"),
    "Necromancer": ("Raise a skeleton", False, 2, None),
    "Banshee": ("Wail", False, 0, None),
    "Dark Altar": ("Blood Offering", False, 0, "offering"),
}
# The keyword Ranged gives its bearer an instant "Ranged shot" (exhaust: a unit in play,
# other than itself, up to 1 zone away), one per use of the keyword.
RANGED_SHOT = "Ranged shot"

# Keywords that Abilities and Equipment give the unit they are attached to.
GRANTS: dict[str, tuple[str, ...]] = {
    "Oath of Vigilance": ("Alert",),
    "Tower Shield": ("Deflect",),
    "Destrier": ("Mounted",),
    "Bone Crossbow": ("Ranged",),
    "Dire Wolf": ("Mounted",),
    "Unholy Resilience": ("Etherial",),
    # Knightly Lance: Charge while its host is a Knight (below)
}


class Move(NamedTuple):
    """One legal move: the engine's description, and a canonical key to compare by."""

    description: str
    key: tuple[str, tuple[int, ...]]


def _name(card: Any) -> str:
    return f"{card.name}#{card.id}"


def _move(head: str, cards: tuple[Any, ...] = ()) -> Move:
    description = head + (": " + ", ".join(_name(c) for c in cards) if cards else "")
    return Move(description, (head, tuple(c.id for c in cards)))


class Table:
    """What one window's legality reads, gathered once: the table zones in match order,
    each player's zones, and which zones hold units of which controller."""

    def __init__(self, match: Any) -> None:
        self.match = match
        zones = match.zones
        self.battlefield = zones[("battlefield", -1)]
        self.table_zones = [z for z in zones.values() if z.name in TABLE]  # (match order)
        self.units_by_zone = {id(z): [c for c in z.cards if c.type == "Unit"] for z in self.table_zones}

    def own(self, name: str, player: Any) -> Any:
        return self.match.zones[(name, player.index)]

    # ---------------------------------------------------------------- where things are
    def depth(self, zone: Any) -> int:
        """0 = a Fortress Zone, 1 = a Structures Zone, 2 = the Battlefield."""
        if zone is self.battlefield:
            return 2
        return 1 if zone.name == "structures_zone" else 0

    def gap(self, a: Any, b: Any) -> int:
        """How many zones apart two table zones are (homeland - Battlefield - homeland)."""
        if a is b:
            return 0
        if a is self.battlefield or b is self.battlefield or a.owner is b.owner:
            return abs(self.depth(a) - self.depth(b))
        return 4 - self.depth(a) - self.depth(b)

    def middle(self, a: Any, b: Any) -> Any:
        """The zone between two zones 2 apart."""
        if a is self.battlefield:
            return self.own("structures_zone", b.owner)
        if b is self.battlefield:
            return self.own("structures_zone", a.owner)
        return self.battlefield

    def enemies_in(self, zone: Any, player: Any) -> bool:
        return any(u.controller is not player for u in self.units_by_zone.get(id(zone), ()))

    def crosses_battlefield(self, a: Any, b: Any) -> bool:
        if b is self.battlefield:
            return False
        if a is self.battlefield:
            return True
        return self.gap(a, b) == 2 and self.middle(a, b) is self.battlefield

    # ---------------------------------------------------------------- keywords
    def keywords(self, card: Any) -> list[str]:
        """Printed keywords, then those its attached Abilities and Equipment give it."""
        found = [name for name, _args in card.definition.keywords]
        for gear in card.attached:
            found.extend(GRANTS.get(gear.name, ()))
            if gear.name == "Knightly Lance" and card.base.get("subtype") == "Knight":
                found.append("Charge")
        return found

    def reach(self, unit: Any) -> int:
        return 2 if "Mounted" in self.keywords(unit) else 1

    # ---------------------------------------------------------------- movement
    def can_move_to(self, unit: Any, zone: Any) -> bool:
        here = unit.zone
        if here is zone or here is None or here.name not in TABLE:
            return False
        owner = unit.controller
        if self.enemies_in(zone, owner):
            return False
        gap = self.gap(here, zone)
        if gap > self.reach(unit):
            return False
        if gap == 2 and self.enemies_in(self.middle(here, zone), owner):
            return False
        # the Blocker rule: no way into an enemy homeland past an opposing unit in the Battlefield
        return not (zone.owner is not owner and self.crosses_battlefield(here, zone)
                    and self.enemies_in(self.battlefield, owner))

    def movers(self, player: Any, zone: Any) -> list[Any]:
        """The player's active units in play that may move to `zone`, in match order."""
        return [u for z in self.table_zones for u in self.units_by_zone[id(z)]
                if u.controller is player and "exhausted" not in u.statuses and self.can_move_to(u, zone)]

    def units_in_play(self) -> list[Any]:
        return [u for z in self.table_zones for u in self.units_by_zone[id(z)]]

    def enemy_fortresses(self, player: Any) -> list[Any]:
        """Upper Fortresses in play of the other players, in match order."""
        return [c for z in self.table_zones for c in z.cards
                if c.type == "Fortress" and c.controller is not player and c.host is None]


def _can_equip(match: Any, table: Table, unit: Any, equipment: Any) -> bool:
    """One of each gear type per unit; two Weapons with Dual Wield."""
    gear = equipment.base["gear"]
    worn = sum(1 for c in unit.attached if c.type == "Equipment" and c.base["gear"] == gear)
    if gear.name == "Weapon" and "Dual_Wield" in table.keywords(unit):
        return worn < 2
    return worn < 1


def _action_moves(match: Any, table: Table, name: str, player: Any) -> list[Move]:
    head = LABELS[name]
    gold = player.counters["gold"]
    hand = table.own("hand", player).cards
    ctype = HAND_PLAYS.get(name)
    if ctype is not None:
        return [_move(head, (c,)) for c in hand if c.type == ctype and c.base["cost"] <= gold]
    if name == "play_ability":
        abilities = [c for c in hand if c.type == "Ability" and c.base["cost"] <= gold]
        hosts = table.units_in_play() if abilities else []
        return [_move(head, (c, h)) for c in abilities for h in hosts]
    if name == "play_equipment":
        out = []
        for c in hand:
            if c.type == "Equipment" and c.base["cost"] <= gold:
                out += [_move(head, (c, h)) for h in table.units_in_play()
                        if h.controller is player and _can_equip(match, table, h, c)]
        return out
    if name == "move_to_fortress":
        return [_move(head, (u,)) for u in table.movers(player, table.own("fortress_zone", player))]
    if name == "move_to_structures":
        return [_move(head, (u,)) for u in table.movers(player, table.own("structures_zone", player))]
    if name == "move_to_battlefield":
        return [_move(head, (u,)) for u in table.movers(player, table.battlefield)]
    if name in ("invade_structures", "storm_fortress"):
        zone_name = "structures_zone" if name == "invade_structures" else "fortress_zone"
        out = []
        for f in table.enemy_fortresses(player):
            out += [_move(head, (f, u)) for u in table.movers(player, table.own(zone_name, f.controller))]
        return out
    raise ValueError(f"unknown action {name!r}")


def _ability_targets(table: Table, card: Any, kind: str | None, player: Any) -> list[Any] | None:
    """The targets an ability may pick (None: it picks none)."""
    if kind is None or kind == "fortress":
        return None
    units = table.units_in_play()
    if kind == "mend":
        return [u for u in units if u.controller is player and table.gap(card.zone, u.zone) <= 1]
    if kind == "arrows":
        return [u for u in units if table.gap(card.zone, u.zone) <= 1]
    if kind == "ranged":
        return [u for u in units if u is not card and table.gap(card.zone, u.zone) <= 1]
    if kind == "stab":
        return [u for u in units if u.zone is card.zone and "exhausted" in u.statuses
                and u.controller is not None and u.controller is not player]
    if kind == "offering":
        return [u for u in units if u.controller is player]
    raise ValueError(f"unknown target kind {kind!r}")


def _activation_moves(match: Any, table: Table, player: Any, may_use_slow: bool) -> list[Move]:
    """The activated abilities of the player's cards in public zones, in match order:
    each card's own ability, then a Ranged shot per use of Ranged."""
    out: list[Move] = []
    gold = player.counters["gold"]
    for zone in match.zones.values():
        if zone.visibility != "public":
            continue
        on_table = zone.name in TABLE
        for card in zone.cards:
            if card.controller is not player:
                continue
            uses: list[tuple[str, bool, int, str | None]] = []
            printed = ABILITIES.get(card.name)
            if printed is not None:
                uses.append(printed)
            if card.type == "Unit" or card.attached:
                uses += [(RANGED_SHOT, True, 0, "ranged")] * table.keywords(card).count("Ranged")
            for label, instant, cost, kind in uses:
                if not (instant or may_use_slow):
                    continue
                if "exhausted" in card.statuses or gold < cost:
                    continue
                if kind == "fortress" and card.host is not None:
                    continue
                if kind != "fortress" and not on_table:
                    continue
                head = f"{card.name}: {label}"
                targets = _ability_targets(table, card, kind, player)
                if targets is None:
                    out.append(_move(head))
                else:
                    out += [_move(head, (t,)) for t in targets]
    return out


def legal_moves(match: Any, player: Any = None, stage: str | None = None) -> list[Move]:
    """The moves `player` (by default the one holding priority) may make in the action
    window of `stage` (by default the stage or step running), in the engine's order:
    the stage's actions in their listed order, then activated abilities, then `pass`."""
    if player is None:
        player = match.pending.player
    if stage is None:
        stage = match.stage_name
    table = Table(match)
    is_current = player is match.current
    stack_busy = bool(match.stack_programs)
    out: list[Move] = []
    for name in WINDOW_ACTIONS[stage]:
        # Dirty Tricks: anyone, any time; everything else: the current player, stack empty
        if name != "play_dirty_trick" and not (is_current and not stack_busy):
            continue
        out += _action_moves(match, table, name, player)
    may_use_slow = is_current and not stack_busy and stage in STAGES_WITH_ACTIVATE
    out += _activation_moves(match, table, player, may_use_slow)
    out.append(Move("pass", ("pass", ())))
    return out
