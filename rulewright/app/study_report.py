"""A balance study for people: its key figures as rows (the terminal's table and the
report's), and the report itself, a self-contained HTML page with its plots.

In:  a ``studying.Study`` and its ``study_figures.figures``.
Out: ``key_rows``: (figure, studied, compared with, difference with its 99% interval, clear)
     in words; ``effects``: the clear differences and the rules behind them, each with a
     witness game and the commands that replay it; ``report_html``: the page (plots drawn
     with matplotlib as inline SVG: no script, nothing fetched, a Content-Security-Policy
     that forbids both).
"""
from __future__ import annotations

import html
import io
import math
import re

from rulewright.app import study_causes
from rulewright.app.study_figures import key_figures

PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _num(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    text = f"{x:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _mean(f: dict) -> str:
    if f.get("mean") is None:
        return "-"
    ci = f.get("interval99")
    return _num(f["mean"]) + (f" ({_num(ci[0], 1)}..{_num(ci[1], 1)})" if ci and ci[0] != ci[1] else "")


def _share(f: dict) -> str:
    if f.get("value") is None:
        return "-"
    ci = f.get("interval99")
    return _pct(f["value"]) + (f" ({100 * ci[0]:.1f}..{100 * ci[1]:.1f})" if ci else "")


def _diff(d: dict | None, share: bool) -> str:
    """A difference and its 99% interval: shares in percentage points."""
    if not d or d.get("mean") is None:
        return "-"
    scale, unit = (100, " pts") if share else (1, "")
    ci = d.get("interval99")
    return (f"{scale * d['mean']:+.2f}".rstrip("0").rstrip(".") + unit
            + (f" ({scale * ci[0]:+.1f}..{scale * ci[1]:+.1f})" if ci and ci[0] != ci[1] else ""))


def key_rows(study, figs: dict) -> list[tuple[str, list[str], str, bool]]:
    """The study's key figures: (what, a cell for each rule set, the difference of two
    rule sets, clear). In a sweep (more than two rule sets) no difference column: a cell
    whose difference from the sweep's reference is clear ends with " *"."""
    sides = figs["sides"]
    diffs = figs.get("differences", {}).get("figures", {})
    sweep = {d["side"]: d["figures"] for d in figs.get("sweep", [])}
    players = study.plan.players
    rows = []

    def row(label, key, fmt, diff_key, share):
        cells = [fmt(key(s)) + (" *" if sweep.get(i, {}).get(diff_key, {}).get("clear") else "")
                 for i, s in enumerate(sides)]
        d = diffs.get(diff_key)
        rows.append((label, cells, _diff(d, share) if len(sides) == 2 else "", bool(d and d.get("clear"))))

    skill = sides[0]["skill"]
    labels = {"seat_wins": "wins from seat {seat} (fair: " + _pct(1 / players) + ")", "seat_score": "score of seat {seat}",
              "score": "score, every seat", "margin": "margin of victory", "ties": "games tied",
              "choices": "choices a game", "lead_changes": "lead changes",
              "half_leader_wins": "the leader at half time wins",
              "skill": f"skill: {skill.get('strong')} wins among {skill.get('weak')} (fair: {_pct(skill.get('fair'))})"}
    for figure, seat, share, pick, diff_key in key_figures(players, bool(skill.get("n"))):
        row(labels[figure].replace("{seat}", str(seat)), pick, _share if share else _mean, diff_key, share)
        if figure == "score":
            row("spread of the scores", lambda s: {"mean": s["score"].get("sd")}, _mean, None, False)
        elif figure == "choices":
            for name in sides[0]["checkpoints"]:
                row(f"{name} (checkpoints a game)", lambda s, n=name: s["checkpoints"].get(n, {}), _mean, None, False)
    return rows


def key_table(study, figs: dict, marked: bool = False) -> tuple[list[str], list[list[str]], list[bool]]:
    """The key figures as a table: the heading (figure, each rule set, the difference of
    two), the rows, and which rows differ clearly (``marked``: said in the difference's
    cell too, for a table with no colour)."""
    sides = study.sides
    two = len(sides) == 2
    head = ["figure", *(s.name for s in sides)] + (["difference (99%)"] if two else [])
    rows = key_rows(study, figs)
    cells = [[r[0], *r[1]] + ([r[2] + (" clear" if marked and r[3] else "")] if two else []) for r in rows]
    return head, cells, [r[3] for r in rows]


def effect_text(e: dict) -> str:
    """An effect's difference and interval, shares in percentage points."""
    return _diff(e, "wins" in e["what"] or e["what"] in ("ties", "skill"))


def replay(spec: str, plan, seed: int, strong: int | None = None, kind: str = "main") -> str:
    """The command that plays one game of the study again, with its log (``spec``: as a
    command names it, with its --set values)."""
    seats = dict(plan.seats)
    if kind == "skill":
        seats = {f"p{i + 1}": plan.strong if i == strong else plan.weak for i in range(plan.players)}
    bots = "".join(f" --seat {k}={v}" for k, v in sorted(seats.items()) if v != "random")
    return f"rulewright play {spec} --mode {plan.mode} --players {plan.players} --seed {seed}{bots} --log game.jsonl"


def effects(study, figs: dict) -> list[dict]:
    """The clear differences between the rule sets, then the rules that ran more or less
    often, each strongest first; each with the rules behind it (a figure's: the rule IDs of
    what the rules say differently, then of the rules that ran clearly more or less
    often; a rule's: itself), a witness game (its seed) and the commands that replay it
    under each rule set."""
    if "differences" not in figs:
        return []
    out = []
    spec, base = study.sides[0].command, study.sides[1].command
    # a figure's rules: what the rules say differently, then the rules run clearly more or less often
    changed = [i for c in figs["differences"].get("changes", []) for i in c["rule_ids"]]
    counted = [k for k, d in figs["differences"]["rules"].items() if d.get("clear")]
    behind = list(dict.fromkeys(changed + counted))
    found = [(what, d, behind) for what, d in figs["differences"]["figures"].items()]
    found += [(f"rule {k} runs a game", d, [k]) for k, d in figs["differences"]["rules"].items()]
    for what, d, rules in found:
        if not d.get("clear") or d.get("witness") is None:
            continue
        kind = "skill" if what == "skill" else "main"
        strong = (d["witness"] - study.plan.seed) % study.plan.players if kind == "skill" else None
        out.append({"what": what, "mean": d["mean"], "interval99": d["interval99"], "p": d["p"],
                    "witness": d["witness"], "rules": rules,
                    "play": replay(spec, study.plan, d["witness"], strong, kind),
                    "play_base": replay(base, study.plan, d["witness"], strong, kind)})
    out.sort(key=lambda e: (e["what"].startswith("rule "), e["p"]))        # the figures first, strongest first
    return out


# ------------------------------------------------------------------ options in words
def _chooses(body):
    """Every choice statement of a block, in its branches and loops too."""
    from rulewright.compiler import ir as I       # (the program's statements: once options are shown)
    for st in body or ():
        if isinstance(st, I.Choose):
            yield st
        for part in ("then", "other", "body"):
            inner = getattr(st, part, None)
            if isinstance(inner, list):
                yield from _chooses(inner)


def option_words(program):
    """``words(name)``: an option as a study names it (``k=hyena``, ``made>asia``) in
    words: the kind of the choice's options (its enum or record: ``card: hyena``), else the
    choice's name in words; a part of a list chosen is ``with`` it (``made with asia``)."""
    from rulewright.compiler.types import CollT, EnumT, RecordT      # (the same)
    kinds: dict[str, str] = {}
    for d in [*program.procedures.values(), *program.modes.values()]:
        for st in _chooses(d.body):
            t = st.coll.type.elem if st.domain == "element" and st.coll is not None and \
                isinstance(getattr(st.coll, "type", None), CollT) else st.type if st.domain == "value" else None
            kind = t.name if isinstance(t, (EnumT, RecordT)) else st.name
            if kinds.get(st.name, kind) != kind:
                kind = st.name          # (two choices of one name, of different kinds: the name)
            kinds[st.name] = kind

    def words(name: str) -> str:
        cut = min((i for i in (name.find("="), name.find(">")) if i >= 0), default=-1)
        if cut < 0:
            return name
        choice, mark, value = name[:cut], name[cut], name[cut + 1:]
        kind = kinds.get(choice, choice).replace("_", " ")
        return f"{kind}: {value.replace('_', ' ')}" if mark == "=" else f"{kind} with {value.replace('_', ' ')}"
    return words


# ------------------------------------------------------------------ the page
def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buf.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)      # (who drew it, when: nothing a reader needs)
    return text[text.index("<svg"):]


