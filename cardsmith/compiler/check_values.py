"""The game's declared values: the game header, params, counters, enums and boards.

These are checked for consistency among themselves (a param not defined in terms of
itself, a counter's start within its bounds, every enum value giving the same
properties, region cells on their board) before any rule reads them.
"""

from __future__ import annotations

from cardsmith.compiler.check_exprs import ExpressionChecker
from cardsmith.compiler.check_types import article, compatible, show_number
from cardsmith.compiler.purity import nodes
from cardsmith.dsl import ir


class ValueChecker(ExpressionChecker):
    """Checks the declarations that hold values rather than rules."""

    def check_game_decl(self) -> None:
        g = self.game.game
        if g.players_min < 1 or g.players_max < g.players_min:
            self.error(g.span, "CS0301", f"player count {g.players_min}..{g.players_max} is empty")
        if g.first_player not in ("random", "choose", "seat1"):
            self.error(g.span, "CS0301", f"unknown first_player '{g.first_player}'",
                       "use random, choose or seat1")

    def check_params(self) -> None:
        """Each param's type and value: a value of the declared type, no param defined in
        terms of itself (directly, through other params or through functions)."""
        params = {p.name: p for p in self.game.params}
        functions = {f.name: f for f in self.game.functions if not f.native}
        deps: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for p in self.game.params:
            deps[("param", p.name)] = _references(p.value, params, functions, set())
        for f in functions.values():
            local = {q.name for q in f.params} | {n.name for n in nodes([f.body]) if isinstance(n, ir.Let)}
            deps[("function", f.name)] = _references([f.expr, f.body], params, functions, local)
        for p in self.game.params:
            path = _cycle(("param", p.name), deps)
            if path is not None:
                self.cyclic.add(p.name)
                through = " -> ".join(f"{kind} {name}" for kind, name in path)
                hint = ("a param cannot read its own value" if len(path) == 2 else
                        f"its value goes round: {through}") + "; give it a value of its own"
                self.error(p.value.span, "CS0301", f"param '{p.name}' is defined in terms of itself", hint)
        for p in self.game.params:
            self.check_type_name(p)
            self.check_param_value(p, p.value, f"param '{p.name}' is")

    def check_param_value(self, p: ir.ParamDecl, value: ir.Expr, what: str) -> None:
        actual = self.infer(value, self.base_scope())
        want = self.param_value_type(p.type)
        if not compatible(want, actual):
            self.error(value.span, "CS0301", f"{what} {article(actual)}, but it is declared {p.type}",
                       f"give {article(want)}, or declare the param's type as what it holds")

    def check_counter_bounds(self, c: ir.CounterDecl) -> None:
        low, high, start = self.constant(c.min), self.constant(c.max), self.constant(c.start)
        if low is not None and high is not None and low > high:
            assert c.max is not None
            self.error(c.max.span, "CS0301",
                       f"counter '{c.name}' has max {show_number(high)} below its min {show_number(low)}",
                       "min must not be greater than max")
            return
        if start is not None and ((low is not None and start < low) or (high is not None and start > high)):
            bounds = f"{show_number(low) if low is not None else ''}..{show_number(high) if high is not None else ''}"
            default = " (the default)" if c.start.span == c.span else ""
            self.error(c.start.span, "CS0301",
                       f"counter '{c.name}' starts at {show_number(start)}{default}, outside its bounds {bounds}",
                       "give a start between min and max")

    def check_enum(self, e: ir.EnumDecl) -> None:
        seen: dict[str, ir.EnumValue] = {}
        for v in e.values:
            if v.name in seen:
                self.error(v.span, "CS0201", f"enum '{e.name}' lists '{v.name}' twice")
            seen[v.name] = v
        if not e.values:
            self.error(e.span, "CS0204", f"enum '{e.name}' has no values")
            return
        keys = [set(v.properties) for v in e.values]
        all_keys = set().union(*keys)
        for v in e.values:
            missing = all_keys - set(v.properties)
            if missing:
                self.error(v.span, "CS0304", f"'{e.name}.{v.name}' does not give "
                           + ", ".join(sorted(missing)), "every value of an enum gives the same properties")
        for key in all_keys:
            kinds = {type(v.properties[key]).__name__ for v in e.values if key in v.properties}
            if len(kinds) > 1:
                self.error(e.span, "CS0304", f"enum '{e.name}' property '{key}' has values of different kinds")

    def check_board_cells(self, b: ir.BoardDecl) -> None:
        """Every cell a region names lies on its board: [0, 0] to [width - 1, height - 1]
        (a region off the board would name cells no card can stand on)."""
        if b.width < 1 or b.height < 1:
            return  # no size: reported where the board is built
        for region in b.regions:
            for rect in region.cells:
                corners = (rect.start,) if rect.start.x == rect.end.x and rect.start.y == rect.end.y else (
                    rect.start, rect.end)
                for cell in corners:
                    if not (0 <= cell.x < b.width and 0 <= cell.y < b.height):
                        self.error(cell.span, "CS0301",
                                   f"cell [{cell.x}, {cell.y}] of region '{region.name}' is outside board "
                                   f"'{b.name}' ({b.width} x {b.height})",
                                   f"its cells run from [0, 0] to [{b.width - 1}, {b.height - 1}]: "
                                   f"move the region, or make the board's size larger")


def _references(root: object, params: dict[str, ir.ParamDecl], functions: dict[str, ir.FunctionDecl],
                local: set[str]) -> list[tuple[str, str]]:
    """The params (by bare name, not shadowed by `local`) and game functions `root` reads."""
    out: list[tuple[str, str]] = []
    for node in nodes(root):
        if isinstance(node, ir.Ref) and node.name in params and node.name not in local:
            out.append(("param", node.name))
        elif isinstance(node, ir.Call) and node.func in functions:
            out.append(("function", node.func))
    return out


def _cycle(start: tuple[str, str], deps: dict[tuple[str, str], list[tuple[str, str]]]) -> \
        list[tuple[str, str]] | None:
    """A path start -> ... -> start through `deps`, or None (iterative depth-first search)."""
    stack: list[tuple[tuple[str, str], list[tuple[str, str]]]] = [(start, [start])]
    seen: set[tuple[str, str]] = set()
    while stack:
        node, path = stack.pop()
        for nxt in deps.get(node, []):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None
