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
    shown = t.expect("k> ")
    # the position as Player 1 sees it: their own hand, the others' hands only counted
    assert "Player 1 (you)" in shown and "hand (11): tree, prairie, zebra" in shown
    assert "Player 2\n" in shown and "hand: 11 card(s)" in shown
    assert "deck: 99 card(s)" in shown          # a draw stack by its size, not its order
    assert "Player 1, choose k:" in shown and " 1. tree" in shown and "11. lion" in shown
    t.send("12")                                 # not an option
    assert "'12' is not an option" in t.expect("k> ")
    t.send("?")
    suggestion = t.expect("k> ")
    assert "suggestion: " in suggestion and "proved best" in suggestion
    number = suggestion.split("suggestion: ")[1].split(".")[0]
    t.send(number)
    t.expect("spot> ")
    t.send("1")
    # the second pick: the hand passed on
    second = t.expect("k> ")
    assert "Player 1 (you)" in second
    t.send("u")                                  # take back the last choice: the spot of the first pick
    again = t.expect("spot> ")
    assert "taken back" in again
    t.send("1")
    t.expect("k> ")
    t.send("1")
    t.expect("spot> ")
    t.send("s")
    t.expect("save to [game.json]: ")
    t.send("mine.json")
    assert "saved to mine.json; go on with: rulewright play" in t.expect("--seat p1=human")
    assert t.close() == 0
    saved = json.loads((tmp_path / "mine.json").read_text())
    made = [h for h in saved["resume"]["history"] if h["seat"] == "p1"]
    assert [h["choice"] for h in made] == ["k", "spot", "k"]
    assert saved["resume"]["at"] == {"choices": len(saved["resume"]["history"])}
    # on from the saved game: the same spot question, the same options
    t = table("play", str(ROOT / SAVANNA), "--from", "mine.json", "--seat", "p1=human")
    t.expect("Player 1, choose spot:")
    t.expect("spot> ")
    t.send("q")
    t.expect("game left unsaved")
    assert t.close() == 0


def test_the_rest_of_a_game_with_a_human_seat_is_played_by_the_others(table, tmp_path):
    """Player 1 answers 1 to every question: the game ends with every seat's score."""
    t = table("play", str(ROOT / SAVANNA), "--players", "3", "--seed", "2", "--seat", "p1=human", "--json")
    for _ in range(40):
        try:
            t.expect("> ", timeout=60)
        except AssertionError:
            break
        t.send("1")
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
    assert "no agent 'human' here (a human seat plays with 'play')" in proc.stderr
