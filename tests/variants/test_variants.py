"""Variants as spec files: extends, override, add, remove, conflicts, chains, diff.

The broken variants with their exact messages are in tests/bad/variants; here the
composition itself, on small variants of the two real specs written to a
temporary directory.
"""
import json
import re
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import ResolveError
from rulewright.compiler.variants.diffing import diff, to_json
from rulewright.compiler.interpret import Interpreter
from helpers import ROOT, grid, rel, run_command

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def eras_played(program, seed=3):
    state = Interpreter(program).play("standard", 3, seed)
    return state.checkpoints.get("era", 0)


def test_override_param_changes_play(tmp_path):
    v = write(tmp_path, "two_eras.rules", f'variant two_eras "Two Eras" extends "{rel(DARWIN, tmp_path)}"\n'
                                          "override param eras = 2\n")
    program = load(v)
    assert program.constants["eras"] == 2
    assert program.title == "Darwin's Choice: Two Eras"
    assert eras_played(program) == 2
    assert eras_played(load(DARWIN)) == 4


def test_override_keeps_base_rule_ids_and_doc(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "override param eras [DC-VAR-GEN-02 XX-NEW-01] = 3\n")
    d = load(v).definitions["eras"]
    assert d.rule_ids == ("DC-FLOW-02", "DC-VAR-GEN-02", "XX-NEW-01")
    assert d.doc == load(DARWIN).definitions["eras"].doc
    assert d.span.file.endswith("v.rules")


def test_switch_default_override_keeps_options(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "override switch tied_feeders = even_split\n")
    program = load(v)
    assert program.switches["tied_feeders"] == "even_split"
    assert program.switch_options("tied_feeders") == ["all_or_none", "even_split"]
    # --set still works on top of a variant
    assert load(v, {"tied_feeders": "all_or_none"}).switches["tied_feeders"] == "all_or_none"


def test_override_step_add_and_remove(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "/// Prairie groups score 1, 3, 6, 10 and 15.\n"
                                   "def triangle = {1: 1, 2: 3, 3: 6, 4: 10, else: 15}\n"
                                   "override step score.prairie = sum(triangle[size(grp)] for grp in "
                                   "groups({c in cells(g) if g[c] == prairie}, adjacent))\n"
                                   "remove step score.tree\n")
    program = load(v)
    interp = Interpreter(program)
    board = grid(interp, """
        P P P T .
        P Z . T .
        Z P . . T
        . . . . .""")
    s = interp.call("score", board, ())
    assert s.steps["prairie"] == 10 + 1
    assert "tree" not in s.steps
    assert [st.name for st in program.definitions["score"].steps][:2] == ["water", "prairie"]


def test_override_state_variable(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "override state {\n"
                                   "  event_stack: pile of event = [e for e in event if e != flood]\n"
                                   "}\n")
    program = load(v)
    state = Interpreter(program).play("standard", 3, 1)
    seen = set(state.shared["event_discard"]) | set(state.shared["event_stack"]) | \
        set(state.shared["event_shown"])
    assert "flood" not in seen and "hurricane" in seen


def test_add_state_and_definitions(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "/// Our own tally.\n"
                                   "def house_bonus [HR-01] = 7\n"
                                   "state { tally: int = house_bonus }\n")
    program = load(v)
    assert program.definitions["house_bonus"].rule_ids == ("HR-01",)
    assert program.definitions["house_bonus"].doc == "Our own tally."
    assert Interpreter(program).play("standard", 3, 1).shared["tally"] == 7


def test_variant_of_a_variant_is_ordered(tmp_path):
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 3\n')
    b = write(tmp_path, "b.rules", 'variant b "B" extends "a.rules"\noverride param eras = 2\n')
    program = load(b)
    assert program.constants["eras"] == 2
    assert [x.name for x in program.variants] == ["a", "b"]
    # applying a and b together is the same chain: no conflict
    assert load(a, variants=[b]).constants["eras"] == 2


def test_unordered_variants_conflict(tmp_path):
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 3\n')
    b = write(tmp_path, "b.rules", f'variant b "B" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 2\n')
    with pytest.raises(ResolveError) as info:
        load(a, variants=[b])
    text = info.value.render()
    assert "variants 'a' and 'b' both change 'eras', and neither extends the other" in text
    assert "b.rules:2:16" in text and "a.rules:2:16" in text      # both spans
    # different definitions: no conflict
    c = write(tmp_path, "c.rules", f'variant c "C" extends "{rel(DARWIN, tmp_path)}"\noverride param hand_size = 8\n')
    program = load(a, variants=[c])
    assert (program.constants["eras"], program.constants["hand_size"]) == (3, 8)


def test_variants_of_different_bases_do_not_mix(tmp_path):
    from rulewright.compiler.diagnostics import BadInputError
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 3\n')
    s = write(tmp_path, "s.rules", f'variant s "S" extends "{rel(SAVANNA, tmp_path)}"\nremove step score.tree\n')
    with pytest.raises(BadInputError, match="it changes"):
        load(a, variants=[s])


def test_cycle_of_variants(tmp_path):
    write(tmp_path, "a.rules", 'variant a "A" extends "b.rules"\noverride param eras = 3\n')
    b = write(tmp_path, "b.rules", 'variant b "B" extends "a.rules"\noverride param eras = 2\n')
    with pytest.raises(ResolveError, match="cycle"):
        load(b)


def test_changed_twice_in_one_variant(tmp_path):
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 3\n'
                                   "override param eras = 2\n")
    with pytest.raises(ResolveError, match="'eras' is changed twice in this variant"):
        load(a)


def test_directory_of_variants_alone_is_not_a_spec(tmp_path):
    from rulewright.compiler.diagnostics import BadInputError
    write(tmp_path, "a.rules", f'variant a "A" extends "{rel(DARWIN, tmp_path)}"\noverride param eras = 3\n')
    from rulewright.compiler import files
    from rulewright.compiler.loader import _Specs
    with pytest.raises(BadInputError, match="only variant files"):
        _Specs(files.allowed([tmp_path])).base(tmp_path)


