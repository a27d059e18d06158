"""What the human seat shows at a choice: the question in words, a short status, the
news since the seat last played, a board with its free cells lettered, the options with
equal ones grouped, a card looked up by name.

In:  the program, the game state at a choice (its name, options and seat), the language
     of the player (English, or one of the spec's catalogues ``i18n/<lang>.po``).
Out: ``Words`` (the question of a choice and its prompt, from the doc comments of the
     ``choose`` statement, of the steps around it and of its procedure), ``status``,
     ``news``, ``view`` (the whole position as one player sees it), ``cell_letters`` and
     ``board_with_letters``, ``grouped`` and ``look_up``. Nothing here knows a game:
     every word comes from the spec.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import did_you_mean
from rulewright.compiler.docgen.translations import Translator, english_name
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.syntax import ast as A
from rulewright.compiler.types import BoardT, BoolT, CellT, CollT, EnumT, IntT, RecordT, SeatT

COMMANDS = set("?upsqhl")       # letters typed as commands: never a cell's letter
LETTERS = [c for c in "ABCDEFGIJKMNORTVWXYZ" if c.lower() not in COMMANDS]


# ---------------------------------------------------------------- the question
def _in_a_sentence(title: str) -> str:
    """A title as a sentence goes on with it ("Draw an Animal Card" -> "draw an Animal Card"),
    a name in capitals left as it is."""
    return title[:1].lower() + title[1:] if title[:1].isupper() and not title[1:2].isupper() else title


@dataclass
class Place:
    """Where the rules make one choice: its statement, the procedure (or mode) and the
    steps around it, and their doc comments."""
    choose: I.Choose
    owner: str                      # the procedure's or the mode's name
    steps: tuple[str, ...]          # the steps around the choice, outermost first
    doc: str                        # the choice's own doc comment
    docs: tuple[tuple[str, str], ...]   # (translation key, English doc), innermost first


class Words:
    """The words of a program's choices, in one language."""

    def __init__(self, program: I.Program, lang: str = "en"):
        self.program = program
        self.lang = lang or "en"
        try:
            self.tr = Translator.for_files([f.path for f in program.files], self.lang)
        except Exception:       # noqa: BLE001 (a broken catalogue: English, as the docs fall back)
            self.tr = Translator("en")
        self.prefixes = tuple(v.name for v in reversed(program.variants))
        self.places: list[Place] = []
        for kind, defs in (("procedure", program.procedures), ("mode", program.modes)):
            for d in defs.values():
                node = getattr(d, "node", None)
                ast_docs = _choose_docs(node)
                step_docs = {n.name: n.doc for n in A.nodes_in(node) if isinstance(n, A.Step) and n.doc} \
                    if node is not None else {}
                own = getattr(node, "doc", "") or ""
                self._walk(d.name, d.body or [], (), ast_docs, step_docs, own)

    def _walk(self, owner, body, steps, ast_docs, step_docs, own) -> None:
        for st in body:
            if isinstance(st, I.Choose) and st.chooser not in (None, "random"):
                docs = [(f"doc {owner}.{s}", step_docs[s]) for s in reversed(steps) if s in step_docs]
                if own:
                    docs.append((f"doc {owner}", own))
                doc = ast_docs.get((st.span.file, st.span.line, st.span.col), "")
                self.places.append(Place(st, owner, steps, doc, tuple(docs)))
            elif isinstance(st, I.Block):
                self._walk(owner, st.body, steps + (st.name,), ast_docs, step_docs, own)
            else:
                inner = [c for c in I.children(st) if isinstance(c, I.Stmt)]
                if inner:
                    self._walk(owner, inner, steps, ast_docs, step_docs, own)

    def t(self, key: str, english: str) -> str:
        return self.tr(key, english, self.prefixes)

    def place(self, name: str, state) -> Place | None:
        """The statement of the choice being asked: by its name and where its options come
        from (the first test of ``state.refusals`` is at its collection)."""
        found = [p for p in self.places if p.choose.name == name]
        if len(found) <= 1:
            return found[0] if found else None
        spans = [s for _, s, _ in getattr(state, "refusals", ()) or ()]
        for p in found:
            if spans and _inside(spans[0], p.choose.span):
                return p
        return None

    def context(self, p: Place | None) -> str:
        """The innermost step (else the procedure) of a choice, by its title (else its name
        in words)."""
        if p is None:
            return ""
        if p.steps:
            said = self.t(f"name {p.owner}.{p.steps[-1]}", english_name(self.program.definitions,
                                                                         f"{p.owner}.{p.steps[-1]}"))
        else:
            said = self.t(f"name {p.owner}", english_name(self.program.definitions, p.owner))
        return _in_a_sentence(said)

    def question(self, p: Place | None, name: str) -> str:
        """The question of a choice: its own doc comment, else its step's or its
        procedure's (its first sentence), else its name in words."""
        if p is not None and p.doc:
            return _sentence(p.doc)
        if p is not None and p.docs:
            key, english = p.docs[0]
            return _sentence(self.t(key, english))
        return f"choose {render.words(name)}"

    def label(self, p: Place | None, name: str, options: list) -> str:
        """What the prompt asks for: the kind of the options (a card, a size, a cell),
        else the step the choice is made in, else the choice's name in words."""
        elem = _element_type(p.choose) if p is not None else None
        if isinstance(elem, (EnumT, RecordT)):
            return _in_a_sentence(self.t(f"name {elem.name}", english_name(self.program.definitions, elem.name)))
        if isinstance(elem, CellT) or (options and all(_is_cell(o) for o in options)):
            return "cell"
        if isinstance(elem, SeatT):
            return "player"
        if isinstance(elem, BoolT) or (options and all(isinstance(o, bool) for o in options)):
            return render.words(name) + "?"
        return self.context(p) or render.words(name)


