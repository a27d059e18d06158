"""The measured effect of house rules, for their pages: a balance study of every house rule of
a folder that changed since it was measured, against its base game.

In:  the house rules to measure (file name, program, the base game's path and program), the
     games of each rule set, the skill games, ``progress(what, fraction)``.
Out: for each house rule, its effect as ``docs/rules/effects.json`` keeps it (what
     ``compiler.docgen.house`` draws):

     - ``mode``, ``players``, ``games``, ``skill_games``, ``strong``, ``weak``; ``base`` and
       ``house``: the fingerprints of both specs (an effect is current while both hold);
     - ``figures``: the study's key figures, each ``{figure, seat, share, base, house,
       difference, clear}`` (``base`` / ``house``: ``[value, low, high]`` with the 99% interval;
       ``difference``: house less base, game by game, ``[mean, low, high]``; ``seat`` 0 when
       the figure is of no one seat);
     - ``scores``: how many seats ended with each score, under each rule set;
     - ``rules``: the rules that ran clearly more or less often under the house rule (times
       a game under each, the difference with its interval), the largest first.

The house rules of one base game, mode and number of players are one study: the base game's
games are played once (the same seeds for every rule set), each house rule compared with them.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from rulewright.app import studying
from rulewright.app.study_figures import figures, key_figures

MOST_RULES = 8          # the rules most affected a page lists


def _triple(f: dict | None, share: bool) -> list | None:
    """``[value, low, high]`` of a figure (a share or a mean), None when it has no value."""
    if not f:
        return None
    value = f.get("value") if share else f.get("mean")
    if value is None:
        return None
    low, high = f.get("interval99") or (value, value)
    return [value, low, high]


def _rows(base: dict, house: dict, diffs: dict, players: int) -> list[dict]:
    rows = []
    for figure, seat, share, pick, diff_key in key_figures(players, bool(house["skill"].get("n"))):
        d = diffs.get(diff_key) if diff_key else None
        rows.append({"figure": figure, "seat": seat, "share": share, "base": _triple(pick(base), share),
                     "house": _triple(pick(house), share),
                     "difference": [d["mean"], *d["interval99"]] if d and d.get("interval99") else None,
                     "clear": bool(d and d.get("clear"))})
    return rows


def _scores(study, side: int) -> dict[str, int]:
    counts = Counter(int(round(x)) for r in study.of(side).values() for x in r.m.scores)
    return {str(k): n for k, n in sorted(counts.items())}


def effect_of(study, figs: dict, side: int, fingerprints: tuple[str, str]) -> dict:
    """The effect of the rule set ``side`` of ``study`` against its reference (the base game)."""
    ref, plan = study.reference, study.plan
    every = figs.get("sweep") or [{"side": 1 - ref, **figs["differences"]}]    # (one house rule: two rule sets)
    sweep = next(d for d in every if d["side"] == side)
    base, house = figs["sides"][ref], figs["sides"][side]
    rules = [{"rule": k, "base": base["rules"].get(k, 0), "house": house["rules"].get(k, 0),
              "difference": [d["mean"], *d["interval99"]]}
             for k, d in sweep["rules"].items() if d.get("clear") and d.get("interval99")]
    rules.sort(key=lambda r: (-abs(r["difference"][0]), r["rule"]))
    return {"mode": plan.mode, "players": plan.players, "games": plan.games, "skill_games": plan.skill_games,
            "strong": plan.strong, "weak": plan.weak, "base": fingerprints[0], "house": fingerprints[1],
            "figures": _rows(base, house, sweep["figures"], plan.players),
            "scores": {"base": _scores(study, ref), "house": _scores(study, side)},
            "rules": rules[:MOST_RULES]}


def measure(houses: list[tuple[str, object, str, object]], games: int, skill_games: int, mode_of,
            fingerprint, progress: Callable[[str, float], None] | None = None,
            workers: int | None = None) -> dict[str, dict]:
    """The effects of the house rules ``houses`` (file name, program, base path, base program):
    one study per base game, mode and number of players (``mode_of(house, base)``: the mode
    and players, None when they share none), on every core. File name -> effect."""
    groups: dict[tuple, list] = {}
    for name, program, base_path, base in houses:
        chosen = mode_of(program, base)
        if chosen is not None:
            groups.setdefault((base_path, *chosen), []).append((name, program, base))
    out: dict[str, dict] = {}
    for (base_path, mode, players), members in groups.items():
        base = members[0][2]
        sides = [studying.Side(name, program) for name, program, _ in members] + [studying.Side(base_path, base)]
        plan = studying.Plan(mode, players, games, 1, skill_games=skill_games)
        names = ", ".join(m[0] for m in members)

        def told(what: str, fraction: float, names=names) -> None:
            if progress is not None:
                progress(f"measuring {names}: {what}", fraction)
        study = studying.run_study(sides, plan, workers=workers, reference=len(members), progress=told)
        if study.stopped:
            raise KeyboardInterrupt
        figs = figures(study)
        for i, (name, program, _) in enumerate(members):
            out[name] = effect_of(study, figs, i, (fingerprint(base), fingerprint(program)))
    return out


__all__ = ["effect_of", "measure"]
