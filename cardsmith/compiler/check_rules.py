"""The game's rules: procedures, functions, setup, the flow's stages and actions.

Each is a body of statements in a scope of its parameters, plus what only that kind
of rule may get wrong (a native procedure outside the core prelude, a simultaneous
stage open to responses, an action's condition reading its choices).
"""

from __future__ import annotations

from cardsmith.compiler.check_stmts import StatementChecker
from cardsmith.compiler.check_types import NUMERIC
from cardsmith.compiler.purity import nodes
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean

# Actions the engine offers by itself: `activate` uses a card's activated abilities,
# `pass` ends the player's part in the stage.
ENGINE_ACTIONS = {"activate", "pass"}


class RuleChecker(StatementChecker):
    """Checks procedures, functions, setup blocks, stages and actions."""

    def check_procedure(self, p: ir.ProcedureDecl) -> None:
        scope = self.param_scope(p.params)
        if p.native and p.span.file != self.core_file:
            self.error(p.span, "CS0205", "only the core prelude declares native procedures",
                       "write a procedure with a body")
        self.block(p.body, scope)

    def check_function(self, f: ir.FunctionDecl) -> None:
        scope = self.param_scope(f.params)
        if f.native and f.span.file != self.core_file:
            self.error(f.span, "CS0204", f"function '{f.name}' needs '= expression' or a body")
        if f.expr is not None:
            self.infer(f.expr, scope)
        self.block(f.body, scope)

    def check_setup_owners(self, setup: ir.SetupDecl) -> None:
        """`create("Name", zone)` with no owner gives the card to whoever runs the rule —
        in setup, always the first player. Combat Cards made both players' Draw cards that
        way, and player2's drew for player1 (the first seat won 80% of random matches)."""
        for node in nodes(setup.body):
            if isinstance(node, ir.Call) and node.func == "create" and len(node.args) < 3:
                self.sink.warning(node.span, "CS0902", "in setup, a card created without an owner belongs to "
                                  "the first player", "give its owner: create(\"Name\", zone, p), or none")

    def check_flow(self, flow: ir.FlowDecl) -> None:
        seen: set[str] = set()
        for stage in flow.stages:
            if stage.name in seen:
                self.error(stage.span, "CS0201", f"stage '{stage.name}' is declared twice")
            seen.add(stage.name)
            self.check_stage(stage)

    def check_stage(self, stage: ir.StageDecl) -> None:
        self.block(stage.body, self.base_scope())
        if stage.simultaneous and stage.responses:
            self.error(stage.span, "CS0205", f"stage '{stage.name}' is both simultaneous and open to responses",
                       "in a simultaneous stage every player picks at once; responses need turns of priority")
        if stage.simultaneous and not stage.actions:
            self.error(stage.span, "CS0204", f"simultaneous stage '{stage.name}' lists no actions",
                       "write 'actions: ...': the actions every player picks from at once")
        if not stage.passing and not stage.actions:
            self.error(stage.span, "CS0204", f"stage '{stage.name}' forbids passing but lists no actions",
                       "write 'actions: ...', or remove 'pass: no'")
        if stage.skip is not None:
            self.expect_type(stage.skip, self.base_scope(), {"bool", "any"}, "a skip condition")
        for action in stage.actions:
            self.use("action", action)
            if action not in self.sym.actions and action not in ENGINE_ACTIONS:
                self.error(stage.span, "CS0202", f"stage '{stage.name}' allows unknown action '{action}'",
                           did_you_mean(action, self.sym.actions))
        for step in stage.steps:
            self.check_stage(step)

    def check_action(self, a: ir.ActionDecl) -> None:
        scope = self.base_scope()
        if a.limit is not None:
            self.expect_type(a.limit, scope, NUMERIC, "a limit")
        # The choices before the cost are the action's parameters: the condition and the
        # cost may read them (the engine checks the condition once per combination).
        body_scope = dict(scope)
        lead = ir.action_parameters(a.body)
        self.block(a.body[:lead], body_scope, share=True)
        if a.condition is not None:
            self.expect_type(a.condition, body_scope, {"bool", "any"}, "a condition")
        self.block(a.cost, body_scope, share=True)
        self.block(a.body[lead:], body_scope, share=True)
