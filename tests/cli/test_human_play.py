"""The human seat played through its streams (the agent called by the game, the answers
typed by a stand-in player): whole games asking for a suggestion at every choice, the
question in words, the options with their worth, a card looked up, a board's cells
lettered, an undo that keeps the other seats' moves."""
from __future__ import annotations

import argparse
import io
import random
import re

import pytest
from helpers import ROOT

from rulewright.api import load
from rulewright.compiler.interpret import RandomAgent
from rulewright.app import seat_screen as screen
from rulewright.cli.human import Table
from rulewright.compiler.play import script as scripted
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.agent import playing_queries

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA_TWO = ROOT / "spec" / "ecosystem_savanna" / "variants" / "two_player.rules"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"
SOLVER_WORDS = re.compile(r"\b(infeasible|optimal|feasible|unknown|INFEASIBLE|OPTIMAL|FEASIBLE)\b")


class Player:
    """Standard input of a human seat, typing as a person would: at each prompt first what
    ``first`` gives (``?`` by default: the suggestion), then the suggested option, else
    one of the options shown at random; ``script`` answers first, in order."""

    def __init__(self, out: io.StringIO, first=lambda prompt: "?", script=(), seed: int = 5, lower=False):
        self.out, self.pos, self.first, self.lower = out, 0, first, lower
        self.script = list(script)
        self.rng = random.Random(seed)
        self.asked = False
        self.screen = ""            # what was shown since the last option chosen
        self.prompts = 0
        self.last_menu = ""

    def keys(self, shown: str) -> list[str]:
        """The keys of the options of the last menu shown (before its prompt)."""
        menus = [m for m in shown.split("]> ") if re.search(r"^\s+\w+\. |cells: ", m, re.M)]
        menu = menus[-1] if menus else self.last_menu
        self.last_menu = menu
        cells = re.findall(r"cells: ([\w, ]+)$", menu, re.M)
        return re.findall(r"^\s+(\w+)\. ", menu, re.M) or cells[-1].split(", ")

    def readline(self) -> str:
        new = self.out.getvalue()[self.pos:]
        self.pos = len(self.out.getvalue())
        self.screen += new
        if self.script:
            return self.script.pop(0) + "\n"
        if not self.asked:
            self.asked = True
            extra = self.first(self.screen)
            if extra:
                return extra + "\n"
        self.asked = False
        self.prompts += 1
        shown, self.screen = self.screen, ""
        m = re.search(r"suggestion: (\w+)\. ", shown)
        if m:
            return m.group(1) + "\n"
        key = self.rng.choice(self.keys(shown))
        return (key.lower() if self.lower else key) + "\n"


def play(spec, players: int, seed: int, player=None, lang: str | None = None, limit: float = 2.0, out=None,
         suggest: str | None = None):
    """A game where p1 is a human seat typing as ``player`` does (by default: a suggestion
    asked at every choice), the others random; (the game's state, what p1 was shown)."""
    game = load(spec)
    out = out or io.StringIO()
    player = player or Player(out)
    player.out = out
    args = argparse.Namespace(spec=str(spec), save_state=None, agent_time_limit=limit, lang=lang, suggest=suggest)
    table = Table(game.program, args, {"p1": "human"}, inp=player, out=out)
    query = playing_queries(game.program)[0]

    def factory(seat, s):
        return table.agent(seat, query, {}) if seat.name == "p1" else RandomAgent(s * 1_000_003 + seat.index)
    given: list = []
    while True:         # (as 'play' does: an undo plays the game again with the choices kept)
        try:
            state = game.interpreter.play(next(iter(game.program.modes)), players, seed,
                                          agent_factory=scripted.scripted_factory(given, "<undo>", factory))
            return state, out.getvalue()
        except Exception as exc:
            again = table.after(exc)
            if not isinstance(again, list):
                raise
            given = again


@pytest.mark.parametrize("spec, players, seed", [(DARWIN, 3, 1), (DARWIN, 3, 2), (DARWIN, 4, 3), (DARWIN, 3, 4),
                                                 (SAVANNA_TWO, 2, 1), (SAVANNA_TWO, 2, 2), (SAVANNA, 3, 3)])
