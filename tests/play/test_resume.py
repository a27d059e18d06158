"""Playing on from a position (play --from, simulate --from, Position.play) and
scripted choices (play --choices, play --log read back)."""
import json
from pathlib import Path

import pytest
import rulewright
from helpers import ROOT, run_command

DARWIN = "spec/darwins_choice"
SAVANNA = "spec/ecosystem_savanna"


def run(*args, cwd=ROOT):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=cwd)


@pytest.fixture(scope="module")
def darwin():
    return rulewright.load("darwins_choice")


def scores(played) -> dict:
    return {s.name: v for s, v in played.reports["score"].items()}


# ------------------------------------------------------------------ a saved game
@pytest.mark.parametrize("stop", ["turn:9", "evaluation:2", "transition:1"])
def test_a_saved_game_goes_on_exactly_as_it_would_have(darwin, tmp_path, stop):
    whole = darwin.play(4, seed=5)
    darwin.play(4, seed=5, stop_at=stop).position.save(tmp_path / "saved.json")
    again = darwin.position(tmp_path / "saved.json").play()
    assert scores(again) == scores(whole)
    # the game after the position is the same game: the same choices, in the same order
    made = [e for e in whole.log if e["kind"] == "choose"]
    after = [e for e in again.log if e["kind"] == "choose"]
    assert made[-len(after):] == after


def test_a_saved_savanna_draft_goes_on_exactly(tmp_path):
    game = rulewright.load("ecosystem_savanna")
    whole = game.play(4, seed=3)
    game.play(4, seed=3, stop_at="pick:7").position.save(tmp_path / "pick7.json")
    assert scores(game.position(tmp_path / "pick7.json").play()) == scores(whole)


def test_an_edited_saved_position_is_played_on_as_edited(darwin, tmp_path):
    """Banked points count in the score only: 100 more banked by Player 1 at the second
    Evaluation, and the game (its generators set back) ends the same with 100 more."""
    whole = darwin.play(4, seed=5)
    darwin.play(4, seed=5, stop_at="evaluation:2").position.save(tmp_path / "saved.json")
    doc = json.loads((tmp_path / "saved.json").read_text())
    doc["per_seat"]["banked"]["p1"] += 100
    (tmp_path / "edited.json").write_text(json.dumps(doc))
    again = scores(darwin.position(tmp_path / "edited.json").play())
    assert again == {**scores(whole), "p1": scores(whole)["p1"] + 100}


def test_a_seed_plays_the_rest_anew_and_the_same_seed_the_same(darwin, tmp_path):
    darwin.play(4, seed=5, stop_at="evaluation:2").position.save(tmp_path / "saved.json")
    pos = darwin.position(tmp_path / "saved.json")
    runs = [scores(pos.play(seed=s)) for s in (11, 11, 12, 13, 14)]
    assert runs[0] == runs[1]
    assert len({json.dumps(r, sort_keys=True) for r in runs}) > 1


def test_a_history_that_no_longer_replays_is_refused(darwin, tmp_path):
    darwin.play(4, seed=5, stop_at="evaluation:2").position.save(tmp_path / "saved.json")
    doc = json.loads((tmp_path / "saved.json").read_text())
    first = next(h for h in doc["resume"]["history"] if h["seat"] is not None)
    first["value"] = "no_such_thing"
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(rulewright.RulesError, match="the saved history does not replay"):
        darwin.position(tmp_path / "bad.json").play()


# ------------------------------------------------------------------ a position written by hand
def hand_written(darwin, tmp_path, stop: str, seed: int = 8) -> tuple:
    darwin.play(4, seed=seed, stop_at=stop).position.save(tmp_path / "saved.json")
    doc = json.loads((tmp_path / "saved.json").read_text())
    del doc["resume"], doc["seed"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc, indent=1))
    return doc, path


def test_a_hand_written_position_goes_on_from_its_checkpoint(darwin, tmp_path):
    doc, path = hand_written(darwin, tmp_path, "turn:9")
    played = darwin.position(path).play(seed=3)
    # the first choice after the position is the player to move's, and the game ends
    first = next(e for e in played.log if e["kind"] == "choose" and e["seat"] is not None)
    assert first["seat"] == doc["state"]["to_move"]
    assert set(scores(played)) == {"p1", "p2", "p3", "p4"}
    assert played.log[0]["kind"] == "resume"
    # the same seed, the same game
    assert scores(darwin.position(path).play(seed=3)) == scores(played)


