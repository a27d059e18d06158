"""The limits of a constant folded before play: the value is held by the program (and its
cache), so it is kept within the limits a rule's values have at run time
(docs/security.md): a number within 64 bits, a text of at most ``runtime.MOST_TEXT``
characters, a collection of at most ``runtime.MOST_NUMBERS`` values (those inside its
values counted as often as they appear), a type nested at most as deep as an
expression (``parse.MOST_NESTING``).

In:  a folded value, the operands of an operator that writes them as text, a type.
Out: why a value is past the limits (message and hint, for an error at the expression
     that computes it: the resolver then leaves it unfolded, and what reads it too), an
     estimate of a text before it is built, how deep a type nests.
"""
from __future__ import annotations

from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import CollT, MapT, TupleT, Type

MOST_FOLDED_VALUES = rt.MOST_NUMBERS
TEXT_BUILDERS = ("text_concat", "join")       # operators that write their operands as text


def too_large(value) -> tuple[str, str] | None:
    """Why a folded value is past the limits (message, hint), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -rt.INT64 <= value < rt.INT64:
            return None
        return (f"this computes a number beyond 64 bits ({value.bit_length():,} bits)",
                "every number of a spec is within 64 bits (-9,223,372,036,854,775,808 to "
                "9,223,372,036,854,775,807): the definitions keep multiplying or adding a value")
    if isinstance(value, str):
        if len(value) <= rt.MOST_TEXT:
            return None
        return (f"this computes a text of {len(value):,} characters, more than the {rt.MOST_TEXT:,} a spec "
                "may hold", "the definitions keep adding a text to itself")
    if isinstance(value, (tuple, list, frozenset, set, dict)):
        n = _count_values(value, MOST_FOLDED_VALUES)
        if n <= MOST_FOLDED_VALUES:
            return None
        return (f"this computes a collection of more than {MOST_FOLDED_VALUES:,} values (those inside its "
                "values counted as often as they appear), more than a spec may build",
                "the definitions keep adding a collection to itself, or nest it in itself")
    return None


def type_depth(t: Type) -> int:
    """How deep a type nests (a list of lists of numbers: 3), counted without recursion."""
    deepest, todo = 0, [(t, 1)]
    while todo:
        t, depth = todo.pop()
        deepest = max(deepest, depth)
        if isinstance(t, CollT):
            todo.append((t.elem, depth + 1))
        elif isinstance(t, MapT):
            todo += [(t.key, depth + 1), (t.value, depth + 1)]
        elif isinstance(t, TupleT):
            todo += [(x, depth + 1) for x in t.items]
    return deepest


_SCALARS = frozenset({bool, int, float, str, type(None)})


def _count_values(value, most: int) -> int:
    """The values a collection holds, those inside its values counted each time they
    appear; the count stops past ``most`` (a collection may hold one value many times:
    each one is counted once, its count then reused)."""
    counted: dict[int, int] = {}
    keep = []           # (the values counted stay alive, so their ids stay theirs)

    def flat(x) -> int | None:
        """``len(x)`` when no item of ``x`` is a collection (one pass in C over its items'
        kinds: a folded range of millions of numbers), else None."""
        if set(map(type, x.values() if isinstance(x, dict) else x)) <= _SCALARS:
            counted[id(x)] = len(x)
            keep.append(x)
            return len(x)
        return None

    def count(v) -> int:
        if not isinstance(v, (tuple, list, frozenset, set, dict)) or not v:
            return 0
        if len(v) > most:
            return most + 1
        known = counted.get(id(v))
        if known is None:
            known = flat(v)
        if known is not None:
            return known
        # (depth first without recursion: a value nests as deep as its definitions go)
        stack = [(v, iter(v.values() if isinstance(v, dict) else v), len(v))]
        while stack:
            top, items, total = stack[-1]
            for x in items:
                if isinstance(x, (tuple, list, frozenset, set, dict)) and x:
                    inner = counted.get(id(x))
                    if inner is None and len(x) > most:
                        inner = most + 1
                    if inner is None and len(x) > 16:
                        inner = flat(x)
                    if inner is None:
                        stack.append((x, iter(x.values() if isinstance(x, dict) else x), len(x)))
                        break
                    total += inner
                    if total > most:
                        break
            else:
                stack.pop()
                counted[id(top)] = min(total, most + 1)
                keep.append(top)
                if stack:
                    parent, its, sofar = stack[-1]
                    stack[-1] = (parent, its, sofar + counted[id(top)])
                continue
            if total > most:
                return most + 1
            stack[-1] = (top, items, total)
        return counted[id(v)]
    return count(value)


def text_estimate(values, most: int) -> int:
    """About how many characters ``values`` make written as text (a text its length, any
    other value a few characters), counted until past ``most``: what an operator writing
    them as text would build."""
    total = 0
    todo = list(values)
    while todo and total <= most:
        v = todo.pop()
        if isinstance(v, str):
            total += len(v) + 2
        elif isinstance(v, (tuple, list, frozenset, set)):
            total += 2 * len(v)
            if total <= most:
                todo.extend(v)
        else:
            total += 8
    return total
