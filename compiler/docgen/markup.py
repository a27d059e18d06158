"""Texts from shared files -> Markdown that shows them and does nothing else.

In:  a text that comes from a spec (a title, a doc comment, a name, a table cell, an
     expectation, a message of the rules), a card table, a translation (``.po``), a file
     name or a measured file (``effects.json``): untrusted, like the files it comes from.
Out: the same text escaped for the place it lands in a page: Markdown text (``text``), a
     doc comment's prose with its code spans (``prose``), a code span (``code``), a fenced
     block (``fence``), a table cell (``cell``), a link target (``url``: relative or http(s)
     only), an HTML attribute value (``attr``). ``page`` is the last step of every page the
     generator writes: any HTML the generator does not write itself (its pictures, its
     blocks) is turned into text, and any link or image whose target is not relative or
     http(s) loses its brackets. The site's build then passes every page's HTML through
     ``sanitize`` (a third guard, for pages written by hand too).

A text is made inert, not rewritten: the characters Markdown or HTML would read as syntax
are escaped (``\\*``, ``&lt;``), and a code span that holds backticks or HTML is written as
HTML with character references (``&#60;``): every Markdown renderer shows the characters
themselves; control characters are shown visibly (``\\x1b``).
"""
from __future__ import annotations

import functools
import html
import re
import urllib.parse

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers.special import TextLexer

from rulewright.compiler.docgen.lexer import RulesLexer
from rulewright.compiler.visible import visible

# Markdown's syntax escaped with a backslash, HTML's as character references, so that a
# text only shows (in a code span written as HTML, every one of them as a reference)
_ESCAPES = {**{ord(c): "\\" + c for c in "\\`*_{}[]#!|"}, ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_ENTITIES = {ord(c): f"&#{ord(c)};" for c in "&<>\"'\\`*_{}[]|#!~^$"}
_INERT = {ord(c): f"&#{ord(c)};" for c in "\\`*_{}[]|#!~^$"}
# a code span written with backticks when it holds none of these (what could end the span,
# split a table's cell, or look like a tag, a link or an attribute list to the page's guard)
_PLAIN_CODE = re.compile(r"^(?!.*\]\()(?!.*<[A-Za-z/!?])[^`|\\{}]*$")
_HANDLER = re.compile(r"(?i)\b(on[a-z]+\s*)=")


def _no_handler(s: str) -> str:
    """An escaped text whose ``onerror=`` (any ``on...=``) is written ``onerror&#61;``: it
    shows the same, and not even a scan of the page's source finds a handler in it."""
    return _HANDLER.sub(r"\1&#61;", s)


def text(s) -> str:
    """``s`` as Markdown text on one line (a heading, a list item, a name in bold): shown
    as it is, read as no syntax; runs of white space made one space."""
    return _no_handler(" ".join(visible(s).split()).translate(_ESCAPES))


def _paragraphs(s: str) -> str:
    """Inert text that keeps its line breaks (a doc comment's paragraphs)."""
    lines = [re.sub(r"[ \t\r\f\v]+", " ", line) for line in visible(s).split("\n")]
    return _no_handler("\n".join(lines).translate(_ESCAPES))


_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)


def prose(s) -> str:
    """A doc comment (or its translation) as Markdown: its paragraphs and its code spans
    (`` `base` ``) kept, everything else inert text."""
    s = visible(s)
    out, at = [], 0
    for m in _SPAN.finditer(s):
        out.append(_paragraphs(s[at:m.start()]))
        out.append(code(m.group(2).strip() if m.group(2).strip() else m.group(2)))
        at = m.end()
    out.append(_paragraphs(s[at:]))
    return "".join(out)


def code(s) -> str:
    """``s`` as inline code, on one line, whatever it holds (backticks, pipes, HTML): a
    Markdown code span, or where it holds what a span cannot, HTML with references."""
    s = " ".join(visible(s).split())
    if s and _PLAIN_CODE.match(s) and s.strip() == s:
        return f"`{s}`"
    return "<code>" + _no_handler(s.translate(_ENTITIES)) + "</code>"


