"""The tournament command: bots against each other, rated.

In:  parsed arguments. Out: the ratings and the matrix of who finished ahead of whom,
     as tables (or JSON on stdout); a progress bar on a terminal. The job is
     ``app.tournament``.
"""
from __future__ import annotations

import json

from rulewright.app import tournament
from rulewright.cli.common import _game_failed, _load, _pick_mode
from rulewright.compiler.diagnostics import RulesError


def cmd_tournament(args) -> int:
    bots = tournament.bots_named(args.bots, "--bots")
    program = _load(args.spec, args)
    mode = _pick_mode(program, args)
    players = args.players if args.players is not None else mode.min_players
    from rulewright.cli.tables import Bar, progress_wanted, table, write      # (rich: loaded to draw)
    try:
        with Bar("tournament", progress_wanted(args)) as bar:
            t = tournament.run_tournament(program, args.spec, mode, players, bots, args.games, args.seed,
                                          workers=args.workers, progress=bar.update)
    except RulesError as exc:
        return _game_failed(exc)
    if args.json:
        print(json.dumps(tournament.tournament_data(t), indent=2, ensure_ascii=False))
        return 0
    lines = tournament.tournament_lines(t)
    head = (f"{program.title}: {mode.title or mode.name}, {players} player(s), {len(t.results)} game(s) "
            f"(seeds {t.seeds[0]} to {t.seeds[-1]}), {t.seconds:.0f} s on {t.workers} process(es)")
    write(head, "",
          table(["bot", "rating", "95% interval", "seats", "wins (95% interval)", "longest move"],
                lines["ratings"], title="Ratings (Elo scale, random at 1500)" if "random" in bots
                else "Ratings (Elo scale, mean 1500)", right=(1, 3)),
          "",
          table(["ahead of:", *bots], lines["matrix"],
                title="How often the row's bot finished ahead of the column's (95% | 99% intervals)"),
          "", "A rating gap of 200 means about 3 to 1 odds of finishing ahead; intervals that overlap "
              "do not tell the bots apart.")
    return 0
