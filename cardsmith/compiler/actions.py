"""What the IR proves about an action, so probing for legal moves can do less.

Legal moves are found by running each action up to its payment once per combination of
its parameters (engine/flow.py). When an action's parameters are one-of choices and its
condition and cost do not read them, whether it is legal cannot depend on the answer to
its last choice: one run with the first option decides for every option.
"""

from __future__ import annotations

from cardsmith.compiler.purity import nodes
from cardsmith.dsl import ir
from cardsmith.dsl.words import EVERY_DETERMINERS


def option_blind_parameters(action: ir.ActionDecl) -> int | None:
    """The number of parameters of an action whose legality does not depend on the
    answer to its last choice, or None. That holds when every parameter is a one-of
    `choose` (no `let`, no count, no other chooser), there is no `limit`, and neither
    the condition nor the cost names a parameter."""
    lead = ir.action_parameters(action.body)
    params = action.body[:lead]
    if action.limit is not None or not params:
        return None
    names = set()
    for stmt in params:
        if not isinstance(stmt, ir.Choose) or stmt.count.n is not None or stmt.count.mode != "one" \
                or stmt.by is not None:
            return None
        names.add(stmt.var)
    for node in nodes([action.condition, action.cost]):
        if isinstance(node, ir.Ref) and node.name in names:
            return None
        if isinstance(node, ir.Choose | ir.ChooseOne | ir.Roll):
            return None  # a cost that asks or rolls: keep trying each option
        if isinstance(node, ir.Query) and node.det not in EVERY_DETERMINERS:
            return None  # (a `target` / `random` query asks or rolls too)
    return lead
