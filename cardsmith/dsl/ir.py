"""The typed intermediate representation of a cardsmith game.

Frozen pydantic v2 models with tagged unions (`kind`), every node carrying its source
span. The IR is the one thing every back end reads — engine handlers, rules text,
printables, deck checks, JSON export — so it is complete (nothing is left in raw
words) and fully resolved: a phrase statement is stored as the procedure it calls.

Long because: it is the language's one schema — a declaration per node kind and no
logic beyond small lookups — and every back end reads it; split into files, a reader
would look for one node among several modules, and the tagged unions that tie the nodes
together would have to import across them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardsmith.dsl.source import Span
from cardsmith.dsl.words import EVERY_DETERMINERS
from cardsmith.util.fastmodel import fill

# a game's `turn_limit` when it declares none (GameDecl.turn_limit), and the most it may declare
DEFAULT_TURN_LIMIT = 3000
MAX_TURN_LIMIT = 100_000


class Node(BaseModel):
    """Every IR node. Built only by our own builder from checked source, so `Node(...)`
    skips pydantic's validation (util/fastmodel.fill: field names still checked) and the
    validators are never built unless something validates — building them for these
    tagged unions cost every command 0.6 s of start-up."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    span: Span

    def __init__(self, /, **data: Any) -> None:
        fill(self, data)


# ---------------------------------------------------------------- expressions


class Num(Node):
    """An exact number: num/den (den is 1 for integers)."""

    kind: Literal["num"] = "num"
    num: int
    den: int = 1


class Text(Node):
    kind: Literal["text"] = "text"
    value: str


class Bool(Node):
    kind: Literal["bool"] = "bool"
    value: bool


class NoneLit(Node):
    kind: Literal["none"] = "none"


class Dice(Node):
    kind: Literal["dice"] = "dice"
    count: int
    sides: int


class Dim(Node):
    """A length, normalised to millimetres."""

    kind: Literal["dim"] = "dim"
    mm: float
    written: str


class Ref(Node):
    kind: Literal["ref"] = "ref"
    name: str


class CardRef(Node):
    """A quoted card name used as a value, e.g. `create "Militia" in ...`."""

    kind: Literal["cardref"] = "cardref"
    name: str


class Attr(Node):
    kind: Literal["attr"] = "attr"
    obj: Expr
    name: str


class Call(Node):
    kind: Literal["call"] = "call"
    func: str
    args: list[Expr]
    kwargs: dict[str, Expr] = Field(default_factory=dict)


class Index(Node):
    kind: Literal["index"] = "index"
    obj: Expr
    index: Expr


class BinOp(Node):
    """Arithmetic: + - * / // %."""

    kind: Literal["binop"] = "binop"
    op: Literal["+", "-", "*", "/", "//", "%"]
    left: Expr
    right: Expr


class Neg(Node):
    kind: Literal["neg"] = "neg"
    operand: Expr


class Compare(Node):
    kind: Literal["compare"] = "compare"
    op: Literal["==", "!=", "<", "<=", ">", ">="]
    left: Expr
    right: Expr


class Logic(Node):
    kind: Literal["logic"] = "logic"
    op: Literal["and", "or"]
    left: Expr
    right: Expr


class Not(Node):
    kind: Literal["not"] = "not"
    operand: Expr


class Contains(Node):
    kind: Literal["contains"] = "contains"
    item: Expr
    collection: Expr
    negated: bool = False


class IsTest(Node):
    """`x is Unit`, `x is exhausted`, `x is enemy unit`: each word must hold."""

    kind: Literal["is"] = "is"
    value: Expr
    words: list[str]
    negated: bool = False


class Conditional(Node):
    """`if cond then a else b`."""

    kind: Literal["conditional"] = "conditional"
    condition: Expr
    then: Expr
    otherwise: Expr


class RangeExpr(Node):
    kind: Literal["range"] = "range"
    low: Expr | None
    high: Expr | None


