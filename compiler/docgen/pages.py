"""Checked programs -> the variants' pages and the operators' page of the documentation site.

In:  variant programs with the programs they extend; the operator table.
Out: a Markdown page of variants (what each changes, adds and removes, with its text and
     what that can affect in the rules graph) and a page listing the language's operators.
     A game's own pages (rulebook, reference, catalogue) are ``rulebook``'s. The pages are
     committed and a test regenerates and compares them.
"""
from __future__ import annotations

from rulewright.compiler.docgen import markup as M
from rulewright.compiler.variants.diffing import diff
from rulewright.compiler.semantics.operators import AGGREGATES, OPERATORS

def _ids(tags) -> str:
    return " ".join(M.code(t) for t in tags) if tags else ""


def operators_page() -> str:
    out = ["# Operators", "",
           "Every operator of the expression language has one concrete meaning (used by the "
           "interpreter) and, beside it, its CP-SAT encoding. Operators marked *constant only* are "
           "evaluated while the model is built and cannot depend on a choice.", "",
           "| operator | meaning | solver |", "|---|---|---|"]
    for name, op in OPERATORS.items():
        out.append(f"| {M.code(name)} | {M.cell(op.doc)} | {'constant only' if op.constant_only else 'encoded'} |")
    out += ["", "| aggregate | meaning | solver |", "|---|---|---|"]
    for name, agg in AGGREGATES.items():
        out.append(f"| {M.code(name)} | {M.cell(agg.doc)} | {'constant only' if agg.constant_only else 'encoded'} |")
    return M.page("\n".join(out) + "\n")


def variants_page(title: str, intro: str, entries: list, links: dict | None = None) -> str:
    """A page of variants: for each (variant program, the program it extends), its
    title, doc and rule IDs, what it changes, adds and removes (with the variant's
    text) and what that can affect in the rules graph."""
    out = [f"# {M.text(title)}", "", intro, ""]
    for variant, parent in entries:
        info = variant.variants[-1]
        out += [f"## {M.text(info.title or info.name)}", ""]
        out += [f"{M.code(info.path)}: variant {M.code(info.name)} of {M.text(parent.title)}"
                + (f" (extends {M.code(info.extends)})" if parent.variants else "") + ".", ""]
        if links and info.path in links:
            out += [f"[The house rule's page, in four languages, with its measured effect]({M.url(links[info.path])})",
                    ""]
        if info.rule_ids:
            out += [f"Rulebook: {_ids(info.rule_ids)}", ""]
        if info.doc:
            out += [M.prose(info.doc), ""]
        d = diff(parent, variant)
        for heading, entries_ in (("Changes", d.changed), ("Additions", d.added), ("Removals", d.removed)):
            if not entries_:
                continue
            out += [f"**{heading}**", ""]
            for e in entries_:
                out.append(f"- {M.code(f'{e.kind} {e.name}')} {_ids(e.rule_ids)}".rstrip()
                           + (f": {M.prose(e.doc.replace(chr(10), ' '))}" if e.doc else ""))
            out.append("")
            for e in entries_:
                side = e.after or e.before
                if e.after is not None:
                    out += M.fence(side.text) + [""]
        if d.downstream:
            names = ", ".join(M.code(n['name']) for n in d.downstream)
            out += [f"What it can affect ({len(d.downstream)}): {names}", ""]
    return M.page("\n".join(out).rstrip() + "\n")
