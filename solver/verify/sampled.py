"""What seeded games show: every mode played N times with random seats, each game
watched for the guarantees the rules owe a game.

In:  a checked program, the number of games per mode, the first seed.
Out: findings of the kinds ``invariant`` (every invariant holds at every checkpoint
     and at the end), ``playable`` (every choice a seat must make has an option),
     ``terminates`` (every game ends within the step budget) and ``runtime`` (no game
     reaches an error of the rules: an empty ``first``, a draw from an empty pile...).
     A broken guarantee is a COUNTEREXAMPLE whose witness is the game itself (mode,
     players, seed: ``rulewright play`` replays it) and, for an invariant, the position
     that breaks it (a state file ``show`` reads); none broken in N games is SAMPLED.
"""
from __future__ import annotations

import time

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import RulesError, RuntimeRulesError, reason_of
from rulewright.compiler.interpret import Interpreter, locate
from rulewright.compiler.play import state_io
from rulewright.compiler.play.checks import broken_invariants
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.verify.findings import Finding

SAMPLED_KINDS = ("invariant", "playable", "terminates", "runtime")


def _kind_of(exc: Exception) -> str:
    """Which guarantee an error of a game breaks."""
    text = reason_of(exc)
    if isinstance(exc, rt.OutOfSteps) or "went round a million times" in text or "did not finish within" in text:
        return "terminates"
    if "no legal option" in text or "nothing to choose" in text or "no option" in text:
        return "playable"
    return "runtime"


def _players(mode: I.ModeDef) -> list[int]:
    """The player counts a mode is sampled with: its least and its most (once if equal)."""
    return sorted({mode.min_players, mode.max_players})


def sample(program: I.Program, games: int, kinds: set[str], seed: int = 1, progress=None) -> list[Finding]:
    interp = Interpreter(program)
    out: list[Finding] = []
    broken: dict[tuple[str, str], Finding] = {}     # (kind, definition) -> its first counterexample
    played: dict[str, int] = {}
    started = time.perf_counter()
    for mode in program.modes.values():
        for players in _players(mode):
            for s in range(seed, seed + games):
                if progress:
                    progress(f"game {mode.name} {players}p seed {s}")
                if _one_game(program, interp, mode, players, s, kinds, broken):
                    played[mode.name] = played.get(mode.name, 0) + 1     # (games that ended)
    seconds = time.perf_counter() - started
    out.extend(broken.values())
    for kind in SAMPLED_KINDS:
        if kind not in kinds:
            continue
        if kind == "invariant":
            names = [inv.name for inv in program.invariants.values()]
        else:
            names = list(program.modes)
        for name in names:
            if (kind, name) in broken:
                continue
            node = program.invariants[name].node if kind == "invariant" else program.modes[name].node
            n = sum(played.values()) if kind == "invariant" else played.get(name, 0)
            out.append(Finding(kind, definition=name, status="SAMPLED", severity="info", span=node.name_span,
                               rule_ids=tuple(t for t, _ in node.tags), seconds=seconds,
                               message=_sampled_words(kind, name, n), witness={"games": n, "first_seed": seed}))
    return out


def _sampled_words(kind: str, name: str, n: int) -> str:
    return {"invariant": f"invariant '{name}' held at every checkpoint of {n} seeded games (evidence, not proof)",
            "playable": f"in {n} seeded games of mode '{name}', every choice a seat had to make had an option",
            "terminates": f"all {n} seeded games of mode '{name}' ended within the step budget",
            "runtime": f"no rule failed to compute in {n} seeded games of mode '{name}'"}[kind]


def _one_game(program, interp, mode, players: int, seed: int, kinds: set[str], broken: dict) -> bool:
    """Play one game, recording what it breaks; whether it ended without an error."""
    found: list = []

    def watch(state, label: str):
        if "invariant" in kinds and not found:
            for b in broken_invariants(interp, state):
                found.append((b, label, state_io.dump(state, seed=seed)))
                return

    game = {"mode": mode.name, "players": players, "seed": seed}
    try:
        state = interp.play(mode.name, players, seed, watchers=[watch])
        watch(state, "end")
    except (RulesError, rt.OutOfSteps) as exc:
        if isinstance(exc, RuntimeRulesError):
            exc = locate(exc)
        kind = _kind_of(exc)
        if kind in kinds and (kind, mode.name) not in broken:
            span = exc.diagnostics[0].span if getattr(exc, "diagnostics", None) else mode.node.name_span
            broken[(kind, mode.name)] = Finding(
                kind, definition=mode.name, status="COUNTEREXAMPLE", severity="error", span=span,
                rule_ids=tuple(t for t, _ in mode.node.tags),
                message=f"a game of mode '{mode.name}' with {players} players (seed {seed}) "
                        + {"terminates": "does not end within the step budget",
                           "playable": "reaches a choice with no option",
                           "runtime": "reaches an error of the rules"}[kind] + f": {reason_of(exc)}",
                witness={**game, "replay": f"rulewright play SPEC --mode {mode.name} --players {players} "
                                           f"--seed {seed}"})
        return False
    if found and ("invariant", found[0][0].invariant.name) not in broken:
        b, label, doc = found[0]
        inv = b.invariant
        broken[("invariant", inv.name)] = Finding(
            "invariant", definition=inv.name, status="COUNTEREXAMPLE", severity="error", span=inv.node.name_span,
            rule_ids=tuple(t for t, _ in inv.node.tags),
            message=f"the rules reach a position that breaks invariant '{inv.name}' "
                    f"({'once the game is over' if label == 'end' else 'at checkpoint ' + label}, mode "
                    f"'{mode.name}', {players} players, seed {seed}): {b.message}",
            witness={**game, "checkpoint": label}, witness_files=[(".state.json", "state", doc)])
    return True
