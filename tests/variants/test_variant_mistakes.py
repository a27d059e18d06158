"""Mistakes in a variant of a shipped game, from the sweep of spec-authoring mistakes
(tests/resolve/test_spec_mistakes.py): what a variant keeps of the base is shown as a
person reads it, an error an override causes in the base points at the override, a
run-time error in a variant's step is located in the variant.
"""
from __future__ import annotations


import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import ResolveError, SpecSyntaxError
from helpers import ROOT, rel, spec, run_command

DARWIN = ROOT / "spec" / "darwins_choice"


def test_the_names_a_variant_keeps_for_base_are_shown_as_a_person_reads_them(tmp_path):
    variant = spec(tmp_path, f'''variant v01 "V" extends "{rel(DARWIN, tmp_path)}"
override rule can_eat(h: species, t: species) = base(h) and h.owner != t.owner
''', "v01.rules")
    with pytest.raises(ResolveError) as info:
        load(variant)
    text = info.value.render()
    assert "'can_eat (the base's, called as base by the variant v01)' takes 2 argument(s), not 1" in text
    assert "__before_" not in text
    mangled = spec(tmp_path, 'game m "M"\ndef double_cost__before_hr = 99\n', "m.rules")
    with pytest.raises(SpecSyntaxError, match="this name holds '__before_', which is kept"):
        load(mangled)


def test_check_of_a_variant_with_a_param_of_its_own_set(tmp_path):
    variant = spec(tmp_path, f'''variant hl "Hand limit" extends "{rel(DARWIN, tmp_path)}"
param hand_limit: int = 12
def over_the_limit(p: seat) = size(hand(p)) > hand_limit
''', "hl.rules")
    proc = run_command("check", str(variant), "--set", "hand_limit=5", cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.startswith(f"ok: {variant}"), proc.stdout + proc.stderr


def test_errors_an_override_causes_in_the_base_point_at_the_override(tmp_path):
    """A changed signature breaks the base's calls: each error at a base line now has a
    note at the override. A param overridden with a value of the wrong type is one
    error, not a cascade of Python-worded ones through the base."""
    changed = spec(tmp_path, f'''variant v03 "Params" extends "{rel(DARWIN, tmp_path)}"
override def double_cost(s: species, extra: int) = base(s) + extra
''', "v03.rules")
    with pytest.raises(ResolveError) as info:
        load(changed)
    first = info.value.diagnostics[0]
    assert first.span.file.endswith("actions.rules") and "'double_cost' takes 2 argument(s), not 1" in first.message
    assert any(str(span.file) == str(changed) and "variant 'v03' overrides 'double_cost' here" in note
               for span, note in first.notes)
    typed = spec(tmp_path, f'''variant v07 "Eras" extends "{rel(DARWIN, tmp_path)}"
override param eras = "three"
''', "v07.rules")
    with pytest.raises(ResolveError) as info:
        load(typed)
    assert [d.message for d in info.value.diagnostics] == ["param 'eras' is declared int but its value is text"]
    # a state variable given another type: the base's uses of it fail with messages
    # about values ("cannot compare int with card"), each with a note at the override
    retyped = spec(tmp_path, f'variant v08 "Discard" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"\n'
                             "override state { discard: list of int }\n", "v08.rules")
    with pytest.raises(ResolveError) as info:
        load(retyped)
    assert len(info.value.diagnostics) >= 2
    for d in info.value.diagnostics:
        assert not d.span.file.endswith("v08.rules")
        assert [str(span.file) for span, _ in d.notes] == [str(retyped)], d.message
    assert "cannot compare int with card" in [d.message for d in info.value.diagnostics]


def test_a_run_time_error_in_a_variant_scoring_step_is_located_in_the_variant(tmp_path):
    """A scoring step's statements carry their own location: the error is at the
    step of the variant, not at the base's call of the scoring."""
    v = spec(tmp_path, f'variant v "V" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"\n'
                       "override step score.tree = size(contents(placed(g, tree, first(cells(g)))))\n")
    out = run_command("score", str(ROOT / "spec" / "ecosystem_savanna"),
                      "--variant", str(v), str(ROOT / "examples" / "margot.grid"), cwd=ROOT)
    assert out.returncode != 0
    assert out.stderr.startswith(f"{v}:2:26: error: cell (0, 0) is already taken"), out.stderr
