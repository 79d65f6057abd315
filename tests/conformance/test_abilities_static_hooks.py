"""Conformance: continuous abilities — `static { while: cond; target: query; stat: +N;
grants: Keyword }` — and procedure hooks — `before` / `instead of` / `after PROC [where
cond] { }` (docs/language.md section 5).

A static is written with `while: cond`, `target: query` and `stat: +N` lines, as
docs/language.md section 5 and every library game write it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conformance.support import build, covers, descriptions, events, take

GAME = '''
game "Statics" {
  id: statics
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter aura shared { start: 0 }
counter gold per player { start: 0 }
zone field shared
zone hand per player { visibility: owner }
cardtype Unit {
  stats { power: number = 1; guard: number = 0 }
  enters: field
}
heuristic { value: out + aura + gold + sum(all units, power) + sum(all units, guard) + count(hand) }
DECLS
action raise "Raise" { increase aura by 1 }
action lower "Lower" { set aura to 0 }
action bring "Bring" {
  choose c from a unit in your hand
  move c to field
}
turn { stage main { actions: raise, lower, bring, activate } }
'''


def start(tmp_path: Path, decls: str, name: str = "statics") -> Any:
    match = build(tmp_path, name, GAME.replace("DECLS", decls)).new_match(seed=1)
    assert match.error is None, match.error
    return match


def power(match: Any, name: str) -> Any:
    return match.effective(next(c for c in match.all_cards() if c.name == name), "power")


# ---------------------------------------------------------------- static

STATICS = '''
card "Banner" {
  type: Unit
  static {
    target: all other units in field
    power: +2
  }
}
card "Idol" {
  type: Unit
  power: 3
  static { power: aura }
}
card "Curse" {
  type: Unit
  static {
    while: aura >= 2
    target: all units in field where it.name == "Soldier"
    power: -1
    guard: = 7
  }
}
card "Soldier" { type: Unit }
setup {
  let banner = create("Banner", hand of player1, player1)
  let idol = create("Idol", field, player1)
  let soldier = create("Soldier", field, player2)
  let curse = create("Curse", field, player2)
}
'''


@covers("Static.target", "Static.modifiers", "Modifier.stat", "Modifier.op=+", "Modifier.value")
def test_a_static_modifies_its_targets_while_its_card_is_in_play(tmp_path: Path) -> None:
    match = start(tmp_path, STATICS)
    assert (power(match, "Soldier"), power(match, "Idol")) == (1, 0), "the Banner is in a hand: no effect"
    take(match, "Bring: Banner#1")
    # in play: every other unit in the field, whoever controls it; not the Banner itself
    assert (power(match, "Soldier"), power(match, "Idol"), power(match, "Banner")) == (3, 2, 1)
    soldier = next(c for c in match.all_cards() if c.name == "Soldier")
    assert soldier.base["power"] == 1, "a continuous change, not a new printed value"


@covers("Static.target", "Modifier.op==", "Modifier.value")
def test_without_a_target_a_static_changes_its_own_card_and_follows_its_value(tmp_path: Path) -> None:
    match = start(tmp_path, STATICS)
    # Idol: `power: aura` (no sign: the stat is set to the value, read continuously)
    assert power(match, "Idol") == 0
    take(match, "Raise")
    assert power(match, "Idol") == 1
    take(match, "Raise")
    assert power(match, "Idol") == 2


@covers("Static.condition", "Modifier.op=-", "Modifier.op==")
def test_while_a_static_applies_only_while_its_condition_holds(tmp_path: Path) -> None:
    match = start(tmp_path, STATICS)
    soldier = next(c for c in match.all_cards() if c.name == "Soldier")
    assert (power(match, "Soldier"), match.effective(soldier, "guard")) == (1, 0)
    take(match, "Raise")
    take(match, "Raise")
    assert (power(match, "Soldier"), match.effective(soldier, "guard")) == (0, 7)
    take(match, "Lower")
    assert (power(match, "Soldier"), match.effective(soldier, "guard")) == (1, 0)


@covers("Static.modifiers")
def test_rules_read_the_modified_value(tmp_path: Path) -> None:
    decls = STATICS + 'action measure "Measure" { set out to sum(all units in field, power) }\n'
    rules = GAME.replace("DECLS", decls).replace("actions: raise,", "actions: measure, raise,")
    match = build(tmp_path, "measure", rules).new_match(seed=1)
    take(match, "Bring: Banner#1")
    take(match, "Measure")
    assert match.shared["out"] == 3 + 2 + 1 + 3  # Soldier, Idol (0 + 2), Banner, Curse (1 + 2)


@covers("Static.condition", "Static.target", "Modifier.op=+")
def test_the_static_form_docs_language_md_writes_checks_and_runs(tmp_path: Path) -> None:
    """docs/language.md section 5 shows a static as one line; that very line, with its
    placeholders filled in, is a game the checker accepts and the engine runs."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text(encoding="utf-8")
    section = doc.split("## 5. Abilities", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"`(static \{[^`]*\})`", section)
    assert found is not None, "section 5 shows a static"
    line = (found.group(1).replace("cond", "aura >= 1").replace("query", "all other units in field")
            .replace("stat: +N", "power: +2"))
    decls = (f'card "Flag" {{\n  type: Unit\n  {line}\n}}\ncard "Soldier" {{ type: Unit }}\n'
             'setup {\n  let flag = create("Flag", field, player1)\n'
             '  let soldier = create("Soldier", field, player2)\n}\n')
    match = start(tmp_path, decls)
    assert (power(match, "Soldier"), power(match, "Flag")) == (1, 1), "its `while:` does not hold yet"
    take(match, "Raise")
    assert (power(match, "Soldier"), power(match, "Flag")) == (3, 1)


