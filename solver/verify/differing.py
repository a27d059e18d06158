"""The semantic side of ``diff``: for every definition a variant changes (and every one
downstream of a change) that both programs have, with parameters over their domains, an
input on which base and variant disagree, or a proof that none exists in the domain.

In:  the variant's and the base's checked programs, the time limit and workers of each
     question, positions sampled from the base game for what reads the state.
Out: findings of the kind ``differs``: PROVED differs (a witness replayed in both
     interpreters), PROVED the same, SAMPLED the same (on positions), or UNKNOWN.

Both programs are encoded into one CP-SAT model over the same choices. A definition whose
comparison the solver cannot express with its parameters as variables (a relation read
from a chosen cell) is compared once per value of such a parameter, each a question of
its own, within the same time limit.
"""
from __future__ import annotations

import contextvars
import dataclasses
import itertools
import time
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.variants import diffing
from rulewright.compiler.diagnostics import NotSupportedError, RulesError, reason_of
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.semantics.render import text_value
from rulewright.compiler.types import BOOL, INT, ScoreT, SeatT
from rulewright.solver.encode import Encoder
from rulewright.solver.encode.base import hashable
from rulewright.solver.solving import STATUS, limit, plan as solve_plan, read_value, solve_stoppably
from rulewright.solver.replay import ReplayError, ConcreteWalk
from rulewright.solver.symbolic import BoolV, CaseV, EnumV, IntV, SetV
from rulewright.solver.verify import kept
from rulewright.solver.verify.findings import Finding
from rulewright.solver.verify.inputs import differences
from rulewright.solver.verify.positions import positions as sample_positions
from rulewright.solver.verify.proofs import (_grid_files, _ids, _local, _params_domain, declared_domain,
                                            domain_words, reads_state)


def differs(variant: I.Program, base: I.Program, time_limit: float, workers: int, skip,
            progress=None, n_positions: int = 3, only: set[str] | None = None,
            asked: kept.Asked | None = None) -> list[Finding]:
    """The semantic side of ``diff``: for every definition a variant changes (and every one
    downstream of a change) that both programs have, with parameters over domains, an
    input on which base and variant disagree, or a proof that none exists in the domain.
    Both programs are encoded into one CP-SAT model over the same choices; a difference
    found is replayed through both interpreters before it is reported. ``asked``: the
    run's questions, answered from an earlier run where it kept them."""
    token = _ASKED.set(asked)
    try:
        return _differs(variant, base, time_limit, workers, skip, progress, n_positions, only)
    finally:
        _ASKED.reset(token)


