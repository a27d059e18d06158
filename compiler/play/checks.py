"""The spec's ``check`` definitions, run whenever a spec is loaded.

In:  a resolved ``ir.Program`` (its tables possibly read from a player's own files).
Out: nothing when every check holds; otherwise a ``ResolveError`` with one
     diagnostic per failure. A check over the rows of a table reports each failing
     row at its own line (in the spec, or in the player's CSV file), with the check's
     message, the values that made it fail, and where the check is written.

Checks are evaluated by the interpreter like any definition; they may read tables,
switches, params and definitions, never the state of a game.

Invariants (``broken_invariants``) are written like checks but state facts of every
position of a game: they read the state, and are evaluated on a position (one read
from a file, or one the rules reach).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.diagnostics import (Diagnostic, DiagnosticBag, ResolveError, RulesError, RuntimeRulesError, Span, reason_of,
                          source_line)
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.types import BOOL


def _where(program: I.Program, item: Any) -> Span | None:
    """Where a table row or enum value is defined, when the item is one."""
    if isinstance(item, str):
        enum = program.enum_of_value.get(item)
        if enum is not None:
            return program.enums[enum].spans.get(item)
    return None


def _values(interp, chk: I.CheckDef, env: dict) -> str | None:
    if chk.sides is None:
        return None
    left, op, right = chk.sides
    lv, rv = interp.evaluate(left, env), interp.evaluate(right, env)
    shown = [("none" if v is None else render.text(v)) for v in (lv, rv)]
    return f"found {shown[0]}, needs {op} {shown[1]}"


def _shown(v: Any) -> str:
    return "none" if v is None else render.text(v)


class MessageError(RulesError):
    """A ``{...}`` part of a check's or invariant's message fails to compute where its
    condition does not hold: an error of the spec, at that part."""


def _message(interp, chk: I.CheckDef, env: dict, state=None) -> tuple[str, bool]:
    """The check's message with its ``{...}`` parts computed, and whether it has any
    (then it says what it needs to, and the automatic details are left out)."""
    kind = "invariant" if isinstance(chk.node, A.Invariant) else "check"
    parts = []
    for p in chk.message:
        if isinstance(p, str):
            parts.append(p)
            continue
        try:
            parts.append(_shown(interp.evaluate(p, env, state=state)))
        except Exception as exc:                      # noqa: BLE001 (any failure of the rules)
            reason = reason_of(exc)
            raise MessageError(Diagnostic(p.span, f"the message of {kind} '{chk.name}' cannot be computed "
                                                  f"where its condition fails: {reason}",
                                          "an error of the spec: the message reads a value that this case "
                                          "does not have")) from None
    return "".join(parts), any(not isinstance(p, str) for p in chk.message)


# What one case of a check costs against the step budget: a few evaluations, each
# worth about as much time as a loop of the generated code going over twenty values.
_STEPS_PER_CASE = 20


def run_checks(program: I.Program) -> None:
    if not program.checks:
        return
    interp = Interpreter(program)
    bag = DiagnosticBag()
    for chk in program.checks.values():
        node = chk.node
        try:
            with rt.bounded(f"the check '{chk.name}'"):
                _run_check(program, interp, chk, bag)
        except (MessageError, rt.OutOfSteps) as exc:
            bag.items.extend(exc.diagnostics)
        except RulesError as exc:
            bag.error(node.name_span, f"check '{chk.name}' cannot be evaluated: {exc.diagnostics[0].message}")
        except Exception as exc:                                   # noqa: BLE001 (a check reads the state)
            bag.error(node.name_span, f"check '{chk.name}' cannot be evaluated before play ({exc})",
                      "a check may read tables, switches, params and definitions, not the game state")
    bag.raise_if_any(ResolveError)


def _run_check(program: I.Program, interp, chk: I.CheckDef, bag: DiagnosticBag) -> None:
    """One check over its domain: each case that breaks it is an error in ``bag``."""
    node = chk.node
    at = f"check '{chk.name}' at {node.name_span.file}:{node.name_span.line}"
    if chk.var is None:
        if not interp.evaluate(chk.cond, {}):
            text, own = _message(interp, chk, {})
            values = None if own else _values(interp, chk, {})
            text += f": {values}" if values else ""
            theirs = _own_files(program, chk)
            if theirs:
                # a player's own table breaks it: the error is that file's,
                # with the check as a note
                bag.error(_first_line(theirs[0]), text,
                          "mend your table: the game's checks hold for it as for the game's own",
                          notes=((node.name_span, f"the check '{chk.name}'"
                                  + (f" [{' '.join(node.rule_ids)}]" if node.rule_ids else "")),))
            else:
                added = _rows_of_variants(program, chk)
                more = (f"a variant that adds, changes or removes rows can override check "
                        f"{chk.name} to say what the whole table holds with them") if added else None
                hint = "; ".join(h for h in (_source_hint(program, chk), more) if h) or None
                notes = [(r.span, f"a row a variant {what}") for r, what in added[:3]]
                if len(added) > 3:
                    notes[-1] = (added[2][0].span, f"a row a variant {added[2][1]} "
                                                   f"(and {len(added) - 3} more)")
                bag.error(node.name_span, text, hint, notes=tuple(notes))
        return
    for item in interp.evaluate(chk.domain, {}):
        rt.charge(_STEPS_PER_CASE, chk.domain.span)
        env = {chk.var: item}
        if chk.filter is not None and not interp.evaluate(chk.filter, env):
            continue
        if interp.evaluate(chk.cond, env):
            continue
        text, own = _message(interp, chk, env)
        span = _where(program, item)
        if own:
            message = text
        else:
            values = _values(interp, chk, env)
            message = f"{text}: {render.text(item)}" + (f" ({values})" if values else "")
        if span is None:
            bag.error(node.name_span, message)
        else:
            bag.error(span, message, at)


def _source_hint(program: I.Program, chk: I.CheckDef) -> str | None:
    """For a whole-table check: which table files it was computed from."""
    read = _tables_read(program, chk.name)
    files = [f"{t} from {f}" for t, f in program.table_files.items() if t in read]
    return "computed over " + ", ".join(files) if files else None


def _rows_of_variants(program: I.Program, chk: I.CheckDef) -> list:
    """(row, 'adds', 'changes' or 'removes') for the rows variants add to, change in
    or take away from the tables a whole-table check reads."""
    read = _tables_read(program, chk.name, files_only=False)
    return [(r, what) for t in sorted(read)
            for what, part in (("adds", "added"), ("changes", "edits"), ("removes", "removed"))
            for r in getattr(program.definitions.get(t), part, ())]


def _own_files(program: I.Program, chk: I.CheckDef) -> list[str]:
    """The player's own table files a whole-table check was computed over."""
    read = _tables_read(program, chk.name)
    return [f for t, f in program.own_tables.items() if t in read]


