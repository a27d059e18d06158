"""The study command: a balance study of a spec (a house rule) against the spec it changes.

In:  parsed arguments. Out: the key figures, the effects and the rules behind them as
     tables (or JSON on stdout); the games file, the figures and the report written in
     the --out folder; a progress bar on a terminal. The job is ``app.studying``.
"""
from __future__ import annotations

import json

from rulewright.app import studying, study_causes, study_report
from rulewright.cli.common import UsageError, _game_failed, _request
from rulewright.compiler.diagnostics import RulesError


def cmd_study(args) -> int:
    own: dict[str, str] = {}
    for item in args.seat or []:
        name, sep, bot = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--seat takes SEAT=BOT, e.g. --seat p1=greedy, not {item!r}")
        own[name.strip()] = bot.strip()
    sides, plan, reference = studying.set_up(
        _request(args), against=args.against, sweep=args.sweep, mode=args.mode, players=args.players,
        games=args.games, seed=args.seed, agent=args.agent, seats=own, skill=args.skill,
        skill_games=args.skill_games)
    program, players = sides[0].program, plan.players
    mode = program.modes[plan.mode]
    from rulewright.cli.tables import Bar, progress_wanted, table, write      # (rich: loaded to draw)
    try:
        with Bar("study", progress_wanted(args)) as bar:
            done = studying.conduct(sides, plan, out=args.out, resume=args.resume, workers=args.workers,
                                    report=not args.no_report, ray=args.ray, reference=reference,
                                    progress=bar.update)
    except RulesError as exc:
        return _game_failed(exc, f" under {sides[getattr(exc, 'run', 0) or 0].label}")
    if args.json:
        print(json.dumps(studying.study_data(done), indent=2, ensure_ascii=False))
        return 1 if done.study.stopped else 0
    study, figs = done.study, done.figures
    main = figs["sides"][0]["games"]
    head = (f"{program.title}: {mode.title or mode.name}, {players} player(s), {main} game(s) a rule set"
            + (f" and {figs['sides'][0]['skill']['n']} skill game(s)" if figs["sides"][0]["skill"].get("n") else "")
            + f", {study.seconds:.0f} s on {study.workers} process(es)"
            + (f" ({study.resumed} read back)" if study.resumed else ""))
    cols, shown, clear = study_report.key_table(study, figs)
    two = len(sides) == 2
    if two:
        cols, shown = cols + [""], [r + ["clear" if c else ""] for r, c in zip(shown, clear)]
    title = "Key figures (99% intervals)" + (
        f"; * differs from {sides[figs['reference']].name} by more than chance" if "reference" in figs else "")
    parts = [head, "", table(cols, shown, title=title)]
    if two:
        found = done.effects
        if found:
            parts += ["", table(["effect", "difference (99%)", "witness seed"],
                                [[e["what"], study_report.effect_text(e), str(e["witness"])] for e in found[:12]],
                                title="Clear effects, strongest first (replay a witness: see the report)")]
        else:
            parts += ["", "No difference more than chance in these games (more games narrow the intervals)."]
        changed = study_causes.lines(figs["differences"].get("changes", []))
        if changed:
            parts += ["", f"What {sides[0].name} says differently from {sides[1].name} (the rules behind its effects):"]
            parts += [f"  {line}" for line in changed]
    if done.written:
        parts += ["", "Written: " + ", ".join(done.written.values())]
    if study.stopped:
        parts += ["", f"Stopped: {len(study.records)} game(s) kept; --resume goes on from them."]
    write(*parts)
    return 1 if study.stopped else 0