def test_diff_lists_changes_with_rule_ids_texts_and_downstream(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "override def prairie_points [HR-PRAIRIE] = {1: 1, 2: 3, 3: 6, 4: 10, else: 15}\n"
                                   "remove step score.tree\n"
                                   "def spare = 1\n")
    d = diff(load(SAVANNA), load(v))
    assert [e.name for e in d.changed] == ["prairie_points"]
    assert d.changed[0].rule_ids == ["ES-SCORE-PRAIRIE-02", "ES-SCORE-PRAIRIE-03", "HR-PRAIRIE"]
    assert "{1: 1, 2: 4, 3: 9, else: 16}" in d.changed[0].before.text
    assert "{1: 1, 2: 3, 3: 6, 4: 10, else: 15}" in d.changed[0].after.text
    assert [e.name for e in d.added] == ["spare"]
    assert [e.name for e in d.removed] == ["score.tree"]
    down = {n["name"] for n in d.downstream}
    # the prairie step reads prairie_points; the scoring, the outcome and the modes read the step
    assert {"score.prairie", "score", "final_score", "winners", "standard"} <= down
    assert "herd_size" not in down
    # later steps only when they read a layer the changed step marks: prairie marks none
    assert not {"score.tree", "score.vulture", "score.hyena"} & down
    js = to_json(d)
    assert js["changed"][0]["before"]["at"].startswith("spec/ecosystem_savanna/scoring.rules:4")
    json.dumps(js)


def test_diff_and_the_docs_show_the_doc_comments_a_variant_writes(tmp_path):
    """A variant's own doc comment of what it adds or changes (a row too) is shown; an
    override that writes none keeps the base's, which is not shown as the variant's."""
    from rulewright.compiler.docgen import variants_page
    from rulewright.compiler.variants.diffing import to_text
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "/// Eight lions only.\n"
                                   "override row card.lion: count = 8\n"
                                   "/// Rhinos join the box.\n"
                                   "add row card: rhino | animal | 2 | \"Rhino\"\n"
                                   "override def prairie_points = {1: 1, else: 2}\n"
                                   "/// Bigger prairies score more.\n"
                                   "override def herd_size(g: ecosystem) = 0\n")
    base, variant = load(SAVANNA), load(v)
    d = diff(base, variant)
    docs = {e.name: e.doc for e in d.changed + d.added}
    assert docs == {"card.lion": "Eight lions only.", "card.rhino": "Rhinos join the box.",
                    "prairie_points": "", "herd_size": "Bigger prairies score more."}
    text = "\n".join(to_text(d))
    assert "  row card.lion\n    /// Eight lions only.\n    - " in text
    assert "  def prairie_points [ES-SCORE-PRAIRIE-02 ES-SCORE-PRAIRIE-03]\n    - " in text
    assert to_json(d)["added"][0]["doc"] == "Rhinos join the box."
    page = variants_page("V", "", [(variant, base)])
    assert "- `row card.rhino`: Rhinos join the box." in page


def test_diff_of_identical_specs_is_empty():
    d = diff(load(SAVANNA), load(SAVANNA))
    assert d.empty and not d.downstream


def run(*args):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=ROOT)