def _first_line(path: str) -> Span:
    """The first line of a file (a table's header), as a span."""
    return Span(path, 1, 1, 1, max(2, len(source_line(path, 1) or "") + 1))


def _tables_read(program: I.Program, start: str, files_only: bool = True) -> set[str]:
    """Tables a definition reads (those read from files, or all of them), following
    the definitions it reads."""
    return _reached(program, start, lambda dst: dst in program.table_files or
                    (not files_only and dst in program.enums))


def _reached(program: I.Program, start: str, stop) -> set[str]:
    """What a definition reads, following the definitions it reads (the rules graph's
    reads edges): the names ``stop`` keeps, which are not followed further."""
    seen, todo, found = {start}, [start], set()
    while todo:
        name = todo.pop()
        for src, dst, _, _ in program.reads:
            if src != name or dst in seen:
                continue
            seen.add(dst)
            if stop(dst):
                found.add(dst)
            else:
                todo.append(dst)
    return found


# ------------------------------------------------------------------ invariants
@dataclass
class Broken:
    """An invariant a position breaks: the invariant, what it says (with the element
    that breaks it, when it runs over a collection), and where in a state document
    the fault most likely lies (candidate paths, the most precise first)."""
    invariant: I.CheckDef
    message: str
    paths: list[tuple] = field(default_factory=list)
    unevaluable: bool = False       # its condition could not be evaluated on the position
    # the element that breaks it, when the invariant runs over a collection that is not
    # state (every card of a table): where no path locates, the file is searched for it,
    # within the entries of the state variables the invariant reads (``within``)
    item: Any = None
    within: tuple = ()


