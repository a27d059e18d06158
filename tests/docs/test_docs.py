"""The documentation: generated rules pages are up to date and the site builds strictly."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import load
from rulewright.compiler.docgen import operators_page, rules_page
from helpers import ROOT


def test_rules_pages_are_current(monkeypatch, update_golden):
    monkeypatch.chdir(ROOT)
    from rulewright.cli.spec import variant_pages, guarantees_of
    savanna, darwin = load("spec/ecosystem_savanna"), load("spec/darwins_choice")
    pages = {"ecosystem_savanna.md": rules_page(savanna, guarantees_of(savanna, "spec/ecosystem_savanna")),
             "darwins_choice.md": rules_page(darwin, guarantees_of(darwin, "spec/darwins_choice")),
             "operators.md": operators_page()}
    loaded: dict = {}
    for spec in ("spec/ecosystem_savanna", "spec/darwins_choice", "spec/house_rules"):
        pages.update(variant_pages(spec, loaded=loaded))
    assert {"ecosystem_savanna_variants.md", "darwins_choice_variants.md", "house_rules.md"} <= set(pages)
    for name, text in pages.items():
        path = ROOT / "docs" / "rules" / name
        if update_golden:
            path.write_text(text)
        assert path.read_text() == text, f"docs/rules/{name} is stale: run rulewright docs spec/*"


def test_a_guarantee_shows_its_status():
    program = load(ROOT / "spec" / "ecosystem_savanna")
    name = next(iter(program.properties))
    assert "Status: **Proved**" in rules_page(program, {name: ("PROVED", "")})
    broken = rules_page(program, {name: ("COUNTEREXAMPLE", "this grid scores -2")})
    assert "Status: **Broken**: the solver found a case that breaks it: this grid scores -2" in broken
    assert "Status: not verified in this build" in rules_page(program)


def spec_rule_ids(program) -> set[str]:
    return {t for d in program.definitions.values() for t in A.tagged_ids(d)}


def test_rule_ids_exist_and_cover_the_rulebook():
    # tests/data/rule_ids.txt: every rule ID of the rules inventory (DC-*, ES-*).
    known = set((ROOT / "tests" / "data" / "rule_ids.txt").read_text().split())
    program = load(ROOT / "spec" / "ecosystem_savanna")
    ids = spec_rule_ids(program)
    assert not sorted(ids - known), "rule IDs that the inventory does not have"
    # the base game and its variants (two players, solo)
    text = "\n".join(p.read_text() for p in (ROOT / "spec" / "ecosystem_savanna").rglob("*.rules"))
    uncovered = sorted(i for i in known if i.startswith("ES-") and i not in text)
    assert not uncovered, "Ecosystem: Savanna rules no definition implements"


def test_every_darwin_rule_id_is_implemented_by_the_game_or_a_variant():
    known = set((ROOT / "tests" / "data" / "rule_ids.txt").read_text().split())
    ids = spec_rule_ids(load(ROOT / "spec" / "darwins_choice"))
    assert not sorted(ids - known), "rule IDs that the inventory does not have"
    for variant in sorted((ROOT / "spec" / "darwins_choice" / "variants").glob("*.rules")):
        program = load(variant)
        vids = spec_rule_ids(program) | {t for v in program.variants for t in v.rule_ids}
        assert not sorted(vids - known), f"{variant.name}: rule IDs that the inventory does not have"
    text = "\n".join(p.read_text() for p in (ROOT / "spec" / "darwins_choice").rglob("*.rules"))
    uncovered = sorted(i for i in known if i.startswith("DC-") and i not in text)
    assert not uncovered, "Darwin's Choice rules no definition implements"


@pytest.mark.skipif(shutil.which("mkdocs") is None and
                    not (Path(sys.executable).parent / "mkdocs").exists(), reason="mkdocs not installed")
def test_site_builds_strictly(tmp_path):
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).parent / "mkdocs")
    proc = subprocess.run([mkdocs, "build", "--strict", "-q", "-d", str(tmp_path / "site")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_rule_lines_quoted_in_the_docs_point_at_their_rules():
    """The answers shown in the README and the docs name each rule with its file and
    line ("one_head [DC-ACT-CREATE-06] at spec/darwins_choice/species.rules:41"): that
    line still defines that rule (or, for a choice with nothing to choose from, that choice)."""
    import re
    quoted = re.compile(r"\b([a-z_][a-z0-9_]*) \[[A-Z0-9 -]+\] (?:at )?(spec/[\w/]+\.rules):(\d+)")
    pages = [ROOT / "README.md"] + [p for p in (ROOT / "docs").glob("*.md")]
    found = 0
    for page in pages:
        for name, path, line in quoted.findall(page.read_text()):
            text = (ROOT / path).read_text().splitlines()[int(line) - 1]
            assert re.match(rf"\s*(?:override\s+)?(?:def|rule|check|query|procedure|choose)\s+{name}\b", text), \
                f"{page.name}: {name} at {path}:{line}, which reads: {text.strip()}"
            found += 1
    assert found >= 6


def test_spec_lines_quoted_under_diagnostics_in_the_docs_are_current():
    """A diagnostic shown in the README or the docs quotes its spec line under
    "file:line:col": that line of the spec still reads so."""
    import re
    shown = re.compile(r"(spec/[\w/]+\.rules):(\d+):\d+: (?:error|warning|note): .*\n\s*(\d+) \| (.*)")
    pages = [ROOT / "README.md"] + [p for p in (ROOT / "docs").glob("*.md")]
    found = 0
    for page in pages:
        for path, line, again, quoted in shown.findall(page.read_text()):
            if "..." in quoted:
                continue            # an illustration, shortened
            assert line == again, f"{page.name}: {path}:{line} quoted as line {again}"
            text = (ROOT / path).read_text().splitlines()[int(line) - 1]
            assert text.rstrip() == quoted.rstrip(), f"{page.name}: {path}:{line} now reads: {text.strip()}"
            found += 1
    assert found >= 1