def test_whole_games_asking_for_a_suggestion_at_every_choice(spec, players, seed):
    state, shown = play(spec, players, seed)
    assert "score" in state.reports                 # the game ended
    assert "suggestion: " in shown                  # the solver's plans were played
    assert "Traceback" not in shown and "error" not in shown
    for line in shown.splitlines():
        if "suggestion" in line:
            assert not SOLVER_WORDS.search(line), line
    assert not re.search(r"^\w+> ", shown, re.M)    # no prompt is a name of the spec alone


@pytest.mark.parametrize("bot, words", [("greedy", "(greedy: after it you stand highest by the spec's estimate)"),
                                        ("mcts:iterations=20", "(mcts:iterations=20: 20 iterations of its search)")])
def test_a_bot_suggests_when_suggest_names_one_and_its_choice_is_played(bot, words):
    state, shown = play(SAVANNA_TWO, 2, 4, suggest=bot)
    assert "score" in state.reports
    lines = re.findall(r"suggestion: .*", shown)
    assert len(lines) >= 10 and all(words in line or line.endswith(": the only option)") for line in lines), lines[:3]
    assert sum(words in line for line in lines) >= 8
    assert "no suggestion" not in shown and "Traceback" not in shown


def test_a_suggestion_at_the_trade_and_the_main_action_is_a_plan_in_words():
    """The user's report: '?' at the trade prompt ended the game with 'first() of an empty
    collection' (the plan's card got by a trade that the plan does not make)."""
    _, shown = play(DARWIN, 3, 2)
    trade = shown.split("trading? [1-2]> ", 1)[1].split("]> ", 1)[0]
    assert "suggestion: 1. no (proved best; best-move: points" in trade
    assert "then: act create, give " in trade and "got" not in trade
    assert "no suggestion here: no legal move satisfies the requirements of best-move now" in shown
    assert "no suggestion here: best-move, the playing query, does not plan this choice" in shown


def test_the_question_and_the_prompt_are_words_of_the_spec():
    _, shown = play(DARWIN, 3, 2)
    assert "Player 1, draw an Animal Card: Draw one Animal Card from the stack of the player's choice" in shown
    assert "card size [1-2]> " in shown and "\nsz> " not in shown
    assert "Player 1, trade with the Trade Zone: Trading: swap one hand card for any card of the Trade Zone" in shown
    assert "main action [1-" in shown and "pass turn" in shown and "pass_turn" not in shown
    _, french = play(SAVANNA_TWO, 2, 1, lang="fr")
    assert "sélectionner et placer: Les sélections d'une manche comme dans le jeu de base" in french
    assert "type de carte [1-" in french


def test_a_status_line_at_each_choice_and_the_whole_position_once():
    pressed = []

    def first(screen):
        if "pick 3 ·" in screen and not pressed:
            pressed.append("p")
            return "p"
        return "?"
    out = io.StringIO()
    _, shown = play(SAVANNA_TWO, 2, 1, player=Player(out, first=first), out=out)
    assert shown.count("deck: ") == 2               # the first choice, and 'p' once
    assert "Player 1 to play · pick 2 · score: Player 1 (you) " in shown
    assert re.search(r"Player 2 placed \w+", shown)     # what the other seat did since


def test_creation_options_show_the_new_species_worth_best_first():
    out = io.StringIO()
    state, shown = play(DARWIN, 3, 2, out=out)
    menu = shown.split("Player 1, create a species:", 1)[1].split("\n", 1)[1].split("create a species [", 1)[0]
    header, *rows = [ln for ln in menu.splitlines() if ln.strip() and not ln.startswith("so far")]
    assert header.split() == ["Adaptation", "Projected", "points", "Hearts", "Competitive", "Strength"]
    points = [int(r.split()[-3]) for r in rows]
    assert points == sorted(points, reverse=True) and len(set(points)) > 1
    # the numbers are the spec's own definitions of the species the option makes
    game = load(DARWIN)
    first = rows[0].split(". ", 1)[1].rsplit("  ", 1)[0].strip()
    cards, home = first.split("  ")[0].split(" · ")
    interp = game.interpreter
    seat = state.seats[0]
    species = interp.call("newborn", seat, tuple(cards.split(", ")), home, state=state)
    assert int(rows[0].split()[-2]) == interp.call("hearts", species, state=state)
    assert int(rows[0].split()[-1]) == interp.call("strength", species, state=state)