def broken_invariants(interp, state, only=None) -> list[Broken]:
    """Every invariant of the program the position ``state`` breaks (of those ``only``
    keeps, when given), in the order they are written. An invariant that cannot even
    be evaluated on the position (a value it reads is missing) counts as broken, with
    the reason."""
    program = interp.program
    out: list[Broken] = []
    if only is None and _all_hold(interp, state):
        return out          # (the common case, in one evaluation: what they read is computed once)
    with interp.unchanged(state):       # (element by element, what they read still computed once)
        for inv in program.invariants.values():
            if only is not None and not only(inv):
                continue
            out.extend(_broken(interp, inv, state))
    return out


def _broken(interp, inv: I.CheckDef, state) -> list[Broken]:
    """How the position breaks one invariant: once, or at each element that breaks it."""
    program = interp.program
    out: list[Broken] = []
    try:
        if _holds(interp, inv, state):
            return out
        if inv.var is None:
            if not interp.evaluate(inv.cond, {}, state=state):
                text, own = _message(interp, inv, {}, state)
                values = None if own else _values(interp, inv, {})
                failing = _failing_part(interp, inv.cond, {}, state)
                out.append(Broken(inv, text + (f": {values}" if values else ""),
                                  _var_paths(program, failing, None, None,
                                             evaluate=lambda e: interp.evaluate(e, {}, state=state))))
            return out
        domain_path = _state_path(program, inv.domain)
        for i, item in enumerate(interp.evaluate(inv.domain, {}, state=state)):
            env = {inv.var: item}
            if inv.filter is not None and not interp.evaluate(inv.filter, env, state=state):
                continue
            if interp.evaluate(inv.cond, env, state=state):
                continue
            text, own = _message(interp, inv, env, state)
            if not own:
                values = _values(interp, inv, env)
                text = f"{text}: {render.text(item)}" + (f" ({values})" if values else "")
            failing = _failing_part(interp, inv.cond, env, state)
            paths = _var_paths(program, failing, inv.var, item, domain_path and domain_path + (i,),
                               evaluate=lambda e, env=env: interp.evaluate(e, env, state=state))
            out.append(Broken(inv, text, paths, item=None if domain_path else item,
                              within=() if domain_path else _sections_read(program, inv)))
    except MessageError:
        raise
    except Exception as exc:                     # noqa: BLE001 (a value the invariant reads is missing)
        reason = reason_of(exc)
        out.append(Broken(inv, f"cannot be checked on this position ({reason}): "
                               + "".join(p if isinstance(p, str) else "…" for p in inv.message).strip(),
                          _var_paths(program, inv.domain or inv.cond, None, None), unevaluable=True))
    return out


def _whole(interp, inv: I.CheckDef) -> I.Expr:
    """The invariant's condition over all its elements (``all(cond for var in domain if
    filter)``), kept by the interpreter (its compiled form is keyed by the expression)."""
    kept = interp.__dict__.setdefault("_invariants_whole", {})
    cond = kept.get(inv.name)
    if cond is None:
        cond = kept[inv.name] = inv.cond if inv.var is None else I.Agg(
            BOOL, inv.cond.span, "all", inv.cond, [I.Binder(inv.var, inv.domain, inv.filter, inv.cond.span)])
    return cond


def _holds(interp, inv: I.CheckDef, state) -> bool:
    """Whether the invariant holds on the position, evaluated in one go (the definitions
    it calls remember their values across its elements); one that cannot be evaluated
    does not hold."""
    try:
        return bool(interp.evaluate(_whole(interp, inv), {}, state=state))
    except Exception:                     # noqa: BLE001 (looked at element by element)
        return False


def _all_hold(interp, state) -> bool:
    """Whether every invariant holds on the position: one evaluation of them all (what
    they read is computed once), none that fails to compute."""
    fns = [interp.compiled(_whole(interp, inv), ()) for inv in interp.program.invariants.values()]
    interp.use(state)
    try:
        with rt.bounded("the invariants"):
            return all(fn() for fn in fns)
    except Exception:                     # noqa: BLE001 (looked at one by one)
        return False


def _failing_part(interp, cond: I.Expr, env: dict, state) -> I.Expr:
    """The conjunct of ``a and b and ...`` that is false (the first), where the fault
    of a position is looked for."""
    while isinstance(cond, I.Op) and cond.op == "and":
        left = cond.args[0]
        cond = left if not interp.evaluate(left, env, state=state) else cond.args[1]
    return cond