def _differs(variant: I.Program, base: I.Program, time_limit: float, workers: int, skip,
             progress, n_positions: int, only: set[str] | None) -> list[Finding]:
    d = diffing.diff(base, variant)
    direct = [e.name for e in d.changed]
    names = direct + [x["name"] for x in d.downstream]
    variant, base = _with_steps(variant, base, direct)
    out: list[Finding] = []
    differing = 0
    compared = 0
    positions = None            # sampled when a definition that reads the state needs them
    files_of: dict[str, list] = {}
    same_everywhere: set[str] = set()     # direct changes proved the same on every value of their types
    played: list[str] = []                # direct changes no input shows (compared in whole games)
    for name in dict.fromkeys(names):
        if only is not None and name not in only:
            continue
        if name in direct and _same_once_folded(variant, base, name, set(names) - same_everywhere):
            node = (variant.funcs.get(name) or variant.scorings[name]).node    # (a step: ``_with_steps``)
            compared += 1
            same_everywhere.add(name)
            out.append(Finding("differs", definition=name, status="PROVED", severity="warning",
                               span=getattr(node, "name_span", None), rule_ids=_ids(node),
                               message=f"'{name}' is the base game's own once its constants are worked out "
                                       "and the operands that may come in any order are put in one (the same "
                                       "rule, written otherwise): this change changes nothing"))
            continue
        target = _comparable(variant, base, name)
        decided = _what_decides(variant, base, name) if target is None else None
        if target is None and decided is None:
            if name in direct:
                played.append(name)     # (no input shows it: compared in games)
            continue
        node = target[2] if target is not None else decided[1]
        if progress:
            progress(f"differs {name}")
        span = node.name_span
        if target is None and not (direct and set(direct) <= same_everywhere):
            if positions is None:
                positions = sample_positions(base, n_positions, time_limit=time_limit * solve_plan().outer)
            if not positions:
                skip("differs", name, "what decides the game is compared on positions of seeded games: "
                                      + ("none asked for (--positions 0)" if n_positions <= 0 else
                                         "the base game's seeded games reached no checkpoint to take one at"))
                continue
            out.append(_compared_on_positions(variant, base, name, *decided, positions))
            compared += 1
            differing += out[-1].status == "PROVED"
            continue
        if name not in direct and direct and set(direct) <= same_everywhere:
            # what reads only definitions equal on every input is equal: nothing to solve
            compared += 1
            out.append(Finding("differs", definition=name, status="PROVED", severity="info", span=span,
                               rule_ids=_ids(node),
                               message=f"'{name}' gives the same as the base game's for every input: it reads the "
                                       f"changes ({', '.join(direct)}) only through values proved the same on "
                                       "every input"))
            continue
        params, typ, _ = target
        owner = name.partition(".")[0] if _step_of(variant, name) is not None else name   # (whose domains)
        body = _params_domain(variant, params, span, skip, "differs", name, on_position=True, owner=owner)
        if body is None:
            continue
        stateful = any(reads_state(p, p.funcs[name].body) for p in (variant, base) if name in p.funcs) or \
            reads_state(variant, body)
        best_of = any(_best_of_choices(p, name) for p in (variant, base))
        alike = best_of and all(_choices_unchanged(p, name, set(names), set(direct)) for p in (variant, base))
        if not _same_enums(variant, base, params):
            skip("differs", name, "the variant changes the values of a parameter's type")
            if name in direct:
                played.append(name)
            continue
        if stateful and positions is None:
            positions = sample_positions(base, n_positions, time_limit=time_limit * solve_plan().outer)
        pairs = [(pos, pos.state_for(variant), pos.state_for(base)) for pos in positions] if stateful \
            else [(None, None, None)]
        pairs = [(pos, sv, sb) for pos, sv, sb in pairs if pos is None or (sv is not None and sb is not None)]
        if not pairs:
            skip("differs", name, "reads the game's state, and no position of the base game reads under both"
                                  + (" (--positions 0)" if n_positions <= 0 else
                                     "" if positions else ": its seeded games reached no checkpoint to take one at"))
            continue
        started = time.perf_counter()
        drawn = 0               # random inputs drawn (a difference the solver left open found so)
        try:
            status = "SAME"
            for pos, sv, sb in pairs:
                # a few random inputs first (a difference most inputs show costs no solving), then
                # the solver, then more random inputs if it leaves the question open
                status, witness, values, drawn = _drawn(variant, base, name, params, body, time_limit, sv, sb,
                                                        ("SAME", None, None), quick=True)
                if status != "DIFFERS":
                    status, witness, values = _compared(variant, base, name, params, typ, body, time_limit,
                                                        workers, sv, sb, best_of=best_of, alike=alike)
                    drawn = 0
                if status in ("UNKNOWN", "CANDIDATE"):
                    status, witness, values, drawn = _drawn(variant, base, name, params, body, time_limit,
                                                            sv, sb, (status, witness, values))
                if status != "SAME":
                    if pos is not None and witness is not None:
                        witness = {"position": pos.label, **witness}
                        files_of[name] = [(".state.json", "state", pos.doc)]
                    break
        except (NotSupportedError, RulesError) as exc:
            status, witness, values, drawn = _drawn(variant, base, name, params, body, time_limit, pairs[0][1],
                                                    pairs[0][2], ("UNKNOWN", None, None))
            if status != "DIFFERS":
                skip("differs", name, f"the solver cannot express it: {reason_of(exc)}"
                                      + (f" (and {drawn:,} random inputs showed no difference)" if drawn else ""))
                continue
            if pairs[0][0] is not None:
                witness = {"position": pairs[0][0].label, **witness}
                files_of[name] = [(".state.json", "state", pairs[0][0].doc)]
        seconds = time.perf_counter() - started
        compared += 1
        common = dict(definition=name, span=span, rule_ids=_ids(node), seconds=seconds)
        if status == "DIFFERS":
            differing += 1
            how = (f"found among {drawn:,} random inputs of the domain; replayed in both" if drawn
                   else "replayed in both")
            out.append(Finding("differs", status="PROVED", severity="info",
                               message=f"'{name}' differs from the base game's: base {text_value(values[1])}, "
                                       f"variant {text_value(values[0])} ({how})",
                               witness={**witness, "base": values[1], "variant": values[0]},
                               witness_files=_grid_files(witness) + files_of.get(name, []), **common))
        elif status == "SAME" and stateful:
            out.append(Finding("differs", status="SAMPLED", severity="info", witness={"positions": len(pairs)},
                               message=f"'{name}' gives the same as the base game's for every input at "
                                       f"{len(pairs)} sampled positions (evidence, not proof)", **common))
        elif status == "SAME":
            if name in direct and all(declared_domain(variant, t, owner) is None for _, t in params):
                same_everywhere.add(name)
            out.append(Finding("differs", status="PROVED", severity="warning" if name in direct else "info",
                               message=f"'{name}' gives the same as the base game's for every input "
                                       f"({domain_words(variant, params, owner)})"
                                       + (": this change changes nothing there" if name in direct else ""),
                               **common))
        elif status == "CANDIDATE":
            out.append(Finding("differs", status="UNKNOWN", severity="info", witness=witness,
                               message=f"'{name}' is the best of a choice made inside a scoring: an input on which "
                                       "one choice scores differently was found, but the best choices of base and "
                                       "variant score the same on it; no difference shown, none ruled out "
                                       "(simulate --against compares games)", out_of_time=False, **common))
        else:
            out.append(Finding("differs", status="UNKNOWN", severity="info",
                               message=f"'{name}': no difference found before the time limit, none ruled out",
                               **common))
    if played and (only is None or set(played) & only):
        if progress:
            progress("differs games")
        found = _compared_in_games(variant, base, played, time_limit * solve_plan().outer)
        if found is not None:
            out.append(found)
            compared += 1
            differing += found.status == "PROVED"
    if compared and not differing and not any(f.status in ("UNKNOWN", "SAMPLED") for f in out):
        head = variant.variants[-1] if variant.variants else None
        out.append(Finding("differs", definition=head.name if head else variant.name, status="PROVED",
                           severity="warning", span=head.span if head else None,
                           message="this variant changes nothing that could be compared: every definition it "
                                   "changes gives the base game's values on its whole domain"
                                   + (f" ({len(d.changed)} changed; games not compared: use simulate --against)"
                                      if d.changed else "")))
    return out