class ListExpr(Node):
    kind: Literal["list"] = "list"
    items: list[Expr]


class Roll(Node):
    kind: Literal["roll"] = "roll"
    dice: Expr


class TopOf(Node):
    """`top N of zone` / `bottom N of zone` (count None means one card)."""

    kind: Literal["topof"] = "topof"
    count: Expr | None
    zone: Expr
    bottom: bool = False


# query nouns that name players rather than cards
PLAYER_NOUNS = frozenset({"player", "players", "opponent", "opponents"})


class Query(Node):
    """`DET [N | up to N] adjectives noun [in zone] [where cond]`.

    det: target | a | any | each | every | all | random | another.
    `noun` is a card type name (resolved from singular/plural) or "card".
    """

    kind: Literal["query"] = "query"
    det: str
    count: Expr | None = None
    up_to: bool = False
    adjectives: list[str] = Field(default_factory=list)
    noun: str
    zone: Expr | None = None
    where: Expr | None = None


Expr = Annotated[
    Num | Text | Bool | NoneLit | Dice | Dim | Ref | CardRef | Attr | Call | Index | BinOp | Neg |
    Compare | Logic | Not | Contains | IsTest | Conditional | RangeExpr | ListExpr | Roll | TopOf |
    Query,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- statements


class Duration(Node):
    """How long a change lasts: until the end of a named period, or while a condition holds."""

    kind: Literal["until_end", "until_next", "permanently", "while"]
    period: str | None = None
    condition: Expr | None = None


class Let(Node):
    kind: Literal["let"] = "let"
    name: str
    value: Expr


class Assign(Node):
    kind: Literal["assign"] = "assign"
    op: Literal["set", "increase", "decrease"]
    target: Expr
    value: Expr
    duration: Duration | None = None


class Branch(Node):
    condition: Expr
    body: list[Stmt]


class If(Node):
    kind: Literal["if"] = "if"
    branches: list[Branch]
    orelse: list[Stmt] | None = None


class ForEach(Node):
    kind: Literal["for"] = "for"
    var: str
    source: Expr
    body: list[Stmt]


class Repeat(Node):
    kind: Literal["repeat"] = "repeat"
    count: Expr
    body: list[Stmt]


class While(Node):
    kind: Literal["while"] = "while"
    condition: Expr
    body: list[Stmt]


class ChooseCount(Node):
    mode: Literal["one", "exact", "up_to", "any"]
    n: Expr | None = None


class Choose(Node):
    """A decision: pick from `source` by a player; binds `var` (a card, or a list).

    `condition` (written `where ...` after a non-query source) filters the options; `it`
    is the candidate.
    """

    kind: Literal["choose"] = "choose"
    var: str
    source: Expr
    count: ChooseCount
    condition: Expr | None = None
    by: Expr | None = None
    hidden: bool = False
    optional: bool = False


class Option(Node):
    label: str
    body: list[Stmt]


class ChooseOne(Node):
    kind: Literal["choose_one"] = "choose_one"
    by: Expr | None = None
    options: list[Option]


class Simultaneously(Node):
    kind: Literal["simultaneously"] = "simultaneously"
    body: list[Stmt]


class Emit(Node):
    kind: Literal["emit"] = "emit"
    event: str
    args: list[Expr]


class Cancel(Node):
    kind: Literal["cancel"] = "cancel"


class Return(Node):
    kind: Literal["return"] = "return"
    value: Expr | None = None


class Invoke(Node):
    """A resolved phrase or named call of a procedure (or engine native)."""

    kind: Literal["invoke"] = "invoke"
    procedure: str
    args: dict[str, Expr]
    phrase: str = ""


class Perform(Node):
    """Scenario only: a player takes a declared action with the given choices.

    With `expect_illegal` (written `expect illegal ACTION by ...`) the scenario asserts
    that the action is not among the player's legal actions.
    """

    kind: Literal["perform"] = "perform"
    action: str
    by: Expr
    choosing: list[Expr] = Field(default_factory=list)
    expect_illegal: bool = False


class Expect(Node):
    """Scenario only: an assertion."""

    kind: Literal["expect"] = "expect"
    condition: Expr
    message: str | None = None


Stmt = Annotated[
    Let | Assign | If | ForEach | Repeat | While | Choose | ChooseOne | Simultaneously | Emit |
    Cancel | Return | Invoke | Perform | Expect,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- declarations


class Param(Node):
    name: str
    type: str = "any"
    default: Expr | None = None


class GameDecl(Node):
    kind: Literal["game"] = "game"
    name: str
    id: str
    players_min: int = 2
    players_max: int = 2
    card_size: str = "poker"
    card_width_mm: float = 63.0
    card_height_mm: float = 88.0
    version: str = "0.1"
    description: str = ""
    first_player: str = "random"
    # the most turns (or rounds) a played match may last before it stops without a winner:
    # a guard against rules that never end, which `cardsmith simulate` reports when hit
    turn_limit: int = DEFAULT_TURN_LIMIT
    # the set code its cards print with their collector numbers (`KC 12/40`); "" for none
    set_code: str = ""


class ExpansionDecl(Node):
    kind: Literal["expansion"] = "expansion"
    name: str
    base: str
    version: str = "0.1"
    set_code: str = ""


class ParamDecl(Node):
    kind: Literal["param"] = "param"
    name: str
    type: str
    value: Expr


class ModeDecl(Node):
    kind: Literal["mode"] = "mode"
    name: str
    label: str
    players_min: int | None = None
    players_max: int | None = None
    overrides: dict[str, Expr] = Field(default_factory=dict)


class EnumValue(Node):
    name: str
    properties: dict[str, Expr] = Field(default_factory=dict)


class EnumDecl(Node):
    kind: Literal["enum"] = "enum"
    name: str
    values: list[EnumValue]


class CounterDecl(Node):
    kind: Literal["counter"] = "counter"
    name: str
    scope: Literal["player", "card", "shared"]
    start: Expr
    min: Expr | None = None
    max: Expr | None = None
    reset: str = "never"
    label: str = ""


class StatusDecl(Node):
    kind: Literal["status"] = "status"
    name: str
    label: str = ""
    reset: str = "never"


class ZoneDecl(Node):
    kind: Literal["zone"] = "zone"
    name: str
    scope: Literal["player", "shared"]
    ordered: bool = False
    visibility: Literal["hidden", "owner", "public"] = "public"
    capacity: Expr | None = None
    board: str | None = None
    label: str = ""


class Cell(Node):
    x: int
    y: int


class CellRect(Node):
    start: Cell
    end: Cell


class RegionDecl(Node):
    name: str
    cells: list[CellRect]
    properties: dict[str, Expr] = Field(default_factory=dict)


class BoardDecl(Node):
    kind: Literal["board"] = "board"
    name: str
    width: int
    height: int
    regions: list[RegionDecl] = Field(default_factory=list)


class FieldDef(Node):
    name: str
    type: str
    default: Expr | None = None


class CardTypeDecl(Node):
    kind: Literal["cardtype"] = "cardtype"
    name: str
    singular: str
    plural: str
    stats: list[FieldDef] = Field(default_factory=list)
    properties: list[FieldDef] = Field(default_factory=list)
    enters: str | None = None
    enters_with: list[str] = Field(default_factory=list)
    layout: str | None = None
    size: str | None = None
    token: Expr | None = None


class KeywordUse(Node):
    name: str
    args: list[Expr] = Field(default_factory=list)


class Effect(Node):
    """What the card does when played and resolved."""

    kind: Literal["effect"] = "effect"
    body: list[Stmt]


class Trigger(Node):
    kind: Literal["trigger"] = "trigger"
    event: str
    bindings: list[str] = Field(default_factory=list)
    condition: Expr | None = None
    zones: list[str] = Field(default_factory=list)
    body: list[Stmt]


class Activated(Node):
    kind: Literal["activated"] = "activated"
    label: str
    speed: Literal["immediate", "stack", "instant"] = "immediate"
    condition: Expr | None = None
    cost: list[Stmt] = Field(default_factory=list)
    body: list[Stmt]


class Modifier(Node):
    stat: str
    op: Literal["+", "-", "="]
    value: Expr


class Static(Node):
    kind: Literal["static"] = "static"
    target: Expr | None = None
    condition: Expr | None = None
    modifiers: list[Modifier] = Field(default_factory=list)
    grants: list[KeywordUse] = Field(default_factory=list)


class Hook(Node):
    """before / instead of / after a procedure."""

    kind: Literal["hook"] = "hook"
    when: Literal["before", "instead", "after"]
    procedure: str
    condition: Expr | None = None
    body: list[Stmt]


Ability = Annotated[Effect | Trigger | Activated | Static | Hook, Field(discriminator="kind")]


class CardDecl(Node):
    kind: Literal["card"] = "card"
    name: str
    type: str
    stats: dict[str, Expr] = Field(default_factory=dict)
    properties: dict[str, Expr] = Field(default_factory=dict)
    keywords: list[KeywordUse] = Field(default_factory=list)
    text: str | None = None
    flavour: str | None = None
    art: str | None = None
    copies: int = 1
    play_condition: Expr | None = None
    abilities: list[Ability] = Field(default_factory=list)
    expansion: str | None = None


class KeywordDecl(Node):
    kind: Literal["keyword"] = "keyword"
    name: str
    params: list[Param] = Field(default_factory=list)
    reminder: str = ""
    abilities: list[Ability] = Field(default_factory=list)


class EventDecl(Node):
    kind: Literal["event"] = "event"
    name: str
    params: list[Param] = Field(default_factory=list)


class ProcedureDecl(Node):
    kind: Literal["procedure"] = "procedure"
    name: str
    params: list[Param] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    body: list[Stmt] = Field(default_factory=list)
    native: bool = False


class FunctionDecl(Node):
    kind: Literal["function"] = "function"
    name: str
    params: list[Param] = Field(default_factory=list)
    expr: Expr | None = None
    body: list[Stmt] = Field(default_factory=list)
    native: bool = False


class StageDecl(Node):
    name: str
    body: list[Stmt] = Field(default_factory=list)
    steps: list[StageDecl] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    responses: bool = False
    simultaneous: bool = False
    skip: Expr | None = None
    label: str = ""
    # runs even after `end the turn` (end-of-turn clean-up: Two Kingdoms' dusk)
    always: bool = False
    # `pass: no`: the window offers no pass while an action is legal (UNO, Love Letter)
    passing: bool = True


class FlowDecl(Node):
    """`turn { stages }` (per player) or `round { stages }` (after all players' turns)."""

    kind: Literal["flow"] = "flow"
    scope: Literal["turn", "round"]
    stages: list[StageDecl]


class SetupDecl(Node):
    kind: Literal["setup"] = "setup"
    body: list[Stmt]


class ActionDecl(Node):
    kind: Literal["action"] = "action"
    name: str
    label: str
    by: Literal["current", "any", "responder"] = "current"
    speed: Literal["immediate", "stack", "instant"] = "immediate"
    condition: Expr | None = None
    limit: Expr | None = None
    cost: list[Stmt] = Field(default_factory=list)
    body: list[Stmt] = Field(default_factory=list)


def seat_range(game: Game, mode: str | None) -> tuple[int, int]:
    """The fewest and most players the game allows — or the mode, where it says. One
    definition for the checker (a scenario's `players:`) and the engine (--players)."""
    low, high = game.game.players_min, game.game.players_max
    for declared in game.modes:
        if declared.name == mode:
            low = declared.players_min if declared.players_min is not None else low
            high = declared.players_max if declared.players_max is not None else high
    return low, high


def default_mode(game: Game, players: int | None) -> str | None:
    """The mode a match is played in when none is named: the first declared mode that
    allows this many players (the first declared mode when the count is not given); None
    for a game without modes, or when no mode allows the count (the params' own values)."""
    for declared in game.modes:
        low, high = seat_range(game, declared.name)
        if players is None or low <= players <= high:
            return declared.name
    return None


# the prelude's functions that change the table (every other function only reads it)
CHANGING_FUNCTIONS = frozenset({"create"})


def nodes(node: object) -> Iterator[BaseModel]:
    """Every IR node under `node` (itself included), in no particular order."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            yield item
            stack.extend(getattr(item, name) for name in type(item).model_fields)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def action_parameters(body: list[Stmt]) -> int:
    """How many leading statements of an action are its parameters: its first `choose`
    and `let` statements, before any effect (see docs/language.md, "action"). A `let`
    that makes a card (`let t = create(...)`) is an effect: it ends the parameters, so it
    happens after the cost is paid, not while the move is still being chosen."""
    lead = 0
    for stmt in body:
        if not isinstance(stmt, Choose | Let):
            break
        if isinstance(stmt, Let) and any(isinstance(n, Call) and n.func in CHANGING_FUNCTIONS
                                         for n in nodes(stmt.value)):
            break
        lead += 1
    return lead


# determiners of a query that do not ask anybody: every match, or one picked by chance
_NOT_ASKING = EVERY_DETERMINERS | {"random"}


def parameter_questions(body: list[Stmt]) -> int:
    """How many questions an action's (or ability's) parameters ask when it runs: one per
    leading `choose`, and one per query that asks for a card in a leading `let`'s value
    (`let g = another gem`) — the code generator writes such a query as a choice, but not
    one inside another query's zone or condition (codegen_exprs.query). The questions its
    cost asks come after these (engine/moves.MoveFinder.parameter_count)."""
    count = 0
    for stmt in body[:action_parameters(body)]:
        if isinstance(stmt, Choose):
            count += 1
        elif isinstance(stmt, Let):
            found = [n for n in nodes(stmt.value) if isinstance(n, Query)]
            read = {id(n) for q in found for part in (q.where, q.zone) if part is not None for n in nodes(part)}
            count += sum(q.det not in _NOT_ASKING and id(q) not in read for q in found)
    return count


class CheckDecl(Node):
    kind: Literal["check"] = "check"
    name: str
    body: list[Stmt]


class ScoringDecl(Node):
    kind: Literal["scoring"] = "scoring"
    score: Expr
    tiebreak: list[Expr] = Field(default_factory=list)


class HeuristicDecl(Node):
    kind: Literal["heuristic"] = "heuristic"
    value: Expr


class DeckSection(Node):
    name: str
    types: list[str] = Field(default_factory=list)
    count: Expr | None = None
    counts_toward_size: bool = True
    optional: bool = False
    within: str | None = None


class DeckRequirement(Node):
    message: str
    condition: Expr
    forbid: bool = False


class DeckBinding(Node):
    """`let name = expression` in a deck block: a value the game derives from the
    decklist (over `deck`) once, which the deck's other rules then read by name. It is
    how a game states what its rules need to know about a deck (e.g. the values of a
    property over the cards of one section) without the deck tools knowing the game."""

    name: str
    value: Expr


class DeckSummary(Node):
    """Values derived from a decklist, shown by `cardsmith deck show` (e.g. the final
    stats of a deck's leading cards). Each field is an expression over `deck`."""

    label: str
    fields: dict[str, Expr] = Field(default_factory=dict)


class DeckRules(Node):
    kind: Literal["deck"] = "deck"
    sections: list[DeckSection] = Field(default_factory=list)
    bindings: list[DeckBinding] = Field(default_factory=list)
    summaries: list[DeckSummary] = Field(default_factory=list)
    size: Expr | None = None
    copies: Expr | None = None
    allow: Expr | None = None
    excluded: Expr | None = None
    requirements: list[DeckRequirement] = Field(default_factory=list)


class LayoutRegion(Node):
    name: str
    properties: dict[str, Expr] = Field(default_factory=dict)


class LayoutDecl(Node):
    kind: Literal["layout"] = "layout"
    name: str
    properties: dict[str, Expr] = Field(default_factory=dict)
    regions: list[LayoutRegion] = Field(default_factory=list)


class SheetDecl(Node):
    kind: Literal["sheet"] = "sheet"
    name: str
    label: str
    properties: dict[str, Expr] = Field(default_factory=dict)


class ReferenceRow(Node):
    label: str
    properties: dict[str, Expr] = Field(default_factory=dict)


class ReferenceDecl(Node):
    kind: Literal["reference"] = "reference"
    name: str
    label: str
    rows: list[ReferenceRow] = Field(default_factory=list)
    properties: dict[str, Expr] = Field(default_factory=dict)


class CoverageExclusion(Node):
    """One line of a `coverage { }` block: a rule (named as the dead-rule report names
    it, compiler/rulenames.py) that simulated matches may never see happen, and why."""

    kind: Literal["coverage"] = "coverage"
    rule: str
    reason: str


class ScenarioDecl(Node):
    kind: Literal["scenario"] = "scenario"
    name: str
    players: int = 2
    mode: str | None = None
    seed: int = 1
    # `setup: game`: the game's own setup runs first (then the `setup { }` block, if any)
    game_setup: bool = False
    setup: list[Stmt] = Field(default_factory=list)
    body: list[Stmt] = Field(default_factory=list)


class Game(BaseModel):
    """A whole checked game: the one input of every back end."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    game: GameDecl
    expansions: list[ExpansionDecl] = Field(default_factory=list)
    params: list[ParamDecl] = Field(default_factory=list)
    modes: list[ModeDecl] = Field(default_factory=list)
    enums: list[EnumDecl] = Field(default_factory=list)
    counters: list[CounterDecl] = Field(default_factory=list)
    statuses: list[StatusDecl] = Field(default_factory=list)
    zones: list[ZoneDecl] = Field(default_factory=list)
    boards: list[BoardDecl] = Field(default_factory=list)
    cardtypes: list[CardTypeDecl] = Field(default_factory=list)
    cards: list[CardDecl] = Field(default_factory=list)
    keywords: list[KeywordDecl] = Field(default_factory=list)
    events: list[EventDecl] = Field(default_factory=list)
    procedures: list[ProcedureDecl] = Field(default_factory=list)
    functions: list[FunctionDecl] = Field(default_factory=list)
    setup: list[SetupDecl] = Field(default_factory=list)
    flows: list[FlowDecl] = Field(default_factory=list)
    actions: list[ActionDecl] = Field(default_factory=list)
    checks: list[CheckDecl] = Field(default_factory=list)
    scoring: ScoringDecl | None = None
    heuristic: HeuristicDecl | None = None
    deck: DeckRules | None = None
    layouts: list[LayoutDecl] = Field(default_factory=list)
    sheets: list[SheetDecl] = Field(default_factory=list)
    references: list[ReferenceDecl] = Field(default_factory=list)
    scenarios: list[ScenarioDecl] = Field(default_factory=list)
    triggers: list[Trigger] = Field(default_factory=list)
    hooks: list[Hook] = Field(default_factory=list)
    coverage: list[CoverageExclusion] = Field(default_factory=list)


# Validators are built on first use (defer_build), not at import: a command that never
# builds a node of some kind never pays for its schema. Forward references resolve then.