def test_a_card_is_looked_up_by_name():
    script = ["l lion_head", "l lion head", "l lion", "l zzzz", "l"]
    out = io.StringIO()
    _, shown = play(DARWIN, 3, 1, player=Player(out, first=lambda s: "", script=script), out=out)
    card = shown.split("lion_head (animal card):", 1)[1]
    assert "  part: head" in card and "  hearts: " in card and "  strength: " in card
    assert shown.count("lion_head (animal card):") == 3     # by its name, in words, and among the lions
    assert "lion_body (animal card):" in shown
    assert "no card named 'zzzz'" in shown
    assert "l NAME looks a card up" in shown


def test_savanna_cells_are_lettered_on_the_board_and_typed_by_letter():
    out = io.StringIO()
    player = Player(out, first=lambda s: "", lower=True)
    state, shown = play(SAVANNA_TWO, 2, 1, player=player, out=out)
    assert re.search(r"^  .*\[A\].*$", shown, re.M)     # the board with its free cells lettered
    assert re.search(r"cell \[A\.\.[C-Z]\]> ", shown) and "(-1, 0)" not in shown
    assert "is not an option" not in shown              # a letter typed in lower case is taken
    assert len([e for e in state.log if e.kind == "place" and e.seat == "p1"]) == 20


def test_a_board_drawn_with_its_free_cells_lettered():
    board = rt.Board("ecosystem", 4, 5, True, {(0, 0): "lion", (0, 1): "tree"})
    lettered = dict(zip([(-1, 0), (1, 1), (0, 2)], screen.cell_letters(3)))
    assert screen.board_with_letters(board, lettered) == ["  [A]  .    .", "  lion tree [C]", "  .    [B]  ."]
    assert screen.cell_letters(22)[:6] == ["A", "B", "C", "D", "E", "F"]
    assert not {"H", "L", "P", "Q", "S", "U"} & set(screen.cell_letters(22))   # the commands' letters
    assert screen.cell_letters(22)[-2:] == ["AA", "AB"]


def test_equal_options_are_one():
    _, shown = play(SAVANNA_TWO, 2, 1)
    menus = re.findall(r"(?:^ +\d+\. .*\n)+", shown, re.M)
    for menu in menus:
        names = [re.sub(r" ×\d+", "", ln.split(". ", 1)[1]).split()[0] for ln in menu.splitlines()]
        assert len(names) == len(set(names)), menu
    assert re.search(r"\d+\. \w+ ×[2-9]", shown)


def test_an_undo_keeps_the_other_seats_moves():
    """Answering, taking the answer back and giving it again: the same game as without the
    undo (the other seats' random choices made again as they were)."""
    script = ["1", "A", "1", "A", "1", "A"]
    out = io.StringIO()
    plain, _ = play(SAVANNA, 3, 4, player=Player(out, first=lambda s: "", script=list(script)), out=out)
    out = io.StringIO()
    undone_script = script[:4] + ["u", "A"] + script[4:]
    undone, shown = play(SAVANNA, 3, 4, player=Player(out, first=lambda s: "", script=undone_script), out=out)
    assert "taken back" in shown and "(the other seats moved as before)" in shown
    assert [(e.seat, e.detail) for e in undone.log if e.kind == "choose"] == \
        [(e.seat, e.detail) for e in plain.log if e.kind == "choose"]


def test_a_card_looked_up_says_how_it_scores():
    """A step of a scoring named after the card: its doc comment, in the player's language."""
    program = load(SAVANNA).program
    lion = screen.look_up(program, screen.Words(program), "LION")
    assert lion[0] == "lion (card):" and "  family: animal" in lion
    assert any(line.startswith("  score: Each lion next to a prairie") for line in lion)
    zebra = screen.look_up(program, screen.Words(program, "fr"), "zebra")
    assert any(line.startswith("  score: Chaque Zèbre rapporte 3 points") for line in zebra)