GAMES = 10         # seeded games per mode and player count that compare what no input shows


def _compared_in_games(variant: I.Program, base: I.Program, played: list[str], time_limit: float) -> Finding | None:
    """Changes that no input of a definition shows (a procedure or one of its steps, a mode,
    a setting, a definition whose inputs the variant changes), compared in whole games: the
    same seeded games (random seats, the same seeds) played under both rule sets, ``GAMES``
    for each mode both have at its least and its most players, and the reports each game
    ends with (scores, winners...) compared. A game that ends otherwise is a difference
    PROVED by the game itself (the seed replays it: ``rulewright play``); none is SAMPLED
    (the seats are random, the games few); the time limit running out first is UNKNOWN.
    None when no game could be played."""
    iv, ib = interpreter_for(variant), interpreter_for(base)
    head = variant.variants[-1] if variant.variants else None
    names = ", ".join(played)
    common = dict(definition=names, span=head.span if head else None, rule_ids=head.rule_ids if head else ())
    started = time.perf_counter()
    games = 0
    for mode, mv in variant.modes.items():
        mb = base.modes.get(mode)
        if mb is None:
            continue
        least, most = max(mv.min_players, mb.min_players), min(mv.max_players, mb.max_players)
        for players in sorted({least, most}) if least <= most else ():
            for seed in range(1, GAMES + 1):
                if time.perf_counter() - started > time_limit:
                    return Finding("differs", status="UNKNOWN", severity="info",
                                   seconds=time.perf_counter() - started,
                                   message=f"{games} seeded games ended alike under both rule sets before the time "
                                           f"limit ran out (compared in whole games since no input shows what "
                                           f"changed in {names})", **common)
                try:
                    a, b = iv.play(mode, players, seed), ib.play(mode, players, seed)
                except (RulesError, rt.OutOfSteps):
                    continue
                games += 1
                ends_a = {k: _ended(v) for k, v in a.reports.items()}
                ends_b = {k: _ended(v) for k, v in b.reports.items()}
                which = next((k for k in sorted(set(ends_a) | set(ends_b)) if ends_a.get(k) != ends_b.get(k)), None)
                if which is not None:
                    return Finding(
                        "differs", status="PROVED", severity="info", seconds=time.perf_counter() - started,
                        witness={"mode": mode, "players": players, "seed": seed, "report": which,
                                 "base": ends_b.get(which), "variant": ends_a.get(which)},
                        message=f"a seeded game ends otherwise under the variant: mode '{mode}', {players} "
                                f"players, seed {seed} (random seats): '{which}' is "
                                f"{ends_b.get(which, 'not reported')} under the base game and "
                                f"{ends_a.get(which, 'not reported')} under the variant (rulewright play --mode "
                                f"{mode} --players {players} --seed {seed} replays it under each; compared in whole "
                                f"games since no input shows what changed in {names})", **common)
    if not games:
        return None
    return Finding("differs", status="SAMPLED", severity="info", seconds=time.perf_counter() - started,
                   witness={"games": games},
                   message=f"{games} seeded games (random seats, the same seeds under both rule sets) end alike (compared "
                           f"in whole games since no input shows what changed in {names}; evidence, not proof: "
                           "simulate --against compares many games)",
                   **common)


