"""verify's summary is honest and its progress moves: the last line counts each status in
words ("3 proved, 1 sampled, 0 refuted, could not tell: 1"), never "all well" nor
"nothing refuted" while a finding is UNKNOWN, and every UNKNOWN finding is listed without
--all; the progress callback is told once per item of a check (a property, a game), with
fractions that go up, in words, and the bar says nothing when standard error is no
terminal."""
from __future__ import annotations

import sys

from helpers import TILES as HELPER_TILES, TILES_PLAY, run_command, spec as write

from rulewright.cli.verify import _Progress, report_text, time_left
from rulewright.compiler import load
from rulewright.solver.verify.findings import Finding, Report
from rulewright.solver.verify.run import verify


TILES = HELPER_TILES + """
property red_pays "A red tile pays" { choose c in colour where c == red
  holds worth(c) == 2 }
property none_negative "No tile costs" { choose c in colour
  holds worth(c) >= 0 }
property at_most_two "No tile pays more than 2" { choose c in colour
  holds worth(c) <= 2 }
""" + TILES_PLAY

# games of some ten seconds each: a time limit well under that stops every one of them
SLOW_GAMES = """game slow "Slow"
state { n: int = 0 }
procedure loop { repeat 9000 { set n = count(i for i in 1..10000 if i > n) } }
invariant small: n != 5000 else "n is {n}"
mode m "M" players 1..2 {
  seats players
  do loop()
}
"""


def test_an_unknown_finding_is_listed_and_counted_never_all_well():
    """The reported case: a house rule that changes a grid's score, whose ``differs`` finding
    is UNKNOWN (severity info), was summed up as "all well ... nothing refuted" and shown only
    with --all."""
    report = Report("house.rules")
    report.add(Finding("range", "score", status="PROVED", severity="info", message="scoring 'score' gives 0 to 9",
                       witness={"least": 0, "most": 9}))
    report.add(Finding("invariant", "small", status="SAMPLED", severity="info", message="held in 3 games"))
    report.add(Finding("differs", "score", status="UNKNOWN", severity="info",
                       message="'score': no difference found before the time limit, none ruled out",
                       witness={"least_found": 1}))
    text = report_text(report)
    assert "all well" not in text and "nothing refuted" not in text
    assert "info: [differs] UNKNOWN: 'score': no difference found before the time limit" in text
    assert "least_found" not in text                  # (an info finding's witness: with --all)
    assert "not shown, nothing wrong found: 1 invariant, 1 range" in text
    last = text.splitlines()[-1]
    assert last.startswith("house.rules: 3 findings: 1 proved, 1 sampled, 0 refuted, could not tell: 1 ("), last
    assert "--time-limit" in last
    everything = report_text(report, everything=True)
    assert "least_found = 1" in everything and "not shown" not in everything
    assert everything.splitlines()[-1] == last



def test_an_unknown_that_time_would_not_settle_is_not_blamed_on_the_time_limit():
    """A house rule that adds a card: what decides the game is read at no sampled position
    under both rule sets. That UNKNOWN is not the time limit's: the summary said "the time
    limit ran out ... a longer --time-limit may settle them" all the same."""
    def report(*out_of_time):
        r = Report("house.rules")
        for i, timed in enumerate(out_of_time):
            r.add(Finding("differs", f"d{i}", status="UNKNOWN", severity="info", message="why",
                          out_of_time=timed))
        return report_text(r).splitlines()[-1]
    last = report(False)
    assert "could not tell: 1 (listed above as UNKNOWN, each with its reason, which a longer --time-limit " \
           "would not change)" in last, last
    assert "ran out" not in last
    last = report(True, False, False)
    assert "for 1 of them the time limit ran out before they were settled, and a longer --time-limit may " \
           "settle them; the others with their reasons" in last, last
    assert "the time limit ran out before they were settled; a longer --time-limit" in report(True, True)
    # the command: a house rule that adds a card, compared with its base
    code, out, err = run_command("verify", "spec/house_rules/savanna_rhinos.rules", "--against",
                                 "spec/ecosystem_savanna", "--check", "differs", "--no-progress")
    last = out.rstrip().splitlines()[-1]
    assert code == 0 and "could not tell: 3 (listed above as UNKNOWN, each with its reason" in last, (out, err)

