"""An error inside a small definition written into its caller (``inline.Inliner``) is located
at that definition's rule, as the interpreter without the speed-ups locates it (the call
made there); an error in what the caller does with the value stays at the caller's."""
import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.interpret.codegen import fname

from helpers import spec

NESTED = """
game g "G"
record tile { size: int, next: int }
def part(t: tile) = t.size + 1
def twice(t: tile) = part(t) * 2
def whole(ts: list of tile) = sum(part(t) for t in ts)
def deeper(ts: list of tile) = sum(twice(t) + t.next for t in ts)
def chosen(t: tile, b: bool) = if b then part(t) else t.next + 1
def outside(t: tile) = size_of(t) * 2
def size_of(t: tile) = t.size
def after(t: tile) = 3 + size_of(t) - t.next
def via(t: tile) = part(t)
def via2(t: tile) = via(t)
def chained(ts: list of tile) = sum(via2(t) for t in ts)
def direct(t: tile) = via(t) + 1
"""


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    program = load(spec(tmp_path_factory.mktemp("written"), NESTED))
    return Interpreter(program), Interpreter(program, fast=False)


def _where(interp, name, *args) -> str:
    with pytest.raises(RuntimeRulesError) as caught:
        interp.call(name, *args)
    return str(caught.value).splitlines()[0]


@pytest.mark.parametrize("name, args, line", [
    ("whole", lambda r: ((r(size=1, next=1), r(size=None, next=1)),), 4),       # part, inside a loop
    ("deeper", lambda r: ((r(size=None, next=1),),), 4),                         # part inside twice inside a loop
    ("deeper", lambda r: ((r(size=1, next=None),),), 7),                         # the caller's own + after it
    ("chosen", lambda r: (r(size=None, next=1), True), 4),                       # part in a branch
    ("chosen", lambda r: (r(size=1, next=None), False), 8),                      # the caller's other branch
    ("outside", lambda r: (r(size=None, next=1),), 9),                           # none times 2: the caller's
    ("after", lambda r: (r(size=None, next=1),), 11),                            # 3 + none: the caller's
    ("chained", lambda r: ((r(size=None, next=1),),), 4),                        # via2 is via is part: part's
    ("direct", lambda r: (r(size=None, next=1),), 4),                            # via is part: part's
])
def test_an_error_is_located_where_the_interpreter_without_speed_ups_locates_it(both, name, args, line):
    fast, plain = both
    made = args(lambda **f: fast.record("tile", **f))
    said = _where(fast, name, *made)
    assert said == _where(plain, name, *made)
    assert f"t.rules:{line}:" in said, said


def test_the_bodies_are_written_in(both):
    """(so the test above tests the written-in code: a call left would be located anyway)"""
    fast, _ = both
    for caller, callee in (("whole", "part"), ("deeper", "part"), ("chosen", "part"), ("outside", "size_of"),
                           ("chained", "part"), ("chained", "via"), ("direct", "part")):
        assert f"{fname(callee)}(" not in fast._func_src[fname(caller)], (caller, fast._func_src[fname(caller)])