def _figure(width: float = 6.4, height: float = 3.2):
    import matplotlib               # (the report only: drawing loads matplotlib)
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "rulewright", "font.size": 9})
    from matplotlib.figure import Figure        # (no pyplot: no window, no global state)
    return Figure(figsize=(width, height))


COLOURS = ("#1f6fb4", "#d9822b", "#3a9d5d", "#b83a4b")


def plot_wins(study, figs) -> str:
    fig = _figure()
    ax = fig.subplots()
    players = study.plan.players
    width = 0.8 / len(figs["sides"])
    for k, (side, f) in enumerate(zip(study.sides, figs["sides"])):
        xs = [i + (k - (len(figs["sides"]) - 1) / 2) * width for i in range(players)]
        vals = [w["value"] or 0 for w in f["seat_wins"]]
        lo = [v - (w["interval99"] or [v, v])[0] for v, w in zip(vals, f["seat_wins"])]
        hi = [(w["interval99"] or [v, v])[1] - v for v, w in zip(vals, f["seat_wins"])]
        ax.bar(xs, vals, width, yerr=[lo, hi], capsize=3, label=side.name, color=COLOURS[k % len(COLOURS)])
    ax.axhline(1 / players, color="#555", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(players), [f"seat {i + 1}" for i in range(players)])
    ax.set_ylabel("share of games won")
    ax.set_title("Wins by seat, with 99% intervals")
    ax.legend(fontsize=8)
    return _svg(fig)