def cell(s) -> str:
    """``s`` in a cell of a Markdown table (its pipes cannot open a column)."""
    return text(s)


def folded(s, shown: int) -> str:
    """``s`` in a cell of a Markdown table, folded: its first words (about ``shown``
    characters) and an ellipsis, the whole text when the reader opens it (HTML
    ``details``, every character escaped, its pipes too)."""
    whole = " ".join(visible(s).split())
    cut = whole[:shown].rsplit(" ", 1)[0] if len(whole) > shown else whole
    return (f"<details><summary>{_no_handler(cut.translate(_ENTITIES))}…</summary>"
            f"{_no_handler(whole.translate(_ENTITIES))}</details>")


def fence(body, lang: str = "") -> list[str]:
    """``body`` as a block of code, highlighted (``rules``) or plain: written as HTML by
    Pygments, every character of the body escaped, so no text of a rule is ever raw in
    the page (a fenced block would hold it as it is, for the renderer to escape). (The
    same definition is shown in every language and every version's rulebook: each body
    is highlighted once.)"""
    return list(_fenced(str(body), lang))


_WHITE_SPAN = re.compile(r'<span class="w">(\s*)</span>')


@functools.lru_cache(maxsize=8192)
def _fenced(body: str, lang: str) -> tuple[str, ...]:
    body = visible(body).replace("\t", "    ")
    lexer = RulesLexer() if lang == "rules" else TextLexer()
    made = highlight(body, lexer, HtmlFormatter(cssclass="highlight", wrapcode=True)).rstrip("\n")
    # white space written as it is, not each run in a span of its own (a third of the spans
    # of a rulebook's code, a fifth of its page, for nothing a reader sees)
    made = _WHITE_SPAN.sub(r"\1", made)
    # and Markdown's syntax in its texts written as references: a block nested in another
    # (a folded one) may still be read for links and emphasis
    made = re.sub(r"[^<>]+(?=<|$)", lambda m: _no_handler(m.group().translate(_INERT)), made)
    # a blank line would end the HTML block for Markdown: an empty span keeps it whole
    lines = [line if line.strip() else "<span></span>" for line in made.split("\n")]
    # (left out of the site's search: a definition is found by its heading and its words;
    # its code, shown again in every version's rulebook, would fill the index and the results)
    return ('<div class="rw-code" markdown="0" data-search-exclude="code">', *lines, "</div>")


def attr(s) -> str:
    """``s`` as the value of an HTML attribute in double quotes."""
    return html.escape(visible(s), quote=True)


_SAFE_SCHEMES = ("http", "https")


def safe_url(target: str) -> bool:
    """Whether a link's target may be followed from a page: relative (a page of the site,
    an anchor) or http(s). ``javascript:``, ``data:``, ``vbscript:``, ``file:`` ... may not;
    nor may a target that hides its scheme behind control characters or entities."""
    t = re.sub(r"[\t\n\r]", "", html.unescape(str(target))).strip("".join(map(chr, range(0x21))))
    if t[:2] in ("//", "\\\\", "/\\", "\\/"):
        return False                    # another host, without saying how
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*):", t)      # as a browser reads a scheme
    return scheme is None or scheme.group(1).lower() in _SAFE_SCHEMES


def url(target: str) -> str:
    """A link target for Markdown (``[text](TARGET)``): relative or http(s), every character
    that could end the link or open markup percent-encoded; anything else is ``#``."""
    if not safe_url(target):
        return "#"
    scheme = re.match(r"^[A-Za-z]+://", target)
    head = scheme.group() if scheme else ""
    return head + urllib.parse.quote(visible(target[len(head):]), safe="/#?=&.-_~%+,;@")


