"""The Python API's results of the jobs of many games and of the checks: ``Simulation``,
``Study``, ``Tournament``, ``Verification``, ``Diff``, ``Examples`` (made by ``Game``'s
methods, rulewright/api.py). Each has a readable ``repr``, ``to_json()`` where its
command has ``--json``, and draws itself as HTML in a notebook.

In:  what an application job returned. Out: its values, as the command line shows them.
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING

from rulewright.app import examples as examples_job, playing, simulating, studying, tournament as tourney, verifying
from rulewright.app.faces import PYTHON

if TYPE_CHECKING:
    from rulewright.api import Game


def _table(head: list[str], rows: list[list[str]], title: str = "") -> str:
    """An HTML table of text cells (each escaped), under an optional title."""
    th = "".join(f"<th style='text-align:left;padding:2px 8px'>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    caption = f"<caption style='text-align:left'><b>{html.escape(title)}</b></caption>" if title else ""
    return f"<table>{caption}<tr>{th}</tr>{body}</table>"


def _text_table(head: list[str], rows: list[list[str]]) -> str:
    """A table in plain text, its columns aligned."""
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows])


class Simulation:
    """Many seeded games summed up (``Game.simulate``, as ``rulewright simulate``): each
    report's aggregate (a seat's mean score with its 95% interval, a seat's share of
    wins with its interval), and with ``against``, the other spec's and the difference
    game by game (paired by seed)."""

    def __init__(self, game: "Game", simulated, seating: playing.Seating | None = None,
                 start_path: str | None = None):
        self.game, self._sim = game, simulated
        self._seating = seating or playing.Seating()
        self._start_path = start_path

    @property
    def agents(self) -> dict[str, dict]:
        """Each solver seat's doings summed over the games (``asked``, ``answered``,
        ``from_answers``, ``at_random``); empty with random agents."""
        return dict(self._sim.mine.solver_agents)

    @property
    def games(self) -> int:
        return len(self._sim.seeds)

    @property
    def seeds(self) -> list[int]:
        return list(self._sim.seeds)

    @property
    def reports(self) -> dict[str, dict]:
        """Each report's aggregate, seats by name (as ``simulate --json`` gives it)."""
        return simulating.summary_data(self._sim.mine.summary)

    @property
    def against(self) -> dict[str, dict] | None:
        """The other spec's aggregates, when compared against one."""
        return simulating.summary_data(self._sim.theirs.summary) if self._sim.theirs else None

    @property
    def differences(self) -> dict[str, dict]:
        """Report -> seat -> this spec's less the other's, game by game: ``mean``,
        ``ci95``, ``clear`` (the interval leaves out 0)."""
        return simulating.differences_data(self._sim.differences())

    def to_json(self) -> dict:
        return simulating.simulation_data(self._sim, self._seating.agent, self._start_path)

    def _head(self) -> str:
        sim, seating = self._sim, self._seating
        who = "random agents" if seating.agent == "random" else \
            f"{seating.agent} agents ({','.join(seating.seats) if seating.seats else 'every player'})"
        who += "".join(f", {seat} {kind}" for seat, kind in seating.own.items())
        head = (f"{sim.mine.program.title}: {sim.mode.title or sim.mode.name}, {sim.players} player(s), "
                f"{self.games} game(s) (seeds {sim.seeds[0]}..{sim.seeds[-1]}), {who}")
        if sim.start is not None:
            head += f"\nfrom {self._start_path or 'the position'}: each game plays on from there"
        return head + (f"\nagainst {sim.theirs.program.title} ({sim.theirs.spec}), the same seeds" if sim.theirs else "")

    def __repr__(self) -> str:
        theirs = self._sim.theirs.summary if self._sim.theirs else None
        return "\n".join([self._head(), ""] + simulating.summary_lines(self._sim.mine.summary, theirs, PYTHON))

    def _repr_html_(self) -> str:
        sim = self._sim
        theirs = sim.theirs.summary if sim.theirs else None
        head = ["", "this spec"] + (["against", "difference"] if theirs else [])
        tables = []
        for name, what, rows in simulating.report_rows(sim.mine.summary, theirs, sim.differences()):
            cells = [list(r[:4] if theirs else r[:2]) for r in rows]
            tables.append(_table(head, cells, f"{name.replace('_', ' ')}: {what}"))
        return (f"<div><pre>{html.escape(self._head())}</pre>{''.join(tables)}"
                "<p>±: half of a 95% confidence interval.</p></div>")


class Study:
    """A balance study (``Game.study``, as ``rulewright study``): each rule set's figures
    with their 99% intervals, the differences, the effects with their witness games, the
    files written (``written``); ``to_json()`` is what ``study --json`` prints."""

    def __init__(self, done):
        self._done = done

    @property
    def figures(self) -> dict:
        return self._done.figures

    @property
    def effects(self) -> list[dict]:
        return self._done.effects

    @property
    def written(self) -> dict[str, str]:
        return dict(self._done.written)

    def to_json(self) -> dict:
        return studying.study_data(self._done)

    def _rows(self):
        from rulewright.app import study_report     # (the words of a study's figures: once a study is shown)
        head, rows, _ = study_report.key_table(self._done.study, self.figures, marked=True)
        return head, rows

    def __repr__(self) -> str:
        return _text_table(*self._rows())

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        return f"<div>{_table(head, rows, 'Key figures (99% intervals)')}</div>"


