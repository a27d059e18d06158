"""Plain data -> SVG pictures for the generated rulebook pages.

In:  plain data from the caller: the cards of a grid, the cells one card looks at,
     the steps of the flow of play, what a definition reads and what reads it, the
     items on the slots of a thing, the rows of a catalogue card, grouped numbers
     (``bars_svg`` lives in ``charts`` and is re-exported here).
Out: one standalone SVG document per picture, as a string: the same data gives the
     same bytes; dark text on a white rounded background, so it reads in light and
     dark themes; ``role="img"`` with an ``aria-label``; no script, no font, nothing
     fetched. The module knows no game: every word comes from the caller, who reads
     it from spec files, so every text is escaped, and a label too long for its box
     is shortened with an ellipsis, the full text kept in a ``<title>`` shown on
     hover. Links are kept only when relative (a path or a ``#anchor``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulewright.compiler.docgen.charts import bars_svg
from rulewright.compiler.docgen.words import word
from rulewright.compiler.docgen.svgkit import (
    EDGE, FILLS, INK, LINE, LINK, M, MUTED, Raw, arrow_defs, document, el, esc, fill_for,
    fit, footer, hatch_defs, heading, one_line, rect, safe_link, stack, text, width_of, wrap)

__all__ = ["Cell", "FlowNode", "grid_svg", "pattern_svg", "flow_svg", "graph_svg", "slots_svg",
           "card_svg", "bars_svg", "safe_link"]

MOST_SIDE = 100         # cells along one side of a grid or pattern picture, at most


@dataclass(frozen=True)
class Cell:
    """One card of a grid: its label, a smaller line under it, whether it lies face
    down, a key that picks its colour from the palette, and a short mark in its corner."""
    label: str
    sublabel: str | None = None
    face_down: bool = False
    colour_key: str | None = None
    mark: str | None = None


@dataclass
class FlowNode:
    """One step of the flow of play: its title, the steps inside it, how often it
    repeats (``"× 3 rounds"``, ``"for each player"``; ``""``: it repeats, the loop sign
    alone; None: it does not), a note under the title, and a relative link for the title."""
    title: str
    children: list[FlowNode] = field(default_factory=list)
    repeat: str | None = None
    note: str | None = None
    link: str | None = None


def _box(positions) -> tuple[int, int, int, int] | None:
    """The rows and columns (first row, last row, first column, last column) that
    hold ``positions``, or None when there are none; refuses a picture too big to draw."""
    positions = list(positions)
    if not positions:
        return None
    r0, r1 = min(r for r, _ in positions), max(r for r, _ in positions)
    c0, c1 = min(c for _, c in positions), max(c for _, c in positions)
    if r1 - r0 >= MOST_SIDE or c1 - c0 >= MOST_SIDE:
        raise ValueError(f"a picture of {r1 - r0 + 1} x {c1 - c0 + 1} cells is too large to draw "
                         f"(at most {MOST_SIDE} a side)")
    return r0, r1, c0, c1


def _corners(rows: int, cols: int) -> list[tuple[int, int]]:
    return [(0, 0), (rows - 1, cols - 1)] if rows > 0 and cols > 0 else []


def _nothing(label: str, what: str, title, note) -> str:
    """A picture with nothing to draw: its title, the word ``what``, its caption."""
    w = 280
    parts, y = heading(title, w)
    parts.append(text(w / 2, y + 22, what, 13, w - 2 * M, italic=True, fill=MUTED, cls="no-data"))
    more, y = footer(note, w, y + 40)
    return document(w, y + M, label, parts + more)


# ---------------------------------------------------------------- grid of cards

CARD_W, CARD_H, GAP = 128, 84, 8


# the words the pictures say of their own (words.py: ``pic_KEY``): English unless a page
# passes its language's (``say``: key -> text)
SAID = ("grid", "no_cards", "cell_at", "slots", "no_slots", "empty", "more", "flow", "no_steps")


def _say(say: dict | None, key: str, **values) -> str:
    return ((say or {}).get(key) or word("en", f"pic_{key}")).format(**values)


def grid_svg(rows: int, cols: int, cells: dict[tuple[int, int], Cell], title: str | None = None,
             caption: str | None = None, face_down_word: str = "face down", say: dict | None = None) -> str:
    """A grid of cards: ``cells[(row, column)]`` is drawn as a rounded card with its
    label (and sublabel under it, smaller); a face-down card is hatched grey and says
    "face down"; a place with no card is a dashed outline. The picture spans rows 0 to
    ``rows - 1`` and columns 0 to ``cols - 1`` and any cell given outside them (negative
    or beyond: floating grids). ``face_down_word``: what a face-down card says (the page's
    language). Raises ValueError past 100 cells a side."""
    cells = {(int(r), int(c)): cell for (r, c), cell in cells.items() if cell is not None}
    box = _box(list(cells) + _corners(rows, cols))
    label = one_line(title) if title else _say(say, "grid", n=len(cells))
    if box is None:
        return _nothing(label, _say(say, "no_cards"), title, caption)
    r0, r1, c0, c1 = box
    gw = (c1 - c0 + 1) * (CARD_W + GAP) - GAP
    w = max(gw + 2 * M, 280)
    parts, top = heading(title, w)
    ox = (w - gw) / 2
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            x, y = ox + (c - c0) * (CARD_W + GAP), top + (r - r0) * (CARD_H + GAP)
            cell = cells.get((r, c))
            parts.append(_card_cell(x, y, cell, r, c, face_down_word, say) if cell is not None else
                         rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, 8, fill="none", stroke=LINE,
                              stroke_width=1.2, stroke_dasharray="5 4", cls="empty"))
    more, y = footer(caption, w, top + (r1 - r0 + 1) * (CARD_H + GAP) - GAP + 8)
    defs = hatch_defs() if any(c.face_down for c in cells.values()) else ""
    return document(w, y + M, label, parts + more, defs)


def _card_cell(x: float, y: float, cell: Cell, r: int, c: int, face_down_word: str = "face down",
               say: dict | None = None) -> str:
    """One card of a grid, with a ``<title>`` that holds all it says."""
    said = [one_line(cell.label)] + ([one_line(cell.sublabel)] if cell.sublabel else [])
    said += [face_down_word] if cell.face_down else []
    said.append(_say(say, "cell_at", r=r, c=c))
    inner = CARD_W - 16
    most = 2 if not (cell.sublabel and cell.face_down) else 1
    lines = [(line, 13, True, False, MUTED if cell.face_down else INK)
             for line in wrap(cell.label, inner, 13, most, bold=True)[0]]
    if cell.sublabel:
        lines.append((cell.sublabel, 11, False, False, MUTED))
    out = [el("title", esc(" · ".join(said)))]
    cy = y + CARD_H / 2 + 4
    if cell.face_down:
        lines.append((face_down_word, 10, False, True, MUTED))
        h = sum(size * 1.3 for _, size, *_ in lines) + 8
        out.append(rect(x, y, CARD_W, CARD_H, 8, fill=Raw("url(#\x00-hatch)"), stroke=MUTED,
                        stroke_width=1.2, cls="cell face-down"))
        out.append(rect(x + 6, cy - h / 2, CARD_W - 12, h, 4, fill="#ffffff", fill_opacity=0.9))
    else:
        out.append(rect(x, y, CARD_W, CARD_H, 8, fill=fill_for(cell.colour_key) if cell.colour_key
                        else "#f8fafc", stroke="#475569", stroke_width=1.2, cls="cell face-up"))
    out += stack(x + CARD_W / 2, cy, lines, inner, titled=False)
    if cell.mark:
        shown, _ = fit(cell.mark, CARD_W / 2, 10, bold=True)
        pw = max(18.0, width_of(shown, 10, True) + 10)
        out.append(rect(x + CARD_W - 4 - pw, y + 4, pw, 16, 8, fill="#ffffff", stroke=INK, cls="mark"))
        out.append(text(x + CARD_W - 4 - pw / 2, y + 15.5, shown, 10, bold=True, titled=False))
    return el("g", "".join(out), cls="card")


# ---------------------------------------------------------------- the cells one card sees

PAT = 56
REACHED_FILL, REACHED_EDGE = "#fde68a", "#b45309"
CENTRE_FILL, CENTRE_EDGE = "#bfdbfe", "#1e3a8a"


def pattern_svg(rows: int, cols: int, centre: tuple[int, int], reached: set[tuple[int, int]],
                centre_label: str, caption: str | None = None,
                words: tuple[str, str] = ("the cells it sees ({n})", "The cells {name} sees")) -> str:
    """The cells a card at ``centre`` looks at: the grid of ``rows`` x ``cols`` (and any
    cell of ``reached`` outside it), the cells of ``reached`` highlighted in amber, the
    centre outlined in blue with its label, a legend under it (``words``: the legend of the
    cells reached, with ``{n}``, and the picture's label, with ``{name}``: the page's
    language). Raises ValueError past 100 cells a side."""
    reached = {(int(r), int(c)) for r, c in reached}
    centre = (int(centre[0]), int(centre[1]))
    r0, r1, c0, c1 = _box(list(reached) + [centre] + _corners(rows, cols))
    gw, gh = (c1 - c0 + 1) * (PAT + 4) - 4, (r1 - r0 + 1) * (PAT + 4) - 4
    legend = [("centre", CENTRE_FILL, CENTRE_EDGE, one_line(centre_label)),
              ("reached", REACHED_FILL, REACHED_EDGE, words[0].format(n=len(reached)))]
    w = max(gw + 2 * M, 300)
    label = words[1].format(name=one_line(centre_label))
    parts, top = [], M
    ox = (w - gw) / 2
    for r in range(r1 - r0 + 1):
        for c in range(c1 - c0 + 1):
            pos = (r + r0, c + c0)
            x, y = ox + c * (PAT + 4), top + r * (PAT + 4)
            kinds = ["cell"] + (["centre"] if pos == centre else []) + (["reached"] if pos in reached else [])
            fill = REACHED_FILL if pos in reached else CENTRE_FILL if pos == centre else "#f8fafc"
            edge = CENTRE_EDGE if pos == centre else REACHED_EDGE if pos in reached else EDGE
            body = [el("title", esc(f"({pos[0]}, {pos[1]})")),
                    rect(x, y, PAT, PAT, 6, fill=fill, stroke=edge, stroke_width=3 if pos == centre else 1.2,
                         cls=" ".join(kinds))]
            if pos == centre:
                lines = wrap(centre_label, PAT - 6, 10, 2, bold=True)[0]
                body += stack(x + PAT / 2, y + PAT / 2 + 2, [(t, 10, True, False, INK) for t in lines], PAT - 6,
                              titled=False)
            elif pos in reached:
                body.append(el("circle", cx=x + PAT / 2, cy=y + PAT / 2, r=5, fill=REACHED_EDGE))
            parts.append(el("g", "".join(body)))
    y = top + gh + 12
    for kind, fill, edge, said in legend:
        parts.append(rect(M, y, 16, 16, 3, fill=fill, stroke=edge, stroke_width=1.5, cls=f"legend legend-{kind}"))
        parts.append(text(M + 22, y + 12.5, said, 12, w - 2 * M - 22, anchor="start"))
        y += 22
    more, y = footer(caption, w, y + 2)
    return document(w, y + M, label, parts + more)


# ---------------------------------------------------------------- flow of play

INDENT, FLOW_GAP, LANE = 18, 20, 34


def flow_svg(nodes: list[FlowNode], title: str | None = None, say: dict | None = None) -> str:
    """The flow of play, top to bottom: one box per step, arrows between siblings,
    the steps inside a step drawn inside its box (indented); a repeating step has a
    badge with its ``repeat`` text and, when it holds steps, a looping arrow down its
    right side; a ``link`` (relative only) makes the title a link. Raises ValueError
    when a step contains itself."""
    label = one_line(title) if title else _say(say, "flow")
    if not nodes:
        return _nothing(label, _say(say, "no_steps"), title, None)
    w = min(max(_flow_need(nodes, 0, ()) + 2 * M, 360), 760)
    parts, top = heading(title, w)
    body, h = _flow_nodes(nodes, M, top, w - 2 * M, 0, ())
    return document(w, top + h + M, label, parts + body, arrow_defs())


def _flow_need(nodes, depth, path) -> float:
    """How wide the flow should be for every title to fit."""
    need = 0.0
    for n in nodes:
        if id(n) in path:
            raise ValueError(f"the flow step {one_line(n.title)!r} contains itself")
        badge = width_of(_badge(n.repeat), 11, True) + 24 if n.repeat is not None else 0
        need = max(need, width_of(n.title, 13, True) + badge + 32 + depth * (INDENT + LANE),
                   _flow_need(n.children, depth + 1, path + (id(n),)))
    return need


def _badge(repeat: str) -> str:
    """A repeating step's badge: the loop sign, and how often when it says ("" : the sign alone)."""
    return f"↻ {repeat}" if repeat else "↻"