def _choose_docs(node) -> dict:
    if node is None:
        return {}
    return {(n.span.file, n.span.line, n.span.col): n.doc for n in A.nodes_in(node)
            if isinstance(n, A.Choose) and n.doc}


def _inside(span, outer) -> bool:
    return span.file == outer.file and (outer.line, outer.col) <= (span.line, span.col) \
        and (span.end_line, span.end_col) <= (outer.end_line, outer.end_col)


def _element_type(st: I.Choose):
    if st.domain == "element" and st.coll is not None and isinstance(st.coll.type, CollT):
        return st.coll.type.elem
    return st.type if st.domain == "value" else None


def _sentence(doc: str) -> str:
    """The first sentence of a doc comment, on one line, its code marks dropped."""
    text = " ".join(doc.replace("`", "").split())
    for end in (". ", "。"):
        if end in text:
            text = text.split(end)[0]
    return text.rstrip(".")


def _is_cell(o) -> bool:
    return isinstance(o, tuple) and len(o) == 2 and all(type(v) is int for v in o) and not render.is_record(o)


# ---------------------------------------------------------------- the status
def section(state) -> str:
    """Where the game stands: its last section heading (an era, a round), else its last
    checkpoint and how often it was reached."""
    for e in reversed(state.log):
        if e.kind == "note" and e.detail.get("heading"):
            return f"{render.words(e.detail['name'])} {render.text(e.detail['value'])}"
    for e in reversed(state.log):
        if e.kind == "checkpoint":
            return f"{render.words(e.detail['name'])} {e.detail['count']}"
    return ""


def scores(state) -> tuple[str, list[tuple]]:
    """Each player's score as the position stands: the mode's report made for every player
    (a final score), evaluated now, else the spec's outcome; none when neither scores a
    game in progress. (The report's name, the scores.)"""
    program = state.interp.program
    mode = program.modes.get(state.mode or "")
    reports = [st for st in I.statements(mode.body if mode else []) if isinstance(st, I.Report)
               and st.var is not None and isinstance(st.value.type, IntT)]
    interp = interpreter_for(program)
    for st in reports[:1]:
        try:
            return st.name, [(seat, int(interp.evaluate(st.value, {st.var: seat}, state=state)))
                             for seat in state.players]
        except Exception:       # noqa: BLE001 (a position the report cannot score yet: no scores shown)
            return st.name, []
    if program.outcome is None:
        return "score", []
    try:
        return "score", [(seat, int(interp.call(program.outcome, seat, state=state))) for seat in state.players]
    except Exception:           # noqa: BLE001 (as above)
        return "score", []


def status(state, seat) -> str:
    """One line: the seat to play, where the game stands, the scores."""
    parts = [f"{seat.title} to play"]
    where = section(state)
    if where:
        parts.append(where)
    what, points = scores(state)
    if points:
        parts.append(f"{render.words(what)}: " + ", ".join(f"{s.title}{' (you)' if s == seat else ''} {n}" for s, n in points))
    return " · ".join(parts)


def news(state, seen: int, seat) -> list[str]:
    """What happened since this seat was last asked: the game's notes, and the cards the
    others placed."""
    lines = []
    for e in state.log[seen:]:
        if e.kind == "note":
            if e.detail.get("heading"):
                lines.append(f"== {render.words(e.detail['name']).capitalize()} "
                             f"{render.text(e.detail['value'])} ==")
            else:
                lines += render.block(e.detail["name"], e.detail["value"])
        elif e.kind == "place" and e.seat is not None and e.seat != seat.name:
            who = next((s.title for s in state.seats if s.name == e.seat), e.seat)
            lines.append(f"{who} placed {render.text(e.detail['card'])}")
    return lines


def view(state, seat) -> list[str]:
    """The position as one player may know it (``views.show_view``): the public state,
    their own piles, the size of each pile hidden from them and the cards they know are
    in it; a spec that hides nothing shows everything."""
    from rulewright.compiler.play.views import show_view      # (with the game: loaded to play)
    return show_view(state, seat.name, header=False)


