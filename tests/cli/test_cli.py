"""The command line: outputs, JSON shapes and exit codes (0 ok, 1 spec error, 2 bad input)."""
import json
import subprocess
import sys

import pytest
from helpers import ROOT, one_free_grid, rel, run_command

SPEC = "spec/ecosystem_savanna"


def run(*args, cwd=ROOT):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=cwd)


def test_check_ok():
    code, out, err = run("check", SPEC)
    assert code == 0, err
    assert out.startswith("ok: spec/ecosystem_savanna: Ecosystem: Savanna")


def test_check_bad_spec_exit_1():
    code, out, err = run("check", "tests/bad/names/01_unknown_name.rules")
    assert code == 1
    assert "tests/bad/names/01_unknown_name.rules:6:36: error: unknown name 'gazele'" in err
    assert "Traceback" not in err


def test_check_says_a_base_error_once_for_its_variants():
    # too few Food Chips for the biomes: the base game and each of its versions fail alike
    code, _, err = run("check", "spec/darwins_choice", "--set", "food_units=46")
    assert code == 2        # the --set value is at fault: the spec loads without it
    assert err.count("error: the biomes in play could supply 47 units of food at once") == 1, err
    assert "error: spec/darwins_choice/variants/kids.rules: the same error as spec/darwins_choice, above" in err
    versions = len(list((ROOT / "spec" / "darwins_choice" / "variants").glob("*.rules")))
    assert versions >= 5 and err.count("the same error as spec/darwins_choice") == versions


def test_check_missing_path_exit_2():
    code, _, err = run("check", "spec/nowhere")
    assert code == 2
    assert "no such spec file or directory" in err


def test_usage_error_exit_2():
    code, _, err = run("score")
    assert code == 2
    assert "Traceback" not in err


def test_score_margot_json():
    code, out, err = run("score", SPEC, "examples/margot.grid", "--json")
    assert code == 0, err
    data = json.loads(out)
    player = data["players"][0]
    assert player["grid"] == "examples/margot.grid"
    assert list(player["scores"]) == ["water", "prairie", "tree", "gazelle", "zebra", "giraffe",
                                      "cheetah", "lion", "elephant", "hyena", "vulture"]
    assert player["scores"]["hyena"] == 6 and player["total"] == 86
    assert player["lion_prey"] == [[1, 4]]


def test_score_several_grids_share_the_herd_majority(tmp_path):
    rival = tmp_path / "rival.grid"
    rival.write_text("\n".join(["gazelle gazelle gazelle gazelle tree"] + ["tree water tree water tree"] * 3))
    code, out, err = run("score", SPEC, "examples/margot.grid", str(rival), "--json")
    assert code == 0, err
    margot, other = json.loads(out)["players"]
    assert margot["scores"]["gazelle"] == 6 + 2       # 3 gazelles: second herd
    assert other["scores"]["gazelle"] == 8 + 5        # 4 gazelles: first


def test_score_warns_of_grids_beyond_the_box_and_scores_them(tmp_path):
    margot = (ROOT / "examples" / "margot.grid").read_text().splitlines()
    lions = tmp_path / "lions.grid"
    rows = ["# eleven lions here, one more in margot.grid", "lion lion lion lion lion",
            "lion lion lion lion lion", "lion tree water tree water", margot[3]]
    lions.write_text("\n".join(rows) + "\n")
    code, out, err = run("score", SPEC, str(lions), "examples/margot.grid", "--json")
    assert code == 0, err
    assert f"{lions}:2:1: warning: the ecosystems hold 12 lion cards, and the box has 10" in err
    assert "note: a position reached in play satisfies the invariant 'ecosystems_within_the_box' [ES-COMP-02]" in err
    assert "hint: no game deals these grids together: they are scored as written" in err
    assert len(json.loads(out)["players"]) == 2           # scored all the same
    # as many lions as the box has: no warning
    code, out, err = run("score", SPEC, "examples/margot.grid", "--json")
    assert code == 0 and "warning" not in err


def test_score_set_switch():
    code, out, _ = run("score", SPEC, "examples/margot.grid", "--json", "--set", "hyena_range=manhattan")
    assert code == 0 and json.loads(out)["players"][0]["total"] == 86
    code, _, err = run("score", SPEC, "examples/margot.grid", "--set", "hyena_range=diagonal")
    assert code == 2 and "is not an option of 'hyena_range'" in err


@pytest.mark.parametrize("content,message", [
    ("prairie prairie\n", "a grid has 4 lines of 5 cards, this file has 1 lines"),
    ("\n".join(["prairie prairie prairie prairie prairie"] * 3 + ["prairie prairie prairie prairie giraf"]),
     "unknown card 'giraf'"),
    ("\n".join(["prairie prairie prairie prairie prairie"] * 3 + ["prairie prairie . prairie prairie"]),
     "this grid must be full"),
])
def test_score_bad_grid_exit_2(tmp_path, content, message):
    bad = tmp_path / "bad.grid"
    bad.write_text(content)
    code, _, err = run("score", SPEC, str(bad))
    assert code == 2
    assert message in err
    assert f"{bad}:" in err


