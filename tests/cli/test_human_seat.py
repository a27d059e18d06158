"""A human seat (play --seat p1=human), driven through a pseudo-terminal as a player
would: the position and the options shown, the solver's suggestion, an undo, a
wrong answer, saving and quitting, and going on from the saved game."""
import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from helpers import ROOT, run_command

SAVANNA = "spec/ecosystem_savanna"


class Terminal:
    def __init__(self, *args, cwd):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "rulewright", *args], cwd=cwd,
                                     stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 120) -> str:
        """Read until ``text`` appears; what was read up to it."""
        end = time.monotonic() + timeout
        while text not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} did not come; the terminal shows:\n{self.seen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the game ended before {text!r}:\n{self.seen[-3000:]}")
                self.seen += chunk.replace("\r\n", "\n")
        at = self.seen.index(text) + len(text)
        out, self.seen = self.seen[:at], self.seen[at:]
        return out

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


@pytest.fixture
def table(tmp_path):
    made = []

    def start(*args):
        t = Terminal(*args, cwd=tmp_path)
        made.append(t)
        return t
    yield start
    for t in made:
        if t.proc.poll() is None:
            t.proc.kill()


def test_a_human_seat_plays_asks_undoes_saves_and_goes_on(table, tmp_path):
    t = table("play", str(ROOT / SAVANNA), "--players", "3", "--seed", "1", "--seat", "p1=human")
    shown = t.expect("]> ")
    # the position as Player 1 sees it, once: their own hand, the others' hands only counted
    assert "Player 1 (you)" in shown and "hand (11): tree, prairie, zebra" in shown
    assert "Player 2\n" in shown and "hand: 11 cards, hidden" in shown
    assert "deck: 99 cards, hidden" in shown    # a draw stack by its size, not its order
    # the question in the words of the spec's doc comment, the prompt asks for a card
    assert "Player 1, pick and place: Everyone chooses a card of their hand" in shown
    assert shown.endswith("card [1-7]> ")       # 11 cards, of 7 kinds
    assert "gazelle ×3" in shown and "lion ×2" in shown and "k>" not in shown
    t.send("12")                                 # not an option
    assert "'12' is not an option: type a number from 1 to 7" in t.expect("]> ")
    t.send("?")
    suggestion = t.expect("]> ")
    assert "suggestion: " in suggestion and "proved best" in suggestion
    number = suggestion.split("suggestion: ")[1].split(".")[0]
    t.send(number)
    spot = t.expect("]> ")
    assert "[A]" in spot and spot.endswith("cell [A]> ")    # the one free cell of an empty ecosystem
    t.send("A")
    # the second pick: a status line, not the whole position again
    second = t.expect("]> ")
    assert "Player 1 to play · pick 2" in second and "Player 2 placed" in second
    assert "hand (" not in second and "deck:" not in second
    t.send("u")                                  # take back the last choice: the cell of the first pick
    again = t.expect("cell [A]> ")
    assert "taken back" in again
    t.send("A")
    t.expect("card [")
    t.send("1")
    t.expect("cell [")
    t.send("s")
    t.expect("save to [game.json]: ")
    t.send("mine.json")
    assert "saved to mine.json; go on with: rulewright play" in t.expect("--seat p1=human")
    assert t.close() == 0
    saved = json.loads((tmp_path / "mine.json").read_text())
    made = [h for h in saved["resume"]["history"] if h["seat"] == "p1"]
    assert [h["choice"] for h in made] == ["k", "spot", "k"]
    assert saved["resume"]["at"] == {"choices": len(saved["resume"]["history"])}
    # on from the saved game: the same question, its cells lettered
    t = table("play", str(ROOT / SAVANNA), "--from", "mine.json", "--seat", "p1=human")
    t.expect("Player 1, pick and place:")
    t.expect("cell [")
    t.expect("]> ")
    t.send("q")
    t.expect("game left unsaved")
    assert t.close() == 0


def test_the_rest_of_a_game_with_a_human_seat_is_played_by_the_others(table, tmp_path):
    """Player 1 answers the first option to every question (1, or the cell A): the game ends
    with every seat's score."""
    t = table("play", str(ROOT / SAVANNA), "--players", "3", "--seed", "2", "--seat", "p1=human", "--json")
    for _ in range(40):
        try:
            asked = t.expect("]> ", timeout=60)
        except AssertionError:
            break
        t.send("A" if asked.endswith(tuple(f"cell [{k}]> " for k in "ABCDEFG")) or "\ncell [" in asked[-20:]
               else "1")
    rest = t.seen
    while t.proc.poll() is None:
        try:
            rest += os.read(t.master, 65536).decode("utf-8", "replace")
        except OSError:
            break
    assert t.close() == 0
    assert '"score"' in rest and '"p1"' in rest and '"p3"' in rest


def test_a_human_seat_is_for_play_only():
    proc = run_command("simulate", SAVANNA, "--players", "3",
                       "--seat", "p1=human", cwd=ROOT)
    assert proc.returncode == 2
    assert "--seat p1=human: no bot 'human' here (a human seat plays with 'play')" in proc.stderr
