"""``Interpreter.evaluate`` on expressions made for one question and dropped: the code it
keeps for a node is never another node's (a node's id is only its own while it lives, and
verify builds a range's domain anew for every definition it ranges)."""
from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import Span
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.types import BOOL, INT

from helpers import savanna

AT = Span("<test>", 1, 1, 1, 2)


def test_an_expression_dropped_and_another_made_in_its_place_gets_its_own_code():
    interp = Interpreter(savanna()[0])
    for n in range(300):
        if n % 2:       # a sum, then a comparison: a node of another kind may reuse the id
            e = I.Op(INT, AT, "add", [I.Const(INT, AT, n), I.Const(INT, AT, 1)])
            assert interp.evaluate(e, {}) == n + 1
        else:
            e = I.Op(BOOL, AT, "lt", [I.Const(INT, AT, n), I.Const(INT, AT, 0)])
            assert interp.evaluate(e, {}) is False
        del e