def _ended(value) -> str:
    """A game's report as words: a value for each seat as "Player 1 2, Player 2 6"."""
    if isinstance(value, dict):
        return ", ".join(f"{text_value(k)} {text_value(v)}" for k, v in value.items())
    return text_value(value)


def _step_of(program: I.Program, name: str) -> I.StepDef | None:
    """The step ``owner.step`` of a scoring of ``program`` (None: no such step)."""
    owner, _, step = name.partition(".")
    sd = program.scorings.get(owner) if step else None
    return next((st for st in sd.steps if st.name == step), None) if sd is not None else None


def _with_steps(variant: I.Program, base: I.Program, direct: list[str]):
    """Both programs, where a scoring step the variant changes and both have (``points.tiles``)
    is also a definition of its own of that name: the points of that step, given the
    scoring's parameters. The smallest part that changed is then compared on its own (a
    step rewritten without changing its points is proved so, where the whole scoring is
    too large a question), and a difference found on it is one of the scoring's too."""
    steps = [n for n in direct if _step_of(variant, n) is not None and _step_of(base, n) is not None
             and n not in variant.funcs and n not in base.funcs
             and [t for _, t in variant.scorings[n.partition(".")[0]].params]
             == [t for _, t in base.scorings[n.partition(".")[0]].params]]
    if not steps:
        return variant, base

    def with_steps(program: I.Program) -> I.Program:
        funcs = dict(program.funcs)
        for name in steps:
            owner, _, step = name.partition(".")
            sd, st = program.scorings[owner], _step_of(program, name)
            span = st.node.name_span
            call = I.Call(ScoreT(owner), span, owner, [_local(q, t, span) for q, t in sd.params])
            funcs[name] = I.FuncDef(name, "def", list(sd.params), INT, I.Op(INT, span, "step_points", [call], step),
                                    st.node)
        return dataclasses.replace(program, funcs=funcs)
    return with_steps(variant), with_steps(base)


def _comparable(variant: I.Program, base: I.Program, name: str):
    """(params, type, node) of a rule, a definition of a number or a scoring both programs
    have with the same parameters; None otherwise."""
    for a, b in ((variant.funcs.get(name), base.funcs.get(name)), (variant.scorings.get(name), base.scorings.get(name))):
        if a is None or b is None:
            continue
        if [t for _, t in a.params] != [t for _, t in b.params] or not a.params:
            return None
        if isinstance(a, I.FuncDef):
            if a.kind not in ("rule", "def") or a.body is None or a.type not in (BOOL, INT) or a.type != b.type:
                return None
            return a.params, a.type, a.node
        return a.params, ScoreT(name), a.node
    return None


def _what_decides(variant: I.Program, base: I.Program, name: str):
    """(params, node) of what decides a game that both programs have alike in shape: the
    outcome (each seat's final score, with the rivals), or a definition of the position
    with no parameter or seats only (the winners); None otherwise."""
    a, b = variant.funcs.get(name), base.funcs.get(name)
    if a is None or b is None or a.body is None or [t for _, t in a.params] != [t for _, t in b.params]:
        return None
    if not all(isinstance(t, SeatT) for _, t in a.params):
        return None
    if a.kind == "outcome" or (a.kind in ("def", "rule") and reads_state(variant, a.body)
                               and (not a.params or a.type not in (BOOL, INT))):
        return a.params, a.node
    return None