def _bins(values) -> list[float]:
    """Edges of at most 30 bins a whole number wide, centred on whole numbers (scores and
    lengths are whole: a bin never takes two values where its neighbour takes one)."""
    lo, hi = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((hi - lo + 1) / 30))
    return [lo - 0.5 + width * i for i in range((hi - lo) // width + 2)]


def plot_histograms(study, values_of, title: str, xlabel: str, ylabel: str = "games") -> str | None:
    """Histograms of a measure, one per rule set (None when every game gives one value)."""
    every = {v for k in range(len(study.sides)) for r in study.of(k).values() for v in values_of(r)}
    if len(every) < 2:
        return None
    fig = _figure()
    ax = fig.subplots()
    for k, side in enumerate(study.sides):
        values = [v for r in study.of(k).values() for v in values_of(r)]
        if values:
            ax.hist(values, bins=_bins(every), histtype="step", linewidth=1.6, label=side.name,
                    color=COLOURS[k % len(COLOURS)])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    return _svg(fig)


def plot_rules(figs) -> str | None:
    rules = figs.get("differences", {}).get("rules", {})
    shown = sorted(((k, d) for k, d in rules.items() if d.get("interval99") and d.get("p") is not None
                    and d["interval99"][0] != d["interval99"][1]),
                   key=lambda kd: kd[1]["p"])[:10]
    if not shown:
        return None
    fig = _figure(6.4, 0.4 + 0.3 * len(shown))
    ax = fig.subplots()
    ys = list(range(len(shown)))[::-1]
    means = [d["mean"] for _, d in shown]
    lo = [d["mean"] - d["interval99"][0] for _, d in shown]
    hi = [d["interval99"][1] - d["mean"] for _, d in shown]
    ax.barh(ys, means, xerr=[lo, hi], capsize=3,
            color=[COLOURS[0] if d["clear"] else "#aaa" for _, d in shown])
    ax.set_yticks(ys, [k for k, _ in shown])
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_title("Rules that run more (or less) often a game, 99% intervals (grey: not clear)")
    return _svg(fig)


def _table(head: list[str], rows: list[list[str]], marks: list[bool] | None = None) -> str:
    out = ["<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for i, r in enumerate(rows):
        cls = ' class="clear"' if marks and marks[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;
text-align:left}th{background:#f2f2f2}tr.clear td{background:#fff4d6}code{font-size:.85rem;
background:#f5f5f5;padding:.1rem .3rem}figure{margin:1rem 0}svg{max-width:100%;height:auto}.note{color:#555}"""


def report_html(study, figs: dict, title: str) -> str:
    """The report page (see the module docstring)."""
    esc = html.escape
    plan = study.plan
    sides = study.sides
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta http-equiv=\"Content-Security-Policy\" content=\"{PAGE_POLICY}\">"
             f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{esc(title)}</h1>"]
    main = figs["sides"][0]["games"]
    skill = figs["sides"][0]["skill"].get("n", 0)
    seats = ", ".join(f"{k} {v}" for k, v in plan.seats) or "every seat random"
    parts.append(f"<p>{esc(plan.mode)}, {plan.players} players; {main} games a rule set (seeds {plan.seed} to "
                 f"{plan.seed + max(main, 1) - 1}; {esc(seats)})"
                 + (f", and {skill} skill games ({esc(plan.strong)} against {esc(plan.weak)})" if skill else "")
                 + f"; {study.seconds:.0f} s on {study.workers} process(es)."
                 + (" <strong>Stopped early: a smaller study.</strong>" if study.stopped else "") + "</p>")
    two = len(sides) == 2
    head, rows, clear = key_table(study, figs)
    parts.append("<h2>Key figures</h2>")
    parts.append(_table(head, rows, clear))
    parts.append("<p class=\"note\">Intervals at 99%. " + (
        "A highlighted row differs by more than chance (its interval leaves out 0, kept by the Holm-Bonferroni "
        "method among all compared)." if two else
        f"A value marked * differs from {esc(sides[figs['reference']].name)}'s by more than chance."
        if "reference" in figs else "") + "</p>")
    parts.append("<figure>" + plot_wins(study, figs) + "</figure>")
    for svg in (plot_histograms(study, lambda r: r.m.scores, "Final scores, every seat", "score",
                                "seats (every game's)"),
                plot_histograms(study, lambda r: [r.m.choices], "Game length", "choices a game")):
        if svg is not None:
            parts.append("<figure>" + svg + "</figure>")
    found = effects(study, figs)
    if two:
        parts.append("<h2>Effects</h2>")
        if found:
            parts.append(_table(["effect", "difference (99%)", "rules behind it", "witness seed", "replay"],
                                [[e["what"], effect_text(e), " ".join(e["rules"]),
                                  str(e["witness"]), e["play"] + "  |  " + e["play_base"]] for e in found]))
        else:
            parts.append("<p>No difference more than chance in these games (more games narrow the intervals).</p>")
        changed = study_causes.lines(figs["differences"].get("changes", []))
        parts.append(f"<h2>What {esc(sides[0].name)} says differently from {esc(sides[1].name)}</h2>")
        parts.append("<ul>" + "".join(f"<li>{esc(line)}</li>" for line in changed) + "</ul>" if changed else
                     "<p>Nothing: the two rule sets have the same rules.</p>")
        parts.append("<p class=\"note\">An effect's rules: the rule IDs of what the rules say differently, then "
                     "those of the rules that ran clearly more or less often (counted as the games ran).</p>")
        rules_svg = plot_rules(figs)
        if rules_svg:
            parts.append("<figure>" + rules_svg + "</figure>")
    for k, (side, f) in enumerate(zip(sides, figs["sides"])):
        said = option_words(side.program)
        if f["options"]:
            parts.append(f"<h2>Options and wins: {esc(side.name)}</h2>")
            parts.append(_table(["option", "seats that took it", "their wins", "wins of the others",
                                 "difference (99%)"],
                                [[said(o["option"]), str(o["taken"]), _pct(o["wins_taken"]), _pct(o["wins_not_taken"]),
                                  _diff({"mean": o["difference"], "interval99": o["interval99"]}, True)]
                                 for o in f["options"]], [o["clear"] for o in f["options"]]))
    parts.append("<p class=\"note\">Options: the seats that took an option against those that did not, in the "
                 "same games; a winner's options are not always why it won (a hint, not a cause).</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


__all__ = ["PAGE_POLICY", "effect_text", "effects", "key_rows", "key_table", "option_words", "replay", "report_html"]