def test_cli_diff_text_and_json():
    code, out, err = run("diff", "spec/darwins_choice", "spec/darwins_choice/variants/short_game.rules")
    assert code == 0, err
    assert "param eras [DC-FLOW-02 DC-VAR-GEN-02]" in out
    assert "-   param eras [DC-FLOW-02 DC-VAR-GEN-02]: int = 4" in out
    assert re.search(r"^mode +standard ", out, re.M), out      # (downstream: a row each)
    code, out, err = run("diff", "spec/darwins_choice", "spec/darwins_choice/variants/short_game.rules",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    changed = {c["name"]: c for c in data["changed"]}
    assert set(changed) == {"eras", "how_to_play"}          # (its "how to play" says three Eras)
    assert changed["eras"]["after"]["text"].endswith("= 3")
    assert "standard" in {n["name"] for n in data["downstream"]}


def test_cli_play_with_variant_flag_and_path():
    code, out, err = run("play", "spec/darwins_choice", "--variant",
                         "spec/darwins_choice/variants/short_game.rules", "--players", "3", "--seed", "2",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["state"]["state"]["era"] == 3 + 1       # the loop leaves era one past the last (base: 5)
    code, out2, err = run("play", "spec/darwins_choice/variants/short_game.rules", "--players", "3",
                          "--seed", "2", "--json")
    assert code == 0, err
    assert json.loads(out2)["reports"] == data["reports"]


def test_cli_check_directory_checks_every_variant():
    code, out, err = run("check", "spec/darwins_choice")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("ok: spec/darwins_choice: Darwin's Choice:")
    assert any("variants/short_game.rules" in line for line in lines)


def test_base_names_the_replaced_definition(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "override param eras = base - 1\n"
                                   "state { evaluations: int }\n"
                                   "override procedure evaluation {\n"
                                   "  set evaluations = evaluations + 1\n"
                                   "  do base()\n"
                                   "}\n")
    program = load(v)
    assert program.constants["eras"] == 3
    state = Interpreter(program).play("standard", 3, 2)
    assert state.shared["evaluations"] == 3 == state.checkpoints["evaluated"]
    # the replaced definitions stay out of diff
    d = diff(load(DARWIN), program)
    assert {e.name for e in d.changed} == {"eras", "evaluation"}
    assert [e.name for e in d.added] == ["evaluations"]


def test_base_outside_an_override_is_an_unknown_name(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "def more = base + 1\n")
    with pytest.raises(ResolveError, match="unknown name 'base'"):
        load(v)


def test_cli_score_with_a_variant():
    code, out, err = run("score", "spec/ecosystem_savanna", "examples/margot.grid", "--json")
    assert code == 0, err
    base = json.loads(out)
    code, out, err = run("score", "spec/ecosystem_savanna", "examples/margot.grid", "--json",
                         "--variant", "spec/house_rules/savanna_prairie_triangle.rules")
    assert code == 0, err
    house = json.loads(out)
    # Margot's prairies: groups of 1 and 3 score 1 + 9 in the base game, 1 + 6 here
    b, h = base["players"][0]["scores"], house["players"][0]["scores"]
    assert (b["prairie"], h["prairie"]) == (10, 7)
    assert {k: v for k, v in b.items() if k != "prairie"} == {k: v for k, v in h.items() if k != "prairie"}


def test_cli_state_remembers_its_variant_and_query_applies_it(tmp_path):
    state = tmp_path / "two.json"
    code, _, err = run("play", "spec/darwins_choice/variants/two_player.rules", "--seed", "2",
                       "--stop-at", "turn:3", "--save-state", str(state))
    assert code == 0, err
    doc = json.loads(state.read_text())
    assert [Path(v).name for v in doc["variants"]] == ["two_player.rules"]
    # the base spec named: the saved variant is applied again (3 biomes, its modes)
    code, out, err = run("query", "spec/darwins_choice", "best-move", "--state", str(state), "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["status"] in ("OPTIMAL", "INFEASIBLE")
    code, out, err = run("show", "spec/darwins_choice", "--state", str(state))
    assert code == 0, err
    assert out.startswith("Darwin's Choice: Two-player Version")


def test_diff_follows_the_layers_a_changed_step_marks(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "override step score.cheetah = 0\n")
    down = {n["name"] for n in diff(load(SAVANNA), load(v)).downstream}
    # the cheetah turns gazelles face down: the lion, elephants, hyenas and vultures read that
    assert {"score.lion", "score.elephant", "score.hyena", "score.vulture"} <= down
    assert not {"score.water", "score.zebra", "score.giraffe", "score.tree"} & down


def test_setting_what_no_rule_reads_is_an_error_and_check_warns(tmp_path):
    # a variant replaces the only rule that read the reading hyena_range
    v = write(tmp_path, "v.rules", f'variant short_hyenas "Hyenas reach two cells away" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "override relation hyena_reach = two_away\n")
    code, _, err = run("play", str(v), "--set", "hyena_range=manhattan", "--players", "3", "--seed", "1")
    assert code == 2
    assert "--set hyena_range: no rule of Ecosystem: Savanna: Hyenas reach two cells away reads it " \
           "(a variant replaced what read it)" in err
    code, out, err = run("check", str(v))
    assert code == 0 and out.startswith("ok: ")
    assert "warning: switch 'hyena_range' is read by no rule of Ecosystem: Savanna: Hyenas reach two cells away" \
        in err
    # the base game reads it, and every spec and variant shipped reads all its switches and params
    code, _, err = run("check", "spec")
    assert code == 0 and "warning" not in err, err


def test_a_state_of_a_variant_queried_through_the_base_spec(tmp_path):
    state = tmp_path / "kids.json"
    code, _, err = run("play", "spec/darwins_choice/variants/kids.rules", "--players", "3", "--seed", "1",
                       "--stop-at", "turn:3", "--save-state", str(state))
    assert code == 0, err
    code, out, err = run("query", "spec/darwins_choice", "best-move", "--state", str(state), "--json")
    assert code == 0, err
    assert json.loads(out)["status"] == "OPTIMAL"


# ---------------------------------------------------------------- steps of procedures, steps in place

STEP_GAME = '''game g "G"
per seat { tally: int }
procedure turn(p: seat) {
  /// One point.
  step gain [G-ONE] { set tally(p) = tally(p) + 1 }
  if tally(p) < 100 {
    step double { set tally(p) = tally(p) * 2 }
  }
}
mode standard "S" players 1 { seats players for p in players { do turn(p) do turn(p) } report t for p in players = tally(p) }
'''


def step_game(tmp_path, variant: str | None = None):
    base = tmp_path / "g"
    base.mkdir(exist_ok=True)
    (base / "g.rules").write_text(STEP_GAME)
    if variant is None:
        return load(base)
    return load(write(tmp_path, "v.rules", f'variant v "V" extends "{rel(base, tmp_path)}"\n' + variant))


def tally(program):
    (value,) = Interpreter(program).play("standard", 1, 1).reports["t"].values()
    return value


def test_a_procedure_step_runs_in_place_and_is_a_node_of_the_rules_graph(tmp_path):
    from rulewright.compiler import graph
    program = step_game(tmp_path)
    assert tally(program) == 6          # two turns: (0 + 1) * 2 = 2, then (2 + 1) * 2 = 6
    g = graph.build(program)
    assert g.nodes["turn.gain"]["kind"] == "step" and g.nodes["turn.gain"]["rules"] == ["G-ONE"]
    assert g.edges["turn", "turn.double"]["kind"] == "contains"       # a step inside an if
    assert not g.has_edge("turn.gain", "turn.double")        # "precedes" links steps of one block
    assert g.edges["turn.gain", "tally"]["kind"] == "reads"


@pytest.mark.parametrize("variant, expected", [
    # a step of a procedure replaced, at any depth, keeping its place
    ("override step turn.gain { set tally(p) = tally(p) + 3 }", (3 * 2 + 3) * 2),
    ("override step turn.double { set tally(p) = tally(p) * 3 }", ((1 * 3) + 1) * 3),
    # the base step run inside the new one
    ("override step turn.gain { do base() do base() }", ((2 * 2) + 2) * 2),
    ("remove step turn.double", 2),
    ("add step turn.bonus after gain { set tally(p) = tally(p) + 10 }", ((11 * 2) + 11) * 2),
    ("add step turn.bonus before gain { set tally(p) = tally(p) * 10 }", ((0 + 1) * 2 * 10 + 1) * 2),
    ("add step turn.bonus after double { set tally(p) = tally(p) + 10 }", ((2 + 10) + 1) * 2 + 10),
    ("add step turn.bonus { set tally(p) = tally(p) - 1 }", ((1 * 2 - 1) + 1) * 2 - 1),   # at the end
])
def test_variants_change_a_procedure_step_by_step(tmp_path, variant, expected):
    assert tally(step_game(tmp_path, variant)) == expected


def test_an_added_step_lands_inside_the_block_of_the_step_it_follows(tmp_path):
    # 'double' is inside the if: a step after it is in the if too (not run once tally >= 100)
    program = step_game(tmp_path, "add step turn.bonus after double { set tally(p) = tally(p) + 100 }")
    body = program.procedures["turn"].body
    assert [type(st).__name__ for st in body] == ["Block", "If"]
    assert [st.name for st in body[1].then] == ["double", "bonus"]
    assert tally(program) == ((0 + 1) * 2 + 100) + 1     # the second turn skips the if


def test_scoring_steps_added_in_place_and_built_on_the_base(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "add step score.shade after water = "
                                   "count(c in cells(g) if g[c] == water and any(g[n] == tree for n in adjacent(c)))\n"
                                   "override step score.giraffe = base + 1\n"
                                   "override step score.lion { do base() points 100 * size(lion_prey) }\n")
    program = load(v)
    text = "W T F P . / L G . . . / . . . . . / . . . . .".replace(" / ", "\n")
    s, b = (it.call("score", grid(it, text), ()) for it in (Interpreter(program), Interpreter(load(SAVANNA))))
    assert list(s.steps)[:3] == ["water", "shade", "prairie"]
    assert s.steps["shade"] == 1                       # the water hole next to the tree
    assert s.steps["giraffe"] == b.steps["giraffe"] + 1 == 5 + 1
    # the lion (next to no prairie) hunts nothing in the base, so the bonus is 0 too
    assert s.steps["lion"] == b.steps["lion"] == 0
    d = diff(load(SAVANNA), program)
    assert [e.name for e in d.added] == ["score.shade"]
    assert sorted(e.name for e in d.changed) == ["score.giraffe", "score.lion"]


def test_a_lion_step_built_on_its_base_keeps_the_base_choice(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "override step score.lion { do base() points 100 * size(lion_prey) }\n")
    interp = Interpreter(load(v))
    s = interp.call("score", grid(interp, """
        L P . . .
        G . . . .
        . . . . .
        . . . . ."""), ())
    assert s.steps["lion"] == 4 + 100                   # one gazelle taken: 4, and the new 100


# ---------------------------------------------------------------- fields with defaults

TOKEN_GAME = '''game g "G"
record token { owner: int, power: int = 2 }
state { pool: list of token = [new token(owner = 1), new token(owner = 2, power = 5)] }
mode standard "S" players 1 { seats players checkpoint start report total = sum(t.power for t in pool) }
'''


def test_a_field_with_a_default_may_be_left_out_by_new_by_a_variant_and_by_a_state_file(tmp_path):
    from rulewright.compiler.play import state_io
    base_dir = tmp_path / "g"
    base_dir.mkdir()
    (base_dir / "g.rules").write_text(TOKEN_GAME)
    base = load(base_dir)
    assert Interpreter(base).play("standard", 1, 1).reports["total"] == 2 + 5
    v = load(write(tmp_path, "v.rules", f'variant v "V" extends "{rel(base_dir, tmp_path)}"\n'
                                        "/// The round a token was made in.\n"
                                        "add field token.age [X-AGE-01]: int = 7\n"
                                        "override state { pool: list of token = [new token(owner = 3, age = 1)] }\n"))
    assert [f for f, _ in v.records["token"].fields] == ["owner", "power", "age"]
    st = Interpreter(v).play("standard", 1, 1, stop_at="start")
    assert [(t.f_owner, t.f_power, t.f_age) for t in st.shared["pool"]] == [(3, 2, 1)]
    # a position of the base game (no 'age') reads under the variant with the default
    doc = state_io.dump(Interpreter(base).play("standard", 1, 1, stop_at="start"), seed=1)
    assert doc["state"]["pool"] == [{"owner": 1, "power": 2}, {"owner": 2, "power": 5}]
    loaded = state_io.load(Interpreter(v), "<doc>", doc, json.dumps(doc))
    assert [(t.f_owner, t.f_power, t.f_age) for t in loaded.shared["pool"]] == [(1, 2, 7), (2, 5, 7)]
    # a field without a default is still needed
    del doc["state"]["pool"][0]["owner"]
    with pytest.raises(Exception, match="lacks owner"):
        state_io.load(Interpreter(v), "<doc>", doc, json.dumps(doc))
    assert [e.name for e in diff(base, v).added] == ["token.age"]


# ---------------------------------------------------------------- rows added to tables and enums

def test_a_variant_adds_a_row_after_a_table_file_and_a_value_to_an_enum(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "add row special: venomous\n"
                                   'add row animal_card [X-DODO-01]: dodo_legs | "Dodo" | legs | small | herbivore | 1 | 0'
                                   ' | "running running" | venomous | "" | 2 | "printed" | "a home-made card"\n')
    # the spec's checks hold the new row to the catalogue's rules, located at the variant
    with pytest.raises(ResolveError) as err:
        load(v)
    d = err.value.diagnostics[0]
    assert d.span.file == str(v) and d.span.line == 3 and "only Head Cards show a nutrition symbol" in d.message
    # and the box's totals: a house rule that adds cards says how many the box holds
    box = [d for d in err.value.diagnostics if "Animal Cards" in d.message]
    assert box and all("override check" in d.hint for d in box)
    assert all([(str(s.file), n) for s, n in d.notes] == [(str(v), "a row a variant adds")] for d in box)
    v.write_text(v.read_text().replace("| small | herbivore |", "| small | none |")
                 + "override check cards_in_box: sum(k.copies for k in animal_card) == 237 + 2 else \"239\"\n"
                 + "override check small_cards_in_box: true else \"-\"\n")
    program = load(v)
    assert program.enums["special"].values[-1] == "venomous"
    cards = program.enums["animal_card"]
    assert cards.values[-1] == "dodo_legs" and len(cards.values) == len(load(DARWIN).enums["animal_card"].values) + 1
    assert (cards.attrs["abilities"]["dodo_legs"], cards.attrs["special"]["dodo_legs"],
            cards.attrs["copies"]["dodo_legs"]) == (("running", "running"), "venomous", 2)
    # the row follows the table whatever file a player loads in its place
    own = tmp_path / "cards.csv"
    own.write_text((DARWIN / "animal_cards.csv").read_text().replace(",Bongo,", ",Bongo antelope,"))
    mine = load(v, tables={"animal_card": str(own)})
    assert mine.enums["animal_card"].attrs["animal"]["bongo_head"] == "Bongo antelope"
    assert mine.enums["animal_card"].values[-1] == "dodo_legs"
    d = diff(load(DARWIN), program)
    assert sorted(e.name for e in d.added) == ["animal_card.dodo_legs", "special.venomous"]



def test_a_variant_changes_values_of_one_row(tmp_path):
    """override row TABLE.NAME: column = value, ... changes those values of that row,
    the row of the table's file (whichever file a player loads) or one a variant adds;
    the spec's checks hold the changed row, located at the change."""
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "override row biome.tundra [X-TUNDRA-01]: plants = 8, points = 3\n"
                                   "override row animal_card.lion_head: hearts = 3, abilities = \"running heat_resistance\"\n")
    base, program = load(DARWIN), load(v)
    biome, cards = program.enums["biome"], program.enums["animal_card"]
    assert (biome.attrs["plants"]["tundra"], biome.attrs["points"]["tundra"], biome.attrs["meat"]["tundra"]) == \
        (8, 3, base.enums["biome"].attrs["meat"]["tundra"])
    assert (cards.attrs["hearts"]["lion_head"], cards.attrs["abilities"]["lion_head"]) == \
        (3, ("running", "heat_resistance"))
    for column in ("plants", "points"):        # no other row changes
        assert {k: x for k, x in biome.attrs[column].items() if k != "tundra"} == \
            {k: x for k, x in base.enums["biome"].attrs[column].items() if k != "tundra"}
    # a player's own card table: the change applies to its row
    own = tmp_path / "cards.csv"
    own.write_text((DARWIN / "animal_cards.csv").read_text().replace(",Lion,", ",Lion of the plains,"))
    mine = load(v, tables={"animal_card": str(own)}).enums["animal_card"]
    assert (mine.attrs["animal"]["lion_head"], mine.attrs["hearts"]["lion_head"]) == ("Lion of the plains", 3)
    # diff: the row changed, the base's line of the table file against the change
    (row, card) = sorted(diff(base, program).changed, key=lambda e: e.name)[:2]
    assert (row.name, row.kind, row.rule_ids) == ("animal_card.lion_head", "row", [])
    assert card.name == "biome.tundra" and card.before.text.startswith("tundra,Tundra,") and \
        card.after.text == "row biome.tundra [X-TUNDRA-01]: plants = 8, points = 3"
    # a row a variant adds can be changed by a variant that extends it
    dodo = write(tmp_path, "dodo.rules", f'variant dodo "D" extends "{rel(SAVANNA, tmp_path)}"\n'
                                         'add row card: dodo | animal | 2 | "Dodo"\n')
    more = write(tmp_path, "more.rules", f'variant more "M" extends "{rel(dodo, tmp_path)}"\noverride row card.dodo: count = 5\n')
    assert load(more).enums["card"].attrs["count"]["dodo"] == 5
    # diff shows a row as the variants leave it: added, then each change, in order
    (entry,) = diff(load(dodo), load(more)).changed
    assert entry.name == "card.dodo" and entry.after.text.splitlines() == \
        ['dodo | animal | 2 | "Dodo"', "row card.dodo: count = 5"]
    (entry,) = diff(load(SAVANNA), load(more)).added
    assert entry.name == "card.dodo" and entry.after.text.endswith("count = 5")
    # and a row changed twice, by a variant and one that extends it
    rarer = write(tmp_path, "rarer.rules", f'variant rarer "R" extends "{rel(HOUSE / "savanna_rare_lions.rules", tmp_path)}"\n'
                                           "override row card.lion: count = 2\n")
    (entry,) = diff(load(HOUSE / "savanna_rare_lions.rules"), load(rarer)).changed
    assert entry.after.text.splitlines()[-1] == "row card.lion: count = 2"
    assert load(rarer).enums["card"].attrs["count"]["lion"] == 2


def refused(tmp_path, lines: str):
    """A variant of Darwin's Choice with these lines, and the first error loading it gives."""
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n{lines}\n')
    with pytest.raises(ResolveError) as err:
        load(v)
    return v, err.value.diagnostics[0]


@pytest.mark.parametrize("line, message, at", [
    ("override row biome.tundr: plants = 8", "table 'biome' has no row 'tundr'", "biome.tundr"),
    ("override row biome.tundra: plantz = 8", "table 'biome' has no column 'plantz'", "plantz"),
    ("override row merit.strongest: x = 1", "cannot override row 'merit.strongest': 'merit' is an enum",
     "merit.strongest"),
    ("override row biome.tundra: plants = 8, plants = 9", "the column 'plants' is set twice", "plants = 9"),
    ("override row event.flood: effect = sometimes", "'sometimes' is not an effect (column 'effect')", "sometimes"),
    ("override row event.floods: effect = instant", "table 'event' has no row 'floods'", "event.floods"),
    ("override row biome.tundra: plants = -3", "a food supply is a count of chips: tundra",
     "row biome.tundra"),
])
def test_a_row_change_that_cannot_be_is_located(tmp_path, line, message, at):
    v, d = refused(tmp_path, line)
    assert d.message == message
    assert d.span.file == str(v) and d.span.line == 2 and line[d.span.col - 1:].startswith(at.split(" ")[0])


def test_a_row_changed_by_unrelated_variants_conflicts(tmp_path):
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(SAVANNA, tmp_path)}"\noverride row card.lion: count = 6\n')
    b = write(tmp_path, "b.rules", f'variant b "B" extends "{rel(SAVANNA, tmp_path)}"\noverride row card.lion: count = 2\n')
    with pytest.raises(ResolveError, match="variants 'a' and 'b' both change 'card.lion'"):
        load(SAVANNA, variants=[a, b])
    whole = write(tmp_path, "w.rules", f'variant w "W" extends "{rel(SAVANNA, tmp_path)}"\n'
                                       'override table card (family: family, count: int, fr: text) {\n'
                                       '  water | terrain | 132 | "Eau" }\n')
    with pytest.raises(ResolveError, match="changes 'card.lion' and variant 'w' the whole of 'card'"):
        load(SAVANNA, variants=[a, whole])


def test_a_variant_removes_a_row_of_a_table_file_an_inline_table_and_an_enum(tmp_path):
    """remove row TABLE.NAME: the row is gone once every row is read (a table file's
    too), and so is the name; a rule that still names it is an error there, with the
    removal as a note."""
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "remove row animal_card.bongo_head\n"
                                   "override check cards_in_box: sum(k.copies for k in animal_card) == 236 "
                                   'else "236 cards"\n'
                                   'override check small_cards_in_box: true else "any"\n')
    prog = load(v)
    assert "bongo_head" not in prog.enums["animal_card"].values
    assert "bongo_head" not in prog.enum_of_value
    assert len(prog.enums["animal_card"].values) == len(load(DARWIN).enums["animal_card"].values) - 1
    assert "bongo_head" not in Interpreter(prog).call("small_box")
    # a row a rule still names, then removed with the rule
    named = write(tmp_path, "n.rules", f'variant n "N" extends "{rel(SAVANNA, tmp_path)}"\nremove row card.vulture\n')
    with pytest.raises(ResolveError) as err:
        load(named)
    d = err.value.diagnostics[0]
    assert d.message == "unknown name 'vulture': a variant removes it from table 'card'"
    assert d.span.file.endswith("scoring.rules") and d.hint == "remove or override what uses it too"
    assert d.notes[0][0].file == str(named) and "variant 'n' removes 'card.vulture' here" in d.notes[0][1]
    gone = write(tmp_path, "g.rules", f'variant g "G" extends "{rel(SAVANNA, tmp_path)}"\nremove row card.vulture\n'
                                      "remove step score.vulture\noverride param max_players = 5\n")
    prog = load(gone)
    it = Interpreter(prog)
    assert "vulture" not in it.call("box") and len(it.call("box")) == 132 - 8
    st = it.play("standard", 4, 2)
    assert all("vulture" not in st.per["board"][s].cards.values() for s in st.seats)
    # a grid or a position that still holds the card: the input's error says a variant removes it
    g = write(tmp_path, "v.grid", "vulture tree tree tree tree\n" + "tree tree tree tree tree\n" * 3)
    from rulewright.compiler.diagnostics import BadInputError
    from rulewright.compiler.play.inputs import read_grid
    with pytest.raises(BadInputError) as err:
        read_grid(str(g), prog, "ecosystem", allow_free=False)
    assert err.value.diagnostics[0].hint == f"a variant removes it from card ({gone}:2)"
    # a value of an enum: gone from the enum, and a rule that names it says so
    e = write(tmp_path, "e.rules", f'variant e "E" extends "{rel(DARWIN, tmp_path)}"\nremove row death.eaten\n')
    with pytest.raises(ResolveError) as err:
        load(e)
    assert err.value.diagnostics[0].message == "unknown name 'eaten': a variant removes it from enum 'death'"


@pytest.mark.parametrize("line, message, at", [
    ("remove row event.floods", "table 'event' has no row 'floods'", "event.floods"),
    ("remove row events.flood", "cannot remove row 'events.flood': the base has no table or enum 'events'",
     "events.flood"),
    ("remove row event", "'remove row event' names no row", "event"),
    ("remove row eras.x", "cannot remove row 'eras.x': 'eras' is a param", "eras.x"),
    ("remove row ability.swimming", "row 'blue_footed_booby_legs' of table 'animal_card' holds 'swimming' in its "
     "column 'abilities': a variant removes it from enum 'ability' (75 rows hold it, the first 3 are shown)", None),
    ("remove row event.flood\nremove row event.flood", "'event.flood' is changed twice in this variant",
     "event.flood"),
])
def test_a_row_removal_that_cannot_be_is_located(tmp_path, line, message, at):
    v, d = refused(tmp_path, line)
    assert d.message == message
    if at is not None:
        assert d.span.file == str(v)
        written = v.read_text().splitlines()[d.span.line - 1]
        assert written[d.span.col - 1:].startswith(at)
    else:                           # at the row of the table file that holds the value
        assert d.span.file.endswith("animal_cards.csv")
        assert "removes 'ability.swimming' here" in d.notes[0][1]


def test_a_row_removed_and_changed_by_unrelated_variants_conflicts_and_checks_note_the_removal(tmp_path):
    a = write(tmp_path, "a.rules", f'variant a "A" extends "{rel(SAVANNA, tmp_path)}"\noverride row card.lion: count = 6\n')
    b = write(tmp_path, "b.rules", f'variant b "B" extends "{rel(SAVANNA, tmp_path)}"\nremove row card.lion\n')
    with pytest.raises(ResolveError, match="variants 'a' and 'b' both change 'card.lion'"):
        load(SAVANNA, variants=[a, b])
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\nremove row animal_card.bongo_head\n')
    with pytest.raises(ResolveError) as err:
        load(v)
    d = next(d for d in err.value.diagnostics if "237" in d.message)
    assert d.notes == ((d.notes[0][0], "a row a variant removes"),) and d.notes[0][0].file == str(v)
    assert "a variant that adds, changes or removes rows can override check cards_in_box" in d.hint


def test_diff_lists_a_removed_row_and_what_reads_its_table():
    base, hr = load(DARWIN), load(HOUSE / "darwin_no_degeneration.rules")
    d = diff(base, hr)
    (removed,) = [e for e in d.removed if e.kind == "row"]
    assert removed.name == "event.degeneration" and removed.before.text.startswith("degeneration")
    assert removed.doc == "The Degeneration card, out of the game."     # the variant's doc comment
    assert removed.rule_ids == ["HR-DC-NO-DEGENERATION"]                 # and the IDs it names
    assert to_json(d)["removed"][0]["doc"] == removed.doc
    assert removed.before.span.file.endswith("components.rules")
    reads = {x["name"] for x in d.downstream}
    assert "event_step" not in reads and "most_food" in reads        # most_food goes over every event


# ---------------------------------------------------------------- parts and wholes, order of added steps

HOUSE = ROOT / "spec" / "house_rules"
TWO_PLAYER = SAVANNA / "variants" / "two_player.rules"


def test_a_step_house_rule_composes_with_a_variant_that_changes_another_step():
    # two_player changes draft_round.pick_and_place; one_direction draft_round.pass_hands
    def sources(variants):
        hands = {}

        def watch(state, label):
            if label in ("pick:1", "pick:2", "pick:11", "pick:12"):
                hands[label] = {str(p): sorted(state.per["hand"][p]) for p in state.seats}

        Interpreter(load(SAVANNA, variants=variants)).play("two_player", 2, 1, watchers=[watch])

        def came_from(before, after):
            return {p: [q for q, old in hands[before].items() if len(old) == len(now) + 1
                        and all(now.count(k) <= old.count(k) for k in now)]
                    for p, now in hands[after].items()}
        return came_from("pick:1", "pick:2"), came_from("pick:11", "pick:12")

    alone_1, alone_2 = sources([TWO_PLAYER])
    assert alone_1 != alone_2                                  # round 2 passes the other way
    for order in ([HOUSE / "savanna_one_direction.rules", TWO_PLAYER],
                  [TWO_PLAYER, HOUSE / "savanna_one_direction.rules"]):
        round_1, round_2 = sources(order)
        assert round_1 == alone_1 and round_2 == round_1        # both rounds pass left


def test_a_part_and_its_whole_changed_by_unrelated_variants_conflict(tmp_path):
    whole = write(tmp_path, "whole.rules", f'variant whole "W" extends "{rel(SAVANNA, tmp_path)}"\n'
                                           "override procedure draft_round(direction: direction) {\n"
                                           "  for s in seats { deal hand_size from deck to hand(s) } }\n")
    with pytest.raises(ResolveError) as info:
        load(SAVANNA, variants=[HOUSE / "savanna_one_direction.rules", whole])
    (d,) = info.value.diagnostics
    assert d.message == ("variant 'one_direction' changes 'draft_round.pass_hands' and variant 'whole' the "
                         "whole of 'draft_round', and neither extends the other")
    # a variant that extends the other orders them: it may replace the whole
    ordered = write(tmp_path, "ordered.rules", f'variant ordered "O" extends "{rel(HOUSE / "savanna_one_direction.rules", tmp_path)}"\n'
                                               "override procedure draft_round(direction: direction) {\n"
                                               "  for s in seats { deal hand_size from deck to hand(s) } }\n")
    # its draft has no pick any more: the base query that plays the pick must go too
    with pytest.raises(ResolveError) as info:
        load(ordered)
    d = info.value.diagnostics[0]
    assert d.message == "no procedure of this spec makes a choice 'k'"
    assert d.notes[0][1] == "variant 'ordered' overrides 'draft_round' here, which made it"
    assert d.hint == "override or remove the query that plays it too"
    ordered.write_text(ordered.read_text() + "remove query best_pick\n")
    assert [st for st in load(ordered).procedures["draft_round"].body if type(st).__name__ == "Block"] == []
    row = write(tmp_path, "row.rules", f'variant row "R" extends "{rel(SAVANNA, tmp_path)}"\n'
                                       'add row card: rhino | animal | 6 | "Rhino"\n')
    table = write(tmp_path, "table.rules", f'variant table "T" extends "{rel(SAVANNA, tmp_path)}"\n'
                                           'override table card (family: family, count: int, fr: text) {\n'
                                           '  water | terrain | 132 | "Eau" }\n')
    with pytest.raises(ResolveError, match="changes 'card.rhino' and variant 'table' the whole of 'card'"):
        load(SAVANNA, variants=[row, table])


def variant(tmp_path, name: str, base, *items: str):
    """A variant file NAME.rules of ``base`` with these items, one per line."""
    return write(tmp_path, f"{name}.rules", f'variant {name} "{name}" extends "{rel(base, tmp_path)}"\n' + "\n".join(items) + "\n")


def test_steps_added_after_one_step_keep_the_order_they_were_added_in(tmp_path):
    a = variant(tmp_path, "a", SAVANNA, "add step draft_round.first_note after pick_and_place { note a = 1 }",
                "add step draft_round.second_note after pick_and_place { note b = 2 }")
    c = variant(tmp_path, "c", SAVANNA, "add step draft_round.third_note after pick_and_place { note c = 3 }")
    body = load(SAVANNA, variants=[a, c]).procedures["draft_round"].body
    (loop,) = [st for st in body if type(st).__name__ == "Repeat"]
    assert [st.name for st in loop.body if type(st).__name__ == "Block"] == \
        ["pick_and_place", "first_note", "second_note", "third_note", "pass_hands"]


def test_a_step_added_at_the_end_of_a_mode_comes_before_its_reports(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(DARWIN, tmp_path)}"\n'
                                   "add step standard.final_bonus { for p in players { set banked(p) = banked(p) + 100 } }\n")
    program = load(v)
    kinds = [type(st).__name__ for st in program.modes["standard"].body]
    assert kinds[-3:] == ["Block", "Report", "Report"]
    st = Interpreter(program).play("standard", 3, 2)
    base = Interpreter(load(DARWIN)).play("standard", 3, 2)
    assert {p: v - base.reports["score"][p] for p, v in st.reports["score"].items()} == {p: 100 for p in st.players}