def _compared_on_positions(variant, base, name: str, params, node, positions) -> Finding:
    """What decides a game compared on positions of seeded games of the base game, each
    interpreter computing its own value for every seat: a difference is PROVED (the
    position and the seats are the witness), none is SAMPLED."""
    common = dict(definition=name, span=node.name_span, rule_ids=_ids(node))
    iv, ib = interpreter_for(variant), interpreter_for(base)
    # (the outcome decides the game; other values of the position, the winners or the options
    # open to a seat, are said as what they are)
    what = "what decides the game" if variant.funcs[name].kind == "outcome" else \
        "a value of the position for each seat" if params else "a value of the position"
    seen = 0
    for pos in positions:
        sv, sb = pos.state_for(variant), pos.state_for(base)
        if sv is None or sb is None:
            continue
        for seats in itertools.product(sv.players, repeat=len(params)):
            try:
                a = _concrete(iv, name, list(seats), sv)
                b = _concrete(ib, name, [sb.seats[x.index] for x in seats], sb)
            except RulesError:
                continue
            seen += 1
            if text_value(a) != text_value(b):
                witness = {"position": pos.label, **{p: x.name for (p, _), x in zip(params, seats)},
                           "base": b, "variant": a}
                return Finding("differs", status="PROVED", severity="info", witness=witness,
                               witness_files=[(".state.json", "state", pos.doc)],
                               message=f"'{name}' ({what}) differs from the base game's at "
                                       f"{pos.label}: base {text_value(b)}, variant {text_value(a)} "
                                       "(each interpreter's own value)", **common)
    if not seen:
        return Finding("differs", status="UNKNOWN", severity="info",
                       message=f"'{name}' ({what}): no sampled position reads under both rule sets",
                       out_of_time=False, **common)
    return Finding("differs", status="SAMPLED", severity="info", witness={"positions": len(positions)},
                   message=f"'{name}' ({what}) is the base game's at {len(positions)} sampled "
                           "positions" + (", for every seat" if params else "") + " (evidence, not proof: "
                           "simulate --against compares whole games)", **common)


def _reached(program: I.Program, name: str):
    """(definition or scoring, the IR it holds) for ``name`` and everything it calls, itself first."""
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        roots: list = []
        if n in program.scorings:
            roots = [st for step in program.scorings[n].steps for st in step.body]
        elif n in program.funcs and program.funcs[n].body is not None:
            roots = [program.funcs[n].body]
        yield n, roots
        todo += [x.name for x in I.descendants(roots) if isinstance(x, (I.Call, I.Global))]


def _best_of_choices(program: I.Program, name: str) -> bool:
    """Whether a definition's value is (or reads) a scoring with choices of its own."""
    return any(_has_choices(program, n) for n, _ in _reached(program, name))


def _choices_unchanged(program: I.Program, name: str, changed: set[str], direct: set[str]) -> bool:
    """Whether every choice made inside the scorings ``name`` reaches has options that read
    nothing the variant changes (``changed``: what it changes and what that affects), sits in
    no changed step, and is made by calls no definition the variant rewrites (``direct``)
    makes: the same choices, with the same options, on both sides."""
    for n, roots in _reached(program, name):
        for step in program.scorings[n].steps if n in program.scorings else ():
            chooses = [st for st in I.statements(step.body) if isinstance(st, I.Choose)]
            if chooses and f"{n}.{step.name}" in changed:
                return False
            for st in chooses:
                reads = {x.name for x in I.descendants([st]) if isinstance(x, (I.Call, I.Global))}
                if reads & changed:
                    return False
        called = [x.name for x in I.descendants(roots) if isinstance(x, I.Call)]
        if n in direct and any(_has_choices(program, c) for c in called):
            return False        # a changed definition may call a scoring on other inputs than the base
    return True


def _has_choices(program: I.Program, name: str) -> bool:
    sd = program.scorings.get(name)
    return sd is not None and any(isinstance(st, I.Choose) for step in sd.steps for st in I.statements(step.body))


def _same_enums(variant: I.Program, base: I.Program, params) -> bool:
    for e in variant.enums:
        if e in base.enums and variant.enums[e].values != base.enums[e].values:
            return False
    return True


def _tie(model, a, b) -> bool:
    """Constrain two encodings of the same choice to the same value, where their forms allow
    (False: they could not be tied)."""
    if isinstance(a, (int, IntV)) and isinstance(b, (int, IntV)):
        model.add((a if isinstance(a, int) else a.expr()) == (b if isinstance(b, int) else b.expr()))
    elif isinstance(a, (EnumV, SetV)) and isinstance(b, (EnumV, SetV)) and type(a) is type(b):
        la, lb = (a.lits, b.lits) if isinstance(a, EnumV) else (a.members, b.members)
        for k in set(la) | set(lb):
            x, y = la.get(k, False), lb.get(k, False)
            if isinstance(x, bool) and isinstance(y, bool):
                if x != y:
                    model.add_bool_or([])          # the two cannot choose alike
            elif isinstance(x, bool) or isinstance(y, bool):
                lit, val = (y, x) if isinstance(x, bool) else (x, y)
                model.add_bool_and([lit if val else lit.Not()])
            else:
                model.add(x == y)
    elif isinstance(a, BoolV) and isinstance(b, BoolV):
        model.add(a.lit == b.lit)
    elif isinstance(a, CaseV) and isinstance(b, CaseV):
        la = {hashable(v): lit for lit, v in a.cases}
        lb = {hashable(v): lit for lit, v in b.cases}
        if set(la) == set(lb):
            for k, lit in la.items():
                if not isinstance(lit, bool) and not isinstance(lb[k], bool):
                    model.add(lit == lb[k])
        else:
            return False
    else:
        return False
    return True


