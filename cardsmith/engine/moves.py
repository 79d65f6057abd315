"""Legal moves: what the player to decide may do now, found by probing the rules.

A pending request becomes a list of `Action`s with stable ids and readable descriptions:
a choice's options, or — in a stage's action window — every action and activated
ability that engine/offers.py allows now, each with every parameter combination for
which running it up to its payment succeeds (`_probe`/`_try`, rolled back each time).
Apart from the turn structure (flow.py) because it is the one part of a played match
that runs rules *hypothetically*: nothing here changes the match for good.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import offers
from cardsmith.engine import runtime as rt
from cardsmith.engine.match import Match, log_describe
from cardsmith.engine.scenario_steps import _NotAnOption, _offers
from cardsmith.engine.seatview import Shown, render
from cardsmith.model.state import Card, Player
from cardsmith.model.values import OperationError

if TYPE_CHECKING:
    from cardsmith.engine.coverage import Tally

# the most parameter combinations one action (or ability) offers in one window; past it
# the rest are not offered and the match counts the cut (offers_cut), which soaks report
MAX_COMBINATIONS = 1000
# the most moves (actions and passes) one stage's window may take before it closes: a
# bound on rules where players could keep acting without end
MAX_WINDOW_MOVES = 1000


class Action:
    """One legal move: who makes it, a stable id within the decision, and what it does.

    `description` names cards as the log does (`Kick#12`: the referee's names). `parts`
    is the same description with each value kept apart (engine/seatview.Shown), so a
    seat's view can name them as that seat may (`seen_as`); empty when the description
    holds no values. A description with parts is written when first read (most moves
    offered are never taken nor shown): the log's names never change, so it reads the same.
    A window's move with parameters is made with only its `head` (the action's label): its
    parts — the head, then the parameters, payload[1], after a colon — are put together
    when first read too, as a window offers several moves a decision and one is taken."""

    __slots__ = ("_description", "_head", "_parts", "id", "payload", "player")

    def __init__(self, id: int, player: int, description: str | None, payload: Any,
                 parts: tuple[Any, ...] = (), head: str | None = None) -> None:
        self.id = id
        self.player = player
        self._description = description  # None: rendered from `parts` when read
        self.payload = payload
        self._parts = parts
        self._head = head  # not None: the parts are `head: payload[1]...`, made when read

    @property
    def parts(self) -> tuple[Any, ...]:
        head = self._head
        if head is not None:
            self._parts = _with_values(head, self.payload[1])[1]
            self._head = None
        return self._parts

    @property
    def description(self) -> str:
        text = self._description
        if text is None:
            if self._head is not None:  # (the parts as render writes them, without making them)
                text = f"{self._head}: " + ", ".join([str(log_describe(value)) for value in self.payload[1]])
            else:
                text = render(self.parts, log_describe)
            self._description = text
        return text

    def seen_as(self, describe: Any) -> str:
        parts = self.parts
        return render(parts, describe) if parts else self.description

    def settle(self) -> None:
        """Write the description now: before the cards it names are resampled in place
        (copies.look_ahead swaps them under the journal), so it never keeps what a
        guessed world made of them."""
        if self._description is None:
            self._description = render(self.parts, log_describe)

    def described(self, description: str) -> Action:
        """The same move under another description (a copy's, engine/copies.py)."""
        return Action(self.id, self.player, description, self.payload, self.parts)

    def _key(self) -> tuple[Any, ...]:
        return (self.id, self.player, self.description, self.payload)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Action and self._key() == other._key())

    def __hash__(self) -> int:
        return hash((self.id, self.player, self.description))

    def __repr__(self) -> str:
        return f"Action(id={self.id!r}, player={self.player!r}, description={self.description!r})"