def test_the_steps_of_a_wrapped_procedure_are_still_its_steps(tmp_path):
    wrap = variant(tmp_path, "wrap", SAVANNA, "override procedure draft_round(direction: direction) {",
                   "  note round_starts = direction", "  do base(direction)", "}")
    left = variant(tmp_path, "left", wrap, "override step draft_round.pass_hands { pass hand to left }")
    program = load(left)
    kept = [name for name in program.procedures if "__before_" in name]
    (inner,) = kept
    passes = [st for st in _blocks(program.procedures[inner].body) if st.name == "pass_hands"]
    assert [type(x).__name__ for x in passes[0].body] == ["Pass"]
    assert passes[0].body[0].direction.value == "left"


def _blocks(body):
    for st in body:
        if type(st).__name__ == "Block":
            yield st
        for sub in vars(st).values():
            if isinstance(sub, list) and sub and hasattr(sub[0], "span"):
                yield from _blocks(sub)


def test_an_added_row_or_value_keeps_its_rule_ids_and_reaches_what_reads_its_table(tmp_path):
    v = write(tmp_path, "v.rules", f'variant v "V" extends "{rel(SAVANNA, tmp_path)}"\n'
                                   "add row family [X-FAM-01]: fungus\n"
                                   'add row card [X-RHINO-01]: rhino | animal | 6 | "Rhino"\n')
    from rulewright.compiler.syntax import ast as A
    program = load(v)
    ids = {t for d in program.definitions.values() for t in A.tagged_ids(d)}
    assert {"X-FAM-01", "X-RHINO-01"} <= ids
    d = diff(load(SAVANNA), program)
    assert sorted(e.name for e in d.added) == ["card.rhino", "family.fungus"]
    assert {"box", "score.water", "score.elephant"} <= {n["name"] for n in d.downstream}