MOST_DRAWING = 5.0      # seconds of random inputs tried at most, once the solver leaves a question open


def _drawn(variant, base, name, params, body, time_limit: float, state_v, state_b, answer: tuple,
           quick: bool = False):
    """``answer`` (status, witness, values) and the number of random inputs drawn, after
    drawing members of the domain through both interpreters (``inputs.differences``): a
    difference found is the answer, DIFFERS; else the answer as it was. ``quick``: a
    glance (200 inputs, half a second at most) before the solver is asked."""
    seconds = min(0.5, time_limit / 10) if quick else min(MOST_DRAWING, max(1.0, time_limit / 2))
    # under a deterministic plan (verify's own, and the tests') the number of inputs is the
    # bound, so that a busy machine draws the same inputs and finds the same difference:
    # the clock only stops a machine ten times slower than one that draws them in time
    clock = seconds * (10 if solve_plan().deterministic else 1)
    witness, values, drawn = differences(variant, base, name, params, body, clock, state_v, state_b,
                                         most=200 if quick else 5_000)
    if witness is not None:
        return "DIFFERS", witness, values, drawn
    return (*answer, drawn)


def _same_once_folded(variant: I.Program, base: I.Program, name: str, unsettled: set[str]) -> bool:
    """Whether a definition, scoring or scoring step a variant changes is the base's, node
    for node, once the resolver has worked out its constant parts (``{2: 2 * 2}`` is ``{2:
    4}``) and the operands of operators whose order changes nothing are put in one order
    (``_shape``), with the same parameters, and reading no definition whose sameness is not
    settled: then it gives the same value on every input, a proof that needs no solver. A
    scoring is compared step by step (names, order, layers and bodies); a step
    (``points.tiles``) by its body, in a scoring of the same steps and layers."""
    owner, _, step = name.partition(".")
    if step:
        a, b = variant.scorings.get(owner), base.scorings.get(owner)
        if a is None or b is None:
            return False
        mine, theirs = _step_of(variant, name), _step_of(base, name)
        if mine is None or theirs is None:
            return False
        pairs = [(a, b, [mine.body], [theirs.body])]
    else:
        pairs = [(a, b, getattr(a, "body", None), getattr(b, "body", None))
                 for a, b in ((variant.funcs.get(name), base.funcs.get(name)),
                              (variant.scorings.get(name), base.scorings.get(name)))
                 if a is not None and b is not None]
        pairs = [(a, b, [st.body for st in a.steps], [st.body for st in b.steps])
                 if isinstance(a, I.ScoringDef) else (a, b, body_a, body_b) for a, b, body_a, body_b in pairs]
    for a, b, body_a, body_b in pairs[:1]:
        if [t for _, t in a.params] != [t for _, t in b.params] or getattr(a, "type", None) != getattr(b, "type", None):
            return False
        if isinstance(a, I.ScoringDef) and (a.layers != b.layers or [st.name for st in a.steps] !=
                                             [st.name for st in b.steps]):
            return False
        if body_a is None or body_b is None:
            return False
        renames = {p: q for (p, _), (q, _) in zip(a.params, b.params)}
        called = set()
        if _shape(body_a, renames, called) != _shape(body_b, {}, set()):
            return False
        return not (called & unsettled)
    return False


_NOT_MEANING = {"span", "name_span", "node", "doc", "title", "message", "rule_ids", "tags"}

# operators whose operands may come in any order (both are always evaluated, and neither
# can change what the other gives), those of them whose chains may be regrouped, and the
# comparisons read the other way round; never `and` and `or`, whose left side may guard
# the right (`size(xs) > 0 and first(xs) == k`)
_COMMUTATIVE = {"eq", "ne", "add", "mul", "min2", "max2", "multiset_eq", "same"}
_ASSOCIATIVE = {"add", "mul", "min2", "max2"}
_FLIPPED = {"gt": "lt", "ge": "le"}