def from_own_hand(value: Any, player: Player) -> bool:
    """Is `value` a card `player` takes out of a zone only they can see (their hand)? Such a
    card is *played*: the `played` event, the soak's cards_played tally, and its `play:`
    condition all ask this one question."""
    return isinstance(value, Card) and value.zone is not None and value.zone.visibility == "owner" \
        and value.zone.owner is player


def played_cards(player: Player, picked: list[Any]) -> list[Card]:
    """The cards `player` plays with a move's parameters: each card (also inside a pick
    of several) that they take out of a zone only they can see — their hand. (The
    `played` event, flow._take; cards_played, a soak's tally, also counts answers to later
    choices.) A single card, the usual parameter, is asked without a list of its own."""
    found: list[Card] = []
    for value in picked:
        if isinstance(value, list):
            found += [card for card in value if from_own_hand(card, player)]
        elif from_own_hand(value, player):
            found.append(value)
    return found


def _with_values(head: str, choices: list[Any]) -> tuple[str | None, tuple[Any, ...]]:
    """A move's description — `head`, then its parameters after a colon — as its parts
    (the description is the parts as the log names them, written when read: None)."""
    if not choices:
        return head, ()
    parts: list[Any] = [head]
    for i, choice in enumerate(choices):
        parts += [", " if i else ": ", Shown(choice)]
    return None, tuple(parts)


class ActionWindow:
    """`player` holds priority in a stage's window: the moves offered were worked out
    when the window opened (engine/offers.py decides which, probing decides legality)."""

    def __init__(self, player: Player, stage: ir.StageDecl, sealed: bool = False) -> None:
        self.player = player
        self.stage = stage
        self.sealed = sealed  # a simultaneous stage: the others' picks are not yet shown
        self.actions: list[Action] = []


class LegalityMismatch(AssertionError):
    """A compiled legality predicate and probing disagreed (only raised with `crosscheck`)."""


_all = rt.keep_all  # (a choice's options, all kept)


_LISTED = "moves: the actions a stage's window lists"  # (its key in the match's memo, with the stage)


def _same_answers(a: list[list[Any]], b: list[list[Any]]) -> bool:
    """The same combinations in the same order, each answer the very same object (or an
    equal number or text)."""
    return len(a) == len(b) and all(
        len(x) == len(y) and all(u is v or (type(u) is type(v) and type(u) in (int, str, bool) and u == v)
                                 for u, v in zip(x, y, strict=True))
        for x, y in zip(a, b, strict=True))