def _flow_nodes(nodes, x, y, w, depth, path) -> tuple[list[str], float]:
    """Sibling steps stacked from ``y`` down with arrows between them: (parts, height)."""
    parts, cy = [], y
    for i, node in enumerate(nodes):
        if i:
            parts.append(el("line", x1=x + 28, y1=cy + 1, x2=x + 28, y2=cy + FLOW_GAP - 2, stroke=LINE,
                            stroke_width=1.5, marker_end=Raw("url(#\x00-arrow)"), cls="next"))
            cy += FLOW_GAP
        more, h = _flow_box(node, x, cy, w, depth, path)
        parts += more
        cy += h
    return parts, cy - y


def _flow_box(node: FlowNode, x, y, w, depth, path) -> tuple[list[str], float]:
    if id(node) in path:
        raise ValueError(f"the flow step {one_line(node.title)!r} contains itself")
    title_w = width_of(node.title, 13, True)
    badge_w = min(width_of(_badge(node.repeat), 11, True) + 16, max(w * 0.45, w - 44 - title_w)) \
        if node.repeat is not None else 0
    href = safe_link(node.link)
    head = text(x + 12, y + 21, node.title, 13, w - 24 - (badge_w + 8 if badge_w else 0), anchor="start",
                bold=True, fill=LINK if href else INK, underline=bool(href))
    inner = [el("a", head, href=href) if href else head]
    cy = y + 32
    if node.note:
        lines, cut = wrap(node.note, w - 24, 11, 3)
        for line in lines:
            cy += 13
            inner.append(text(x + 12, cy, line, 11, italic=True, fill=MUTED, anchor="start", titled=False))
        if cut:
            inner[-len(lines):] = [el("g", el("title", esc(one_line(node.note))) + "".join(inner[-len(lines):]))]
        cy += 9
    if node.children:
        right = LANE if node.repeat is not None else 12
        kids, h = _flow_nodes(node.children, x + INDENT, cy, w - INDENT - right, depth + 1, path + (id(node),))
        inner += kids
        cy += h + 10
    h = cy - y
    out = [rect(x, y, w, h, 8, fill=FILLS[depth % len(FILLS)], stroke="#64748b", stroke_width=1.2,
                cls=f"step depth-{depth}")]
    if node.repeat is not None:
        bx = x + w - 10 - badge_w
        out.append(el("g", rect(bx, y + 7, badge_w, 19, 9.5, fill="#ffffff", stroke="#6d28d9", stroke_width=1.2)
                      + text(bx + badge_w / 2, y + 20.5, _badge(node.repeat), 11, badge_w - 10, bold=True,
                             fill="#4c1d95"), cls="repeat"))
        if node.children:
            lx = x + w - LANE / 2
            out.append(el("path", d=f"M{lx - 10:.1f},{y + h - 7:.1f} H{lx - 4:.1f} Q{lx:.1f},{y + h - 7:.1f} "
                                    f"{lx:.1f},{y + h - 11:.1f} V{y + 32:.1f}",
                          fill="none", stroke="#6d28d9", stroke_width=1.5,
                          marker_end=Raw("url(#\x00-loop)"), cls="loop"))
    return out + inner, h


