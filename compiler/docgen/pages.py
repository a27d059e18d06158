"""Checked program -> Markdown rules pages for the documentation site.

In:  an ``ir.Program`` and its rules graph.
Out: one Markdown page per spec: the readings of the rulebook (switches), the
     tables as tables, then every definition in the order of the rules graph
     with its rulebook IDs, its doc comment and its source; plus a page listing
     the language's operators. The pages are committed and a test regenerates
     and compares them.
"""
from __future__ import annotations

from pathlib import Path

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.variants.diffing import diff
from rulewright.compiler.semantics.operators import AGGREGATES, OPERATORS
from rulewright.compiler.variants import kept_base

SECTIONS = [
    ("Readings of the rulebook", (A.Switch,)),
    ("Components", (A.Enum, A.Table, A.Grid, A.Constant)),
    ("Relations", (A.Relation,)),
    ("Rules and quantities", (A.Rule, A.Def, A.Outcome)),
    ("Facts of every position", (A.Invariant,)),
    ("Checks of the data", (A.Check,)),
    ("Scoring", (A.Scoring,)),
    ("Game state", (A.State,)),
    ("Procedures", (A.Procedure,)),
    ("Modes", (A.Mode,)),
    ("Queries", (A.Query,)),
    ("Guarantees", (A.Property,)),
    ("What verification ranges over", (A.Domain,)),
]


def _source(d: A.Definition) -> str:
    path = Path(d.span.file)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[d.span.line - 1:d.span.end_line])


def _ids(tags) -> str:
    return " ".join(f"`{t}`" for t in tags) if tags else ""


_STATUS_WORDS = {
    "PROVED": "**Proved**: the solver went through every case and none breaks it.",
    "COUNTEREXAMPLE": "**Broken**: the solver found a case that breaks it",
    "SAMPLED": "**Sampled**: no case broke it in the games played, which is evidence, not proof",
    "UNKNOWN": "**Not settled**: the solver ran out of time before it went through every case",
}


def _guarantee_status(name: str, guarantees: dict | None) -> list[str]:
    """The line under a property: what ``rulewright verify`` found, or that it was not run."""
    if guarantees is None:
        return ["Status: not verified in this build; `rulewright verify --check property` proves it "
                "or finds a case that breaks it.", ""]
    if name not in guarantees:
        return ["Status: not verified (the verification did not reach it).", ""]
    status, message = guarantees[name]
    line = _STATUS_WORDS.get(status, status)
    if status != "PROVED" and message:
        line = line.rstrip(".") + f": {message}"
    return [f"Status: {line}", ""]


