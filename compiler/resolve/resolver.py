"""The resolver's driver: collects the definitions, runs the phases in order and assembles the
checked ``ir.Program``.

In:  the ``ast.SpecFile`` list of one spec, overrides of switches and params, a player's own tables.
Out: an ``ir.Program``, or a ``ResolveError`` listing every problem found.
"""
from __future__ import annotations


from typing import Any


from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I, files as files_mod
from rulewright.compiler.diagnostics import NO_SPAN, Diagnostic, DiagnosticBag, ResolveError, Span, did_you_mean
from rulewright.compiler.types import Type
from rulewright.compiler.graph import check_cycles
from rulewright.compiler.resolve.tables import TablesPhase
from rulewright.compiler.resolve.declarations import DeclarationsPhase
from rulewright.compiler.resolve.expressions import ExpressionsPhase
from rulewright.compiler.resolve.statements import StatementsPhase
from rulewright.compiler.resolve.definitions import DefinitionsPhase
from rulewright.compiler.resolve.scope import BUILTIN_COLLECTIONS, BUILTIN_ENUMS, BUILTIN_FUNCS, TYPE_NAMES


class Resolver(TablesPhase, DeclarationsPhase, ExpressionsPhase, StatementsPhase, DefinitionsPhase):
    """The resolver of one spec: the phases are its mixins, one module each."""

    def __init__(self, files: list[A.SpecFile], root: str, overrides: dict[str, Any] | None = None,
                 tables: dict[str, str] | None = None, roots: list | None = None,
                 own_files: set[str] | None = None):
        self.files = files
        # with variants applied, the variants' files: an example of the game they change that
        # no longer compiles under them is left out, not an error (see resolve_example)
        self.own_files = own_files
        self.root = root
        # the folders a table read 'from' a file may lie in (see files): by default the spec's own tree
        self.roots = roots if roots is not None else files_mod.allowed([files_mod.tree_of(root)])
        self.overrides = dict(overrides or {})
        self.tables = dict(tables or {})          # table -> a player's own file in place of the spec's
        self.table_files: dict[str, str] = {}
        self.checks: dict[str, I.CheckDef] = {}
        self.invariants: dict[str, I.CheckDef] = {}
        self.diag = DiagnosticBag()
        # a constant that cannot be computed (10 // 0): reported once resolution is done,
        # unless a constant condition leaves its branch out (if k == 3 then 0 else 10 // (k - 3))
        # or it is part of a message, computed only where its condition fails
        self.pending: list[Diagnostic] = []
        self.choice_types: dict[str, list] = {}    # a procedure's choice -> the types of its values
        self.requires_seen: dict[str, Span] = {}   # the requirements of the procedure being resolved
        self.steps_seen: dict[str, Span] = {}      # its named steps
        self.step_owner: str | None = None         # the procedure or mode whose steps those are
        self.last_step: dict = {}                  # block's scope -> its step resolved last, for "precedes"
        self.defs: dict[str, A.Definition] = {}
        self.enums: dict[str, I.EnumInfo] = {}
        self.enum_of_value: dict[str, str] = {}
        self.grids: dict[str, I.GridInfo] = {}
        self.constants: dict[str, tuple[Any, Type]] = {}
        self.funcs: dict[str, I.FuncDef] = {}
        self.in_progress: set[str] = set()
        self.state: dict[str, I.StateVarDef] = {}
        self.reads: list[tuple[str, str, str, Span]] = []
        self.current: str | None = None
        self.game: A.Game | None = None
        self.scorings: dict[str, I.ScoringDef] = {}
        self.procedures: dict[str, I.ProcDef] = {}
        self.modes: dict[str, I.ModeDef] = {}
        self.queries: dict[str, I.QueryDef] = {}
        self.properties: dict[str, I.PropertyDef] = {}
        self.domains: dict[str, I.DomainDef] = {}
        self.in_property = False      # resolving a property's body: 'holds' is allowed
        self.in_example = False       # resolving an example's body: 'expect' is allowed
        self.examples: dict[str, I.ExampleDef] = {}
        self.examples_left_out: dict[str, Diagnostic] = {}
        self.records: dict[str, I.RecordInfo] = {}
        self.outcome: str | None = None
        self.estimate: str | None = None

    # ================================================================ driver
    def run(self) -> I.Program:
        for name, values in BUILTIN_ENUMS.items():
            self.enums[name] = I.EnumInfo(name, list(values))
            for v in values:
                self.enum_of_value[v] = name
        self.collect()
        self.check_overrides()
        self.resolve_enums()
        if any(d.span.file.endswith(".csv") for d in self.diag.items):
            self.diag.raise_if_any(ResolveError)   # a broken table file: later errors would only echo it
        self.resolve_constants()
        self.resolve_records()
        self.declare_state()
        self.resolve_field_defaults()
        self.resolve_grids()
        self.resolve_state()
        for name, node in self.defs.items():
            if isinstance(node, (A.Def, A.Rule, A.Relation, A.Outcome)):
                self.func(name)
        for name, node in self.defs.items():
            if isinstance(node, A.Check):
                self.resolve_check(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Scoring):
                self.resolve_scoring(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Procedure):
                self.resolve_procedure(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Mode):
                self.resolve_mode(node)
            elif isinstance(node, A.Query):
                self.resolve_query(node)
            elif isinstance(node, A.Property):
                self.resolve_property(node)
            elif isinstance(node, A.Domain):
                self.resolve_domain(node)
            elif isinstance(node, A.Example):
                self.resolve_example(node)
            elif isinstance(node, A.Section):
                self.resolve_section(node)
        if self.game is None and self.files:
            first = self.files[0]
            self.diag.error(Span(first.path, 1, 1, 1, 2),
                            "this spec has no 'game' line",
                            'start a spec with: game my_game "My Game"')
        if not self.diag.items:     # else they are most likely echoes of those errors (a value of the wrong type)
            self.diag.items.extend(self.pending)
        self.diag.raise_if_any(ResolveError)
        check_cycles(self.reads, self.defs)
        return I.Program(
            name=self.game.name if self.game else "spec",
            title=self.game.title if self.game else "spec",
            root=self.root, files=self.files, definitions=self.defs,
            switches={k: v for k, (v, _) in self.constants.items()
                      if isinstance(self.defs.get(k), A.Switch)},
            constants={k: v for k, (v, _) in self.constants.items()},
            enums=self.enums, enum_of_value=self.enum_of_value, grids=self.grids,
            funcs=self.funcs, scorings=self.scorings, state=self.state,
            procedures=self.procedures, modes=self.modes, queries=self.queries, properties=self.properties, domains=self.domains,
            examples=self.examples, examples_left_out=self.examples_left_out,
            records=self.records, outcome=self.outcome, estimate=self.estimate, reads=self.reads, overrides=self.overrides,
            checks=self.checks, invariants=self.invariants, table_files=self.table_files, own_tables=self.tables)

    # ================================================================ collect
    def collect(self):
        for f in self.files:
            for d in f.definitions:
                if isinstance(d, A.Game):
                    if self.game is not None:
                        self.diag.error(d.span, "a spec has only one 'game' line",
                                        notes=((self.game.span, "the first one is here"),))
                    else:
                        self.game = d
                    continue
                if isinstance(d, A.State):
                    key = f"{d.name}@{d.span.file}:{d.span.line}"
                    self.defs[key] = d
                    continue
                if d.name in self.defs:
                    prev = self.defs[d.name]
                    self.diag.error(d.name_span, f"'{d.name}' is already defined",
                                    "rename one of them",
                                    notes=((prev.name_span, "first defined here"),))
                    continue
                if d.name in BUILTIN_FUNCS or d.name in BUILTIN_COLLECTIONS or d.name in TYPE_NAMES \
                        or d.name in BUILTIN_ENUMS or d.name in ("true", "false", "none"):
                    self.diag.error(d.name_span, f"'{d.name}' is a built-in name",
                                    "choose another name")
                    continue
                self.defs[d.name] = d
                # (an estimate is an outcome for bots: the first test decides which one it is)
                for kind, attr in ((A.Estimate, "estimate"), (A.Outcome, "outcome")):
                    if isinstance(d, kind):
                        first = getattr(self, attr)
                        if first is not None:
                            self.diag.error(d.name_span, f"a spec has only one '{attr}'",
                                            notes=((self.defs[first].name_span, "the first one"),))
                        else:
                            setattr(self, attr, d.name)
                        break

    def check_overrides(self):
        for name in self.overrides:
            node = self.defs.get(name)
            if not isinstance(node, (A.Switch, A.Constant)):
                names = [k for k, v in self.defs.items() if isinstance(v, (A.Switch, A.Constant))]
                hint = did_you_mean(name, names) or ("switches and params: " + ", ".join(sorted(names)))
                raise ResolveError(Diagnostic(NO_SPAN, f"cannot set '{name}': no switch or param of "
                                                       f"that name in {self.root}", hint))