# ---------------------------------------------------------------- from a review of the step machinery

SMALL_GAME = '''game small "Small"
state { n: int = 0 }
table thing (v: int) {
  a | 1
  b | 2
}
check few_things: sum(t.v for t in thing) <= 5 else "too much"
procedure p {
  step a { let k = 1  set n = n + k }
  repeat 2 {
    step b { checkpoint turn  set n = n + 2 }
  }
  step c { set n = n + 3 }
}
scoring score(x: int) {
  step one = x
  step two = 2 * x
}
mode standard "S" players 1 { seats players  do p()  report total = n }
'''


def small_game(tmp_path):
    base = tmp_path / "small"
    base.mkdir(exist_ok=True)
    (base / "g.rules").write_text(SMALL_GAME)
    return base


def total(program):
    return Interpreter(program).play("standard", 1, 1).reports["total"]


def test_a_step_added_after_a_step_of_a_wrapped_procedure_runs(tmp_path):
    base = small_game(tmp_path)
    wrap = variant(tmp_path, "wrap", base, "override procedure p { do base() }")
    after = variant(tmp_path, "after", wrap, "add step p.z after a { set n = n + 100 }")
    assert total(load(base)) == 1 + 4 + 3
    assert total(load(after)) == 1 + 100 + 4 + 3
    d = diff(load(base), load(wrap))
    assert [e.name for e in d.removed] == []           # the wrapped steps still run