def test_a_hand_written_position_no_game_reaches_is_refused(darwin, tmp_path):
    """The first turn of the first Era is the first player's: a position at turn:1
    where another player is to move does not stand where any game does."""
    doc, path = hand_written(darwin, tmp_path, "turn:1")
    doc["state"]["to_move"] = next(s["name"] for s in doc["seats"] if s["name"] != doc["state"]["first_player"])
    path.write_text(json.dumps(doc, indent=1))
    with pytest.raises(rulewright.RulesError, match="no game played to turn:1 stands where this position does"):
        darwin.position(path).play()


def test_a_position_without_a_checkpoint_says_where_it_should_stand(darwin, tmp_path):
    doc, path = hand_written(darwin, tmp_path, "evaluation:1")
    del doc["checkpoint"]
    path.write_text(json.dumps(doc, indent=1))
    code, out, err = run("play", DARWIN, "--from", str(path))
    assert code == 2, err
    assert "names none" in err and '"checkpoint": "NAME:N"' in err


def test_the_end_of_a_game_is_not_played_on(tmp_path):
    code, _, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--save-state", str(tmp_path / "end.json"))
    assert code == 0, err
    code, out, err = run("play", SAVANNA, "--from", str(tmp_path / "end.json"))
    assert code == 2 and "the end of a game" in err


# ------------------------------------------------------------------ the command line
def test_play_from_on_the_command_line_and_until(tmp_path):
    saved = tmp_path / "ev2.json"
    code, _, err = run("play", DARWIN, "--players", "4", "--seed", "5", "--until", "evaluation:2",
                       "--save-state", str(saved))
    assert code == 0, err
    code, out, err = run("play", DARWIN, "--from", str(saved), "--json")
    assert code == 0, err
    whole = json.loads(run("play", DARWIN, "--players", "4", "--seed", "5", "--json")[1])
    data = json.loads(out)
    assert data["reports"] == whole["reports"] and data["from"] == str(saved) and data["seed"] == 5
    # to a later checkpoint, saved again, and on from there: still the same game
    code, _, err = run("play", DARWIN, "--from", str(saved), "--until", "evaluation:3",
                       "--save-state", str(tmp_path / "ev3.json"))
    assert code == 0, err
    code, out, err = run("play", DARWIN, "--from", str(tmp_path / "ev3.json"), "--json")
    assert json.loads(out)["reports"] == whole["reports"]
    # a checkpoint the position is already past
    code, _, err = run("play", DARWIN, "--from", str(saved), "--until", "evaluation:1",
                       "--save-state", str(tmp_path / "x.json"))
    assert code == 2 and "give a later one (evaluation:3)" in err