# ------------------------------------------------------------ the last step of every page
# The HTML the generator writes itself: its picture and table blocks, the pictures' SVG
# (svgkit escapes every text and attribute), inline code. Anything else that looks like a
# tag is made text.
HTML_TAGS = frozenset({
    "div", "code", "svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line", "polyline",
    "polygon", "path", "text", "tspan", "marker", "pattern", "a", "clippath", "lineargradient", "stop",
    "pre", "span", "details", "summary"})
_ATTRIBUTE = re.compile(r"""\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:_-]*)((?:" + _ATTRIBUTE.pattern + r")*)\s*/?>")
_LINK = re.compile(r"\]\(")                             # where a link's or an image's target opens
# a target the guard lets through: http(s), or relative without a colon, parenthesis or bracket
_PLAIN_TARGET = re.compile(r"\s*<?(?:[Hh][Tt][Tt][Pp][Ss]?://[^\s()<>\"']*|[^\s()<>:\"'\\]*)(?=[\s)>]|$)")
_REFERENCE = re.compile(r"^(\s{0,3})\[([^\]\n]+)\]:\s*<?(\S*?)>?(\s.*)?$")
_ATTR_LIST = re.compile(r"\{:?([^{}\n]*)\}")
_URL_ATTRIBUTES = {"href", "src", "xlink:href", "action", "formaction", "poster", "background", "data",
                   "codebase", "cite", "srcset", "ping", "manifest", "icon", "lowsrc", "dynsrc"}


def _tag_allowed(m: re.Match) -> bool:
    if m.group(2).lower() not in HTML_TAGS:
        return False
    for a in _ATTRIBUTE.finditer(m.group(3) or ""):
        name = a.group(1).lower()
        value = next((v for v in a.group(2, 3, 4) if v is not None), "")
        if name.startswith("on") or name in ("style", "srcdoc", "formaction"):
            return False
        if name in _URL_ATTRIBUTES and not safe_url(value):
            return False
    return True


def _tags(line: str) -> str:
    """Every ``<`` of ``line`` that opens no allowed tag, written as text (inside a refused
    tag too: a tag in its attributes is refused on its own)."""
    out, at = [], 0
    while True:
        i = line.find("<", at)
        if i < 0:
            out.append(line[at:])
            return "".join(out)
        m = _TAG.match(line, i)
        if m is not None and _tag_allowed(m):
            out.append(line[at:m.end()])
            at = m.end()
        else:
            out.append(line[at:i] + "&#60;")
            at = i + 1


@functools.lru_cache(maxsize=65536)         # (the same lines come back in every language and version)
def _inline(line: str) -> str:
    line = _tags(line)
    line = _LINK.sub(lambda m: m.group() if _PLAIN_TARGET.match(line, m.end()) else "]&#40;", line)
    line = _ATTR_LIST.sub(lambda m: m.group() if not re.search(r"(^|\s)on|=|style|href", m.group(1), re.I)
                          else "&#123;" + m.group()[1:], line)
    return line


def page(markdown: str) -> str:
    """A page as it is written: every line outside a fenced code block passed through the
    guard (unknown tags, handlers, scripts, unsafe links and attribute lists made text),
    then every ``on...=`` written ``on...&#61;``."""
    out = []
    fence_bar = None
    for line in markdown.split("\n"):
        stripped = line.lstrip(" ")
        if fence_bar is not None:
            if stripped.startswith(fence_bar) and not stripped[len(fence_bar):].strip("`~ "):
                fence_bar = None
            out.append(line)
            continue
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            fence_bar = m.group(1)
            out.append(line)
            continue
        ref = _REFERENCE.match(line)
        if ref and not safe_url(ref.group(3)):
            line = line.replace("[", "&#91;", 1)
        out.append(_inline(line))
    # no handler's text anywhere, not even escaped, in a value or a name: the page is no
    # less safe, and a scan of its source finds none to flag (our own tags have none)
    return _no_handler("\n".join(out))


__all__ = ["visible", "text", "prose", "code", "cell", "fence", "attr", "url", "safe_url", "page"]