# ---------------------------------------------------------------- boards and cells
def own_boards(state, seat) -> list[tuple[str, rt.Board]]:
    program = state.interp.program
    return [(v.name, state.per[v.name][seat]) for v in program.state.values()
            if v.per_seat and isinstance(v.type, BoardT)]


def cell_letters(count: int) -> list[str]:
    """A letter for each of ``count`` cells (none that is also a command), then pairs."""
    out = list(LETTERS[:count])
    for a in LETTERS:
        for b in LETTERS:
            if len(out) >= count:
                return out
            out.append(a + b)
    return out


def board_with_letters(board: rt.Board, lettered: dict, indent: str = "  ") -> list[str]:
    """A board with the cells a card may go to marked by their letters: the frame holds
    its cards and those cells (a floating board grows left of and above its cards)."""
    cells = list(board.cards) + list(lettered)
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    width = max([len(k) for k in board.cards.values()] + [len(x) for x in lettered.values()] + [1])
    out = []
    for r in range(r0, r1 + 1):
        row = []
        for c in range(c0, c1 + 1):
            if (r, c) in board.cards:
                row.append(board.cards[(r, c)].ljust(width))
            elif (r, c) in lettered:
                row.append(f"[{lettered[(r, c)]}]".ljust(width))
            else:
                row.append(".".ljust(width))
        out.append(indent + " ".join(row).rstrip())
    return out


# ---------------------------------------------------------------- options
def grouped(options: list) -> list[tuple[object, int]]:
    """The options with equal ones together, in the order they first come: (option,
    how many)."""
    out: list[list] = []
    for o in options:
        for g in out:
            if g[0] == o and type(g[0]) is type(o):
                g[1] += 1
                break
        else:
            out.append([o, 1])
    return [(o, n) for o, n in out]


def option_text(o, n: int = 1, words: Words | None = None) -> str:
    """An option on one line: a value of a plain enum in words (a card keeps its name, to
    look it up by), a pair of a collection and a value (cards and a place) with its parts
    told apart; ``×n`` when it comes ``n`` times."""
    enum = words.program.enums.get(words.program.enum_of_value.get(o, "")) \
        if words is not None and isinstance(o, str) else None
    if enum is not None and not enum.columns and o in enum.values:
        shown = words.t(f"name {enum.name}.{o}", render.words(o))
    elif isinstance(o, tuple) and not render.is_record(o) and not _is_cell(o) \
            and any(isinstance(x, (tuple, list)) and not render.is_record(x) for x in o):
        shown = " · ".join(render.text(x) for x in o)
    else:
        shown = render.text(o)
    return f"{shown} ×{n}" if n > 1 else shown


# ---------------------------------------------------------------- looking a card up
def look_up(program: I.Program, words: Words, name: str) -> list[str]:
    """A card (a row of a table: any value with columns) and its fields, in words; a name
    that is none: what comes close."""
    tables = [e for e in program.enums.values() if e.columns]
    key = re.sub(r"\s+", "_", name.strip()).casefold()
    every = {v: e for e in tables for v in e.values}
    hits = [v for v in every if v.casefold() == key] or [v for v in every if v.casefold().startswith(key)]
    if not hits:
        hits = [v for v in every if key in v.casefold()]
    if not hits:
        close = did_you_mean(key, every)
        return [f"no card named '{name}'" + (f": {close}" if close else "") + " (l NAME looks a card up: "
                f"{', '.join(list(every)[:3])}, ...)"]
    if len(hits) > 8:
        return [f"'{name}' names {len(hits)} cards: {', '.join(hits[:8])}, ... (give more of the name)"]
    out = []
    for v in hits[:4]:
        e = every[v]
        out.append(f"{v} ({words.t(f'name {e.name}', render.words(e.name))}):")
        shown = words.t(f"name {e.name}.{v}", render.words(v))
        if shown != render.words(v):
            out.append(f"  {shown}")
        for col in e.columns:
            value = e.attrs.get(col, {}).get(v)
            out.append(f"  {render.words(col)}: {render.text(value)}")
        doc = _row_doc(e, v)
        if doc:
            out.append("  " + " ".join(words.t(f"doc {e.name}.{v}", doc).split()))
        for scoring in program.scorings.values():       # a step of a scoring named after the card
            for n in A.nodes_in(scoring.node):
                if isinstance(n, A.Step) and n.name == v and n.doc:
                    said = " ".join(words.t(f"doc {scoring.name}.{v}", n.doc).replace("`", "").split())
                    out.append(f"  {render.words(scoring.name)}: {said}")
    if len(hits) > 4:
        out.append(f"(and {len(hits) - 4} more: {', '.join(hits[4:])})")
    return out


def _row_doc(e, v) -> str:
    node = e.node
    for r in tuple(getattr(node, "rows", ())) + tuple(getattr(node, "added", ())):
        if getattr(r, "key", None) == v:
            return getattr(r, "doc", "") or ""
    return ""
