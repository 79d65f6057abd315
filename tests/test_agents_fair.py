"""Agents never see the future (issue 17): the greedy agent's look-ahead rolls its own
dice and guesses its own deck's order, so it cannot bet on the real next roll or draw."""

from __future__ import annotations

from pathlib import Path

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.engine.agents import GreedyAgent, ask
from cardsmith.engine.game import CompiledGame

BETS = '''
game "Bets" { id: bets; players: 2; first_player: seat1 }
counter score per player { start: 0 }
counter bets per player { start: 0 }
counter wins per player { start: 0 }
setup { }
turn { stage main { actions: bet, safe } }
action bet "Bet on a six" {
  increase you.bets by 1
  let r = roll d6
  if r == 6 {
    increase you.score by 10
    increase you.wins by 1
  } else {
    decrease you.score by 1
  }
  end the turn
}
action safe "Play safe" {
  end the turn
}
heuristic { value: you.score }
'''


def test_greedy_cannot_bet_on_the_real_next_roll(tmp_path: Path) -> None:
    """With the match's own generator in its look-ahead, greedy bet exactly when the real
    roll would be a six (17 bets, 17 wins). Now its bets win about one time in six."""
    folder = write_game(tmp_path / "bets", {"rules.cards": BETS})
    result = check_game(str(folder))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    game = CompiledGame(result.game)
    bets = wins = 0
    for seed in range(6):
        match = game.new_match(seed=seed)
        agent = GreedyAgent(seed)
        for _ in range(120):
            actions = match.legal_actions()
            if match.is_over or not actions:
                break
            match.apply(ask(agent, match, actions))
        bets += sum(p.counters["bets"] for p in match.players)
        wins += sum(p.counters["wins"] for p in match.players)
    assert bets >= 30, bets  # it does bet (when its own look-ahead rolls a six)
    assert wins < bets / 2, (wins, bets)  # but it cannot know the real roll


DECK = '''
game "Draws" { id: draws; players: 2; first_player: seat1 }
counter score per player { start: 0 }
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
cardtype Token { stats { value: number = 0 } }
card "Blank" { type: Token; value: 0; copies: 5 }
card "Gem" { type: Token; value: 10 }
setup {
  for each p in players {
    repeat 5 times { let b = create("Blank", deck of p, p) }
    let g = create("Gem", deck of p, p)
    shuffle deck of p
  }
}
turn { stage main { actions: draw_one, safe } }
action draw_one "Draw the top card" {
  let c = top of deck of you
  move c to hand of you
  if c.value == 10 { increase you.score by 10 } else { decrease you.score by 1 }
  end the turn
}
action safe "Play safe" {
  end the turn
}
heuristic { value: you.score }
'''


def test_greedy_does_not_know_its_own_decks_order(tmp_path: Path) -> None:
    """The look-ahead shuffles the agent's own hidden deck too: it draws the 1-in-6 Gem
    no more often than chance would, instead of exactly when it is on top."""
    folder = write_game(tmp_path / "draws", {"rules.cards": DECK})
    result = check_game(str(folder))
    assert result.game is not None and not [d for d in result.diagnostics if d.severity == "error"], \
        [d.message for d in result.diagnostics]
    game = CompiledGame(result.game)
    draws = gems = 0
    for seed in range(12):
        match = game.new_match(seed=seed)
        agent = GreedyAgent(seed)
        actions = match.legal_actions()
        chosen = ask(agent, match, actions)
        if chosen.description.startswith("Draw"):
            draws += 1
            top = match.zone("deck", match.players[0]).cards[0]
            gems += top.name == "Gem"
    assert draws == 0 or gems < draws, (gems, draws)