class MoveFinder(Match):
    """The legal-move half of a played match (flow.PlayedMatch is the other half)."""

    # compiled legality predicates in use; off, every move is found by probing
    use_predicates = True
    # run both and fail on any difference (the differential legality tests)
    crosscheck = False
    tally: Tally | None
    offers_cut: Counter[str]
    _picks_cut: bool
    # the question a probe (_try) stopped at, still open (read right after it returns a list)
    _asked: rt.Choose | rt.ChooseOption | None = None
    # the pending choice whose answers were last listed, the answers, and the cut it counts
    _answers_listed: tuple[Any, list[Action], str | None] | None = None

    def _program(self, move: Any, player: Player) -> tuple[Generator[Any, Any, Any], str, str]:
        """The compiled decision a move runs — an action's, or a card's activated ability —
        with its speed and a label for the log."""
        if isinstance(move, str):
            decl = self.game.actions[move]
            return self.game.handlers[("action", move)](self, self._actors.get(player) or self.actor(player)), \
                decl.speed, move
        _kind, card, key = move
        found = offers.find_activation(self, card, key)
        if found is None:
            raise rt.NotLegal(str(key))
        program = self.game.activation_handler(key)(self, found.ctx())
        return program, found.ability.speed, f"{card.name}: {found.ability.label}"

    def _label(self, move: Any) -> str:
        return move if isinstance(move, str) else f"{move[1].name}#{move[1].id}: {move[2]}"

    # ---------------------------------------------------------------- legal actions
    def _actions_for(self, request: Any) -> list[Action]:
        """The moves a pending request offers. A choice's answers are made once per request
        and handed out again while it is pending, as a window's are (ActionWindow.actions):
        an agent reads them, then `apply` finds the one taken among them by identity, not by
        comparing every description with a list made anew (a cut pick is still counted
        each time it is listed)."""
        if request is None:
            return []
        if isinstance(request, ActionWindow):
            return request.actions
        answers = self._answers_listed
        if answers is not None and answers[0] is request:
            if answers[2] is not None:
                self.offers_cut[answers[2]] += 1
            return answers[1]
        if isinstance(request, rt.ChooseOption):
            who = request.player.index if request.player is not None else 0
            out = [Action(i, who, f"choose '{label}'", i) for i, label in enumerate(request.labels)]
            self._answers_listed = (request, out, None)
            return out
        if isinstance(request, rt.Choose):
            return self._choice_actions(request)
        return []

    def _choice_actions(self, request: rt.Choose) -> list[Action]:
        who = request.player.index if request.player is not None else 0
        out: list[Action]
        if request.mode == "one":
            # (an answer is `choose X (label)`, described from its parts when read; what
            # every answer's description shares is made once a choice)
            if request.hidden:  # a blind pick: the chooser sees places, not cards
                tail = f" of {len(request.options)} ({request.label})"
                out = [Action(i, who, f"choose {'card' if isinstance(o, Card) else 'option'} "
                                      f"{i + 1}{tail}", o) for i, o in enumerate(request.options)]
            else:
                tail = f" ({request.label})"
                out = [Action(i, who, None, o, ("choose ", Shown(o), tail)) for i, o in enumerate(request.options)]
            if request.optional or not out:
                out.append(Action(len(out), who, "choose nothing", None))
            self._answers_listed = (request, out, None)
            return out
        picks, cut = several_picks(request)
        counted = f"choose {request.label} (line {request.line})" if cut else None
        if counted is not None:
            self.offers_cut[counted] += 1
        tail = f" ({request.label})"
        out = [Action(i, who, None, g, ("choose ", Shown(g), tail)) for i, g in enumerate(picks)]
        self._answers_listed = (request, out, counted)
        return out

    def _window_actions(self, window: ActionWindow) -> list[Action]:
        """The moves the priority holder has: the stage's actions and the activated
        abilities of their cards that engine/offers.py allows now, each parameter
        combination that probing finds legal — and `pass`, unless the stage says
        `pass: no` and some move is legal."""
        holder = window.player
        who = holder.index
        stage = window.stage
        is_current = holder is self.current
        stack_busy = bool(self.stack_programs)
        out: list[Action] = []
        self.probe_cache.clear()  # options remembered while probing this position only
        # (what every probe of the window shares, made once: the filter of a choice's
        # options and the actor's context for the actions' predicates)
        keep = (lambda options: [o for o in options if self._may_play(o, holder)]) \
            if self.game.play_conditions else _all
        ctx = self._actors.get(holder) or self.actor(holder)
        # (an action's compiled predicate is called here, as _probe would call it, when
        # nothing else is asked of it: a window of four actions made four calls more)
        legality = self.game.legality if self.use_predicates and not self.crosscheck else {}
        for decl in self._listed(stage, is_current, stack_busy):
            name = decl.name
            if decl.limit is not None and not self.within_limit(name, holder):
                continue
            predicate = legality.get(name)
            if predicate is None:
                combos = self._probe(name, holder, None, keep, ctx)
            else:
                combos = predicate(self, ctx, keep, MAX_COMBINATIONS)
                if len(combos) > MAX_COMBINATIONS:
                    self.offers_cut[name] += 1
                    del combos[MAX_COMBINATIONS:]
            head = decl.label
            index = len(out)
            for choices in combos:  # (positional arguments: a dozen moves a window)
                if choices:
                    out.append(Action(index, who, None, (name, choices), (), head))
                else:
                    out.append(Action(index, who, head, (name, choices)))
                index += 1
        lists_activate = "activate" in stage.actions
        # (only instant abilities may be offered now: offers.ability_offered)
        instant_only = not (is_current and not stack_busy and lists_activate)
        for found in offers.activations(self, holder, instant_only) if self.game.activated_cards else ():
            if not offers.ability_offered(found.ability, is_current, stack_busy, lists_activate):
                continue
            combos = self._probe(found.move, holder, found, keep)
            if not combos:
                continue
            head = f"{found.card.name}: {found.ability.label}"
            move = found.move
            index = len(out)
            for choices in combos:  # (the parts made when read, as an action's: _with_values)
                if choices:
                    out.append(Action(index, who, None, (move, choices), (), head))
                else:
                    out.append(Action(index, who, head, (move, choices)))
                index += 1
        if stage.passing or not out:
            out.append(Action(len(out), who, "pass", "pass"))
        return out

    def _listed(self, stage: ir.StageDecl, is_current: bool, stack_busy: bool) -> list[ir.ActionDecl]:
        """The actions a window of the stage may offer, in order — the stage's own, then the
        game's instant ones — that their timing allows (offers.action_offered) to the
        player whose turn it is or not (`is_current`), with the stack busy or not: the
        same all match, so kept in the match's memo per stage and case."""
        key = (_LISTED, stage.name, id(stage), is_current, stack_busy)
        found: list[ir.ActionDecl] | None = self.match_memo.get(key)
        if found is None:
            names = [name for name in stage.actions if name not in ("pass", "activate")]
            names += [name for name in self.game.instant_actions if name not in names]
            found = self.match_memo[key] = [
                self.game.actions[n] for n in names
                if n in self.game.actions and offers.action_offered(self.game.actions[n], is_current, stack_busy)]
        return found

    def _probe(self, move: Any, player: Player, activation: offers.Activation | None = None,
               keep: Any = None, ctx: rt.Ctx | None = None) -> list[list[Any]]:
        """Every parameter combination for which the move is legal (condition + cost):
        computed by the action's (or the ability's: `activation`) compiled legality
        predicate where the compiler wrote one (compiler/legality.py), else found by
        running the rule (`_tried`). With `crosscheck` on (the conformance suite,
        tests/test_legality_predicates.py) both run and any difference stops the match.
        `keep` (the filter of a choice's options) and `ctx` (the actor's, for an action)
        when the caller has them already."""
        if not self.use_predicates:
            return self._tried(move, player)
        if keep is None:
            keep = (lambda options: [o for o in options if self._may_play(o, player)]) \
                if self.game.play_conditions else _all
        found: list[list[Any]]
        if isinstance(move, str):
            predicate = self.game.legality.get(move)
            if predicate is None:
                return self._tried(move, player)
            found = predicate(self, ctx if ctx is not None else rt.Ctx(player, None), keep, MAX_COMBINATIONS)
        else:  # an ability's predicate (its handler's key after "legal") takes the key its options go under
            predicate = self.game.handlers.get(("legal", *move[2][:3]))
            if predicate is None or activation is None:
                return self._tried(move, player)
            found = predicate(self, activation.ctx(), keep, MAX_COMBINATIONS, self._probe_key(move, player))
        if len(found) > MAX_COMBINATIONS:
            self.offers_cut[move if isinstance(move, str) else f"{move[1].name}: {move[2]}"] += 1
            del found[MAX_COMBINATIONS:]
        if self.crosscheck:
            self.probe_cache.clear()  # (what the predicate handed on must not answer for probing)
            probed = self._tried(move, player)
            if not _same_answers(found, probed):
                raise LegalityMismatch(f"action {move!r}, player {player.name}: the compiled predicate found "
                                       f"{self._shown(found)}, probing found {self._shown(probed)}")
        return found

    def _shown(self, combos: list[list[Any]]) -> list[list[Any]]:
        return [[self.describe(value) for value in combo] for combo in combos]

    def _tried(self, move: Any, player: Player) -> list[list[Any]]:
        """Every parameter combination for which the move is legal, found by probing.

        Breadth first, one run of the move per prefix of answers. When an action's
        legality cannot depend on the answer to its last choice
        (compiler/actions.option_blind_parameters), one run with the first option of that
        choice decides for all of them — the same list, in the same order."""
        last = self.game.option_blind.get(move) if isinstance(move, str) else None
        params = self.parameter_count(move)
        self._picks_cut = False  # a pick of several cards among too many combinations (_try)
        found: list[list[Any]] = []
        frontier: list[list[Any]] = [[]]
        while frontier and len(found) < MAX_COMBINATIONS:
            prefix = frontier.pop(0)
            outcome = self._try(move, player, prefix)
            if outcome is True:
                found.append(prefix)
            elif isinstance(outcome, list):
                if len(prefix) >= params:
                    # a question the cost asks: answered while paying, after the move is
                    # taken; the move is legal when some answers pay the cost
                    self.game.asks_while_paying.add(self.move_key(move))
                    if self._can_finish(move, player, prefix, self._candidates(outcome), [MAX_COMBINATIONS]):
                        found.append(prefix)
                elif last is not None and len(prefix) == last - 1:
                    if self.game.play_conditions:  # a card that may not be played now is no option
                        outcome = [option for option in outcome if self._may_play(option, player)]
                    if outcome and self._try(move, player, [*prefix, outcome[0]]) is True:
                        found.extend([*prefix, option] for option in outcome)
                else:
                    frontier.extend([*prefix, option] for option in outcome)
        if len(found) > MAX_COMBINATIONS or (frontier and len(found) >= MAX_COMBINATIONS) or self._picks_cut:
            self.offers_cut[move if isinstance(move, str) else f"{move[1].name}: {move[2]}"] += 1
        return found[:MAX_COMBINATIONS]

    def _paying_for(self, move: Any) -> str:
        """The move a cost question pays for, as a seat may read it: the action's name, or
        the card's name and the ability's label (the card is in play)."""
        if isinstance(move, str):
            return move
        found = offers.find_activation(self, move[1], move[2])
        return f"{move[1].name}: {found.ability.label}" if found is not None else move[1].name

    @staticmethod
    def move_key(move: Any) -> Any:
        """What a move is, whatever card and use: the action's name, or the ability's
        (card name or keyword, and its index)."""
        return move if isinstance(move, str) else move[2][:3]

    def parameter_count(self, move: Any) -> int:
        """How many of the questions a move asks before its payment are its parameters —
        its leading `choose`s (ir.action_parameters), part of the move as offered. The
        questions after them are asked by its cost, while it is paid (`cost_answers`)."""
        key = self.move_key(move)
        counts = self.game.parameter_counts
        count = counts.get(key)
        if count is None:
            if isinstance(move, str):
                body = self.game.actions[move].body
            else:
                found = offers.find_activation(self, move[1], move[2])
                body = found.ability.body if found is not None else []
            count = counts[key] = ir.parameter_questions(body)
        return count

    def _candidates(self, outcome: list[Any]) -> list[Any]:
        """The answers to try for the question _try just found open (its list): "nothing"
        last when that choice is optional."""
        asked = self._asked
        optional = isinstance(asked, rt.Choose) and asked.mode == "one" and asked.optional
        return [*outcome, None] if optional else outcome

    def _can_finish(self, move: Any, player: Player, answers: list[Any], options: list[Any],
                    budget: list[int]) -> bool:
        """Do some answers to the questions the cost still asks, the first of them one of
        `options`, pay it? Depth first, stopping at the first way that pays (the cost's
        questions are not part of the move: one way is enough). At most `budget` runs of
        the rule in all; past it the move counts as cut (offers_cut) and as not payable."""
        waiting = [[*answers, option] for option in options]  # ways still to try, next first
        while waiting:
            if budget[0] <= 0:
                self._picks_cut = True
                return False
            budget[0] -= 1
            onward: list[tuple[list[Any], list[Any]]] = []
            if self._try(move, player, waiting.pop(0), onward) is True:
                return True
            # that way failed: next try the other answers to its questions, the last first
            waiting[:0] = [[*before, other] for before, others in reversed(onward) for other in others[1:]]
        return False

    def legal_with(self, move: Any, player: Player, choices: list[Any]) -> bool:
        """Is the move, with these parameters, legal now (its cost payable somehow)?"""
        outcome = self._try(move, player, list(choices))
        if outcome is True:
            return True
        if not (isinstance(outcome, list) and len(choices) >= self.parameter_count(move)):
            return False
        self.game.asks_while_paying.add(self.move_key(move))
        return self._can_finish(move, player, list(choices), self._candidates(outcome), [MAX_COMBINATIONS])

    def cost_question(self, move: Any, player: Player, answers: list[Any]) -> tuple[Any, list[Any]] | bool | None:
        """The next question the move's cost asks after `answers`, as the player is to see
        it — only the answers from which the cost can still be paid — with those answers;
        True when the answers pay it, None when nothing can."""
        outcome = self._try(move, player, answers)
        if outcome is True:
            return True
        if not isinstance(outcome, list):
            return None
        request = self._asked
        assert request is not None  # (set by the _try that found the question open)
        budget = [MAX_COMBINATIONS]
        open_answers = [o for o in self._candidates(outcome) if self._can_finish(move, player, answers, [o], budget)]
        if not open_answers:
            return None
        return narrowed(self, request, open_answers, self._paying_for(move)), open_answers

    @staticmethod
    def _probe_key(move: Any, player: Player) -> tuple[Any, ...]:
        """The start of rt.probed_options' key for a move: the action (or the card and
        ability) and the actor; the answers are added as they are given."""
        return (move if isinstance(move, str) else ("activate", move[1].id, move[2]), player.index)

    def _try(self, move: Any, player: Player, prefix: list[Any],
             onward: list[tuple[list[Any], list[Any]]] | None = None) -> bool | list[Any]:
        """Run the move up to its payment with these choices, then roll everything back.

        True: legal as is. A list: the options of the next, still open, choice. False: not legal.
        With `onward` (a list to fill), a question met after the choices is not left open:
        the run goes on with its first option, and each such question is added to `onward`
        as (the answers before it, its options) — so one run follows a whole way of paying
        a cost instead of one run per answer (_can_finish backtracks from what it holds)."""
        snapshot = self.snapshot_state()
        script = list(prefix)
        given = list(prefix)
        try:
            program, _speed, _label = self._program(move, player)
        except rt.NotLegal:
            self.restore_state(snapshot)
            return False
        self.probe_path = self._probe_key(move, player)
        try:
            reply: Any = None
            while True:
                request = program.send(reply)
                if isinstance(request, rt.Paid):
                    return True
                if isinstance(request, rt.Choose):
                    if not script:
                        self._asked = request
                        if request.mode == "one":
                            options = list(request.options)
                        else:
                            options, cut = several_picks(request)
                            self._picks_cut = self._picks_cut or cut
                        if onward is None:
                            return options
                        options = self._candidates(options)
                        if not options:
                            return False
                        onward.append((list(given), options))
                        script.append(options[0])
                    reply = script.pop(0)
                    given.append(reply)
                    if not _answers(request, reply):
                        return False  # no longer an option (a card that moved, a target gone)
                    if self.game.play_conditions and not self._may_play(reply, player):
                        return False  # it would play a card whose `play:` condition fails
                    self.probe_path += (tuple(reply) if isinstance(reply, list) else reply,)
                    continue
                if isinstance(request, rt.ChooseOption):
                    if not script:
                        self._asked = request
                        if onward is None or not request.labels:
                            return list(range(len(request.labels)))
                        onward.append((list(given), list(range(len(request.labels)))))
                        script.append(0)
                    reply = script.pop(0)
                    given.append(reply)
                    if not (type(reply) is int and 0 <= reply < len(request.labels)):
                        return False
                    self.probe_path += (reply,)
                    continue
                reply = None
        except (StopIteration, rt.CannotPay, rt.NotLegal, _NotAnOption):
            return False
        except OperationError as error:
            if error.kind in ("large", "limit"):
                # a rule beyond the limits (`choose x from 1..10^15`) is a broken rule, not an
                # illegal move: the match stops naming it, as it would when the move ran
                raise
            return False
        except (rt.RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError):
            return False
        finally:
            self.probe_path = None
            program.close()
            self.restore_state(snapshot)

    def _may_play(self, picked: Any, player: Player) -> bool:
        """Does every card this answer would play — one its chooser takes out of a zone
        only they can see, as _apply_move records it — meet its `play:` condition (read
        with `self` the card and `you` the player)?"""
        for value in picked if isinstance(picked, list) else [picked]:
            if from_own_hand(value, player):
                condition = self.game.play_conditions.get(value.name)
                if condition is None:
                    continue
                try:
                    if not rt.truth(condition(self, rt.Ctx(player, value))):
                        return False
                except (rt.RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError):
                    return False  # a condition that cannot be read now does not hold (as in _try)
        return True