class Tournament:
    """Bots against each other (``Game.tournament``, as ``rulewright tournament``): each
    bot's rating with its 95% interval, its share of wins, how often each finished ahead
    of each other one, every game."""

    def __init__(self, played):
        self._t = played

    @property
    def ratings(self) -> list[dict]:
        return self.to_json()["ratings"]

    @property
    def wins(self) -> dict[str, dict]:
        return self.to_json()["wins"]

    @property
    def ahead(self) -> dict[str, dict]:
        return self.to_json()["ahead"]

    def to_json(self) -> dict:
        return tourney.tournament_data(self._t)

    def _parts(self):
        t = self._t
        return (f"{t.mode.title or t.mode.name}, {t.players} player(s), {len(t.results)} game(s)",
                tourney.tournament_lines(t), ["bot", "rating", "95% interval", "seats", "wins (95% interval)",
                                              "longest move"], ["ahead of:", *t.bots])

    def __repr__(self) -> str:
        head, lines, h1, h2 = self._parts()
        out = [head, ""]
        for h, rows in ((h1, lines["ratings"]), (h2, lines["matrix"])):
            out += [_text_table(h, rows), ""]
        return "\n".join(out).rstrip()

    def _repr_html_(self) -> str:
        head, lines, h1, h2 = self._parts()
        return (f"<div><p>{html.escape(head)}</p>{_table(h1, lines['ratings'], 'Ratings (Elo scale)')}"
                f"{_table(h2, lines['matrix'], 'How often the row finished ahead of the column (95% | 99% intervals)')}</div>")


class Verification:
    """What ``Game.verify`` found (as ``rulewright verify``): each finding with the status
    of its evidence (PROVED, COUNTEREXAMPLE, SAMPLED, UNKNOWN: could not tell before the
    time limit), its severity and its witness."""

    def __init__(self, report):
        self.report = report

    @property
    def findings(self) -> list:
        return list(self.report.findings)

    @property
    def not_checked(self) -> list[tuple[str, str, str]]:
        """(check, definition, why) of what was not checked."""
        return list(self.report.not_checked)

    @property
    def counts(self) -> dict[str, int]:
        """How many findings have each status."""
        return verifying.status_counts(self.report)

    @property
    def refuted(self) -> bool:
        """Whether a guarantee is broken (a counterexample of severity error)."""
        return self.report.refuted()

    def text(self, everything: bool = False) -> str:
        """The findings for people, as ``rulewright verify`` prints them (``everything``:
        as with ``--all``)."""
        return verifying.report_text(self.report, everything, verifying.PYTHON_OPTIONS)

    def to_json(self) -> dict:
        return self.report.to_json()

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        rows = [[f.status, f.severity, f.check, f.definition, f.message] for f in self.report.findings]
        rows += [["not checked", "", c, d, why] for c, d, why in self.report.not_checked]
        return ("<div>" + _table(["status", "severity", "check", "definition", "finding"], rows) +
                f"<p>{html.escape(verifying.summary_line(self.report, verifying.PYTHON_OPTIONS))}</p></div>")


class Diff:
    """What a version of a game changes in another (``Game.diff``, as ``rulewright
    diff``): the definitions changed, added and removed, with their rule IDs and both
    texts, and what the changes can affect downstream."""

    def __init__(self, diffed):
        self._diffed = diffed

    @property
    def empty(self) -> bool:
        return self._diffed.empty

    @property
    def changed(self) -> list[str]:
        return [e.name for e in self._diffed.diff.changed]

    @property
    def added(self) -> list[str]:
        return [e.name for e in self._diffed.diff.added]

    @property
    def removed(self) -> list[str]:
        return [e.name for e in self._diffed.diff.removed]

    def to_json(self) -> dict:
        return self._diffed.data()

    def __repr__(self) -> str:
        return "\n".join(self._diffed.lines())

    def _repr_html_(self) -> str:
        d = self._diffed.diff
        rows = [[what, e.kind, e.name, " ".join(e.rule_ids), e.doc]
                for what, entries in (("changed", d.changed), ("added", d.added), ("removed", d.removed))
                for e in entries]
        if not rows:
            return f"<p>{html.escape(d.base)} → {html.escape(d.variant)}: no definition differs</p>"
        return (f"<div>{_table(['', 'kind', 'name', 'rule IDs', 'doc'], rows, f'{d.base} → {d.variant}')}"
                f"<details><summary>both texts, and what the changes can affect</summary>"
                f"<pre>{html.escape(repr(self))}</pre></details></div>")


class Examples:
    """A spec's worked examples, run (``Game.examples``, as ``rulewright examples``):
    each example ok or failing, each expectation with the rules' value and the
    example's side by side."""

    def __init__(self, found):
        self._found = found

    @property
    def runs(self) -> list:
        return list(self._found.runs)

    @property
    def failing(self) -> int:
        return self._found.failing

    @property
    def ok(self) -> bool:
        return self._found.failing == 0

    def to_json(self) -> list[dict]:
        return [examples_job.example_data(self._found.spec, run) for run in self._found.runs]

    def __repr__(self) -> str:
        found = self._found
        lines = examples_job.left_out_lines(found)
        for run in found.runs:
            lines += examples_job.example_lines(found.spec, run)
        lines.append(examples_job.examples_total(len(found.runs), found.failing) if found.runs
                     else f"no examples in {found.spec}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [["ok" if run.holds else "FAILS", run.name, run.title or "",
                 "; ".join(e.text for e in run.expectations if not e.holds) or (run.error or "")]
                for run in self._found.runs]
        total = examples_job.examples_total(len(self._found.runs), self._found.failing)
        return f"<div>{_table(['', 'example', 'title', 'what fails'], rows)}<p>{html.escape(total)}</p></div>"