def test_score_unknown_card_has_caret_and_hint(tmp_path):
    bad = tmp_path / "bad.grid"
    bad.write_text("\n".join(["prairie prairie prairie prairie prairie"] * 3 +
                             ["prairie prairie prairie prairie giraf"]))
    _, _, err = run("score", SPEC, str(bad))
    assert ":4:33: error: unknown card 'giraf'" in err
    assert "^^^^^" in err and "did you mean 'giraffe'?" in err


def test_play_json():
    code, out, err = run("play", SPEC, "--players", "3", "--seed", "7", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["mode"] == "standard" and len(data["seats"]) == 3
    assert all(len(row) == 5 and all(row) for s in data["seats"] for row in s["board"])
    assert set(data["reports"]["score"]) == {"p1", "p2", "p3"}


def test_play_solo_text():
    code, out, err = run("play", SPEC + "/variants/solo.rules", "--seed", "2")
    assert code == 0, err
    assert "Jhay (automaton)" in out and "margin:" in out and "result:" in out
    # the variant's own mode is played without --players or --mode
    assert out.startswith("Ecosystem: Savanna: Solo against Jhay: Solo against Jhay, 1 player(s)")
    # the base game has no solo mode any more: it is a variant
    code, _, err = run("play", SPEC, "--mode", "solo", "--seed", "2")
    assert code == 2 and "no mode 'solo'" in err


def test_play_bad_players_exit_2():
    code, _, err = run("play", SPEC, "--players", "9", "--seed", "1")
    assert code == 2 and "no mode" in err


def test_graph_formats():
    code, out, _ = run("graph", SPEC, "--format", "json")
    assert code == 0 and json.loads(out)["name"] == "ecosystem_savanna"
    code, out, _ = run("graph", SPEC, "--format", "dot")
    assert code == 0 and out.startswith('digraph "ecosystem_savanna"')


def test_query_unknown_name_exit_2():
    code, _, err = run("query", SPEC, "best-arangement")
    assert code == 2 and "did you mean 'best-arrangement'?" in err


def test_query_missing_input_exit_2():
    code, _, err = run("query", SPEC, "best-arrangement")
    assert code == 2 and "--cards" in err


def test_query_wrong_card_count(tmp_path):
    cards = tmp_path / "cards.txt"
    cards.write_text("water prairie tree")
    code, out, err = run("query", SPEC, "best-arrangement", "--cards", str(cards), "--json")
    assert code == 0, err
    assert json.loads(out)["status"] == "INFEASIBLE"


DARWIN = "spec/darwins_choice"


def test_play_darwin_text_tells_the_game():
    code, out, err = run("play", DARWIN, "--players", "4", "--seed", "7")
    assert code == 0, err
    assert out.startswith("Darwin's Choice: standard game, 4 player(s), seed 7") or "seed 7" in out.splitlines()[0]
    for era in range(1, 5):
        assert f"== Era {era} ==" in out
    assert out.count("== Evaluation") == 4 and out.count("== Transition") == 3
    assert "event:" in out and "biomes:" in out and "species:" in out and "scores:" in out


def test_play_darwin_json_and_log(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", DARWIN, "--players", "3", "--seed", "11", "--json", "--log", str(log))
    assert code == 0, err
    data = json.loads(out)
    assert data["spec"] == "darwins_choice" and [s["name"] for s in data["seats"]] == ["p1", "p2", "p3"]
    assert {n["name"] for n in data["notes"]} >= {"event", "biomes", "species", "scores"}
    assert sum(1 for n in data["notes"] if n.get("section") and n["name"] == "era") == 4
    assert data["state"]["format"] == "rulewright-state/1" and data["stopped_at"] is None
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert sum(1 for e in events if e["kind"] == "choose") == data["choices"]
    assert events[-1] == {"kind": "checkpoint", "seat": None, "name": "game_end", "count": 1}


def test_save_state_then_show(tmp_path):
    state = tmp_path / "s.json"
    code, out, err = run("play", DARWIN, "--players", "5", "--seed", "2", "--stop-at", "turn:9",
                         "--save-state", str(state))
    assert code == 0, err
    assert f"stopped at turn:9; state written to {state}" in out
    doc = json.loads(state.read_text())
    assert doc["checkpoint"] == "turn:9" and len(doc["seats"]) == 5
    code, shown, err = run("show", DARWIN, "--state", str(state))
    assert code == 0, err
    assert "stopped at turn:9" in shown.splitlines()[0] and "Player 5" in shown
    code, again, err = run("show", DARWIN, "--state", str(state), "--json")
    assert code == 0, err
    assert json.loads(again) == doc


def test_saved_switches_come_back(tmp_path):
    state = tmp_path / "s.json"
    code, _, err = run("play", DARWIN, "--players", "3", "--seed", "4", "--set", "markers_per_colour=12",
                       "--stop-at", "era", "--save-state", str(state))
    assert code == 0, err
    assert json.loads(state.read_text())["switches"]["markers_per_colour"] == 12
    code, out, err = run("show", DARWIN, "--state", str(state), "--json")
    assert code == 0, err
    assert json.loads(out)["switches"]["markers_per_colour"] == 12


@pytest.mark.parametrize("args,message", [
    (["--stop-at", "evaluaton", "--save-state", "x.json"], "no checkpoint 'evaluaton' in the spec (did you mean 'evaluation'?)"),
    (["--stop-at", "turn"], "--stop-at goes with --save-state FILE"),
    (["--stop-at", "turn:0", "--save-state", "x.json"], "--stop-at takes NAME or NAME:N"),
    (["--stop-at", "evaluation:9", "--save-state", "x.json"], "the game ended before checkpoint evaluation:9"),
])
def test_stop_at_mistakes_exit_2(tmp_path, args, message):
    code, _, err = run("play", DARWIN, "--players", "3", "--seed", "1", *args, cwd=ROOT)
    assert code == 2 and message in err and "Traceback" not in err


def test_query_input_is_not_taken_for_a_longer_option(tmp_path):
    """`--card` is the query's input, not an abbreviation of `--card-table` (on a grid with
    one free cell: the answer is quick, and the card is where it must be)."""
    code, out, err = run("query", SPEC, "best-placement", "--state", one_free_grid(tmp_path), "--card", "hyena",
                         "--time-limit", "30")
    assert code == 0, err
    assert "OPTIMAL" in out and "spot: (3, 4)" in out
    assert "hyena" in out.split("spot:")[1]             # the grid answered has the card placed


# ---------------------------------------------------------------- Darwin's Choice queries
DC = "spec/darwins_choice"


@pytest.fixture(scope="module")
def turn9(tmp_path_factory):
    path = tmp_path_factory.mktemp("dc") / "turn9.json"
    code, _, err = run("play", DC, "--players", "4", "--seed", "7", "--stop-at", "turn:9", "--save-state", str(path))
    assert code == 0, err
    return str(path)


def test_darwin_best_move_json(turn9):
    code, out, err = run("query", DC, "best-move", "--state", turn9, "--player", "p1", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["status"] == "OPTIMAL" and answer["replayed"]
    assert answer["objective"] == answer["bound"]
    assert answer["witness"]["action"] in ("create", "mutate", "migrate")
    assert list(answer["witness"])[:2] == ["card_from_trade", "action"]      # in the query's order
    assert answer["witness"]["card_from_trade"] == []                         # no --allow-trade
    model = answer["model"]
    parts = [model["build_seconds"], model["solve_seconds"], model["replay_seconds"]]
    assert all(t > 0 for t in parts) and sum(parts) <= answer["seconds"] + 0.002


def test_darwin_can_place_reasons_text(turn9):
    code, out, err = run("query", DC, "can-place", "--state", turn9, "--player", "p1",
                         "--cards", "giraffe_head,orca_body,tuna_tail", "--biome", "tundra")
    assert code == 0, err
    assert out.startswith("can_place: INFEASIBLE\n  why not:\n")
    assert "Tundra forbids heat resistance" in out
    assert "no_forbidden_ability [DC-CARD-07] at spec/darwins_choice/species.rules:" in out


def test_darwin_explain_traces_rules(turn9):
    code, out, err = run("query", DC, "explain", "--state", turn9, "--species", "1", "--json")
    assert code == 0, err
    reports = {r["name"]: r for r in json.loads(out)["reports"]}
    assert reports["projected_points"]["definition"] == "projected_points"
    assert "DC-CARD-03" in reports["adaptation"]["ids"]
    assert reports["hunted_by"]["value"] == []


@pytest.mark.parametrize("args, message", [
    (["best-move", "--player", "p1"], "asks about a game position: give --state FILE"),
    (["best-move", "--state", "{state}", "--player", "p9"], "no seat 'p9' in this game"),
    (["can-place", "--state", "{state}", "--player", "p1", "--cards", "girafe_head", "--biome", "tundra"],
     "unknown animal_card 'girafe_head' (did you mean 'giraffe_head'?)"),
    (["can-place", "--state", "{state}", "--player", "p1", "--cards", "giraffe", "--biome", "tundra"],
     "unknown animal_card 'giraffe' (did you mean giraffe_head, giraffe_body, giraffe_legs?)"),
    (["can-place", "--state", "{state}", "--player", "p1", "--cards", "xyz", "--biome", "tundra"],
     "puffin_head, tuna_body, tuna_tail, salmon_body, bison_head, ... (237 in all))"),
    (["can-place", "--state", "{state}", "--player", "p1", "--cards", "giraffe_head", "--biome", "mars"],
     "(a biome is one of: savanna, steppe, wetland, swamp, ocean, coral_reef"),
    (["best-mutation", "--state", "{state}", "--player", "p1"], "--species"),
    (["best-move", "--state", "{state}", "--time-limit", "-1"], "'-1' is not a number of seconds above 0"),
    (["best-move", "--state", "{state}", "--time-limit", "nan"], "'nan' is not a number of seconds above 0"),
    (["best-move", "--state", "{state}", "--workers", "0"], "'0' is not a whole number from 1 to 1024"),
])
def test_darwin_query_mistakes_exit_2(turn9, args, message):
    code, _, err = run("query", DC, *[a.replace("{state}", turn9) for a in args])
    assert code == 2, err
    assert message in err and "Traceback" not in err


def test_darwin_play_with_solver_agent(tmp_path):
    """The game ends; what the solver agent did is told: every choice of its seat was
    played from a query's answer or made at random, as the log shows."""
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", DC, "--players", "3", "--seed", "2", "--agent", "solver", "--agent-seats", "p1",
                         "--json", "--log", str(log))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["state"]["checkpoints"]["game_end"] == 1 and doc["reports"]["winners"]
    agents = doc["solver_agents"]
    assert list(agents) == ["p1"] and agents["p1"]["query"] == "best_move"
    p1 = agents["p1"]
    events = [json.loads(line) for line in log.read_text().splitlines()]
    made = [e["choice"] for e in events if e["kind"] == "choose" and e["seat"] == "p1"]
    assert p1["from_answers"] + sum(p1["at_random"].values()) == len(made)
    assert set(p1["at_random"]) <= set(made)
    assert 0 < p1["answered"] <= p1["asked"] and p1["from_answers"] >= p1["answered"]
    code, out, err = run("play", DC, "--players", "3", "--seed", "2", "--agent", "solver", "--agent-seats", "p1")
    assert code == 0, err
    line = next(l for l in out.splitlines() if l.startswith("  Player 1: asked"))
    assert f"asked {p1['asked']} time(s), {p1['answered']} answered; {p1['from_answers']} choice(s) " in line


def test_darwin_play_with_solver_agent_inputs(monkeypatch):
    """--agent-input NAME=VALUE sets an input of the query the agent plays, every turn."""
    import rulewright.solver.agent as agent_module
    from rulewright.compiler import load
    from rulewright.app.playing import COMMAND_LINE_WORDS, agent_inputs
    program = load(ROOT / DC)
    inputs = agent_inputs(program, "best_move", {"objective": "adaptation"}, COMMAND_LINE_WORDS)
    assert inputs == {"objective": "adaptation"}
    asked = []
    real = agent_module.run_query
    monkeypatch.setattr(agent_module, "run_query", lambda prog, name, given, **kw: asked.append(given)
                        or real(prog, name, given, **kw))
    played = agent_module.SolverAgent(program, "best_move", 1, inputs=inputs)
    from rulewright.solver.queries import interpreter_for
    st = interpreter_for(program).play("standard", 3, 2, stop_at="turn:2")
    played.ask(st, st.seats[0])
    assert asked == [{"objective": "adaptation", "player": st.seats[0]}]
    code, out, err = run("play", DC, "--players", "3", "--seed", "2", "--agent", "solver", "--agent-seats", "p1",
                         "--agent-input", "objective=adaptation", "--json")
    assert code == 0, err


@pytest.mark.parametrize("given, message", [
    ("objectiv=adaptation", "best-move has no input 'objectiv' (did you mean 'objective'?)"),
    ("objective=speed", "--agent-input objective: unknown goal 'speed'"),
    ("objective", "--agent-input takes NAME=VALUE, not 'objective'"),
])
def test_agent_input_mistakes_exit_2(given, message):
    code, _, err = run("play", DC, "--players", "3", "--seed", "2", "--agent", "solver", "--agent-input", given)
    assert code == 2 and message in err and "Traceback" not in err


def test_play_solver_agent_needs_a_playing_query(tmp_path):
    bare = tmp_path / "bare.rules"
    bare.write_text(f'variant bare "No playing query" extends "{rel(ROOT / SPEC, bare.parent)}"\nremove query best_pick\n')
    code, _, err = run("play", str(bare), "--players", "3", "--seed", "1", "--agent", "solver")
    assert code == 2
    assert "plays the answers of a query with 'play' statements" in err and "(here: none)" in err


def test_runtime_error_is_located_at_the_rule():
    code, _, err = run("play", "tests/data/runtime_error", "--players", "1")
    assert code == 1 and "Traceback" not in err
    # at the max() that fails, not at the statement
    assert err.startswith("tests/data/runtime_error/game.rules:8:15: error: max() of an empty collection")
    assert "let top = max(x for x in here)\n    |               ^^^^^^^^^^^^^^^^^^^^\n" in err


@pytest.mark.parametrize("args, message", [
    (["play", DC, "--players", "4", "--agent", "solver", "--agent-seats", "p1,p9"],
     "--agent-seats: 'p9' is not a player's seat of this game (players: p1, p2, p3, p4)"),
    (["play", DC, "--players", "4", "--stop-at", "", "--save-state", "x.json"], "--stop-at: no checkpoint ''"),
    (["check", DC, "--table", "biome="], "--table takes NAME=FILE, not 'biome='"),
    (["check", DC, "--cards", ""], "--cards (--card-table) takes a FILE, not an empty name"),
    (["check", DC, "--set", "=3"], "--set takes NAME=VALUE, not '=3'"),
    (["query", DC, "best-move", "--workers", "20000"], "'20000' is not a whole number from 1 to 1024"),
    (["query", DC, "best-move", "--workers", "2147483648"], "is not a whole number from 1 to 1024"),
])
def test_command_line_mistakes_are_usage_errors_said_once(args, message):
    """Found by a sweep: each was ignored, played a whole game, or reached CP-SAT."""
    code, out, err = run(*args)
    assert code == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_files_with_a_byte_order_mark_read_as_without_and_unreadable_files_say_why(tmp_path):
    """Found by a sweep: a UTF-8 byte-order mark (as some editors write) made a spec, a
    table, a grid and a state file fail with messages about an invisible character."""
    bom = b"\xef\xbb\xbf"
    grid = tmp_path / "g.grid"
    grid.write_bytes(bom + (ROOT / "examples" / "margot.grid").read_bytes())
    code, out, err = run("score", SPEC, str(grid))
    assert code == 0, err
    cards = tmp_path / "cards.csv"
    cards.write_bytes(bom + (ROOT / DC / "animal_cards.csv").read_bytes())
    code, out, err = run("check", DC, "--cards", str(cards))
    assert code == 0, err
    spec = tmp_path / "g.rules"
    spec.write_bytes(bom + b'game g "G"\ndef x = 1\n')
    code, out, err = run("check", str(spec))
    assert code == 0, err
    state = tmp_path / "s.json"
    code, out, err = run("play", DC, "--players", "3", "--seed", "1", "--stop-at", "turn:2", "--save-state", str(state))
    assert code == 0, err
    state.write_bytes(bom + state.read_bytes())
    code, out, err = run("show", DC, "--state", str(state))
    assert code == 0, err
    latin = tmp_path / "latin.grid"
    latin.write_bytes(b"# caf\xe9\n" + (ROOT / "examples" / "margot.grid").read_bytes())
    code, out, err = run("score", SPEC, str(latin))
    assert code == 2 and f"{latin}:1:6: error: not UTF-8 text (the byte 0xe9)" in err, err
    assert "  1 | # caf\ufffd" in err and "hint: save the file as UTF-8" in err
    latin.write_bytes(bom + b"# caf\xe9\n")        # a BOM before: the same line and column
    code, out, err = run("score", SPEC, str(latin))
    assert code == 2 and f"{latin}:1:6: error: not UTF-8 text (the byte 0xe9)" in err, err
    code, out, err = run("score", SPEC, "examples")
    assert code == 2 and "examples: a folder, not a file" in err, err
    code, out, err = run("query", f"{DC}/biomes.csv", "best-move")
    assert code == 2 and "biomes.csv: a CSV file, not a spec" in err, err


def test_docs_on_a_variant_file_writes_its_page(tmp_path):
    """Found by a sweep: named alone, a variant got no page."""
    code, out, err = run("docs", f"{DC}/variants/two_player.rules", "--out", str(tmp_path))
    assert code == 0, err
    page = (tmp_path / "two_player.md").read_text()
    assert page.startswith("# Darwin's Choice: Two-player Version")
    assert "`def biomes_for`" in page and "DC-VAR-2P-04" in page


def test_savanna_queries_that_cannot_be_answered_say_why():
    """Found by a sweep: too few cards to arrange, or a full grid to place in, answered
    only "no choice satisfies the query's conditions"."""
    code, out, err = run("query", SPEC, "best-arrangement", "--cards", "lion,zebra")
    assert code == 0 and "INFEASIBLE" in out, err
    assert "2 cards cannot fill a 4 x 5 ecosystem, which takes 20" in out and "fills_the_grid [ES-PLACE-03]" in out
    code, out, err = run("query", SPEC, "best-placement", "--state", "examples/margot.grid", "--card", "lion")
    assert code == 0 and "the ecosystem is full: no card can be placed in it" in out, out + err


def test_a_variant_that_takes_a_checkpoint_away_is_warned_of_and_named_by_stop_at(tmp_path):
    v = tmp_path / "v.rules"
    v.write_text(f'variant quiet "Quiet" extends "{rel(ROOT / SPEC, v.parent)}"\n'
                 "override step draft_round.pick_and_place {\n"
                 "  simultaneously for s in seats {\n"
                 "    choose k in hand(s) by s\n"
                 "    choose spot in placements(board(s)) where can_place(board(s), spot) by s\n"
                 "    place k from hand(s) on board(s) at spot\n  }\n}\n"
                 "remove step draft_round.pass_hands\n")
    # neither step holds the checkpoint 'pick' (it is before them): nothing to say
    code, out, err = run("check", str(v))
    assert code == 0 and "warning" not in err, err
    base = tmp_path / "base"
    base.mkdir()
    (base / "g.rules").write_text('game g "G"\nstate { n: int }\n'
                                  "procedure p { repeat 3 { step tick { checkpoint round  set n = n + 1 } } }\n"
                                  'mode standard "S" players 1 { seats players do p() report n = n }\n')
    w = tmp_path / "w.rules"
    w.write_text(f'variant w "W" extends "{rel(base, w.parent)}"\nremove step p.tick\n')
    code, out, err = run("check", str(w))
    assert code == 0
    assert f"{w}:2:13: warning: variant 'w' takes away the checkpoint 'round' (remove step 'p.tick')" in err
    code, out, err = run("play", str(base), "--variant", str(w), "--players", "1", "--stop-at", "round:2",
                         "--save-state", str(tmp_path / "s.json"))
    assert code == 2
    assert f"--stop-at: no checkpoint 'round': variant 'w' takes it away (remove step 'p.tick' at {w}:2)" in err
    # a whole procedure replaced by one without the checkpoint: the same
    w.write_text(f'variant w "W" extends "{rel(base, w.parent)}"\noverride procedure p {{ set n = 3 }}\n')
    code, out, err = run("check", str(w))
    assert code == 0
    assert f"{w}:2:20: warning: variant 'w' takes away the checkpoint 'round' (override procedure 'p')" in err


def test_a_position_of_the_base_game_read_under_a_variant_is_warned_of(tmp_path):
    state = tmp_path / "s.json"
    code, _, err = run("play", SPEC, "--players", "3", "--seed", "2", "--stop-at", "pick:3", "--save-state", str(state))
    assert code == 0, err
    code, out, err = run("show", SPEC, "--state", str(state), "--variant", "spec/house_rules/savanna_oasis.rules")
    assert code == 0, err
    assert (f"warning: {state}: the game was played under the base rules, and this command applies "
            "spec/house_rules/savanna_oasis.rules: the position is read under those rules") in err
    code, out, err = run("show", SPEC, "--state", str(state))
    assert code == 0 and "warning" not in err
    # a house rule with cards the game never had: the position breaks its invariant,
    # and the hint says the rules differ rather than only "mend the file"
    code, out, err = run("show", SPEC, "--state", str(state), "--variant", "spec/house_rules/savanna_rhinos.rules")
    assert code == 2
    assert "the game holds 0 rhino cards, and the box has 6" in err
    assert ("hint: the game was played under the base rules, and is read under spec/house_rules/savanna_rhinos.rules, "
            "whose positions differ: read it under the rules it was played with (name the base spec alone), "
            "or mend the file") in err
    # a position broken by hand, read under its own rules, keeps the plain hint
    doc = json.loads(state.read_text())
    doc["per_seat"]["hand"]["p1"].append("lion")
    state.write_text(json.dumps(doc))
    code, out, err = run("show", SPEC, "--state", str(state))
    assert code == 2 and "hint: a position must be one the rules allow; mend the file" in err


def test_a_saved_position_given_where_a_grid_file_is_read_is_said_to_be_one(tmp_path):
    state = tmp_path / "s.json"
    code, _, err = run("play", SPEC, "--players", "3", "--seed", "2", "--stop-at", "pick:3", "--save-state", str(state))
    assert code == 0, err
    code, out, err = run("query", SPEC, "best-placement", "--state", str(state), "--card", "lion")
    assert code == 2
    assert err.startswith(f"{state}:1:1: error: this is a saved position (JSON), not a grid file"), err


@pytest.mark.parametrize("after", [1.5, 4.0])
def test_ctrl_c_stops_a_query_and_says_so(after):
    """Ctrl-C early in a query (its first search) or later (its local search for a
    better grid): the command stops at once (exit 130), says it was interrupted (with
    the best answer CP-SAT had found by then, marked so), and leaves no traceback and
    no process behind."""
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-m", "rulewright", "query", SPEC, "max-score", "--time-limit", "60"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the query went on after Ctrl-C")
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in out + err and "Traceback" not in err and "internal error" not in err
    if "max_score: " in out:         # stopped while searching: its answer says so
        assert "interrupted (Ctrl-C) after" in out and "no answer within the time limit" not in out


def test_a_division_by_zero_in_a_rule_is_located(tmp_path):
    """At run time (score, play, simulate) and in a param: the rule's line and a
    caret, never an internal error."""
    grid = ROOT / "examples" / "margot.grid"
    step = tmp_path / "v.rules"
    step.write_text(f'variant v "V" extends "{rel(ROOT / SPEC, step.parent)}"\n'
                    "override step score.water = 10 // (count(c in cells(g) if g[c] == water) - 2)\n")
    for args in (("score", str(step), str(grid)), ("play", str(step), "--players", "3", "--seed", "1"),
                 ("simulate", str(step), "--players", "3", "--games", "2")):
        code, out, err = run(*args)
        assert code == 1, (args, err)
        assert f"{step}:2:29: error: cannot divide 10 by 0 (the divisor is 0 here)" in err, (args, err)
        assert "internal error" not in err
    rem = tmp_path / "r.rules"
    rem.write_text(f'variant r "R" extends "{rel(ROOT / SPEC, rem.parent)}"\noverride step score.water = 10 % 0\n')
    code, out, err = run("check", str(rem))
    assert code == 1 and "r.rules:2:29: error: cannot take the remainder of 10 by 0" in err
    param = tmp_path / "p.rules"
    param.write_text(f'variant p "P" extends "{rel(ROOT / SPEC, param.parent)}"\noverride param hand_size = 11 // (2 - 2)\n')
    code, out, err = run("check", str(param))
    assert code == 1
    assert "p.rules:2:28: error: cannot divide 11 by 0" in err and "must be known before play" not in err


def test_play_refuses_to_write_over_what_it_reads_or_its_own_other_output(tmp_path):
    same = tmp_path / "same.json"
    code, out, err = run("play", "spec/darwins_choice", "--players", "3", "--seed", "7", "--stop-at", "turn:2",
                         "--save-state", str(same), "--log", str(same))
    assert code == 2 and "--save-state and --log name the same file" in err and not same.exists()
    rules = ROOT / SPEC / "cards.rules"
    before = rules.read_text()
    code, out, err = run("play", SPEC, "--players", "3", "--seed", "1", "--log", str(rules))
    assert code == 2 and "this file is read by the command" in err
    assert rules.read_text() == before


def test_a_state_of_the_other_game_is_said_to_be_one(tmp_path):
    state = tmp_path / "dc.json"
    code, _, err = run("play", "spec/darwins_choice", "--players", "3", "--seed", "7", "--stop-at", "turn:2",
                       "--save-state", str(state))
    assert code == 0, err
    code, _, err = run("show", SPEC, "--state", str(state))
    assert code == 2
    assert "error: spec: this state is of the spec 'darwins_choice', not 'ecosystem_savanna'" in err
    assert "switch" not in err


def test_a_two_player_version_is_for_two_and_the_base_game_says_where_it_is():
    code, _, err = run("play", "spec/darwins_choice/variants/two_player.rules", "--players", "4", "--seed", "1")
    assert code == 2 and "is for 4 players (two_player: 2 players)" in err
    code, _, err = run("play", "spec/darwins_choice", "--players", "2", "--seed", "1")
    assert code == 2
    assert ("no mode of spec/darwins_choice is for 2 players (standard: 3..6 players); for 2 players: "
            "spec/darwins_choice/variants/kids.rules, spec/darwins_choice/variants/two_player.rules") in err
    code, _, err = run("play", SPEC, "--players", "1", "--seed", "1")
    assert code == 2 and "for 1 player: spec/ecosystem_savanna/variants/solo.rules" in err


def test_diff_compares_versions_of_one_game():
    code, out, err = run("diff", "spec/darwins_choice", SPEC)
    assert code == 2 and not out
    assert "spec/ecosystem_savanna is a spec of another game (Ecosystem: Savanna) than spec/darwins_choice" in err


@pytest.mark.parametrize("args, message", [
    (["play", SPEC, "--players", "3", "--seed", "1", "--seed", "2"],
     "--seed is given twice (--seed 1, then --seed 2): give it once"),
    (["check", "spec/darwins_choice", "--cards", "a.csv", "--card-table", "b.csv"],
     "--cards and --card-table are one option, given twice (--cards a.csv, then --card-table b.csv): give it once"),
    (["query", SPEC, "best-arrangement", "--cards", "examples/margot.cards", "--time-limit", "1", "--time-limit", "2"],
     "--time-limit is given twice (--time-limit 1, then --time-limit 2): give it once"),
    (["check", "spec/darwins_choice", "--table", "biome=a.csv", "--table", "biome=b.csv"],
     "--table biome is given twice, as a.csv and as b.csv"),
    (["check", "spec/darwins_choice", "--cards", "spec/darwins_choice/animal_cards.csv",
      "--table", "animal_card=other.csv"],
     "--cards spec/darwins_choice/animal_cards.csv and --table animal_card=other.csv both give the table "
     "'animal_card': give it once"),
    (["query", SPEC, "best-placement", "--state", "examples/partial.grid", "--card", "lion", "--card", "hyena"],
     "--card is given twice (--card lion, then --card hyena)"),
    (["play", SPEC, "--players", "3", "--agent", "solver", "--agent-seats", ""],
     "--agent-seats takes the seats --agent plays"),
])
def test_an_option_given_twice_is_refused_not_overwritten(args, message):
    code, out, err = run(*args)
    assert code == 2 and message in err, err


def test_a_card_list_that_names_a_missing_file_or_a_folder_says_so(tmp_path):
    for arg, message in (("nonexist.cards", "nonexist.cards: no such file (and, with '/' or '.', not a list of "
                                            "card names either)"),
                         (str(tmp_path), f"{tmp_path}: a folder, not a card list")):
        code, out, err = run("query", SPEC, "best-arrangement", "--cards", arg)
        assert code == 2 and message in err, err


def test_a_variant_extending_what_is_no_spec_is_told_at_its_extends(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("hello\n")
    for target, message in (("empty", "'empty' is a folder without .rules files"),
                            ("notes.txt", "'notes.txt' is a TXT file, not a spec")):
        v = tmp_path / "v.rules"
        v.write_text(f'variant v "V" extends "{target}"\n')
        code, out, err = run("check", str(v))
        assert code == 1 and f"{v}:1:23: error: {message}" in err, err


def test_a_lone_card_of_a_grid_file_is_located(tmp_path):
    grid = tmp_path / "lone.grid"
    grid.write_text(". . . . .\n. lion . . .\n. . . . .\n. . . . hyena\n")
    code, out, err = run("query", SPEC, "best-placement", "--state", str(grid), "--card", "lion")
    assert code == 2 and f"{grid}:" in err and "is not connected to the others" in err, err


def test_small_mistakes_get_plain_messages(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    code, _, err = run("show", SPEC, "--state", str(empty))
    assert code == 2 and f"{empty}: the file is empty" in err
    csv = tmp_path / "empty.csv"
    csv.write_text("")
    code, _, err = run("check", "spec/darwins_choice", "--cards", str(csv))
    assert code == 2 and f"{csv}:1:1: error: this table file is empty" in err and "hint: its first line is the header" in err
    v = tmp_path / "v.rules"
    v.write_text(f'variant v "V" extends "{rel(ROOT / SPEC, v.parent)}"\ndef spare = base + 1\n')
    code, _, err = run("check", str(v))
    assert code == 1 and "unknown name 'base'" in err and "exists only inside an override" in err
    code, _, err = run("play", SPEC, "--players", "3", "--agent", "solver", "--agent-query", "nonsense")
    assert code == 2 and "there is no query 'nonsense' (here: best-pick)" in err


def test_a_querys_help_says_its_defaults():
    code, out, err = run("query", "spec/darwins_choice", "best-mutation", "--help")
    assert code == 0, err
    text = " ".join(out.split())
    assert "(goal) (default: adaptation)" in text and "(has a default, computed from the position)" in text
    assert "--variant FILE, --card-table FILE, --table NAME=FILE" in text


def test_best_pick_draws_the_ecosystem_with_the_card_in_place(tmp_path):
    state = tmp_path / "p3.json"
    code, _, err = run("play", SPEC, "--players", "3", "--seed", "2", "--stop-at", "pick:3", "--save-state", str(state))
    assert code == 0, err
    code, out, err = run("query", SPEC, "best-pick", "--state", str(state), "--player", "p2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    after = next(r["value"] for r in doc["reports"] if r["name"] == "ecosystem_after")
    before = json.loads(state.read_text())["per_seat"]["board"]["p2"]
    cards = lambda grid: sorted(c for row in grid for c in row if c)          # noqa: E731
    assert cards(after) == sorted(cards(before) + [doc["witness"]["k"]])
    r, c = doc["witness"]["spot"]           # counted from the top-left corner as it stands
    shift = (max(0, -r), max(0, -c))
    assert after[r + shift[0]][c + shift[1]] == doc["witness"]["k"]
    code, out, err = run("query", SPEC, "best-pick", "--state", str(state), "--player", "p2")
    assert "  ecosystem after:\n" in out


def test_a_choice_with_nothing_to_choose_from_is_the_reason(tmp_path):
    """No continent in play (a position written by hand): creating is impossible
    because there is no place to choose, and the answer says so."""
    state = tmp_path / "s.json"
    code, _, err = run("play", "spec/darwins_choice", "--players", "3", "--seed", "7", "--stop-at", "turn:2",
                       "--save-state", str(state))
    assert code == 0, err
    doc = json.loads(state.read_text())
    doc["state"]["in_play"], doc["state"]["world"] = [], []
    state.write_text(json.dumps(doc))
    code, out, err = run("query", "spec/darwins_choice", "best-create", "--state", str(state), "--player", "p1")
    assert code == 0, err
    assert "best_create: INFEASIBLE" in out
    assert "- there is nothing to choose place from: in_play is empty here" in out
    # best-move: creating has no place (a choice on the path of one action), and the
    # other actions fail their rules; every option breaks one of them
    code, out, err = run("query", "spec/darwins_choice", "best-move", "--state", str(state), "--player", "p1",
                         "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["status"] == "INFEASIBLE"
    shown = [(r["rule"], r["sentence"], r["path"]) for r in answer["reasons"]]
    assert ("place", "there is nothing to choose place from: in_play is empty here", {"action": "create"}) in shown
    assert {r["rule"] for r in answer["reasons"]} == {"place", "has_species"}
    assert len({r["core"] for r in answer["reasons"]}) == 1


def test_one_file_of_a_spec_folder_is_not_checked_as_a_spec():
    code, out, err = run("check", "spec/darwins_choice/species.rules")
    assert code == 2 and err.count("\n") == 1
    assert ("one file of the spec in spec/darwins_choice (its game line is in game.rules), not a spec of its own: "
            "give the folder, spec/darwins_choice") in err
    code, out, err = run("check", "spec/darwins_choice/game.rules")
    assert code == 2 and "the game line of the spec in spec/darwins_choice" in err
    code, out, err = run("check", "spec/house_rules/savanna_rhinos.rules")      # a variant file is a spec
    assert code == 0, err


def test_docs_writes_nothing_when_a_spec_fails_and_refuses_a_file_as_out(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game g "G"\ndef x = nope\n')
    code, _, err = run("docs", str(bad), "--out", str(tmp_path / "pages"))
    assert code == 1 and not (tmp_path / "pages").exists()
    (tmp_path / "file.txt").write_text("")
    code, _, err = run("docs", SPEC, "--out", str(tmp_path / "file.txt"))
    assert code == 2 and "a file, not a folder" in err


def test_a_setting_the_game_cannot_be_played_with_is_a_bad_command_line():
    code, _, err = run("play", SPEC, "--players", "3", "--set", "hand_size=0")
    assert code == 2 and "a hand of 0 card(s) leaves nothing to pick" in err
    assert "(with --set hand_size=0: a setting the game cannot be played with)" in err


def test_cards_beyond_the_box_are_the_reason_a_query_has_no_answer(tmp_path):
    grid = tmp_path / "lions.grid"
    grid.write_text("lion lion lion lion lion\nlion lion lion lion lion\n. . . . .\n. . . . .\n")
    code, out, err = run("query", SPEC, "best-placement", "--state", str(grid), "--card", "lion", "--time-limit", "20")
    assert code == 0, err
    assert "best_placement: INFEASIBLE" in out and "- the box has 10 of lion, and these cards hold 11" in out


def test_a_game_that_fails_still_writes_its_log(tmp_path):
    v = tmp_path / "v.rules"
    v.write_text(f'variant v "V" extends "{rel(ROOT / SPEC, v.parent)}"\n'
                 "override step score.water = {1: 1, 2: 4}[count(c in cells(g) if g[c] == water)]\n")
    log = tmp_path / "game.log"
    code, _, err = run("play", str(v), "--players", "3", "--seed", "1", "--log", str(log))
    assert code == 1 and "no entry for 0 in a table of values" in err
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events and any(e["kind"] == "choose" for e in events)
