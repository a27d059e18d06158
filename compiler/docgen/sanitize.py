"""A page's HTML -> the same HTML with nothing in it that can run.

In:  the HTML of a page's content, as Markdown made it (the site's build passes every page
     through ``on_page_content``, a hook named in ``mkdocs.yml``); the browser workbench
     passes what it shows through ``clean`` too.
Out: the HTML with every element outside an allowlist of formatting and picture elements
     taken out (a ``<script>``, ``<style>``, ``<iframe>``, ``<object>``, ``<embed>`` or
     ``<template>`` with its content), every event handler (``on...=``) and every link or
     source that is not relative or http(s) (``javascript:``, ``data:``, ...) removed, and
     the list of what was removed. The page is always written anew from what the parser
     read (tags, their allowed attributes escaped, texts escaped; comments left out), so
     what a browser reads is what was checked.

The pages ``rulewright docs`` writes escape every text for where it lands
(``markup``): nothing should ever be removed here. When something is, the build says so
(a warning, which ``mkdocs build --strict`` turns into a failure).
"""
from __future__ import annotations

import html
import logging
import re
from html.parser import HTMLParser

from rulewright.compiler.docgen.markup import safe_url

ALLOWED = frozenset({
    # text and structure, as Markdown and its extensions write them
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div",
    "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins",
    "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "var", "wbr",
    # pictures
    "svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
    "text", "tspan", "marker", "pattern", "clippath", "lineargradient", "radialgradient", "stop", "symbol"})
# taken out with everything inside them
DROPPED = frozenset({"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "template",
                     "noscript", "noembed", "textarea", "xmp", "plaintext", "foreignobject", "math",
                     "handler", "listener"})
URL_ATTRIBUTES = frozenset({"href", "src", "xlink:href", "action", "formaction", "poster", "background", "data",
                            "codebase", "cite", "srcset", "ping", "manifest", "icon", "lowsrc", "dynsrc",
                            "longdesc", "usemap", "profile", "classid", "archive"})
_STYLE_BAD = re.compile(r"url\s*\(|expression|javascript|@import|behavior|\\", re.I)
VOID = frozenset({"br", "col", "hr", "img", "wbr"})


def _attribute_problem(name: str, value: str | None) -> str | None:
    if name.startswith("on"):
        return f"the handler {name}="
    if name in ("srcdoc", "formaction", "is"):
        return f"the attribute {name}="
    if name in URL_ATTRIBUTES and value is not None:
        targets = [v.strip().split(" ")[0] for v in value.split(",")] if name == "srcset" else [value]
        if not all(safe_url(t) for t in targets if t):
            return f"the link {name}={value[:40]!r}"
    if name == "style" and value and _STYLE_BAD.search(html.unescape(value)):
        return "a style that loads or runs something"
    return None


class _Cleaner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.removed: list[str] = []
        self.dropping: list[str] = []       # the dropped elements we are inside

    def _tag(self, tag: str, attrs, closing: bool) -> str | None:
        if tag not in ALLOWED:
            self.removed.append(f"<{tag}>")
            return None
        kept = []
        for name, value in attrs:
            problem = _attribute_problem(name, value)
            if problem:
                self.removed.append(f"{problem} of <{tag}>")
                continue
            kept.append(name if value is None else f'{name}="{html.escape(value, quote=True)}"')
        inner = "".join(" " + k for k in kept)
        return f"<{tag}{inner}{' /' if closing else ''}>"

    def handle_starttag(self, tag, attrs):
        if self.dropping or tag in DROPPED:
            if tag in DROPPED and tag not in VOID:
                if not self.dropping:
                    self.removed.append(f"<{tag}>")
                self.dropping.append(tag)
            return
        made = self._tag(tag, attrs, closing=False)
        if made:
            self.out.append(made)

    def handle_startendtag(self, tag, attrs):
        if self.dropping or tag in DROPPED:
            if not self.dropping:
                self.removed.append(f"<{tag}>")
            return
        made = self._tag(tag, attrs, closing=True)
        if made:
            self.out.append(made)

    def handle_endtag(self, tag):
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if tag in ALLOWED and tag not in VOID:
            self.out.append(f"</{tag}>")

    def handle_data(self, data):
        if not self.dropping:
            self.out.append(html.escape(html.unescape(data), quote=False))

    def handle_entityref(self, name):
        if not self.dropping:
            self.out.append(f"&{name};")

    def handle_charref(self, name):
        if not self.dropping:
            self.out.append(f"&#{name};")

    def handle_comment(self, data):
        pass

    def handle_decl(self, decl):
        pass

    def handle_pi(self, data):
        self.removed.append("a processing instruction")

    def unknown_decl(self, data):
        pass


def clean(fragment: str) -> tuple[str, list[str]]:
    """``fragment`` with nothing that can run, and what was taken out."""
    c = _Cleaner()
    c.feed(fragment)
    c.close()
    return "".join(c.out), c.removed


_log = logging.getLogger("mkdocs.plugins.rulewright")


def on_page_content(html_text: str, page, config, files) -> str:
    """The site's hook (``hooks:`` in ``mkdocs.yml``): each page's content, cleaned; what
    was taken out is a warning (``mkdocs build --strict`` fails on it)."""
    cleaned, removed = clean(html_text)
    if removed:
        shown = ", ".join(dict.fromkeys(removed))
        _log.warning(f"rulewright: took out of {page.file.src_uri} what could run in a browser: {shown[:300]}")
    return cleaned


__all__ = ["clean", "on_page_content", "ALLOWED"]