def test_simulate_from_a_position(tmp_path):
    saved = tmp_path / "ev2.json"
    run("play", DARWIN, "--players", "4", "--seed", "5", "--stop-at", "evaluation:2", "--save-state", str(saved))
    code, out, err = run("simulate", DARWIN, "--from", str(saved), "--games", "8", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["from"] == str(saved) and data["checkpoint"] == "evaluation:2" and data["games"] == 8
    wins = data["reports"]["winners"]
    assert set(wins["values"]) <= {"p1", "p2", "p3", "p4"} and wins["ci95"]
    # a score is the points on a player's species plus those banked, and banked points
    # are never taken back: no game from the position ends a player below their bank
    doc = json.loads(saved.read_text())
    for seat, banked in doc["per_seat"]["banked"].items():
        assert data["reports"]["score"]["values"][seat]["least"] >= banked


# ------------------------------------------------------------------ scripted choices
def test_a_log_read_back_replays_the_game(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out1, err = run("play", DARWIN, "--players", "4", "--seed", "5", "--log", str(log), "--json")
    assert code == 0, err
    code, out2, err = run("play", DARWIN, "--players", "4", "--seed", "5", "--choices", str(log), "--json")
    assert code == 0, err
    assert json.loads(out1)["reports"] == json.loads(out2)["reports"]
    assert err == ""


def test_an_illegal_scripted_choice_is_refused_at_its_line_with_the_rule(tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", SAVANNA, "--players", "3", "--seed", "1", "--log", str(log))
    lines = log.read_text().splitlines()
    spots = [i for i, l in enumerate(lines) if '"seat": "p1", "choice": "spot"' in l]
    first = json.loads(lines[spots[0]])["value"]
    edited = json.loads(lines[spots[1]])
    edited["value"] = first                 # the cell of the first card again: it is taken
    lines[spots[1]] = json.dumps(edited)
    (tmp_path / "edited.jsonl").write_text("\n".join(lines) + "\n")
    code, out, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--choices", str(tmp_path / "edited.jsonl"))
    assert code == 2
    assert f"edited.jsonl:{spots[1] + 1}:1: error: {json.dumps(first)} is not a legal 'spot' for Player 1 here" in err
    assert "it is not in placements(board(s))" in err
    line = 1 + next(i for i, text in enumerate(Path(SAVANNA, "play.rules").read_text().splitlines())
                    if "choose spot in placements(board(s))" in text)
    assert f"play.rules:{line}" in err and "note: the rule that refuses it" in err


def test_a_scripted_choice_refused_by_a_where(tmp_path):
    """A value among those chosen from that a part of the choice's where refuses: that
    part is quoted and pointed at."""
    (tmp_path / "g.rules").write_text(
        'game g "G"\n'
        'state { total: int = 0 }\n'
        'procedure pick(p: seat) {\n'
        '  choose x in [1, 2, 3, 4] where x != 2 and x < total + 4 by p\n'
        '  set total = total + x\n'
        '}\n'
        'mode standard players 1 { seats players do pick(first(players)) report total = total }\n')
    choices = tmp_path / "c.jsonl"
    for value, refused in ((2, "x != 2"), (4, "x < total + 4"), (9, "it is not in [1, 2, 3, 4]")):
        choices.write_text(f'{{"seat": "p1", "choice": "x", "value": {value}}}\n')
        code, out, err = run("play", str(tmp_path / "g.rules"), "--players", "1", "--choices", str(choices))
        assert code == 2, err
        assert f"c.jsonl:1:1: error: {value} is not a legal 'x' for Player 1 here: " in err
        assert (refused in err if refused.startswith("it is") else f"the rule '{refused}' does not hold" in err), err
        assert "g.rules:4:" in err
    choices.write_text('{"seat": "p1", "choice": "x", "value": 3}\n')
    code, out, err = run("play", str(tmp_path / "g.rules"), "--players", "1", "--choices", str(choices), "--json")
    assert code == 0, err
    assert json.loads(out)["reports"]["total"] == 3


def test_scripted_choices_then_the_seats_agents(tmp_path):
    """Only Player 1's first pick is given; the rest is played by the agents."""
    choices = tmp_path / "c.jsonl"
    code, out, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--json")
    first = json.loads(out)
    choices.write_text('# Player 1 picks a lion first\n{"seat": "p1", "choice": "k", "value": "lion"}\n')
    code, out, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--choices", str(choices),
                         "--log", str(tmp_path / "log.jsonl"), "--json")
    assert code == 0, err
    made = [json.loads(l) for l in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert next(e for e in made if e["kind"] == "choose" and e["seat"] == "p1")["value"] == "lion"
    assert json.loads(out)["reports"]["score"].keys() == first["reports"]["score"].keys()


def test_choices_left_unused_are_warned_of(tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", SAVANNA, "--players", "3", "--seed", "1", "--log", str(log))
    code, out, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--choices", str(log),
                         "--stop-at", "pick:2", "--save-state", str(tmp_path / "s.json"))
    assert code == 0, err
    assert "choice(s) of the file were not used: the game stopped at pick:2 before them" in err


@pytest.mark.parametrize("line, message", [
    ('{"seat": "p9", "choice": "k", "value": "lion"}', "'p9' is not a player's seat of this game"),
    ('{"seat": "p1", "choice": "spot", "value": [0, 0]}', "Player 1 is asked 'k' here, and this line gives 'spot'"),
    ('{"seat": "p1", "value": "lion"}', "a choice names its seat, its choice and its value"),
    ('not json', "not a JSON object on one line"),
])
def test_a_bad_choices_file_is_located(tmp_path, line, message):
    choices = tmp_path / "c.jsonl"
    choices.write_text("# a comment\n\n" + line + "\n")
    code, out, err = run("play", SAVANNA, "--players", "3", "--seed", "1", "--choices", str(choices))
    assert code == 2
    assert err.startswith(f"{choices}:3:1: error: {message}"), err


def test_a_record_is_chosen_by_some_of_its_fields(darwin):
    """A species (a record) in a choices list: its id is enough."""
    whole = darwin.play(4, seed=5)
    picks = [e for e in whole.log if e["kind"] == "choose" and isinstance(e["value"], dict) and "id" in e["value"]]
    assert picks, "a Darwin game chooses species"
    given = []
    for e in whole.log:
        if e["kind"] != "choose" or e["seat"] is None:
            continue
        value = {"id": e["value"]["id"]} if isinstance(e["value"], dict) and "id" in e["value"] else e["value"]
        given.append({"seat": e["seat"], "choice": e["choice"], "value": value})
    assert scores(darwin.play(4, seed=5, choices=given)) == scores(whole)


# ------------------------------------------------------------------ score --state
def test_score_reads_a_position(tmp_path):
    """Every player of a finished game scored from its state file: the totals are the
    game's own scores (the rival herds read from the other seats of the position)."""
    end = tmp_path / "end.json"
    code, out, err = run("play", SAVANNA, "--players", "4", "--seed", "2", "--save-state", str(end), "--json")
    assert code == 0, err
    played = json.loads(out)["reports"]["score"]
    code, out, err = run("score", SAVANNA, "--state", str(end), "--json")
    assert code == 0, err
    scored = {p["seat"]: p["total"] for p in json.loads(out)["players"]}
    assert scored == played
    code, out, err = run("score", SAVANNA, "--state", str(end))
    assert code == 0 and out.startswith("Player 1 (p1)\n") and "  total " in out


@pytest.mark.parametrize("args, message", [
    (["score", SAVANNA], "score takes the grid files to score (GRID...), or a position: --state FILE"),
    (["score", SAVANNA, "examples/margot.grid", "--state", "x.json"], "score takes grid files or --state FILE, not both"),
])
def test_score_usage(args, message):
    code, out, err = run(*args)
    assert code == 2 and message in err


def test_the_log_of_a_game_played_on_from_a_position_replays_it(tmp_path):
    """play --from X --log L, then play --from X --choices L: the same game (the log's
    choices before its resume line are the position's own history)."""
    saved = tmp_path / "ev2.json"
    run("play", DARWIN, "--players", "4", "--seed", "5", "--stop-at", "evaluation:2", "--save-state", str(saved))
    log = tmp_path / "rest.jsonl"
    code, out1, err = run("play", DARWIN, "--from", str(saved), "--seed", "9", "--log", str(log), "--json")
    assert code == 0, err
    assert any(json.loads(l)["kind"] == "resume" for l in log.read_text().splitlines())
    code, out2, err = run("play", DARWIN, "--from", str(saved), "--seed", "9", "--choices", str(log), "--json")
    assert code == 0 and err == "", err
    assert json.loads(out1)["reports"] == json.loads(out2)["reports"]


def test_a_position_that_breaks_a_warned_invariant_is_played_on(tmp_path):
    """A hand-written position without its Continental Chips is read with a warning per
    chip and played on: the game does not blame the rules for what the position broke,
    and the chips are set by the rules as the game goes on."""
    darwin = rulewright.load("darwins_choice")
    doc, path = hand_written(darwin, tmp_path, "evaluation:2", seed=5)
    doc["per_key"].pop("continental_chip", None)
    path.write_text(json.dumps(doc, indent=1))
    code, out, err = run("play", DARWIN, "--from", str(path), "--json")
    assert code == 0, err
    assert "warning:" in err and "chips_mark_the_most_adapted" in err
    assert json.loads(out)["reports"]["winners"]