GRANTS = '''
keyword Swift {
  reminder: "Acts at once."
  activate "Dash" { increase gold by 1 }
}
card "Horn" {
  type: Unit
  static {
    while: aura > 0
    target: all units in field where it.name == "Runner"
    grants: Swift
  }
}
card "Runner" { type: Unit }
action look "Look" {
  let r = first(all units where it.name == "Runner")
  if has_keyword(r, Swift) { set out to 1 } else { set out to 2 }
  increase out by count(all Swift units) * 10
}
setup {
  let horn = create("Horn", field, player1)
  let runner = create("Runner", field, player1)
}
'''


@covers("Static.grants")
def test_grants_gives_a_keyword_while_the_static_applies(tmp_path: Path) -> None:
    rules = GAME.replace("DECLS", GRANTS).replace("actions: raise,", "actions: look, raise,")
    match = build(tmp_path, "grants", rules).new_match(seed=1)
    take(match, "Look")
    assert match.shared["out"] == 2
    take(match, "Raise")
    take(match, "Look")
    assert match.shared["out"] == 11


@covers("Static.grants")
def test_a_granted_keywords_activated_ability_is_offered(tmp_path: Path) -> None:
    rules = GAME.replace("DECLS", GRANTS).replace("actions: raise,", "actions: look, raise,")
    match = build(tmp_path, "granted", rules).new_match(seed=1)
    assert "Runner: Dash" not in descriptions(match)
    take(match, "Raise")
    assert "Runner: Dash" in descriptions(match)
    take(match, "Runner: Dash")
    assert match.players[0].counters["gold"] == 1


# ---------------------------------------------------------------- hooks

HOOKS = '''
procedure strike(amount: number, target: card) "strike {target} for {amount}" {
  decrease target.power by amount
  set out to out * 10 + amount
}
card "Shield" {
  type: Unit
  power: 10
  before strike where target == self { decrease amount by 1 }
  before strike where amount > 5 { cancel }
  after strike where target == self { increase gold by 1 }
}
card "Mirror" {
  type: Unit
  power: 10
  instead of strike where target == self { set out to out * 10 + 9 }
}
card "Dummy" { type: Unit; power: 10 }
action hit "Hit" {
  choose t from a unit in field
  choose n from [3, 6]
  strike t for n
}
'''


def hooks_match(tmp_path: Path, cards: str, name: str = "hooks") -> Any:
    decls = HOOKS + "setup {\n" + cards + "\n}\n"
    rules = GAME.replace("DECLS", decls).replace("actions: raise,", "actions: hit, raise,")
    return build(tmp_path, name, rules).new_match(seed=1)


@covers("Hook.when=before", "Hook.procedure", "Hook.condition", "Hook.body")
def test_before_changes_the_procedures_arguments(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let s = create("Shield", field, player1)\n'
                                  '  let d = create("Dummy", field, player1)')
    take(match, "Hit: Shield#1, 3")
    assert power(match, "Shield") == 8 and match.shared["out"] == 2, "3 damage, one prevented"
    take(match, "Hit: Dummy#2, 3")
    assert power(match, "Dummy") == 7, "the condition (target == self) left the Dummy alone"


