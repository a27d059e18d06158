"""Checking: specs compiled and checked, each with its errors or its size, and the warnings
a designer needs (a switch or param no rule reads, a checkpoint a variant takes away).

In:  the spec paths to check (files, or what a folder holds: the face expands it), and a
     function that opens one with the user's settings (``sets``: None for the user's own,
     ``{}`` for none), as the face's request says.
Out: ``Checked`` for each path, in order: the program's title and size, or its error (said
     once when a variant fails where its base did), and its warnings; ``data``, the same as
     JSON (what ``check --json`` prints).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.loader import unread_settings
from rulewright.compiler.syntax import ast as A
from rulewright.compiler.variants import lost_checkpoints


@dataclass
class Warned:
    at: str             # file:line:column
    message: str
    kind: str = "warning"

    def render(self) -> str:
        return f"{self.at}: {self.kind}: {self.message}"


@dataclass
class Checked:
    path: str
    title: str | None = None
    definitions: int = 0
    rule_ids: int = 0
    error: RulesError | None = None
    same_as: str | None = None          # the path whose error this one repeats (said once)
    warnings: list[Warned] = field(default_factory=list)
    notes: list[Warned] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "ok": self.ok}
        if self.ok:
            out.update(title=self.title, definitions=self.definitions, rule_ids=self.rule_ids)
        else:
            out["errors"] = [{"at": str(d.span), "message": d.message, **({"hint": d.hint} if d.hint else {})}
                             for d in self.error.diagnostics]
            if self.same_as:
                out["same_as"] = self.same_as
        out["warnings"] = [{"at": w.at, "message": w.message} for w in self.warnings]
        out["notes"] = [{"at": w.at, "message": w.message} for w in self.notes]
        return out


def all_public(program) -> str | None:
    """Where the state of a spec that hides nothing is declared (file:line:column of its
    first pile), or None when some pile is hidden from some seat or there is none."""
    piles = [v for v in program.state.values() if v.is_pile]
    if not piles or any(not v.public for v in program.state.values()):
        return None
    return str(piles[0].node.span)


def check_specs(paths: list[str], open_one: Callable[[str, dict | None], Any],
                passes: tuple[type, ...] = ()) -> list[Checked]:
    """Each path opened and checked (``open_one(path, None)``). An error of the kind
    ``passes`` (the face's own mistake, whatever the spec) is not a spec's: it is raised."""
    out: list[Checked] = []
    base_unread: dict[str, set] = {}     # base spec -> its switches and params no rule reads
    warned: set = set()                  # (span, checkpoint) of the lost checkpoints already said
    shown: dict[str, str] = {}           # an error's text -> the first path that gave it
    public_said: set = set()             # the state blocks already said to hide nothing
    for path in paths:
        try:
            program = open_one(path, None)
        except RulesError as exc:
            if passes and isinstance(exc, passes):
                raise
            key = "\n".join(f"{d.span}: {d.message}" for d in exc.diagnostics)   # (hints list a spec's own names)
            out.append(Checked(path, error=exc, same_as=shown.get(key)))
            shown.setdefault(key, path)
            continue
        ids = {t for d in program.definitions.values() for t in A.tagged_ids(d)}
        checked = Checked(path, program.title, len(program.definitions), len(ids))
        out.append(checked)
        known: set = set()
        if program.variants:             # only what the variants leave unread
            base = program.variants[0].extends
            if base not in base_unread:
                try:
                    base_unread[base] = set(unread_settings(open_one(base, None)))
                except RulesError:       # a setting of a name only the variant has
                    base_unread[base] = set(unread_settings(open_one(base, {})))
            known = base_unread[base]
        for name, v, ch in lost_checkpoints(program):
            if (ch.span, name) in warned:      # a variant of a variant checked after it
                continue
            warned.add((ch.span, name))
            checked.warnings.append(Warned(str(ch.span), f"variant '{v}' takes away the checkpoint '{name}' "
                                                         f"({ch.action} {ch.kind} '{ch.name}'): positions saved "
                                                         f"there and --stop-at {name} no longer find it"))
        public = all_public(program)
        if public is not None and public not in public_said:
            public_said.add(public)
            checked.notes.append(Warned(public, "no pile says who sees it ('seen by owner', 'seen by nobody'): "
                                                "every seat sees the whole state, hands and draw stacks "
                                                "included", "note"))
        for name in unread_settings(program):
            if name in known:
                continue
            d = program.definitions[name]
            kind = "switch" if name in program.switches else "param"
            checked.warnings.append(Warned(str(d.name_span), f"{kind} '{name}' is read by no rule of "
                                                             f"{program.title}: setting it changes nothing"))
    return out