# ---------------------------------------------------------------- what a definition reads

SIDE_MOST, NODE_W, NODE_H, ROW, GUT = 12, 180, 26, 32, 70


def graph_svg(centre: str, reads: list[str], read_by: list[str], links: dict[str, str] | None = None,
              caption: str | None = None, words: tuple[str, str, str] = ("reads", "read by", "nothing"),
              label: str | None = None, say: dict | None = None) -> str:
    """A definition in the middle, what it reads on the left with arrows into it, what
    reads it on the right with arrows out to them; at most 12 a side, then "+ N more";
    a name in ``links`` (relative links only) is a link. ``words``: the two sides' headings
    and what an empty side says, ``label`` the picture's label, ``say`` the pictures' own
    words (the page's language)."""
    links = links or {}
    sides = [(list(reads)[:SIDE_MOST], max(0, len(reads) - SIDE_MOST)),
             (list(read_by)[:SIDE_MOST], max(0, len(read_by) - SIDE_MOST))]
    n = max(1, *(len(s) + (1 if more else 0) for s, more in sides))
    w = 2 * M + 3 * NODE_W + 2 * GUT
    top = M + 22
    h = max(n * ROW, 60)
    cx, cy = M + NODE_W + GUT, top + h / 2
    ch = min(max(44, 10 * max(len(s) for s, _ in sides) + 12), h)
    parts = [text(M + NODE_W / 2, M + 10, words[0], 11, bold=True, fill=MUTED),
             text(w - M - NODE_W / 2, M + 10, words[1], 11, bold=True, fill=MUTED)]
    for side, (names, more) in enumerate(sides):
        x = M if side == 0 else w - M - NODE_W
        y0 = top + (h - (len(names) + (1 if more else 0)) * ROW) / 2
        if not names:
            parts.append(text(x + NODE_W / 2, cy + 4, words[2], 12, italic=True, fill=MUTED, cls="nothing"))
        for i, name in enumerate(names):
            y = y0 + i * ROW + (ROW - NODE_H) / 2
            parts.append(_node(x, y, NODE_W, NODE_H, name, links.get(name), 12, "name"))
            ey = cy - ch / 2 + 8 + (ch - 16) * ((i + 0.5) / len(names))
            if side == 0:
                a, b = (x + NODE_W, y + NODE_H / 2), (cx - 2, ey)
            else:
                a, b = (cx + NODE_W, ey), (x - 2, y + NODE_H / 2)
            mid = (a[0] + b[0]) / 2
            parts.insert(0, el("path", d=f"M{a[0]:.1f},{a[1]:.1f} C{mid:.1f},{a[1]:.1f} {mid:.1f},{b[1]:.1f} "
                                         f"{b[0]:.1f},{b[1]:.1f}", fill="none", stroke=LINE,
                               stroke_width=1.3, marker_end=Raw("url(#\x00-arrow)"), cls="edge"))
        if more:
            parts.append(text(x + NODE_W / 2, y0 + len(names) * ROW + ROW / 2 + 4, _say(say, "more", n=more), 12,
                              italic=True, fill=MUTED, cls="more"))
    parts.append(_node(cx, cy - ch / 2, NODE_W, ch, centre, links.get(centre), 14, "centre",
                       fill="#bfdbfe", stroke="#1e3a8a"))
    more, y = footer(caption, w, top + h + 10)
    label = label or f"What {one_line(centre)} reads and what reads it"
    return document(w, y + M, label, parts + more, arrow_defs())


