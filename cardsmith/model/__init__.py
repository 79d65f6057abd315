"""The value model shared by every layer above it: what a value of the language is.

`values` is one semantics for numbers, ranges, dice, text, lists and their operators (the
checker's static evaluator, the generated code and the runtime all call it); `state` is the
table's objects those values name at play time — players, zones, cards, enum values.
Both sit below `dsl` and `compiler` because value semantics are defined over them; they
import nothing from cardsmith but each other.
"""