def test_base_in_a_step_override_is_the_base_steps_value_computed_once(tmp_path):
    base = small_game(tmp_path)
    v = variant(tmp_path, "v", base, "override step score.two = sum(base for x in [100, 200])")
    assert Interpreter(load(v)).call("score", 7).steps["two"] == 2 * (2 * 7)      # not 2 * 100 + 2 * 200
    bad = variant(tmp_path, "bad", base, "override step score.two = sum(base for base in [1, 2, 3])")
    with pytest.raises(ResolveError, match="no let, loop or choice can take the name"):
        load(bad)


def test_do_base_runs_the_base_steps_lets_as_its_own(tmp_path):
    base = small_game(tmp_path)
    v = variant(tmp_path, "v", base, "override step p.a {", "  let k = 10", "  do base()", "  set n = n + k", "}")
    assert total(load(v)) == (1 + 10) + 4 + 3


def test_a_name_of_an_inner_block_cannot_hide_one_of_an_enclosing_block(tmp_path):
    spec = write(tmp_path, "s.rules", 'game s "S"\nstate { n: int }\n'
                                      "procedure p { let k = 1  if n == 0 { let k = 100  set n = k }  set n = n + k }\n"
                                      'mode standard "S" players 1 { seats players do p() report total = n }\n')
    with pytest.raises(ResolveError, match="'k' is already a name of an enclosing block"):
        load(spec)