def _shape(x, renames: dict[str, str], called: set[str]):
    """An IR node as nested tuples of what decides its value (no places, no doc comments),
    the parameters of ``renames`` named as the other side names them; the definitions it
    calls or reads are added to ``called``. Operands whose order changes nothing are sorted (``a +
    b`` and ``b + a`` have one shape, so do ``(a + b) + c`` and ``a + (b + c)``), and ``a >
    b`` is ``b < a``."""
    if isinstance(x, (list, tuple)):
        return tuple(_shape(v, renames, called) for v in x)
    if isinstance(x, I.Op):
        op, args = _FLIPPED.get(x.op, x.op), list(x.args)
        if x.op in _FLIPPED:
            args.reverse()
        if op in _ASSOCIATIVE:
            flat, todo = [], args
            while todo:
                e, todo = todo[0], todo[1:]
                if isinstance(e, I.Op) and e.op == op and e.data == x.data:
                    todo = list(e.args) + todo
                else:
                    flat.append(e)
            args = flat
        shapes = [_shape(a, renames, called) for a in args]
        if op in _COMMUTATIVE:
            shapes.sort(key=repr)
        return ("Op", op, kept.value_shape(x.type), kept.value_shape(x.data), tuple(shapes))
    if isinstance(x, (I.Expr, I.Stmt, I.Binder)):
        if isinstance(x, (I.Call, I.Global)):     # (a definition without parameters is read as a global)
            called.add(x.name)
        out = [type(x).__name__]
        for f in dataclasses.fields(x):
            if f.name in _NOT_MEANING:
                continue
            value = getattr(x, f.name)
            if isinstance(x, I.Local) and f.name == "name":
                value = renames.get(value, value)
            out.append((f.name, _shape(value, renames, called)))
        return tuple(out)
    return kept.value_shape(x)


MOST_SPLIT = 256       # values of a parameter compared one by one at most


def _compared(variant, base, name, params, typ, body, time_limit: float, workers: int, state_v=None,
              state_b=None, **how):
    """``_disagreement``; when the solver cannot express the comparison with the parameters
    as variables (a relation read from a cell chosen among many), the first parameter chosen
    from a known collection is fixed to each of its values in turn, each a question of its
    own (and split further where still needed), all within ``time_limit``: a difference on
    any value is the answer; the same on every value is a proof; a value not settled in time
    leaves it UNKNOWN (the other values are still searched for a difference)."""
    try:
        return _disagreement(variant, base, name, params, typ, body, time_limit, workers, state_v, state_b,
                             **how)
    except NotSupportedError:
        at = next((i for i, st in enumerate(body) if isinstance(st, I.Choose) and st.domain == "element"
                   and isinstance(st.coll, I.Const) and st.where is None
                   and 1 < len(rt.as_tuple(st.coll.value)) <= MOST_SPLIT), None)
        if at is None:
            raise
    st = body[at]
    values = rt.as_tuple(st.coll.value)
    deadline = time.perf_counter() + time_limit
    outcome: tuple = ("SAME", None, None)
    for i, v in enumerate(values):
        left = deadline - time.perf_counter()
        if left <= 0:
            return ("UNKNOWN", None, None)
        fixed = body[:at] + [I.Let(st.span, st.name, I.Const(st.coll.type.elem, st.span, v))] + body[at + 1:]
        answer = _compared(variant, base, name, params, typ, fixed, left / (len(values) - i), workers,
                           state_v, state_b, **how)
        if answer[0] == "DIFFERS":
            return answer
        if answer[0] != "SAME" and outcome[0] == "SAME":
            outcome = answer
    return outcome


# the questions of the run of verify under way (``kept.Asked``: answers kept between runs)
_ASKED: contextvars.ContextVar = contextvars.ContextVar("differs_asked", default=None)


def _disagreement(variant, base, name, params, typ, body, time_limit: float, workers: int,
                  state_v=None, state_b=None, best_of: bool = False, tied: bool = True, alike: bool = False):
    """``_disagreement_solved``'s answer, or the one an earlier run kept for the same question
    (the same definitions on both sides, inputs, positions, limits and plan)."""
    def solve():
        return _disagreement_solved(variant, base, name, params, typ, body, time_limit, workers, state_v,
                                    state_b, best_of, tied, alike)
    asked = _ASKED.get()
    if asked is None:
        return solve()
    call = I.Call(typ, body[0].span if body else None, name, [_local(p, t, None) for p, t in params])
    mine = kept.keys_of(variant).key([*body, call], state_v, time_limit, workers)
    theirs = kept.keys_of(base).key([call], state_b, time_limit, workers)
    key = None if mine is None or theirs is None else \
        f"differs\0{mine}\0{theirs}\0{best_of} {tied} {alike}"
    return asked.answer(key, solve, time_limit)


