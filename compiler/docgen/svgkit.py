"""The drawing kit of the pictures: escaped elements, text fitted to a box, the palette.

In:  texts from the caller (untrusted: they come from spec files), sizes, colour keys.
Out: SVG fragments as strings: every text and attribute escaped, characters XML
     cannot hold dropped, a text too long for its box shortened with an ellipsis and
     its full text in a ``<title>``; ``document`` wraps fragments in a standalone SVG
     on a white rounded background with ``role="img"``, an ``aria-label`` and ids
     derived from its own bytes (two pictures on one page never clash; the same
     picture is the same bytes). Text widths are estimated from a table of character
     widths (no font is read), on the wide side, so a shortened label fits in any
     common sans-serif font.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Segoe UI, Helvetica, Arial, sans-serif"
INK, MUTED, LINE, EDGE, LINK = "#1f2937", "#4b5563", "#64748b", "#cbd5e1", "#1d4ed8"
FILLS = ["#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe", "#ccfbf1"]     # light: dark text reads on each
M = 16                  # the margin around a picture
ELLIPSIS = "…"

_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SCHEME = re.compile(r"^[^/?#]*:")
_NARROW = set("ijl.,:;'|!` ı")
_SEMI = set("frtI()[]{}/\\-\"*")
_WIDE = set("mwMW@%…")


class Raw(str):
    """An attribute value written as it is: a reference to one of the picture's own
    ids (``\\x00`` stands for the id, filled in by ``document``)."""


def clean(value) -> str:
    """``value`` as text XML can hold (control characters and lone surrogates dropped)."""
    return _BAD.sub("", str(value))


def esc(value) -> str:
    """``value`` escaped for the text of an element or an attribute in double or single quotes."""
    return escape(clean(value), {'"': "&quot;", "'": "&#39;"})


def one_line(value) -> str:
    """``value`` with its runs of white space (newlines too) made single spaces."""
    return " ".join(clean(value).split()) if value is not None else ""


def num(v: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def el(name: str, body: str | None = None, **attrs) -> str:
    """An element: attributes given as keywords (``stroke_width`` is ``stroke-width``,
    ``cls`` is ``class``, None leaves one out), values escaped unless ``Raw``;
    ``body`` is markup already made (escape any text in it with ``esc``)."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        key = "class" if key == "cls" else key.replace("_", "-")
        value = value if isinstance(value, Raw) else num(value) if isinstance(value, (int, float)) else esc(value)
        out.append(f' {key}="{value}"')
    return f"<{name}{''.join(out)}/>" if body is None else f"<{name}{''.join(out)}>{body}</{name}>"


def rect(x, y, w, h, rx=0, **attrs) -> str:
    """A rectangle (rounded by ``rx``), never of a negative size."""
    return el("rect", x=x, y=y, width=max(w, 0), height=max(h, 0), rx=rx or None, **attrs)


def _char(ch: str) -> float:
    if ch in _NARROW:
        return 0.34
    if ch in _SEMI:
        return 0.45
    if ch in _WIDE:
        return 0.95
    if ch.isupper():
        return 0.74
    if ch.isdigit():
        return 0.64
    if ch.isascii():
        return 0.6
    if unicodedata.east_asian_width(ch) in "WF":
        return 1.0
    return 0.0 if unicodedata.combining(ch) else 0.7


def width_of(value, size: float, bold: bool = False) -> float:
    """The estimated width of ``value`` on one line, at font ``size``."""
    return sum(_char(ch) for ch in one_line(value)) * size * (1.15 if bold else 1.0)


def fit(value, width: float, size: float, bold: bool = False, force: bool = False) -> tuple[str, bool]:
    """``value`` on one line, shortened with an ellipsis to ``width`` when it is
    longer (or always, when ``force``): (the text shown, whether it was shortened)."""
    s = one_line(value)
    if not force and width_of(s, size, bold) <= width:
        return s, False
    room = width - width_of(ELLIPSIS, size, bold)
    k, used = 0, 0.0
    for ch in s:
        used += _char(ch) * size * (1.15 if bold else 1.0)
        if used > room:
            break
        k += 1
    return s[:k].rstrip() + ELLIPSIS, True


