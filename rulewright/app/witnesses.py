"""verify's witnesses for people: each finding's witness drawn (its grids as the docs draw
them, a position as text) and replayed (the seeded game a finding names, played again
as verify played it: its story and its end, or the error it reaches). The workbench's
Verify tab reads these; ``rulewright play SPEC --mode M --players N --seed S`` replays
the same game at the terminal.

In:  a finding (``solver/verify/findings.Finding``); a program, its spec, a mode, a
     number of players and a seed; a state file's path.
Out: ``drawn``: the witness as JSON-ready data (its lines, grids, position, game);
     ``replayed``: the game's story, its end and its error (located), as lines;
     ``shown``: a position's lines; ``narrative``: a game's notes as lines (what
     ``rulewright play`` prints).
"""
from __future__ import annotations

from typing import Any

from rulewright.app import playing
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics import render
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.semantics.render import score_lines, text_value


def narrative(state) -> list[str]:
    """A game's notes, its sections as headings: the story ``rulewright play`` prints."""
    lines: list[str] = []
    for ev in state.log:
        if ev.kind != "note":
            continue
        name, value = ev.detail["name"], ev.detail["value"]
        if ev.detail.get("heading"):
            sep = " " if isinstance(value, int) else ": "
            lines += ["", f"== {render.words(name).capitalize()}{sep}{render.text(value)} =="]
        else:
            lines += render.block(name, value)
    return lines


def reports(state) -> list[list[str]]:
    """What the mode reports at the end (each seat's result, the winners): a block of
    lines for each report."""
    out: list[list[str]] = []
    for name, value in state.reports.items():
        if isinstance(value, dict):
            block = [f"{render.words(name)}:"]
            for key, v in value.items():
                label = key.title if isinstance(key, rt.Seat) else str(key)
                if isinstance(v, rt.Score):
                    block += [f"  {label}", *score_lines(v, "    ")]
                else:
                    block.append(f"  {label}: {text_value(v)}")
        else:
            block = [f"{render.words(name)}: {text_value(value)}"]
        out.append(block)
    return out


def drawn(finding) -> dict[str, Any]:
    """The witness of a finding as data a page draws: its lines, its grids (rows of card
    names, None for an empty cell), the position it names (a state file's document), the
    seeded game it names (mode, players, seed)."""
    from rulewright.solver.verify.findings import witness_lines      # (with verify's findings)
    out: dict[str, Any] = {}
    w = finding.witness
    if w is not None:
        out["lines"] = witness_lines(w)
    grids = [{"name": suffix.strip(".-").removesuffix(".grid") or "grid", "rows": content}
             for suffix, kind, content in finding.witness_files if kind == "grid"]
    if grids:
        out["grids"] = grids
    positions = [content for _, kind, content in finding.witness_files if kind == "state"]
    if positions:
        out["position"] = positions[0]
    if isinstance(w, dict) and type(w.get("seed")) is int and isinstance(w.get("mode"), str) \
            and type(w.get("players")) is int:
        out["game"] = {"mode": w["mode"], "players": w["players"], "seed": w["seed"]}
    return out


def replayed(program, mode: str, players: int, seed: int) -> dict[str, Any]:
    """The seeded game played again with random seats (as verify plays its games): its
    story and its end, or the error of the rules it reaches, located."""
    interp = interpreter_for(program)
    if mode not in program.modes:
        return {"lines": [], "error": f"no mode '{mode}' in {program.title}"}
    try:
        state = playing.play_game(interp, mode, players, seed, None)
    except RulesError as exc:
        game = getattr(exc, "game", None)
        return {"lines": narrative(game) if game is not None else [], "error": exc.render()}
    return {"lines": narrative(state), "end": [line for block in reports(state) for line in block]}


def shown(program, spec: str, path: str) -> list[str]:
    """A position (a state file) as text: every pile, every seat."""
    from rulewright.app.opening import Request, open_position        # (state files: read when shown)
    from rulewright.compiler.play import state_io                      # (the same)
    warned: list[str] = []
    opened = open_position(Request(spec), path, program, warn=warned.append)
    return warned + state_io.show(opened.state)


__all__ = ["drawn", "narrative", "replayed", "reports", "shown"]