def narrowed(m: Match, request: rt.Choose | rt.ChooseOption, answers: list[Any],
             paying: str) -> rt.Choose | rt.ChooseOption:
    """The same question offering only `answers` (MoveFinder.cost_question: the answers
    from which a cost can still be paid). A pick of several becomes a pick of one of the
    groups allowed; "nothing" (None) stays the optional answer; a choice between labelled
    modes keeps the labels allowed (the flow maps the answer back to the mode's number)."""
    copy: rt.Choose | rt.ChooseOption
    if isinstance(request, rt.ChooseOption):
        copy = rt.ChooseOption(m, request.player, [request.labels[i] for i in answers], request.line)
    else:
        copy = rt.Choose(m, request.player, [a for a in answers if a is not None], "one", None,
                         hidden=request.hidden, optional=request.mode == "one" and None in answers,
                         targeting=request.targeting, label=request.label, line=request.line)
    copy.paying = paying
    return copy


def several_picks(request: rt.Choose) -> tuple[list[list[Any]], bool]:
    """Every answer to a pick of several items, each a combination of the options in their
    order: `exact` — every group of n (all the options when there are fewer); `up_to` and
    `any` — none, then every group of one, of two, ... up to n (`any`: up to all of them).
    Equal groups (a list source may repeat a value) are offered once; at most
    MAX_COMBINATIONS are offered, and True says that some were cut."""
    options = request.options
    n = len(options) if request.n is None else max(0, min(request.n, len(options)))
    sizes = [n] if request.mode == "exact" else range(n + 1)
    groups = itertools.chain.from_iterable(itertools.combinations(options, r) for r in sizes)
    picks: list[list[Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for group in groups:
        key = tuple((type(o), o) if type(o) in (int, str, bool) else (None, id(o)) for o in group)
        if key in seen:
            continue
        if len(picks) == MAX_COMBINATIONS:
            return picks, True
        seen.add(key)
        picks.append(list(group))
    return picks, False


def _answers(request: rt.Choose, reply: Any) -> bool:
    """Is a scripted answer one the choice offers now (each item of a several-item pick)?"""
    if request.mode == "one":
        # the answer is usually the very object offered: test identity before equality
        return (reply is None and request.optional) or any(reply is option for option in request.options) \
            or _offers(request, reply)
    return isinstance(reply, list) and all(_offers(request, item) for item in reply)