def test_a_removed_step_and_a_step_put_beside_it_by_unrelated_variants_conflict(tmp_path):
    base = small_game(tmp_path)
    rb = variant(tmp_path, "rb", base, "remove step p.b")
    ax = variant(tmp_path, "ax", base, "add step p.x after b { set n = n + 100 }")
    for order in ([rb, ax], [ax, rb]):
        with pytest.raises(ResolveError, match="disagree on the step 'p.b'"):
            load(base, variants=order)


def test_a_failed_change_does_not_count_as_a_change(tmp_path):
    base = small_game(tmp_path)
    v = variant(tmp_path, "v", base, "add step q.y { set n = 1 }", "procedure q { set n = 2 }")
    with pytest.raises(ResolveError) as info:
        load(v)
    assert [d.message for d in info.value.diagnostics] == \
        ["cannot add step 'q.y': the base has no scoring, procedure or mode 'q'"]


def test_a_whole_table_check_broken_by_added_rows_notes_them(tmp_path):
    base = small_game(tmp_path)
    v = variant(tmp_path, "v", base, "add row thing: c | 2", "add row thing: d | 3")
    with pytest.raises(ResolveError) as info:
        load(v)
    (d,) = info.value.diagnostics
    assert d.message.startswith("too much") and [str(s.file) for s, _ in d.notes] == [str(v), str(v)]
    assert "override check few_things" in d.hint


def test_a_checkpoint_still_elsewhere_is_not_lost(tmp_path):
    from rulewright.compiler.variants import lost_checkpoints
    base = small_game(tmp_path)
    moved = variant(tmp_path, "moved", base, "override step p.b { set n = n + 2 }",
                    "add step p.mark before a { checkpoint turn }")
    gone = variant(tmp_path, "gone", base, "remove step p.b")
    assert lost_checkpoints(load(moved)) == []
    assert [(n, v) for n, v, _ in lost_checkpoints(load(gone))] == [("turn", "gone")]
