"""The study command: a balance study of a spec (a house rule) against the spec it changes.

In:  parsed arguments. Out: the key figures, the effects and the rules behind them as
     tables (or JSON on stdout); the games file, the figures and the report written in
     the --out folder; a progress bar on a terminal. The job is ``app.studying``.
"""
from __future__ import annotations

import json

from rulewright.app import playing, simulating, studying, study_report
from rulewright.cli.common import UsageError, _game_failed, _load, _overrides, _pick_mode, _request
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter


def _skill(text: str) -> tuple[str, str]:
    strong, sep, weak = text.partition(",")
    if not sep or not strong.strip() or not weak.strip():
        raise UsageError(f"--skill takes STRONG,WEAK (two bots), e.g. --skill greedy,random, not {text!r}")
    return strong.strip(), weak.strip()


def _sweep(text: str) -> tuple[str, list[str]]:
    name, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or len(items) < 2:
        raise UsageError(f"--sweep takes NAME=V1,V2,... (a switch or param and two values or more), "
                         f"e.g. --sweep hand_size=4,5,6, not {text!r}")
    if len(set(items)) < len(items):
        raise UsageError(f"--sweep {text}: a value is named twice")
    return name.strip(), items


def _swept(args, name: str, values: list[str]) -> list:
    """The rule sets of a sweep: the spec with each value of ``name``."""
    out = []
    for value in values:
        sets = {**_overrides(args.set), name: value}
        try:
            program = _load(args.spec, args, sets)
        except RulesError as exc:
            raise UsageError(f"--sweep {name}={value}: {exc.render().removeprefix('error: ').splitlines()[0]}") \
                from None
        out.append(studying.Side(args.spec, program, ((name, value),)))
    return out


def cmd_study(args) -> int:
    swept = _sweep(args.sweep) if args.sweep else None
    program = _load(args.spec, args)
    mode = _pick_mode(program, args)
    players = args.players if args.players is not None else mode.min_players
    sides = _swept(args, *swept) if swept else [studying.Side(args.spec, program)]
    if args.against:
        other = simulating.open_against(_request(args), args.against)
        simulating.check_against(program, other, mode, players, args.against, _request(args).spelling)
        sides.append(studying.Side(args.against, other))
    seats = Interpreter(program).seats_for(mode, players)
    own: dict[str, str] = {}
    for item in args.seat or []:
        name, sep, bot = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--seat takes SEAT=BOT, e.g. --seat p1=greedy, not {item!r}")
        own[name.strip()] = bot.strip()
    kinds = playing.seat_agents(seats, playing.Seating(args.agent, None, own), playing.COMMAND_LINE_WORDS)
    strong, weak = _skill(args.skill)
    plan = studying.Plan(mode.name, players, args.games, args.seed,
                         tuple(sorted((k, v) for k, v in kinds.items() if v != "random")), strong, weak,
                         args.skill_games)
    studying.check_bots(plan, [s.name for s in seats if s.kind == "player"])
    from rulewright.cli.tables import Bar, progress_wanted, table, write      # (rich: loaded to draw)
    try:
        with Bar("study", progress_wanted(args)) as bar:
            done = studying.conduct(sides, plan, out=args.out, resume=args.resume, workers=args.workers,
                                    report=not args.no_report, ray=args.ray,
                                    reference=len(sides) - 1 if swept and args.against else 0,
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
    rows = study_report.key_rows(study, figs)
    two = len(sides) == 2
    cols = ["figure", *(s.name for s in sides)] + (["difference (99%)", ""] if two else [])
    shown = [[r[0], *r[1]] + ([r[2], "clear" if r[3] else ""] if two else []) for r in rows]
    title = "Key figures (99% intervals)" + (
        f"; * differs from {sides[figs['reference']].name} by more than chance" if "reference" in figs else "")
    parts = [head, "", table(cols, shown, title=title)]
    if two:
        found = done.effects
        if found:
            parts += ["", table(["effect", "difference (99%)", "witness seed"],
                                [[e["what"], _effect(e), str(e["witness"])] for e in found[:12]],
                                title="Clear effects, strongest first (replay a witness: see the report)")]
        else:
            parts += ["", "No difference more than chance in these games (more games narrow the intervals)."]
    if done.written:
        parts += ["", "Written: " + ", ".join(done.written.values())]
    if study.stopped:
        parts += ["", f"Stopped: {len(study.records)} game(s) kept; --resume goes on from them."]
    write(*parts)
    return 1 if study.stopped else 0


def _effect(e: dict) -> str:
    share = "wins" in e["what"] or e["what"] in ("ties", "skill")
    return study_report._diff(e, share)