def _disagreement_solved(variant, base, name, params, typ, body, time_limit: float, workers: int,
                         state_v=None, state_b=None, best_of: bool = False, tied: bool = True,
                         alike: bool = False):
    """('DIFFERS', witness, (variant value, base value)) | ('SAME', None, None) | ('UNKNOWN', ...).
    ``best_of``: the value is the best of choices made inside a scoring. Both scorings are asked
    first with their choices alike (``tied``), then free: no input and no choices on which the
    totals differ proves them the same; a candidate is replayed, the interpreters choosing the
    best on each side, and ('CANDIDATE', witness, values) when the bests agree on it. ``alike``:
    the choices have the same options on both sides (nothing they read changed), so totals equal
    under every common choice are bests equal too: no difference with tied choices proves them
    the same."""
    model = cp_model.CpModel()
    ev, eb = Encoder(variant, model, state=state_v), Encoder(base, model, state=state_b)
    for enc, prog in ((ev, variant), (eb, base)):
        if enc.state is not None:           # as a query on a position is built (solver.build)
            enc.interp = interpreter_for(prog)
            enc.product_terms = 2
            enc.relaxation = False
    ev.SPLIT_MAX = 0            # every choice one decision (a split would bind it on its own paths only)
    env: dict[str, Any] = {}
    span = body[0].span
    ev.run_block(body, env, True, {})
    args = [_local(p, t, span) for p, t in params]
    a = ev.encode(I.Call(typ, span, name, args), env)
    b = eb.encode(I.Call(typ, span, name, args), env)
    if typ == BOOL:
        la, lb = ev.lit(a, span), eb.lit(b, span)
        if isinstance(la, bool) and isinstance(lb, bool):
            return ("SAME", None, None) if la == lb else ("DIFFERS", {}, (la, lb))
        x, y = ev.intv(ev.boolv(la) if not isinstance(la, bool) else int(la)), \
            eb.intv(eb.boolv(lb) if not isinstance(lb, bool) else int(lb))
    else:
        x, y = ev.intv(a), eb.intv(b)
    if isinstance(x, int) and isinstance(y, int):
        return ("SAME", None, None) if x == y else ("DIFFERS", {}, (x, y))
    model.add((x if isinstance(x, int) else x.expr()) != (y if isinstance(y, int) else y.expr()))
    if best_of and tied:
        # the choices made inside scorings, in the order each side encoded them
        ca = [c for c in ev.choices if c.scoring is not None]
        cb = [c for c in eb.choices if c.scoring is not None]
        same_shape = [(c.scoring, c.name) for c in ca] == [(c.scoring, c.name) for c in cb]
        ties = [_tie(model, x.value, y.value) for x, y in zip(ca, cb)] if same_shape else [False]
        alike = alike and all(ties)
    ev.add_pair_marginals()
    eb.add_pair_marginals()
    solver = cp_model.CpSolver()
    limit(solver, time_limit)
    solver.parameters.num_workers = int(workers)
    code, _ = solve_stoppably(solver, model)
    status = STATUS.get(code, "UNKNOWN")
    if status == "INFEASIBLE" and best_of and tied and not alike:
        return _disagreement(variant, base, name, params, typ, body, time_limit, workers, state_v, state_b,
                             best_of=True, tied=False)
    if status == "INFEASIBLE":
        return "SAME", None, None
    if status not in ("OPTIMAL", "FEASIBLE"):
        return "UNKNOWN", None, None
    chosen = {c.name: read_value(solver, c.value) for c in ev.choices}
    walk = ConcreteWalk(interpreter_for(variant), {}, chosen, None, state_v)
    concrete: dict[str, Any] = {}
    walk.block([st for st in body if isinstance(st, (I.Choose, I.Let))], concrete)
    witness = {p: concrete[p] for p, _ in params}
    values = tuple(_concrete(interpreter_for(p), name, [witness[q] for q, _ in params], st)
                   for p, st in ((variant, state_v), (base, state_b)))
    if values[0] == values[1] and best_of:
        return "CANDIDATE", witness, values
    if values[0] == values[1]:
        raise ReplayError(f"replay: the solver finds '{name}' differs on {witness}, the interpreters agree "
                          f"({values[0]})", span)
    return "DIFFERS", witness, values


def _concrete(interp, name: str, args: list, state=None):
    v = interp.call(name, *args, state=state)
    return int(v) if isinstance(v, rt.Score) else v