def test_a_refuted_guarantee_is_said_and_nothing_unknown_is_no_news():
    report = Report("g")
    report.add(Finding("property", "p", status="COUNTEREXAMPLE", severity="error", message="broken"))
    report.add(Finding("property", "q", status="PROVED", severity="info", message="holds"))
    last = report_text(report).splitlines()[-1]
    assert last == "g: 2 findings: 1 proved, 0 sampled, 1 refuted, could not tell: 0; a guarantee is broken"


def test_games_cut_by_the_time_limit_are_told_as_could_not_tell(tmp_path):
    spec = write(tmp_path, SLOW_GAMES, "slow.rules")
    code, out, err = run_command("verify", spec, "--time-limit", "0.3", "--check", "invariant,terminates",
                                 "--no-progress")
    assert code == 0, err               # UNKNOWN is no failure (exit 0): the words say it
    assert "all well" not in out and "nothing refuted" not in out
    assert "[invariant] UNKNOWN: could not tell whether invariant 'small' holds" in out
    assert "[terminates] UNKNOWN: could not tell whether every game of mode 'm' ends" in out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(f"{spec}: 2 findings: 0 proved, 0 sampled, 0 refuted, could not tell: 2 ("), last


def test_progress_is_told_once_per_finding_with_increasing_fractions(tmp_path):
    calls: list[tuple[str, float]] = []
    report = verify(load(write(tmp_path, TILES, "tiles.rules")), "tiles", {"property"}, games=0,
                    progress=lambda what, fraction: calls.append((what, fraction)))
    assert len(report.findings) == 3 and {f.status for f in report.findings} == {"PROVED"}
    items = [(w, x) for w, x in calls if w.startswith("the spec's guarantees: ")]
    assert [w for w, _ in items] == ["the spec's guarantees: red_pays (1 of 3)",
                                     "the spec's guarantees: none_negative (2 of 3)",
                                     "the spec's guarantees: at_most_two (3 of 3)"]
    fractions = [x for _, x in items]
    assert fractions == sorted(set(fractions)) and fractions[0] == 0.0 and fractions[-1] < 1.0
    assert [x for _, x in calls] == sorted(x for _, x in calls)      # never back
    assert calls[-1] == ("done", 1.0)


def test_progress_moves_per_game_and_across_the_checks(tmp_path):
    calls: list[tuple[str, float]] = []
    verify(load(write(tmp_path, TILES, "tiles.rules")), "tiles", {"property", "invariant", "terminates"}, games=2,
           progress=lambda what, fraction: calls.append((what, fraction)))
    games = [(w, x) for w, x in calls if w.startswith("seeded games: ")]
    # 2 games at 1 player and 2 at 2 players, each told as it begins, after the 3 properties
    assert [w for w, _ in games] == [f"seeded games: standard {p}p seed {s} ({i} of 4)"
                                     for i, (p, s) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)], start=1)]
    fractions = [x for _, x in games]
    assert fractions == sorted(set(fractions)) and 0.0 < fractions[0] < 1.0
    assert [x for _, x in calls] == sorted(x for _, x in calls)


def test_time_left_in_words():
    assert time_left(1.0, 0.5) == ""            # too soon to tell
    assert time_left(30.0, 0.0) == ""           # nothing done yet
    assert time_left(10.0, 0.5) == "about 10 s left"
    assert time_left(60.0, 0.25) == "about 3 min left"
    assert time_left(7200.0, 0.5) == "about 2.0 h left"


def test_the_bar_is_quiet_off_a_terminal_and_with_no_progress(tmp_path, monkeypatch):
    class Terminal:
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert _Progress(enabled=True).enabled and not _Progress(enabled=False).enabled
    monkeypatch.undo()
    spec = write(tmp_path, TILES, "tiles.rules")
    code, out, err = run_command("verify", spec, "--check", "property")      # standard error is a file here
    assert code == 0 and err == "", err
    assert out.rstrip().splitlines()[-1] == f"{spec}: 3 findings: 3 proved, 0 sampled, 0 refuted, could not tell: 0"