@covers("Hook.when=before", "Hook.condition")
def test_cancel_in_a_before_hook_means_the_procedure_does_not_happen(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let s = create("Shield", field, player1)\n'
                                  '  let d = create("Dummy", field, player1)')
    take(match, "Hit: Dummy#2, 6")
    assert power(match, "Dummy") == 10 and match.shared["out"] == 0
    assert [e["procedure"] for e in events(match, "cancelled")] == ["strike"]
    assert match.players[0].counters["gold"] == 0, "nor do its after hooks"


@covers("Hook.when=after", "Hook.condition", "Hook.body")
def test_after_runs_once_the_procedure_happened(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let s = create("Shield", field, player1)\n'
                                  '  let d = create("Dummy", field, player1)')
    take(match, "Hit: Shield#1, 3")
    assert match.players[0].counters["gold"] == 1
    take(match, "Hit: Dummy#2, 3")
    assert match.players[0].counters["gold"] == 1


@covers("Hook.when=instead", "Hook.procedure", "Hook.body")
def test_instead_replaces_the_procedure(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let m = create("Mirror", field, player1)')
    take(match, "Hit: Mirror#1, 3")
    assert power(match, "Mirror") == 10 and match.shared["out"] == 9


@covers("Hook.when=instead", "Hook.condition")
def test_instead_whose_condition_fails_lets_the_procedure_happen(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let m = create("Mirror", field, player1)\n'
                                  '  let d = create("Dummy", field, player1)')
    take(match, "Hit: Dummy#2, 3")
    assert power(match, "Dummy") == 7 and match.shared["out"] == 3


@covers("Hook.when=instead", "Hook.condition")
def test_the_first_instead_whose_condition_holds_replaces_the_procedure(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let a = create("Mirror", field, player1)\n'
                                  '  let b = create("Mirror", field, player1)')
    take(match, "Hit: Mirror#2, 3")
    assert [c.base["power"] for c in match.all_cards()] == [10, 10] and match.shared["out"] == 9, \
        "Mirror#1's hook did not hold: Mirror#2's replaced the strike"


@covers("Hook.procedure", "Hook.when=after")
def test_a_hook_on_a_native_procedure(tmp_path: Path) -> None:
    decls = '''card "Bank" {
  type: Unit
  after gain where amount > 1 { set out to out + amount }
}
action earn "Earn" {
  choose n from [1, 4]
  gain n gold
}
setup { let bank = create("Bank", field, player1) }'''
    rules = GAME.replace("DECLS", decls).replace("actions: raise,", "actions: earn, raise,")
    match = build(tmp_path, "native", rules).new_match(seed=1)
    take(match, "Earn: 1")
    take(match, "Earn: 4")
    assert match.players[0].counters["gold"] == 5 and match.shared["out"] == 4


@covers("Hook.when=before")
def test_a_hook_works_only_while_its_card_is_in_play(tmp_path: Path) -> None:
    match = hooks_match(tmp_path, '  let s = create("Shield", hand of player1, player1)\n'
                                  '  let d = create("Dummy", field, player1)')
    take(match, "Hit: Dummy#2, 6")
    assert power(match, "Dummy") == 4, "the Shield in a hand cancels nothing"


def test_hooking_cards_are_indexed_by_procedure_and_moment(tmp_path: Path) -> None:
    """A call looks for its `before`, `instead` and `after` hooks in turn, each only among
    the cards that hook that procedure at that moment (engine/game.py `hookers`)."""
    match = hooks_match(tmp_path, '  let s = create("Shield", field, player1)\n'
                                  '  let r = create("Mirror", field, player1)')
    assert match.game.hookers == {("strike", "before"): {"Shield"}, ("strike", "instead"): {"Mirror"},
                                  ("strike", "after"): {"Shield"}}
    take(match, "Hit: Mirror#2, 3")
    assert power(match, "Mirror") == 10 and match.shared["out"] == 9, "the Mirror's instead hook ran"
    take(match, "Hit: Shield#1, 3")
    assert power(match, "Shield") == 8 and match.players[0].counters["gold"] == 1, "before and after ran"