def _sections_read(program: I.Program, inv: I.CheckDef) -> tuple:
    """The entries of a state document (``("per_seat", "hand")``...) of the state
    variables an invariant reads, through the definitions it calls."""
    read = _reached(program, inv.name, lambda dst: dst in program.state)
    return tuple(sorted(("per_seat" if v.per_seat else "per_key" if v.keyed else "state", v.name)
                        for v in (program.state[n] for n in read)))


def invariant_note(inv: I.CheckDef, more: str = "") -> tuple:
    """The note of a warning an invariant written with "else warn" gives: the
    invariant, which the positions the rules reach satisfy."""
    node = inv.node
    tags = f" [{' '.join(node.rule_ids)}]" if node.rule_ids else ""
    return node.name_span, f"a position reached in play satisfies the invariant '{inv.name}'{tags}{more}"


def _state_path(program: I.Program, e: I.Expr | None) -> tuple | None:
    """The path in a state document of a shared state variable read whole."""
    if type(e) is I.Global and e.name in program.state and not program.state[e.name].keyed:
        return ("state", e.name)
    return None


def _var_paths(program: I.Program, e: I.Expr | None, var: str | None, item: Any,
               item_path: tuple | None = None, evaluate=None) -> list[tuple]:
    """The entries of a state document an expression reads, most precise first: keyed
    state at its key (``owner_of(k)``, ``owner_of(t.place)``: the key computed by
    ``evaluate`` where it can be, else the element ``item`` bound to ``var``), the
    fields of that element (``t.place``, when it comes from a state variable at
    ``item_path``), the element itself, then shared state read whole."""
    keyed, fields, whole = [], [], []

    def walk(x):
        if isinstance(x, I.SeatVar):
            var_def = program.state.get(x.name)
            key = _NO_KEY
            if var_def is not None and evaluate is not None:
                try:
                    key = evaluate(x.seat)
                except Exception:                  # noqa: BLE001 (a key that cannot be computed here)
                    key = _NO_KEY
            if key is _NO_KEY and var_def is not None and type(x.seat) is I.Local and x.seat.name == var:
                key = item
            if key is not _NO_KEY and key is not None:
                keyed.append(("per_seat" if var_def.per_seat else "per_key", x.name, getattr(key, "name", key)))
        if isinstance(x, I.Op) and x.op == "field" and item_path is not None and \
                type(x.args[0]) is I.Local and x.args[0].name == var:
            fields.append(item_path + (str(x.data)[2:],))
        path = _state_path(program, x) if isinstance(x, I.Expr) else None
        if path is not None:
            whole.append(path)
        for child in I.parts(x):
            walk(child)

    walk(e)
    return keyed + fields + ([item_path] if item_path else []) + whole


_NO_KEY = object()


def invariant_watcher(interp):
    """A watcher for ``Interpreter.play``: at every checkpoint (and, called with the
    label ``end``, once the game is over) the position the rules reached must satisfy
    every invariant; otherwise the rules and an invariant disagree, reported at the
    invariant as a ``RuntimeRulesError``. A game played on from a position does not
    check the invariants that position broke (``state.excused``)."""
    def watch(state, label: str):
        # a game played on from a position: what that position already broke (warned of
        # when it was read) is the position's, not the rules'
        excused = getattr(state, "excused", ())
        broken = [b for b in broken_invariants(interp, state) if b.invariant.name not in excused]
        if broken:
            b = broken[0]
            where = "once the game is over" if label == "end" else f"at checkpoint {label}"
            if b.unevaluable:      # a position the rules reached: the invariant is at fault
                raise RuntimeRulesError(Diagnostic(
                    b.invariant.node.name_span,
                    f"{where} this invariant cannot be evaluated on the position the rules reached: "
                    + b.message.removeprefix("cannot be checked on this position "),
                    "an error of the spec: the invariant reads a value the rules leave undefined here, "
                    f"or fails to compute (with this seed, at checkpoint {label})"))
            raise RuntimeRulesError(Diagnostic(
                b.invariant.node.name_span,
                f"{where} the rules reached a position that breaks this invariant: {b.message}",
                "the rules allow a position the invariant excludes: one of the two is wrong "
                f"(with this seed, the game reaches that position at checkpoint {label})" if label != "end" else
                "the rules allow a position the invariant excludes: one of the two is wrong"))
    return watch
