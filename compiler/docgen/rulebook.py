"""Checked program -> a rulebook a player can learn the game from, in one language.

In:  an ``ir.Program``, a ``translations.Translator`` for the language, and optionally the
     status ``verify`` gave each property.
Out: Markdown pages for mkdocs-material: the rulebook in the order of play (overview,
     components, the flow of play as a picture, each procedure with its steps and the
     rules it uses, scoring with the cells each relation reads, end of the game,
     guarantees, the rulebook's readings with their switches, variants); a reference page
     of every definition (its rule IDs and code folded away, what it uses and what uses it
     linked); a catalogue page of every table. Every text of the spec goes through the
     translator; a text with no current translation stays English.
"""
from __future__ import annotations

import re
from pathlib import Path


from rulewright.compiler import graph as rules_graph
from rulewright.compiler import ir as I
from rulewright.compiler.docgen import markup as M
from rulewright.compiler.docgen import pictures as P
from rulewright.compiler.docgen.translations import TITLED_NAMES, Translator, english_name, value_words
from rulewright.compiler.docgen.words import word
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.play.examples import run_examples
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.syntax import ast as A

MOST_FLOW_DEPTH = 4
CARD_PICTURES_MOST = 30        # a table with more rows is a table only, without a card each
FOLD_TEXT = 14                 # a cell of a catalogue longer than this is folded (its start shown):
FOLD_SHOWN = 10                # every row one line high; the characters shown before it is opened


def anchor(name: str) -> str:
    return "d-" + name.replace(".", "-").replace("_", "-").lower()


def _source(d) -> str:
    try:
        lines = Path(d.span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[d.span.line - 1:d.span.end_line])


def _span_text(span) -> str:
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    if span.line != span.end_line:
        return lines[span.line - 1][span.col - 1:].strip() + " ..."
    return lines[span.line - 1][span.col - 1:span.end_col - 1]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _first_sentence(text: str) -> str:
    text = _one_line(text)
    for end in (". ", "。", "; "):
        if end in text:
            return text.split(end)[0].rstrip(".") + ("" if end == "。" else "")
    return text.rstrip(".")


def _pruned(nodes: list, levels: int, notes: bool) -> list:
    """The flow ``levels`` deep (the steps below left out), with or without notes."""
    return [P.FlowNode(n.title, _pruned(n.children, levels - 1, notes) if levels > 1 else [], n.repeat,
                       n.note if notes else None, n.link) for n in nodes]


MOST_PICTURE_HEIGHT = 880      # pixels: a picture of the flow fits a screen with the page's header


def _fitting(nodes: list, title: str, notes: bool = True, say: dict | None = None) -> str:
    """The flow two levels deep with the steps' notes, else less (no notes, then one level)
    until its picture fits a screen."""
    tries = [(2, True), (2, False), (1, True), (1, False)] if notes else [(2, False), (1, False)]
    for levels, with_notes in tries:
        svg = P.flow_svg(_pruned(nodes, levels, with_notes), title=title, say=say)
        if float(re.search(r'height="([\d.]+)"', svg).group(1)) <= MOST_PICTURE_HEIGHT:
            break
    return svg


def _phases(nodes: list, depth: int = 0) -> list:
    """The phases of a flow, each once: its parts with steps of their own; a part made of a
    few parts that are procedures with steps (a round of phases) gives its parts instead."""
    out: list = []
    for n in nodes:
        if not n.children:
            continue
        parts = [c for c in n.children if c.children]
        if depth < 2 and len(n.children) <= 4 and parts and all(c.link for c in parts):
            found = _phases(n.children, depth + 1)      # a round of phases: its phases
        else:
            found = [n]
        out += [f for f in found if all((f.title, f.link) != (o.title, o.link) for o in out)]
    return out


def picture(svg: str) -> list[str]:
    """An SVG inlined in the page (no blank line inside, nor before its closing tag, so
    Markdown keeps it whole: inside a folded block, where Markdown wraps it in a paragraph,
    a blank line there closed the paragraph inside the picture's ``div``). Left out of the
    site's search, as the rules' code is: its labels are the names the page's text gives."""
    return ['<div class="rw-picture" markdown="0" data-search-exclude="picture">', svg.replace("\n\n", "\n").rstrip("\n"), "</div>", ""]


def folded(title: str, body: list[str]) -> list[str]:
    """A block folded away (pymdownx.details), its body indented."""
    lines = [y for x in body for y in x.split("\n")]
    return [f'??? abstract "{title}"', ""] + [("    " + x) if x.strip() else "" for x in lines] + [""]