def _node(x, y, w, h, name, link, size, cls, fill="#f8fafc", stroke="#475569") -> str:
    href = safe_link(link)
    t = text(x + w / 2, y + h / 2 + size * 0.36, name, size, w - 12, bold=cls == "centre",
             fill=LINK if href else INK, underline=bool(href))
    return el("g", rect(x, y, w, h, 6, fill=fill, stroke=stroke, stroke_width=2 if cls == "centre" else 1.1)
              + (el("a", t, href=href) if href else t), cls=cls)


# ---------------------------------------------------------------- items on slots

SLOT_W, SLOT_GAP, PER_ROW, DETAILS_MOST = 140, 12, 5, 5


def slots_svg(slots: list[tuple[str, str | None]], title: str | None = None,
              details: dict[str, list[str]] | None = None, say: dict | None = None) -> str:
    """A thing made of items on named slots, drawn as one body: each slot's name above
    its box, the item's label in it (coloured by the label), ``details[item]`` as small
    lines under the label (five at most, then "+ N more"), an empty slot dashed. Five
    slots a row."""
    details = details or {}
    label = one_line(title) if title else _say(say, "slots", n=len(slots))
    if not slots:
        return _nothing(label, _say(say, "no_slots"), title, None)
    lines = max([min(len(details.get(item, ())), DETAILS_MOST) for _, item in slots if item] + [0])
    bh = 40 + 13 * lines
    per = min(PER_ROW, len(slots))
    rows = -(-len(slots) // per)
    gw = per * (SLOT_W + SLOT_GAP) - SLOT_GAP
    w = gw + 2 * M + 24
    parts, top = heading(title, w)
    parts.append(rect(M, top, w - 2 * M, rows * (bh + 22 + SLOT_GAP) + 12 - SLOT_GAP, 14, fill="#f1f5f9",
                      stroke=EDGE, stroke_width=1.2, cls="body"))
    for i, (name, item) in enumerate(slots):
        x = M + 12 + (i % per) * (SLOT_W + SLOT_GAP)
        y = top + 6 + (i // per) * (bh + 22 + SLOT_GAP)
        parts.append(text(x + SLOT_W / 2, y + 12, name, 11, SLOT_W - 4, bold=True, fill=MUTED, cls="slot-name"))
        y += 18
        if item is None:
            parts.append(el("g", rect(x, y, SLOT_W, bh, 8, fill="#ffffff", stroke=LINE, stroke_width=1.2,
                                      stroke_dasharray="5 4", cls="slot empty")
                            + text(x + SLOT_W / 2, y + bh / 2 + 4, _say(say, "empty"), 12, italic=True, fill=MUTED)))
            continue
        extra = list(details.get(item, ()))
        if len(extra) > DETAILS_MOST:
            extra = extra[:DETAILS_MOST - 1] + [_say(say, "more", n=len(extra) - DETAILS_MOST + 1)]
        body = [rect(x, y, SLOT_W, bh, 8, fill=fill_for(item), stroke="#475569", stroke_width=1.2,
                     cls="slot filled"),
                text(x + SLOT_W / 2, y + 24, item, 13, SLOT_W - 12, bold=True)]
        for k, line in enumerate(extra):
            body.append(text(x + SLOT_W / 2, y + 42 + 13 * k, line, 10, SLOT_W - 12, fill=MUTED, cls="detail"))
        parts.append(el("g", "".join(body)))
    return document(w, top + rows * (bh + 22 + SLOT_GAP) + 12 - SLOT_GAP + M, label, parts)


# ---------------------------------------------------------------- a catalogue card

def card_svg(title: str, rows: list[tuple[str, str]], subtitle: str | None = None,
             badges: list[str] = ()) -> str:
    """A card of a catalogue drawn as a card: a coloured band with its title (and
    subtitle), its badges as small rounded tags, then its rows as name and value."""
    rows = [(one_line(a), one_line(b)) for a, b in rows]
    badges = [one_line(b) for b in badges if one_line(b)]
    names = max([width_of(a, 12) for a, _ in rows] + [0])
    values = max([width_of(b, 12, True) for _, b in rows] + [0])
    w = min(max(width_of(title, 16, True) + 40, names + values + 56, 260), 420)
    inner = w - 24
    band = 40 + (18 if subtitle else 0)
    x0, y0 = 1, 1
    r = 12
    parts = [el("path", d=f"M{x0},{y0 + band} V{y0 + r} Q{x0},{y0} {x0 + r},{y0} H{x0 + w - r} "
                              f"Q{x0 + w},{y0} {x0 + w},{y0 + r} V{y0 + band} Z",
                    fill=fill_for(title), stroke="none", cls="band")]
    parts.append(text(x0 + 12, y0 + 26, title, 16, inner, anchor="start", bold=True))
    if subtitle:
        parts.append(text(x0 + 12, y0 + 45, subtitle, 12, inner, anchor="start", italic=True, fill=MUTED))
    y = y0 + band + (10 if badges or rows else 0)
    bx = x0 + 12
    for badge in badges:
        shown, _ = fit(badge, inner - 16, 11)
        bw = width_of(shown, 11) + 16
        if bx + bw > x0 + w - 12 and bx > x0 + 12:
            bx, y = x0 + 12, y + 24
        parts.append(el("g", rect(bx, y, bw, 19, 9.5, fill=fill_for(badge), stroke="#64748b")
                        + text(bx + bw / 2, y + 13.5, badge, 11, inner - 16), cls="badge"))
        bx += bw + 6
    if badges:
        y += 30
    name_w = min(names + 14, inner * 0.45)
    for i, (name, value) in enumerate(rows):
        lines, cut = wrap(value, inner - name_w, 12, 3, bold=True)
        h = 8 + 16 * max(len(lines), 1)
        if i % 2 == 0:
            parts.append(rect(x0 + 1, y, w - 2, h, 0, fill="#f1f5f9", cls="stripe"))
        parts.append(text(x0 + 12, y + 16, name, 12, name_w - 8, anchor="start", fill=MUTED, cls="name"))
        shown = "".join(text(x0 + 12 + name_w, y + 16 + 16 * k, line, 12, anchor="start", bold=True, cls="value")
                        for k, line in enumerate(lines))
        parts.append(el("g", el("title", esc(value)) + shown) if cut else shown)
        y += h
    h = y - y0 + (8 if rows else 0)
    parts = ([rect(x0, y0, w, h, r, fill="#ffffff", cls="background")] + parts
             + [rect(x0, y0, w, h, r, fill="none", stroke="#475569", stroke_width=1.5, cls="card")])
    return document(w + 2 * x0, h + 2 * y0, one_line(title), parts, background=False)