def wrap(value, width: float, size: float, most: int, bold: bool = False) -> tuple[list[str], bool]:
    """``value`` broken into at most ``most`` lines of ``width`` at the spaces, the
    last line ending in an ellipsis when there is more: (lines, whether shortened)."""
    lines: list[str] = []
    for word in one_line(value).split(" "):
        if lines and width_of(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    cut = len(lines) > most
    lines = lines[:most]
    out = []
    for i, line in enumerate(lines):
        shown, short = fit(line, width, size, bold, force=cut and i == len(lines) - 1)
        cut = cut or short
        out.append(shown)
    return [x for x in out if x], cut


def text(x, y, value, size: float = 12, width: float | None = None, anchor: str = "middle",
         bold: bool = False, italic: bool = False, fill: str = INK, cls: str | None = None,
         underline: bool = False, titled: bool = True) -> str:
    """One line of text with its baseline at ``y``, shortened to ``width``; when
    shortened (and ``titled``) it sits in a group whose ``<title>`` is the full text."""
    shown, cut = fit(value, width, size, bold) if width is not None else (one_line(value), False)
    t = el("text", esc(shown), x=x, y=y, font_size=size, text_anchor=anchor if anchor != "start" else None,
           font_weight="bold" if bold else None, font_style="italic" if italic else None, fill=fill,
           text_decoration="underline" if underline else None, cls=cls)
    return el("g", el("title", esc(one_line(value))) + t) if cut and titled else t


def stack(cx, cy, lines, width, titled: bool = True) -> list[str]:
    """Lines ``(text, size, bold, italic, fill)`` centred one under the other about (cx, cy)."""
    height = sum(size * 1.3 for _, size, *_ in lines)
    y, out = cy - height / 2, []
    for value, size, bold, italic, fill in lines:
        y += size * 1.3
        out.append(text(cx, y - size * 0.3, value, size, width, bold=bold, italic=italic, fill=fill, titled=titled))
    return out


def fill_for(key) -> str:
    """The palette colour of ``key``: the same key, the same colour, run after run."""
    return FILLS[hashlib.sha256(clean(key).encode()).digest()[0] % len(FILLS)]


def safe_link(href) -> str | None:
    """``href`` when it is a relative link (a path, ``#anchor`` or ``?query``), else
    None: no scheme (``javascript:``, ``https:``), no ``//host``, no backslash or
    control character that a browser would read past."""
    if not href:
        return None
    s = str(href).strip()
    if not s or clean(s) != s or any(ch.isspace() and ch != " " for ch in s) or "\\" in s:
        return None
    if s.startswith("//") or _SCHEME.match(s):
        return None
    return s


def heading(title, w: float) -> tuple[list[str], float]:
    """The title of a picture of width ``w`` (two lines at most): (parts, the y under it)."""
    if not title:
        return [], M
    lines, cut = wrap(title, w - 2 * M, 15, 2, bold=True)
    parts = [text(w / 2, M + 14 + 20 * i, line, 15, bold=True, titled=False, cls="title")
             for i, line in enumerate(lines)]
    if cut:
        parts = [el("g", el("title", esc(one_line(title))) + "".join(parts))]
    return parts, M + 20 * len(lines) + 10


def footer(note, w: float, y: float) -> tuple[list[str], float]:
    """A caption under a picture of width ``w`` from ``y`` (four lines at most): (parts, its bottom)."""
    if not note:
        return [], y
    lines, cut = wrap(note, w - 2 * M, 12, 4)
    parts = [text(w / 2, y + 14 + 16 * i, line, 12, fill=MUTED, titled=False, cls="caption")
             for i, line in enumerate(lines)]
    if cut:
        parts = [el("g", el("title", esc(one_line(note))) + "".join(parts))]
    return parts, y + 16 * len(lines) + 4


def arrow_defs() -> str:
    """Arrowheads: ``url(#\\x00-arrow)`` (grey) and ``url(#\\x00-loop)`` (violet)."""
    return "".join(f'<marker id="\x00-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                   f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
                   for name, colour in (("arrow", LINE), ("loop", "#6d28d9")))


def hatch_defs() -> str:
    """Grey diagonal hatching: ``url(#\\x00-hatch)``."""
    return ('<pattern id="\x00-hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="8" height="8" fill="#e5e7eb"/>'
            '<rect width="3" height="8" fill="#9ca3af"/></pattern>')


def document(w: float, h: float, label, parts: list[str], defs: str = "", background: bool = True) -> str:
    """A standalone SVG of ``w`` x ``h`` holding ``parts``, named ``label`` for readers
    of the screen, on a white rounded background (unless the parts draw their own)."""
    label = one_line(label) or "A picture"
    body = "".join(parts)
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(w)}" height="{num(h)}" '
           f'viewBox="0 0 {num(w)} {num(h)}" role="img" aria-label="{esc(label)}" font-family="{FONT}">'
           f"<title>{esc(label)}</title>" + (f"<defs>{defs}</defs>" if defs else "")
           + (rect(0.5, 0.5, w - 1, h - 1, 10, fill="#ffffff", stroke=EDGE, cls="background") if background else "")
           + body + "</svg>\n")
    uid = "rw-" + hashlib.sha256(doc.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return doc.replace("\x00", uid)
