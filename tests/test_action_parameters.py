"""Which leading statements of an action are its parameters (ir.action_parameters).

A played match offers one move per combination of an action's parameters and runs them
while the move is still being chosen; the cost is paid after them. A `let` that makes a
card is an effect, not a parameter: the card must appear only once the move is paid for,
and never while the match works out which moves are legal.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_game

from cardsmith.app import load
from cardsmith.dsl import ir

RULES = """
game "Mint" { players: 2 }
counter coins per player { start: 1 }
zone hand per player { visibility: owner }
zone vault per player
cardtype Coin { stats { worth: number = 1 } }
card "Coin" { type: Coin; worth: 1 }
action mint "Mint a coin" {
  let made = create("Coin", your vault, you)
  cost { pay 1 coins }
  say "minted"
}
action wait "Wait" { end the turn }
turn {
  stage main { actions: mint, wait }
}
"""


def test_a_let_that_makes_a_card_is_not_a_parameter(tmp_path: Path) -> None:
    game = load(str(write_game(tmp_path / "mint", {"rules.cards": RULES})))
    mint = next(a for a in game.ir.actions if a.name == "mint")
    assert ir.action_parameters(mint.body) == 0
    match = game.new_match(seed=1)
    vault = match.zone("vault", match.players[0])
    offered = [a.description for a in match.legal_actions()]
    assert "Mint a coin" in offered and not vault.cards  # working out the moves made nothing
    match.apply(next(a for a in match.legal_actions() if a.description == "Mint a coin"))
    assert [c.name for c in vault.cards] == ["Coin"] and match.players[0].counters["coins"] == 0
    events = [e["event"] for e in match.log]
    # the coin is paid first, then the card is made
    paid = max(i for i, e in enumerate(match.log) if e["event"] == "counter" and e.get("counter") == "coins")
    made = events.index("create")
    assert paid < made
    # with no coin left the move is not offered, and nothing is made while finding that out
    assert "Mint a coin" not in [a.description for a in match.legal_actions()]
    assert len(vault.cards) == 1
