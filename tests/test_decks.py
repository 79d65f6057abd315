"""Deck construction: every rule both ways, at its limit.

The rules come from each library game's `deck { }` block; these tests pin down that
the generic checker reads them as the rulebooks mean them.
"""

from __future__ import annotations

import pytest

from cardsmith.decks.model import DeckReport
from cardsmith.decks.validate import check_decklist

# 30 cards of Valoria, all black (copy limit 4), plus room to swap cards in
BASE = [(4, "Footman"), (4, "Peasant Militia"), (4, "Longbowman"), (4, "Shieldbearer"),
        (4, "Farmstead"), (4, "Market Town"), (4, "Watchtower"), (2, "Tax Collector")]


def kc(deck: list[tuple[int, str]] | None = None, fortress: tuple[str, ...] = ("Castle Valoria",),
       garrison: list[tuple[int, str]] | None = None) -> str:
    lines = ["Fortress:", *(f"1 {f}" for f in fortress)]
    if garrison is not None:
        lines += ["Garrison:", *(f"{n} {name}" for n, name in garrison)]
    lines += ["Deck:", *(f"{n} {name}" for n, name in (BASE if deck is None else deck))]
    return "\n".join(lines) + "\n"


def swap(remove: int, add: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """BASE with `remove` Tax Collectors/Watchtowers taken out and `add` put in."""
    deck = [entry for entry in BASE if entry[1] not in ("Tax Collector", "Watchtower")]
    left = 6 - remove
    deck += [(min(left, 4), "Watchtower")] + ([(left - 4, "Tax Collector")] if left > 4 else [])
    return [e for e in deck if e[0] > 0] + add


def check(text: str, game: str = "kingdom_combat") -> DeckReport:
    return check_decklist("deck.deck", text, game)


def codes(report: DeckReport) -> list[str]:
    return [d.code for d in report.errors]


def assert_legal(text: str, game: str = "kingdom_combat") -> None:
    report = check(text, game)
    assert report.ok, [(d.code, d.message) for d in report.diagnostics]


# ---- Kingdom Combat


def test_base_deck_is_legal_at_exactly_30() -> None:
    assert_legal(kc())
    assert sum(n for n, _ in BASE) == 30


def test_29_cards_fail_and_fortress_does_not_count() -> None:
    report = check(kc(swap(1, [])))
    assert codes(report) == ["CS1007"]
    assert "29" in report.errors[0].message and "at least 30" in report.errors[0].message
    assert "Fortress" in (report.errors[0].hint or "")


@pytest.mark.parametrize(("card", "limit"), [("Sir Aldric the Lionheart", 1), ("Veteran Knight", 2),
                                             ("Knight of the Silver Rose", 4)])
def test_border_copy_limits(card: str, limit: int) -> None:
    assert_legal(kc(swap(limit, [(limit, card)])))
    report = check(kc(swap(limit + 1, [(limit + 1, card)])))
    assert codes(report) == ["CS1008"]
    assert f"at most {limit}" in report.errors[0].message and "border" in (report.errors[0].hint or "")


def test_copies_add_up_across_lines() -> None:
    report = check(kc(swap(3, [(2, "Veteran Knight"), (1, "veteran knight")])))
    assert codes(report) == ["CS1008"]
    assert report.errors[0].span.line == kc(swap(3, [(2, "Veteran Knight"), (1, "x")])).count("\n")


def test_green_tokens_never_in_a_deck() -> None:
    assert_legal(kc())  # zero tokens
    report = check(kc(swap(1, [(1, "Militia Levy")])))
    assert codes(report) == ["CS1009"]
    assert "green" in (report.errors[0].hint or "")


@pytest.mark.parametrize("fortresses", [("Castle Valoria",), ("Castle Valoria", "The Bone Citadel")])
def test_one_or_two_fortresses(fortresses: tuple[str, ...]) -> None:
    assert_legal(kc(fortress=fortresses))


@pytest.mark.parametrize("fortresses", [(), ("Castle Valoria", "The Bone Citadel", "Castle Valoria")])
def test_zero_or_three_fortresses_fail(fortresses: tuple[str, ...]) -> None:
    report = check(kc(fortress=fortresses))
    assert "CS1006" in codes(report)
    assert any("Fortress section holds" in d.message for d in report.errors)


def test_two_fortresses_of_one_faction_fail() -> None:
    text = kc().replace("Fortress:\n1 Castle Valoria\n", "Fortress:\n1 Castle Valoria\n1 Castle Valoria\n")
    assert "CS1011" in codes(check(text))


def test_faction_and_mercenary_cards() -> None:
    assert_legal(kc(swap(2, [(2, "Sellsword")])))
    report = check(kc(swap(2, [(2, "Orc Grunt")])))
    assert codes(report) == ["CS1010"]
    assert "Grimhold" in (report.errors[0].hint or "") and "Valoria" in (report.errors[0].hint or "")
    assert_legal(kc(swap(2, [(2, "Orc Grunt")]), fortress=("Castle Valoria", "The Bone Citadel")))


def test_garrison_budget_exactly_at_starting_gold() -> None:
    assert_legal(kc(garrison=[(2, "Footman"), (1, "Tax Collector")]))  # 2 + 2 + 2 = 6 of 6
    report = check(kc(garrison=[(2, "Footman"), (1, "Longbowman")]))  # 7 of 6
    assert codes(report) == ["CS1011"]
    assert "starting gold" in report.errors[0].message
    assert "is 7" in (report.errors[0].hint or "") and "is 6" in (report.errors[0].hint or "")


def test_garrison_budget_comes_from_the_top_fortress() -> None:
    deck = swap(2, [(2, "Orc Grunt")])
    garrison = [(1, "Footman"), (1, "Orc Grunt"), (1, "Longbowman")]  # 7 gold
    assert_legal(kc(deck, ("The Bone Citadel", "Castle Valoria"), garrison))  # 7 on top
    assert codes(check(kc(deck, ("Castle Valoria", "The Bone Citadel"), garrison))) == ["CS1011"]  # 6 on top


def test_zero_cost_garrison_unit_fails_on_its_line() -> None:
    deck = swap(1, [(1, "Goblin Sneak")])
    text = kc(deck, ("Castle Valoria", "The Bone Citadel"), [(1, "Footman"), (1, "Goblin Sneak")])
    report = check(text)
    assert codes(report) == ["CS1011"]
    assert report.errors[0].span.line == text.splitlines().index("1 Goblin Sneak") + 1


def test_garrison_comes_from_the_deck() -> None:
    report = check(kc(garrison=[(1, "Knight of the Silver Rose")]))
    assert codes(report) == ["CS1012"]


def test_card_in_the_wrong_section() -> None:
    report = check(kc(swap(1, [(1, "Castle Valoria")]), fortress=()))
    assert "CS1005" in codes(report)
    report = check(kc().replace("Fortress:\n1 Castle Valoria", "Fortress:\n1 Castle Valoria\n1 Footman"))
    assert "CS1005" in codes(report)


def test_sections_may_be_left_out_cards_find_their_section() -> None:
    text = "1 Castle Valoria\n" + "\n".join(f"{n} {name}" for n, name in BASE)
    assert_legal(text)


def test_unknown_section() -> None:
    report = check(kc().replace("Deck:", "Dekc:"))
    assert "CS1004" in codes(report)
    assert "did you mean 'Deck'" in (next(d for d in report.errors if d.code == "CS1004").hint or "")


# ---- names


def test_names_are_tolerant() -> None:
    text = kc().replace("4 Footman", "  4x   FOOTMAN   # comment").replace("4 Market Town", "4 market  town")
    assert_legal(text)
    horror = ("Brain Drain\nHead Case\nMarsh Lights\nGuttural Groan\nMaiden's Moan\nLatte Lash\n"
              "Redeswire Rip\nCouture\u2019s Cosh\nsick sumo slap\n")
    assert_legal(horror, "combat_cards")
    assert_legal(horror.replace("Maiden's", "Maiden\u2019s").replace("Couture\u2019s", "Couture's"), "combat_cards")


def test_unknown_name_did_you_mean() -> None:
    report = check(kc(swap(1, [(1, "Fotman")])))
    assert "CS1001" in codes(report)
    d = next(d for d in report.errors if d.code == "CS1001")
    assert "'Fotman'" in d.message and d.hint == "did you mean 'Footman'?"


def test_card_from_another_game() -> None:
    report = check(kc(swap(1, [(1, "Dragon Swipe")])))
    d = next(d for d in report.errors if d.code == "CS1002")
    assert d.message == "'Dragon Swipe' is a Combat Cards card, not a Kingdom Combat card"


def test_zero_and_absurd_counts() -> None:
    report = check(kc([*BASE, (0, "Footman")]))
    assert "CS1003" in codes(report)
    report = check(kc().replace("4 Footman", "99999999999 Footman"))
    assert "CS1003" in codes(report)


# ---- Combat Cards

FANTASY = ["Thrusting Lunge", "Savage Strike", "Searing Scourge", "Poised Parry", "Tiger Crouch",
           "Gallant Guard", "Tiger Pounce", "Dragon Swipe", "Demonic Spear", "Stinging Storm"]


def test_combat_cards_nine_ok_eight_fail() -> None:
    assert_legal("\n".join(FANTASY[:9]), "combat_cards")
    assert_legal("\n".join(FANTASY), "combat_cards")
    report = check("\n".join(FANTASY[:8]), "combat_cards")
    assert codes(report) == ["CS1007"] and "at least 9" in report.errors[0].message


@pytest.mark.parametrize("card", ["Draw", "Courage", "Terror"])
def test_combat_cards_resources_and_draw_excluded(card: str) -> None:
    report = check("\n".join([*FANTASY[:9], card]), "combat_cards")
    assert "CS1009" in codes(report) or "CS1005" in codes(report)
    assert codes(report)[0] in ("CS1009", "CS1005")


def test_combat_cards_own_side_only() -> None:
    report = check("\n".join([*FANTASY[:9], "Brain Drain"]), "combat_cards")
    assert codes(report) == ["CS1011"]
    assert report.errors[0].span.line == 10  # the horror card, not the fantasy ones
    assert_legal("\n".join(["Brain Drain", "Head Case", "Marsh Lights", "Guttural Groan", "Maiden's Moan",
                             "Latte Lash", "Redeswire Rip", "Couture's Cosh", "Great Dread"]), "combat_cards")


def test_combat_cards_one_copy() -> None:
    report = check("\n".join([*FANTASY[:9], "Savage Strike"]), "combat_cards")
    assert codes(report) == ["CS1008"]


# ---- Two Kingdoms

FULL_ARMY = [(4, "Axe Soldier"), (4, "Spear Soldier"), (4, "Sword & Shield Soldier"), (4, "Horse"),
             (6, "Ground Archer"), (1, "Trebuchet")]


def army(entries: list[tuple[int, str]]) -> str:
    return "Army:\n" + "\n".join(f"{n} {name}" for n, name in entries) + "\n"


def test_two_kingdoms_10_and_23_ok() -> None:
    assert_legal(army(FULL_ARMY), "two_kingdoms")
    assert_legal(army([(4, "Axe Soldier"), (4, "Spear Soldier"), (2, "Horse")]), "two_kingdoms")


def test_two_kingdoms_9_and_24_fail() -> None:
    report = check(army([(4, "Axe Soldier"), (4, "Spear Soldier"), (1, "Horse")]), "two_kingdoms")
    assert codes(report) == ["CS1007"]
    report = check(army([*FULL_ARMY, (1, "Trebuchet")]), "two_kingdoms")
    size = next(d for d in report.errors if d.code == "CS1007")
    assert "holds 24 card(s); it must hold 10 to 23" in size.message


def test_two_kingdoms_piece_counts() -> None:
    assert_legal(army([(4, "Axe Soldier"), (6, "Ground Archer")]), "two_kingdoms")
    report = check(army([(5, "Axe Soldier"), (6, "Ground Archer")]), "two_kingdoms")
    assert codes(report) == ["CS1008"] and "at most 4" in report.errors[0].message
    report = check(army([(2, "Trebuchet"), (4, "Axe Soldier"), (4, "Spear Soldier")]), "two_kingdoms")
    assert codes(report) == ["CS1008"]


def test_two_kingdoms_siege_pieces_never_on_the_field() -> None:
    report = check(army([(4, "Axe Soldier"), (6, "Ground Archer"), (1, "Battering Ram")]), "two_kingdoms")
    assert codes(report) == ["CS1009"]


# ---- the other games' fixed decks


def test_construct_and_combat_fixed_section_counts() -> None:
    report = check("Constructs:\n3 Carrier Pigeon\n", "construct_and_combat")
    assert codes(report).count("CS1006") == 4


def test_kingdom_cards_deck_size() -> None:
    report = check("1 Blue King\n", "kingdom_cards")
    assert codes(report) == ["CS1007"] and "exactly 30" in report.errors[0].message