def rules_page(program: I.Program, guarantees: dict[str, tuple[str, str]] | None = None) -> str:
    """The reference page of a spec. ``guarantees``: each property's status and sentence
    as ``rulewright verify`` found them (None: not verified in this build)."""
    out = [f"# {program.title}", ""]
    game = next((d for f in program.files for d in f.definitions if isinstance(d, A.Game)), None)
    if game and game.doc:
        out += [game.doc, ""]
    out += [f"Generated from `{program.root}` by `rulewright docs`; every rule shows the "
            f"rulebook IDs it implements.", ""]
    defs = [d for d in program.definitions.values() if not isinstance(d, A.Game) and not kept_base(d.name)]
    # the file order of the spec keeps related rules together
    order = {id(d): i for i, d in enumerate(d for f in program.files for d in f.definitions)}
    defs.sort(key=lambda d: order.get(id(d), 0))
    for title, kinds in SECTIONS:
        items = [d for d in defs if type(d) in kinds]
        if not items:
            continue
        out += [f"## {title}", ""]
        if kinds == (A.Switch,):
            out += ["| reading | options | chosen | rulebook |", "|---|---|---|---|"]
            for d in items:
                opts = " \\| ".join(map(str, d.options))
                default = d.default[1] if isinstance(d.default, tuple) else d.default
                chosen = program.switches.get(d.name, default)
                chosen = str(chosen).lower() if isinstance(chosen, bool) else chosen
                out.append(f"| `{d.name}` | {opts} | **{chosen}** | {_ids(d.rule_ids)} |")
            out.append("")
            for d in items:
                out += [f"**`{d.name}`**: {d.doc.replace(chr(10), ' ')}", ""]
            continue
        for d in items:
            name = d.name if not isinstance(d, A.State) else (f"per {d.per}" if d.per else "shared state")
            out += [f"### {name}", ""]
            if d.rule_ids:
                out += [f"Rulebook: {_ids(d.rule_ids)}", ""]
            if d.doc:
                out += [d.doc, ""]
            if isinstance(d, A.Property):
                out += _guarantee_status(d.name, guarantees)
            if isinstance(d, A.Table) and d.name in program.enums:
                info = program.enums[d.name]
                cols = list(info.columns)
                out += ["| " + " | ".join([d.name] + cols) + " |", "|" + "---|" * (len(cols) + 1)]
                for v in info.values:
                    out.append("| " + " | ".join([v] + [str(info.attrs[c].get(v)) for c in cols]) + " |")
                out.append("")
            steps = A.steps_of(d)
            if steps:
                for step in steps:
                    out += [f"- **{step.name}** {_ids([t for t, _ in step.tags])}: "
                            f"{step.doc.replace(chr(10), ' ')}"]
                out.append("")
            src = _source(d)
            if src:
                out += ["```", src, "```", ""]
    return "\n".join(out).rstrip() + "\n"


def operators_page() -> str:
    out = ["# Operators", "",
           "Every operator of the expression language has one concrete meaning (used by the "
           "interpreter) and, beside it, its CP-SAT encoding. Operators marked *constant only* are "
           "evaluated while the model is built and cannot depend on a choice.", "",
           "| operator | meaning | solver |", "|---|---|---|"]
    for name, op in OPERATORS.items():
        out.append(f"| `{name}` | {op.doc} | {'constant only' if op.constant_only else 'encoded'} |")
    out += ["", "| aggregate | meaning | solver |", "|---|---|---|"]
    for name, agg in AGGREGATES.items():
        out.append(f"| `{name}` | {agg.doc} | {'constant only' if agg.constant_only else 'encoded'} |")
    return "\n".join(out) + "\n"


def variants_page(title: str, intro: str, entries: list) -> str:
    """A page of variants: for each (variant program, the program it extends), its
    title, doc and rule IDs, what it changes, adds and removes (with the variant's
    text) and what that can affect in the rules graph."""
    out = [f"# {title}", "", intro, ""]
    for variant, parent in entries:
        info = variant.variants[-1]
        out += [f"## {info.title or info.name}", ""]
        out += [f"`{info.path}`: variant `{info.name}` of {parent.title}"
                + (f" (extends `{info.extends}`)" if parent.variants else "") + ".", ""]
        if info.rule_ids:
            out += [f"Rulebook: {_ids(info.rule_ids)}", ""]
        if info.doc:
            out += [info.doc, ""]
        d = diff(parent, variant)
        for heading, entries_ in (("Changes", d.changed), ("Additions", d.added), ("Removals", d.removed)):
            if not entries_:
                continue
            out += [f"**{heading}**", ""]
            for e in entries_:
                out.append(f"- `{e.kind} {e.name}` {_ids(e.rule_ids)}".rstrip()
                           + (f": {e.doc.replace(chr(10), ' ')}" if e.doc else ""))
            out.append("")
            for e in entries_:
                side = e.after or e.before
                if e.after is not None:
                    out += ["```", side.text, "```", ""]
        if d.downstream:
            names = ", ".join(f"`{n['name']}`" for n in d.downstream)
            out += [f"What it can affect ({len(d.downstream)}): {names}", ""]
    return "\n".join(out).rstrip() + "\n"
