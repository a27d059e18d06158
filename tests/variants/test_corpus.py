"""The corpus: every variant and house rule under spec/ compiles and plays.

Each variant file found below spec/ is loaded (with the variants it extends) and
every mode it can play is played once with a seeded game, with random legal agents,
to its end; its scores name every player.
"""
import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.loader import _Specs
from helpers import ROOT

_specs = _Specs()
VARIANTS = sorted(p for p in (ROOT / "spec").rglob("*.rules") if _specs.is_variant(p))


def test_the_corpus_holds_every_version_and_the_house_rules():
    names = {p.relative_to(ROOT / "spec").as_posix() for p in VARIANTS}
    assert {"darwins_choice/variants/short_game.rules", "darwins_choice/variants/beginners.rules",
            "darwins_choice/variants/two_player.rules", "darwins_choice/variants/kids.rules",
            "darwins_choice/variants/coop_2v2.rules", "ecosystem_savanna/variants/two_player.rules",
            "ecosystem_savanna/variants/solo.rules"} <= names
    assert len([n for n in names if n.startswith("house_rules/")]) >= 8


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.relative_to(ROOT / "spec").as_posix())
def test_variant_compiles_and_plays(path):
    program = load(path)
    assert program.variants and program.variants[-1].path.endswith(path.name)
    interp = Interpreter(program)
    own = [c.name for c in program.variants[-1].changes if c.kind == "mode" and c.action != "remove"]
    modes = own or list(program.modes)
    for seed, name in enumerate(modes, start=11):
        mode = program.modes[name]
        state = interp.play(name, mode.min_players, seed)
        assert state.stopped is None
        if "score" in state.reports:
            assert set(state.players) <= set(state.reports["score"])
        assert state.reports            # the mode reported its outcome