class Book:
    """The pages of one program in one language."""

    def __init__(self, program: I.Program, translator: Translator, lang: str, name: str,
                 guarantees: dict | None = None, ref_name: str | None = None, base: I.Program | None = None):
        self.p, self.translator, self.lang, self.name = program, translator, lang, name
        self.guarantees = guarantees
        self.base = base            # a variant's rulebook links only what the base's reference has
        self.prefixes = tuple(v.name for v in reversed(program.variants))
        self.g = rules_graph.shared(program)
        self.defs = {d.name: d for f in program.files for d in f.definitions if not isinstance(d, A.Game)}
        self.suffix = "" if lang == "en" else f".{lang}"
        self.ref_page = f"{ref_name or name}_reference{self.suffix}.md"
        self.cat_page = f"{ref_name or name}_catalogue{self.suffix}.md"
        self.shown: set[str] = set()
        self.pictured: set[str] = set()     # the relations a sight picture shows already
        # the definitions the spec's sections show: the chapters leave them to their section
        self.placed = {n for f in program.files for d in f.definitions if isinstance(d, A.Section)
                       for n, _ in d.names}

    # ------------------------------------------------------------ texts
    def tr(self, key: str, english: str) -> str:
        return self.translator(key, english, self.prefixes)

    def w(self, key: str, **values) -> str:
        return word(self.lang, key, **values)

    def picture_words(self) -> dict:
        """What the pictures say in words of their own, in the page's language (their keys)."""
        return {key: self.w(f"pic_{key}") for key in P.SAID}

    def doc(self, name: str, english: str) -> str:
        return self.tr(f"doc {name}", english) if english else ""

    def title(self, name: str, english: str | None) -> str:
        return self.tr(f"title {name}", english) if english else value_words(name)

    def value(self, enum: str, v) -> str:
        return self.tr(f"name {enum}.{v}", value_words(str(v)))

    def name_of(self, name: str) -> str:
        """A definition's (or a step's, ``owner.step``) name for players, translated: the
        title the spec gives it, else its name in words."""
        return self.tr(f"name {name}", english_name(self.defs, name))

    def link(self, name: str) -> str:
        """A name linked to its entry on the reference page (in a variant's rulebook, only
        what it leaves as the base has it: the reference is the base game's)."""
        if self.base is not None:
            mine, theirs = self.defs.get(name), self.base.definitions.get(name)
            if theirs is None or mine is None or mine.span != theirs.span:
                return f"**{M.text(self.name_of(name))}**"
        return f"[{M.text(self.name_of(name))}]({M.url(self.ref_page + '#' + anchor(name))})"

    def heading_title(self, d) -> str:
        """A definition's heading: its title, or its name in words."""
        if isinstance(d, TITLED_NAMES) or not getattr(d, "title", None):
            return self.name_of(d.name)
        return self.title(d.name, d.title)

    def ids(self, tags) -> str:
        return " ".join(M.code(t) for t in tags)

    def code_block(self, d, extra: list[str] = (), title: str | None = None) -> list[str]:
        body = []
        if d.rule_ids:
            body += [f"{self.w('rule_ids')}: {self.ids(d.rule_ids)}", ""]
        body += list(extra)
        src = _source(d)
        if src:
            body += M.fence(src, "rules")
        return folded(title or self.w("code"), body) if body else []

    def uses(self, name: str) -> list[str]:
        if name not in self.g:
            return []
        reads = sorted({m for m in self.g.successors(name) if self.g.edges[name, m]["kind"] in ("reads", "calls")
                        and m in self.defs and not isinstance(self.defs[m], (A.Game,))})
        out = []
        if reads:
            out.append(f"{self.w('uses')}: " + ", ".join(self.link(m) for m in reads))
        return out

    # ------------------------------------------------------------ rulebook
    def rulebook(self) -> str:
        p = self.p
        game = next((d for f in p.files for d in f.definitions if isinstance(d, A.Game)), None)
        heading = M.text(self.tr('title ' + game.name, game.title) if game else p.title)
        out = [f"# {heading}", ""]
        if self.base is not None and p.variants:
            v = p.variants[-1]
            title = self.translator(f"{v.name}/title variant", v.title, ()) if v.title else value_words(v.name)
            out = [f"# {heading}: {M.text(title)}", ""]
            if v.doc:
                out += [M.prose(self.translator(f"{v.name}/doc variant", v.doc, ())), ""]
        elif game and game.doc:
            out += [M.prose(self.doc(game.name, game.doc)), ""]
        sections = [d for f in p.files for d in f.definitions if isinstance(d, A.Section)]
        for sec in sections:            # chapters of text ("how to play") open the book
            if not sec.names:
                out += self.section(sec)
        sections = [sec for sec in sections if sec.names]
        out += self.glance()
        # (chapter, the kinds of definitions it shows): a section written in the spec stands
        # before the chapter that would have shown its first definition (else before Playing)
        chapters = [(self.components, (A.Table, A.Grid)), (self.seeing, ()), (self.flow, (A.Mode,)),
                    (self.playing, (A.Procedure,)), (self.scoring, (A.Scoring,)),
                    (self.examples, (A.Example,)), (self.end, (A.Outcome,)),
                    (self.guarantee_section, (A.Property,)), (self.readings, (A.Switch,))]
        before: dict[int, list] = {}
        for sec in sections:
            first = self.defs.get(sec.names[0][0]) if sec.names else None
            at = next((i for i, (_, kinds) in enumerate(chapters) if isinstance(first, kinds)), 2)
            before.setdefault(at, []).append(sec)
        for i, (chapter, _) in enumerate(chapters):
            for sec in before.get(i, ()):
                out += self.section(sec)
            out += chapter()
        out += [f"## {self.w('variants')}", "", self.w("variants_page"), ""]
        return M.page("\n".join(out).rstrip() + "\n")

    def section(self, sec) -> list[str]:
        """A chapter the spec writes: its title, its text, each definition it names."""
        title = self.title(sec.name, sec.title) if sec.title else self.name_of(sec.name)
        out = [f"## {M.text(title)} {{ #{anchor(sec.name)} }}", ""]
        if sec.doc:
            out += [M.prose(self.doc(sec.name, sec.doc)), ""]
        for name, _ in sec.names:
            d = self.defs.get(name)
            if d is not None:
                out += self.definition_section(d, level=3)
        return out

    def glance(self) -> list[str]:
        out = [f"## {self.w('at_a_glance')}", ""]
        for m in self.p.modes.values():
            players = (f"{m.min_players}" if m.min_players == m.max_players
                       else f"{m.min_players}–{m.max_players}")
            doc = self.doc(m.name, m.node.doc) if m.node.doc else ""
            out.append(f"- **{M.text(self.title(m.name, m.title))}**: {players} {self.w('players')}"
                       + (f". {M.prose(_one_line(doc))}" if doc else ""))
        return out + [""] if len(out) > 2 else []

    def components(self) -> list[str]:
        p = self.p
        out = [f"## {self.w('components')}", ""]
        for name, info in p.enums.items():
            d = self.defs.get(name)
            if not isinstance(d, A.Table) or name in self.placed:
                continue
            doc = self.doc(name, d.doc)
            out.append(f"- **{M.text(self.name_of(name))}** ({len(info.values)} {self.w('kinds')}, "
                       f"[{self.w('catalogue')}]({M.url(self.cat_page + '#' + anchor(name))}))"
                       + (f": {M.prose(_one_line(doc))}" if doc else ""))
        for name, grid in p.grids.items():
            d = self.defs.get(name)
            doc = self.doc(name, d.doc) if d is not None and d.doc else ""
            out.append(f"- **{self.w('grid')} {M.text(self.name_of(name))}**: "
                       + self.w("grid_of", rows=grid.rows, cols=grid.cols, cells=M.text(self.name_of(grid.cell_enum)))
                       + (f". {M.prose(_one_line(doc))}" if doc else ""))
        out.append("")
        per_seat = [v for v in p.state.values() if v.per_seat]
        shared = [v for v in p.state.values() if not v.keyed]
        for title, vars_ in ((self.w("each_player"), per_seat), (self.w("shared"), shared)):
            shown = [v for v in vars_ if getattr(v.node, "doc", "")]
            if shown:
                out += [f"**{title}**:", ""]
                out += [f"- **{M.text(self.name_of(v.name))}**: {M.prose(_one_line(self.doc(v.name, v.node.doc)))}"
                        for v in shown]
                out.append("")
        return out if len(out) > 3 else []

    def seeing(self) -> list[str]:
        """Who sees each pile, from the spec's ``seen by`` declarations (nothing when the
        spec declares none: ``check`` says its state is public)."""
        hidden = [v for v in self.p.state.values() if not v.public]
        if not hidden:
            return []
        out = [f"## {self.w('what_each_sees')} {{ #what-each-player-sees }}", ""]
        for v in hidden:
            what = self.w("seen_owner") if v.seen == "owner" else self.w("seen_nobody")
            if v.showing:
                what += self.w("seen_showing", field=M.text(self.field_word(v)))
            if v.remembered:
                what += self.w("seen_sep") + self.w("seen_remembered")
            ids = self.ids([t for t, _ in v.node.tags])
            out.append(f"- **{M.text(self.name_of(v.name))}**: {what}{self.w('seen_end')}" + (f" {ids}" if ids else ""))
        return out + ["", self.w("seen_rest"), ""]

    def field_word(self, v) -> str:
        """The field a pile's cards show, in words: the name of its enum when it has one
        (a card's size: "card size", translated), else the field's name."""
        info = self.p.enums.get(getattr(v.type.elem, "name", ""))
        column = info.columns.get(v.showing) if info is not None else None
        if column is not None and getattr(column, "name", None) in self.p.enums:
            return self.name_of(column.name).lower()
        return value_words(v.showing)

    # ------------------------------------------------------------ flow
    def flow(self) -> list[str]:
        """The flow of play of each mode: an overview (its parts and the steps of each, by
        name), then a picture of each phase (a part with steps of its own), two levels deep,
        with the first sentence of each step's doc."""
        out = []
        for m in self.p.modes.values():
            nodes = self.flow_nodes(m.body, 0, set())
            if not nodes:
                continue
            title = self.title(m.name, m.title)
            out += picture(_fitting(nodes, self.w("flow_of", mode=title), notes=False, say=self.picture_words()))
            phases = [_fitting(phase.children, phase.title, say=self.picture_words()) for phase in _phases(nodes)]
            if phases:              # side by side where the page is wide enough
                out += ['<div class="rw-phases" markdown="0">'] + [svg.replace("\n\n", "\n") for svg in phases] \
                    + ["</div>", ""]
        return [f"## {self.w('how_a_game_goes')}", ""] + out if out else []

    def _step_docs(self, node) -> dict[str, str]:
        return {n.name: n.doc for n in A.nodes_in(node) if isinstance(n, A.Step) and n.doc}

    def loop_title(self, body) -> str:
        """A loop's name in the flow: each of what its narrative heading names (``section era =
        era``: "Each era"), else "again and again"."""
        heading = next((st.name for st in body if isinstance(st, I.Note) and st.heading), None)
        return self.w("each", what=self.name_of(heading)) if heading else self.w("again")

    def flow_nodes(self, body, depth: int, seen: set[str], owner=None) -> list[P.FlowNode]:
        if depth > MOST_FLOW_DEPTH:
            return []
        docs = self._step_docs(owner.node) if owner is not None else {}
        out: list[P.FlowNode] = []
        for st in body:
            if isinstance(st, I.Do) and st.proc in self.p.procedures and st.proc not in seen:
                proc = self.p.procedures[st.proc]
                doc = self.doc(proc.name, proc.node.doc)
                out.append(P.FlowNode(self.name_of(proc.name),
                                      self.flow_nodes(proc.body, depth + 1, seen | {st.proc}, proc),
                                      note=_first_sentence(doc) if doc else None,
                                      link=f"#{anchor(proc.name)}"))
            elif isinstance(st, I.Repeat):
                inner = self.flow_nodes(st.body, depth + 1, seen, owner)
                count = _span_text(st.count.span) if st.count.span else ""
                label = f"× {count}" if count.isdigit() else self.w("repeated")
                if inner:
                    out.append(P.FlowNode(self.w("times", n=count) if count.isdigit() else self.loop_title(st.body),
                                          inner, repeat="") if len(inner) != 1 else
                               P.FlowNode(inner[0].title, inner[0].children, repeat=label, note=inner[0].note,
                                          link=inner[0].link))
            elif isinstance(st, I.For):
                inner = self.flow_nodes(st.body, depth + 1, seen, owner)
                coll = _span_text(st.coll.span) if st.coll.span else ""
                label = self.w("for_each_player") if coll in ("players", "seats") else self.w("for_each_one")
                if inner:
                    out.append(P.FlowNode(label[:1].upper() + label[1:], inner, repeat="") if len(inner) != 1 else
                               P.FlowNode(inner[0].title, inner[0].children, repeat=label, note=inner[0].note,
                                          link=inner[0].link))
            elif isinstance(st, I.Block):
                key = f"{owner.name}.{st.name}" if owner is not None else st.name
                doc = self.doc(key, docs.get(st.name, "")) if docs.get(st.name) else ""
                out.append(P.FlowNode(self.name_of(key), self.flow_nodes(st.body, depth + 1, seen, owner),
                                      note=_first_sentence(doc) if doc else None))
            elif isinstance(st, I.If):
                out += self.flow_nodes(st.then, depth + 1, seen, owner)
            elif isinstance(st, I.While):
                inner = self.flow_nodes(st.body, depth + 1, seen, owner)
                if inner:
                    out.append(P.FlowNode(self.loop_title(st.body), inner, repeat="") if len(inner) != 1 else
                               P.FlowNode(inner[0].title, inner[0].children, repeat=self.w("repeated"),
                                          note=inner[0].note, link=inner[0].link))
        return out

    # ------------------------------------------------------------ playing
    def procedures_in_order(self) -> list[I.ProcDef]:
        order: list[str] = []

        def visit(body):
            for st in I.statements(body):
                if isinstance(st, I.Do) and st.proc in self.p.procedures and st.proc not in order:
                    order.append(st.proc)
                    visit(self.p.procedures[st.proc].body)
                for sub in ("body", "then", "other"):
                    if isinstance(getattr(st, sub, None), list) and not isinstance(st, I.If):
                        visit(getattr(st, sub))
        for m in self.p.modes.values():
            visit(m.body)
        order += [n for n in self.p.procedures if n not in order]
        return [self.p.procedures[n] for n in order if n not in self.placed]

    def playing(self) -> list[str]:
        procs = self.procedures_in_order()
        if not procs:
            return []
        out = [f"## {self.w('playing')}", ""]
        for proc in procs:
            out += self.definition_section(proc.node, level=3)
        return out

    def definition_section(self, d, level: int) -> list[str]:
        """A definition as a player reads it: heading, doc, steps, the rules it uses (their
        docs), and its code folded away."""
        self.shown.add(d.name)
        out = [f"{'#' * level} {M.text(self.heading_title(d))} {{ #{anchor(d.name)} }}", ""]
        if d.doc:
            out += [M.prose(self.doc(d.name, d.doc)), ""]
        steps = [n for n in A.nodes_in(d) if isinstance(n, A.Step) and n is not d]
        if steps:
            for st in steps:
                doc = self.doc(f"{d.name}.{st.name}", st.doc) if st.doc else ""
                out.append(f"1. **{M.text(self.name_of(d.name + '.' + st.name))}**"
                           + (f": {M.prose(_one_line(doc))}" if doc else ""))
            out.append("")
        rules = self.rules_read(d.name)
        for r in rules:
            doc = self.doc(r, self.defs[r].doc)
            out.append(f"- {self.link(r)}: {M.prose(_one_line(doc))}")
        if rules:
            out.append("")
        graph = self.graph_picture(d.name) if isinstance(d, (A.Procedure, A.Scoring)) else []
        out += self.code_block(d, extra=graph, title=self.w("code_and_graph") if graph else None)
        return out

    def graph_picture(self, name: str) -> list[str]:
        """What a definition reads (its steps' reads included) and what a change to it can
        affect, from the rules graph; each name links to the reference (the site's address
        of the page: links inside a picture are not rewritten by the site)."""
        if name not in self.g:
            return []
        inner = [name] + [n for n in self.g.successors(name) if self.g.edges[name, n]["kind"] == "contains"]
        reads = sorted({m for n in inner for m in self.g.successors(n)
                        if self.g.edges[n, m]["kind"] in ("reads", "calls") and m in self.defs and m != name})
        affects = [m for m in rules_graph.downstream(self.g, [name]) if m in self.defs]
        if not reads and not affects:
            return []
        page = f"../{self.ref_page[:-len(f'{self.suffix}.md')]}/"
        links = {self.name_of(m): f"{page}#{anchor(m)}" for m in reads + affects}
        return picture(P.graph_svg(self.name_of(name), [self.name_of(m) for m in reads],
                                   [self.name_of(m) for m in affects], links=links,
                                   words=(self.w("uses"), self.w("affects"), self.w("nothing")),
                                   label=self.w("graph_label", name=self.name_of(name)), say=self.picture_words()))

    def rules_read(self, name: str) -> list[str]:
        """The documented rules and definitions a definition (or its steps) reads directly."""
        if name not in self.g:
            return []
        nodes = [name] + [n for n in self.g.successors(name) if self.g.edges[name, n]["kind"] == "contains"]
        found = []
        for n in nodes:
            for m in self.g.successors(n):
                d = self.defs.get(m)
                if self.g.edges[n, m]["kind"] == "reads" and isinstance(d, (A.Rule, A.Def)) and d.doc \
                        and m not in found:
                    found.append(m)
        return found

    # ------------------------------------------------------------ scoring
    def scoring(self) -> list[str]:
        if not self.p.scorings:
            return []
        out = [f"## {self.w('scoring')}", ""]
        for sd in self.p.scorings.values():
            if sd.name in self.placed:
                continue
            d = sd.node
            self.shown.add(d.name)
            out += [f"### {M.text(self.name_of(d.name))} {{ #{anchor(d.name)} }}", ""]
            if d.doc:
                out += [M.prose(self.doc(d.name, d.doc)), ""]
            for st in A.steps_of(d):
                doc = self.doc(f"{d.name}.{st.name}", st.doc) if st.doc else ""
                out += [f"#### {M.text(self.name_of(d.name + '.' + st.name))}", ""]
                if doc:
                    out += [M.prose(doc), ""]
                out += self.sight_pictures(f"{d.name}.{st.name}")
            out += self.code_block(d)
        return out

    def sight_pictures(self, node: str) -> list[str]:
        """For each relation a scoring step reads (each once a page): the cells it reaches
        from the grid's middle, where the card that looks (the step's card kind, by its
        name, else the step's name) stands."""
        if node not in self.g or len(self.p.grids) != 1:
            return []
        grid = next(iter(self.p.grids.values()))
        out = []
        relations = []
        todo, seen = [node], set()
        while todo:                     # through the definitions the step reads
            n = todo.pop()
            for m in self.g.successors(n):
                if m in seen or self.g.edges[n, m]["kind"] != "reads":
                    continue
                seen.add(m)
                f = self.p.funcs.get(m)
                if f is not None and f.kind == "relation" and isinstance(f.body, I.Const) \
                        and isinstance(f.body.value, rt.Relation):
                    relations.append(m)
                elif isinstance(self.defs.get(m), (A.Def, A.Rule)):
                    todo.append(m)
        step = node.split(".")[-1]
        cards = self.p.enums.get(grid.cell_enum)
        looks = self.value(grid.cell_enum, step) if cards is not None and step in cards.values else self.name_of(node)
        for m in sorted(relations):
            if m in self.pictured:          # (each relation once a page: the first step that reads it)
                continue
            self.pictured.add(m)
            rel = self.p.funcs[m].body.value
            centre = ((grid.rows - 1) // 2, (grid.cols - 1) // 2)
            reached = set(rel.apply(centre, grid.rows, grid.cols))
            doc = self.doc(m, self.defs[m].doc) if m in self.defs and self.defs[m].doc else ""
            caption = self.name_of(m) + (f": {_first_sentence(doc)}" if doc else "")
            out += picture(P.pattern_svg(grid.rows, grid.cols, centre, reached, looks, caption=caption,
                                         words=(self.w("sight_legend"), self.w("sight_label"))))
        return out

    # ------------------------------------------------------------ worked examples
    def examples(self) -> list[str]:
        """Each worked example: its text, a picture of each grid it names (the cards a score
        marks, marked), and what the rules give beside what the example says."""
        if not self.p.examples:
            return []
        runs = run_examples(interpreter_for(self.p))
        out = [f"## {self.w('examples')}", ""]
        for run in runs:
            ex = self.p.examples[run.name]
            self.shown.add(run.name)
            title = self.title(run.name, ex.title) if ex.title else self.name_of(run.name)
            out += [f"### {M.text(title)} {{ #{anchor(run.name)} }}", ""]
            if ex.node.doc:
                out += [M.prose(self.doc(run.name, ex.node.doc)), ""]
            boards = [(n, v) for n, v in run.values.items() if isinstance(v, rt.Board)]
            scores = [v for v in run.values.values() if isinstance(v, rt.Score)]
            for name, board in boards:
                out += picture(self.board_picture(board, scores))
            captions = {n.name: n.doc for n in A.nodes_in(ex.node) if isinstance(n, A.Let) and n.doc}
            for name, value in run.values.items():
                if render.is_record(value):
                    caption = self.tr(f"shows {run.name}.{name}", captions[name]) if name in captions else None
                    svg = self.record_picture(name, value, caption)
                    if svg:
                        out += picture(svg)
            # what the example says, in sentences where the spec gives them (the checks folded
            # with the code), else the checks themselves
            said = [n for n in A.nodes_in(ex.node) if isinstance(n, A.Expect)]
            sentences = {n.span: self.tr(f"says {run.name}.{i}", n.says)
                         for i, n in enumerate([n for n in said if n.says], 1)}
            checks = [f"| {self.w('expect')} | {self.w('the_rules_give')} | |", "|---|---|---|"]
            for e in run.expectations:
                got = "" if e.op is None else render.text_value(e.got)
                checks.append(f"| {M.code(e.text)} | {M.cell(got)} | {'✓' if e.holds else '✗'} |")
            checks.append("")
            in_words = bool(run.expectations) and all(e.span in sentences for e in run.expectations)
            if in_words:
                out += [f"- {'✓' if e.holds else '✗'} {M.text(sentences[e.span])}" for e in run.expectations] + [""]
            else:
                out += checks
            if run.error:
                out += [f"**{self.w('rules_stop')}**: {M.text(run.error)}", ""]
            out += self.code_block(ex.node, extra=checks if in_words else [],
                                   title=self.w("checks_and_code") if in_words else None)
        return out

    def board_picture(self, board: rt.Board, scores: list) -> str:
        """A grid of the example, each card by its name; a card a score's layer marks (a
        card turned face down) is drawn so, with the layer's name."""
        marked: dict = {}
        for s in scores:
            for layer, cells in (s.layers or {}).items():
                for cell in cells:
                    marked.setdefault(tuple(cell), layer)
        enum = self.p.grids[board.grid].cell_enum if board.grid in self.p.grids else None
        cells = {}
        for pos, value in board.cards.items():
            label = self.value(enum, value) if enum else value_words(str(value))
            cells[pos] = P.Cell(label, colour_key=str(value), face_down=pos in marked)
        layer = next(iter(marked.values()), None)
        word_ = self.name_of(layer) if layer else "marked"
        return P.grid_svg(board.rows, board.cols, cells, face_down_word=word_, say=self.picture_words())

    def table_of(self, values) -> str | None:
        """The table (an enum with columns) every value of ``values`` is a row of, if one."""
        if not values or not all(isinstance(v, str) for v in values):
            return None
        tables = {self.p.enum_of_value.get(v) for v in values}
        if len(tables) != 1:
            return None
        t = tables.pop()
        return t if t in self.p.enums and self.p.enums[t].columns else None

    def record_picture(self, name: str, value, caption: str | None = None) -> str | None:
        """A value made of rows of a table (a thing built of cards): each row on a slot named
        by its first column of an enum, with its first list of enum values under it; its
        title the example's caption of the value (the doc comment of its ``let``), else
        its name in words."""
        for f, v in zip(value.rw_fields, value[1:]):
            if not isinstance(v, (tuple, list)):
                continue
            table = self.table_of(list(v))
            if table is None:
                continue
            info = self.p.enums[table]
            slot_col = next((c for c, t in info.columns.items() if type(t).__name__ == "EnumT"), None)
            list_col = next((c for c, t in info.columns.items() if type(t).__name__ == "CollT"
                             and type(t.elem).__name__ == "EnumT"), None)
            slots, details = [], {}
            for row in v:
                label = self.value(table, row)
                slot = info.attrs[slot_col].get(row) if slot_col else None
                slots.append((self.value(info.columns[slot_col].name, slot) if slot else "", label))
                if list_col:
                    items = info.attrs[list_col].get(row) or ()
                    details[label] = [self.value(info.columns[list_col].elem.name, x) for x in items]
            return P.slots_svg(slots, title=_one_line(caption) if caption else value_words(name), details=details,
                               say=self.picture_words())
        return None

    # ------------------------------------------------------------ end, guarantees, readings
    def end(self) -> list[str]:
        outcomes = [d for d in self.defs.values() if isinstance(d, A.Outcome) and not isinstance(d, A.Estimate)
                    and d.name not in self.placed]
        reports = [(m, st) for m in self.p.modes.values() for st in m.body if isinstance(st, I.Report)]
        if not outcomes and not reports:
            return []
        out = [f"## {self.w('end')}", ""]
        for d in outcomes:
            out += self.definition_section(d, level=3)
        if reports:
            out += [f"**{self.w('reports')}**:", ""]
            for m, st in reports:
                out.append(f"- {self.report_line(st)}")
            out.append("")
        return out

    def report_line(self, st: I.Report) -> str:
        """What a mode reports at the end, in words: the definition it reports (its name,
        its doc comment, its rule IDs), for each player when there is one per player; its
        own name when it reports no documented definition."""
        target = st.value.name if isinstance(st.value, (I.Call, I.Global)) else None
        d = self.defs.get(target) if target else None
        if d is None or not getattr(d, "doc", None):
            return M.text(value_words(st.name))
        each = f" ({self.w('for_each_player')})" if st.var else ""
        ids = f" {self.ids(d.rule_ids)}" if getattr(d, "rule_ids", None) else ""
        said = " ".join(M.prose(self.doc(target, d.doc)).split())
        title = self.name_of(target)
        return f"**{M.text(title[:1].upper() + title[1:])}**{each}: {said}{ids}"

    def guarantee_section(self) -> list[str]:
        props = [d for d in self.defs.values() if isinstance(d, A.Property) and d.name not in self.placed]
        if not props:
            return []
        out = [f"## {self.w('guarantees')}", ""]
        for d in props:
            self.shown.add(d.name)
            out += [f"### {M.text(self.heading_title(d))} {{ #{anchor(d.name)} }}", ""]
            if d.doc:
                out += [M.prose(self.doc(d.name, d.doc)), ""]
            out += [f"**{self.w('status')}**: {self.status_line(d.name)}", ""]
            out += self.code_block(d)
        return out

    def status_line(self, name: str) -> str:
        if self.guarantees is None or name not in self.guarantees:
            return self.w("not_verified")
        status, message = self.guarantees[name]
        key = {"PROVED": "proved", "COUNTEREXAMPLE": "broken", "SAMPLED": "sampled"}.get(status, "unknown")
        line = self.w(key)
        return line + (f" ({M.code(message)})" if status == "COUNTEREXAMPLE" and message else "")

    def readings(self) -> list[str]:
        switches = [d for d in self.defs.values() if isinstance(d, A.Switch) and d.name not in self.placed]
        if not switches:
            return []
        out = [f"## {self.w('readings')}", ""]
        for d in switches:
            self.shown.add(d.name)
            chosen = self.p.switches.get(d.name)
            chosen = str(chosen).lower() if isinstance(chosen, bool) else chosen
            opts = ", ".join(f"**{M.code(o)}**" if str(o) == str(chosen) else M.code(o) for o in d.options)
            if d.title:
                out += [f"### {M.text(self.name_of(d.name))} {{ #{anchor(d.name)} }}", ""]
                out += [f"{self.w('setting')}: {M.code(d.name)} · {self.w('options')}: {opts} · "
                        f"{self.w('rulebook')}: {self.ids(d.rule_ids)}", ""]
            else:
                out += [f"### {M.code(d.name)} {{ #{anchor(d.name)} }}", ""]
                out += [f"{self.w('options')}: {opts} · {self.w('rulebook')}: {self.ids(d.rule_ids)}", ""]
            if d.doc:
                out += [M.prose(self.doc(d.name, d.doc)), ""]
        return out

    # ------------------------------------------------------------ reference
    def reference(self) -> str:
        out = [f"# {M.text(self.p.title)}: {self.w('reference')}", "", self.w("reference_intro"), ""]
        for f in self.p.files:
            defs = [d for d in f.definitions if not isinstance(d, (A.Game, A.Variant))]
            if not defs:
                continue
            out += [f"## {M.code(Path(f.path).name)}", ""]
            for d in defs:
                if isinstance(d, A.State):
                    for v in d.vars:
                        out += [f"### {M.text(self.name_of(v.name))} {{ #{anchor(v.name)} }}", ""]
                        if v.doc:
                            out += [M.prose(self.doc(v.name, v.doc)), ""]
                    continue
                out += [f"### {M.text(self.name_of(d.name))} {{ #{anchor(d.name)} }}", "",
                        M.code(f"{d.kind} {d.name}"), ""]
                if d.doc:
                    out += [M.prose(self.doc(d.name, d.doc)), ""]
                out += self.uses(d.name)
                users = self.used_by(d.name)
                if users:
                    out.append(f"{self.w('used_by')}: " + ", ".join(self.link(u) for u in users))
                if out[-1]:
                    out.append("")
                out += self.code_block(d)
        return M.page("\n".join(out).rstrip() + "\n")

    def used_by(self, name: str) -> list[str]:
        if name not in self.g:
            return []
        users = set()
        for u in self.g.predecessors(name):
            if self.g.edges[u, name]["kind"] not in ("reads", "calls"):
                continue
            owner = u.split(".")[0] if u not in self.defs else u
            if owner in self.defs:
                users.add(owner)
        return sorted(users - {name})

    # ------------------------------------------------------------ catalogue
    def catalogue(self) -> str:
        # (the site's menus left out of a catalogue's page: its tables take the width)
        out = ["---", "hide:", "  - navigation", "  - toc", "---", "",
               f"# {self.w('catalogue_of', name=M.text(self.p.title))}", "", self.w("catalogue_intro"), ""]
        for name, info in self.p.enums.items():
            d = self.defs.get(name)
            if not isinstance(d, A.Table):
                continue
            out += [f"## {M.text(self.name_of(name))} {{ #{anchor(name)} }}", ""]
            if d.doc:
                out += [M.prose(self.doc(name, d.doc)), ""]
            out += [f"*{self.w('rows', n=len(info.values))}*", ""]
            cols = list(info.columns)
            if len(info.values) <= CARD_PICTURES_MOST:
                out += ['<div class="rw-cards" markdown="0">']
                out += [self.card_picture(name, info, v).replace("\n\n", "\n") for v in info.values]
                out += ["</div>", ""]
            out.append('<div class="rw-table" markdown="1">')
            out.append("")
            out.append("| " + " | ".join(M.cell(x) for x in [self.name_of(name)] + [value_words(c) for c in cols]) + " |")
            out.append("|" + "---|" * (len(cols) + 1))
            for v in info.values:
                cells = [M.cell(self.value(name, v))]
                for c in cols:
                    shown = self.cell_text(info.columns[c], info.attrs[c].get(v))
                    folds = len(shown) > FOLD_TEXT
                    cells.append(M.folded(shown, FOLD_SHOWN) if folds else M.cell(shown))
                out.append("| " + " | ".join(cells) + " |")
            out += ["", "</div>", ""]
        return M.page("\n".join(out).rstrip() + "\n")

    def card_picture(self, table: str, info, v) -> str:
        """A row of a table drawn as a card: its name, its first list of enum values as
        badges, its other columns as lines (texts and notes left to the table)."""
        badges_col = next((c for c, t in info.columns.items() if type(t).__name__ == "CollT"
                           and type(t.elem).__name__ == "EnumT"), None)
        badges = [self.value(info.columns[badges_col].elem.name, x) for x in info.attrs[badges_col].get(v) or ()] \
            if badges_col else []
        rows = [(value_words(c), self.cell_text(t, info.attrs[c].get(v))) for c, t in info.columns.items()
                if c != badges_col and type(t).__name__ != "TextT"]
        return P.card_svg(self.value(table, v), rows, badges=badges)

    def cell_text(self, t, value) -> str:
        """A table cell as a player reads it: names in words (translated), sets joined, a
        value a list holds several times once with its count."""
        from_enum = getattr(t, "name", None) if type(t).__name__ == "EnumT" else None
        elem = getattr(t, "elem", None)
        if value is None:
            return "–"
        if isinstance(value, bool):
            return "✓" if value else "–"
        if from_enum and isinstance(value, str):
            return self.value(from_enum, value)
        if isinstance(value, (tuple, list, set, frozenset)):
            items = list(value)
            inner = [self.cell_text(elem, x) if elem is not None else str(x) for x in items]
            if isinstance(value, (set, frozenset)):
                inner.sort()
            else:                   # a pile: each value once, with how many times ("climbing ×2")
                counts: dict[str, int] = {}
                for x in inner:
                    counts[x] = counts.get(x, 0) + 1
                inner = [x if n == 1 else f"{x} ×{n}" for x, n in counts.items()]
            joiner = " / " if elem is not None and type(elem).__name__ == "CollT" else ", "
            return joiner.join(inner) if inner else "–"
        return " ".join(str(value).split())


def pages(program: I.Program, name: str, lang: str, tr: Translator, guarantees: dict | None = None
          ) -> dict[str, str]:
    """The pages of a game in one language: {file name: Markdown}."""
    book = Book(program, tr, lang, name, guarantees)
    suffix = "" if lang == "en" else f".{lang}"
    return {f"{name}{suffix}.md": book.rulebook(),
            f"{name}_reference{suffix}.md": book.reference(),
            f"{name}_catalogue{suffix}.md": book.catalogue()}


def variant_rulebook(program: I.Program, base: I.Program, game: str, name: str, lang: str, tr: Translator,
                     guarantees: dict | None = None) -> dict[str, str]:
    """The rulebook of a version of a game (a variant), in one language; its names link to
    the game's reference where the variant leaves them as they are."""
    book = Book(program, tr, lang, name, guarantees, ref_name=game, base=base)
    suffix = "" if lang == "en" else f".{lang}"
    return {f"{name}{suffix}.md": book.rulebook()}


__all__ = ["Book", "pages", "anchor"]
