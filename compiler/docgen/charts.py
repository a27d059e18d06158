"""Grouped numbers -> an SVG bar chart for the generated rulebook pages.

In:  ``{series: {category: value}}`` (for example the scores of the base game and of
     a house rule per player count), a title and the names of both axes.
Out: a standalone SVG (see ``svgkit``): one group of bars per category, one colour
     per series with a legend, a y axis of four to six round ticks, the values over
     the bars when every one fits (always in each bar's ``<title>``); "no data" when
     there is nothing to draw. Values that are not finite numbers are left out.
"""
from __future__ import annotations

import math

from rulewright.compiler.docgen.svgkit import (
    EDGE, INK, M, MUTED, document, el, esc, fit, heading, one_line, rect, text, width_of)

SERIES = ["#2563eb", "#ea580c", "#059669", "#9333ea", "#db2777", "#0891b2"]
PLOT_H, BAR_W, GROUP_GAP, PLOT_MOST = 220, 22, 18, 720


def _number(key) -> float | None:
    try:
        v = float(str(key))
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def categories(groups: dict) -> list:
    """The x categories: the inner keys in the order first seen, or sorted as numbers
    when every one of them reads as a number."""
    seen: dict = {}
    for values in groups.values():
        for key in values:
            seen.setdefault(key, None)
    keys = list(seen)
    if keys and all(_number(k) is not None for k in keys):
        keys.sort(key=lambda k: (_number(k), str(k)))
    return keys


def ticks(lo: float, hi: float) -> list[float]:
    """Four to six round ticks (steps of 1, 2, 2.5 or 5 times a power of ten) from at
    most ``lo`` to at least ``hi``; 0 to 1 when the range is empty."""
    if not hi > lo:
        hi = lo + (abs(lo) or 1.0)
    span = hi - lo
    power = 10.0 ** (math.floor(math.log10(span)) - 1)
    for step in (m * power * 10 ** e for e in range(4) for m in (1, 2, 2.5, 5)):
        first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
        if last - first <= 5:
            return [round(k * step, 12) for k in range(first, last + 1)]
    return [lo, hi]     # (never reached: the last step is a hundred times the span)


def value_text(v: float, percent: bool, step: float | None = None, digits: int = 3) -> str:
    """A value as written on the chart: to the decimals of the tick ``step`` when given,
    else to ``digits`` significant digits; ``percent`` writes fractions as percents."""
    if percent:
        v, step = v * 100, step * 100 if step else None
    if step:
        decimals = next(d for d in range(12) if abs(round(step, d) - step) < 1e-9 * step)
        s = f"{v:,.{decimals}f}"
    elif abs(v) >= 1000 or v == int(v):
        s = f"{v:,.0f}"
    else:
        s = f"{v:.{digits}g}"
    s = "0" if s in ("-0", "-0.0") else s
    return s + ("%" if percent else "")


def bars_svg(groups: dict[str, dict[str, float]], title: str, x_label: str, y_label: str,
             percent: bool = False, intervals: dict[tuple[str, str], tuple[float, float]] | None = None) -> str:
    """Grouped bars: x categories are the union of the inner keys (first seen order,
    or numeric order when all are numbers), one bar colour per outer key (series)
    with a legend, a y axis of four to six round ticks (``percent``: the values are
    fractions, written as percents), the values over the bars when they all fit. Empty
    data draws "no data"; all-zero data draws flat bars on a 0 to 1 axis. ``intervals``:
    (series, category) -> (low, high), drawn as a whisker over its bar (then no values
    over the bars; each bar's tooltip says its interval)."""
    series = list(groups)
    cats = categories(groups)
    data = {(s, c): float(v) for s in series for c, v in groups[s].items()
            if isinstance(v, (int, float)) and math.isfinite(float(v))}
    whiskers = {k: (float(a), float(b)) for k, (a, b) in (intervals or {}).items()
                if k in data and all(isinstance(x, (int, float)) and math.isfinite(float(x)) for x in (a, b))}
    label = one_line(title) or "A bar chart"
    ends = [x for w in whiskers.values() for x in w]
    lo, hi = min([0.0, *data.values(), *ends]), max([0.0, *data.values(), *ends])
    marks = ticks(lo, hi)
    lo, hi = marks[0], marks[-1]
    step = marks[1] - marks[0] if len(marks) > 1 else None
    tick_w = max(width_of(value_text(t, percent, step), 11) for t in marks)
    n_s, n_c = max(len(series), 1), max(len(cats), 1)
    bw, gap = BAR_W, GROUP_GAP
    if n_c * (n_s * bw + gap) > PLOT_MOST:             # many bars: thinner bars, narrower gaps
        gap = min(GROUP_GAP, PLOT_MOST / n_c * 0.25)
        bw = max(1.0, (PLOT_MOST / n_c - gap) / n_s)
    plot_w = max(n_c * (n_s * bw + gap), 300)
    left = M + 22 + tick_w + 8
    w = left + plot_w + M
    parts, top = heading(title, w)
    parts += _legend(series, M, top, w - 2 * M)
    top += 24 * _legend_rows(series, w - 2 * M) + 6
    base_y = top + PLOT_H

    def y_of(v: float) -> float:
        return base_y - (v - lo) / (hi - lo) * PLOT_H

    for t in marks:
        y = y_of(t)
        parts.append(el("line", x1=left, y1=y, x2=left + plot_w, y2=y, stroke=EDGE if t else MUTED,
                        stroke_width=1, cls="grid"))
        parts.append(text(left - 6, y + 4, value_text(t, percent, step), 11, anchor="end", fill=MUTED, cls="tick"))
    parts.append(el("line", x1=left, y1=top, x2=left, y2=base_y, stroke=MUTED, stroke_width=1))
    slot = plot_w / n_c
    show_values = not whiskers and all(width_of(value_text(v, percent), 9) <= bw + 2 for v in data.values())
    every = max(1, math.ceil((max([width_of(c, 11) for c in cats] + [0]) + 6) / slot))
    every = every if every <= 3 or all(_number(c) is not None for c in cats) else 1
    if not cats or not data:
        parts.append(text(left + plot_w / 2, top + PLOT_H / 2, "no data", 14, italic=True, fill=MUTED,
                          cls="no-data"))
    for i, cat in enumerate(cats):
        gx = left + i * slot + (slot - n_s * bw) / 2
        for j, s in enumerate(series):
            if (s, cat) not in data:
                continue
            v = data[s, cat]
            y0, y1 = sorted((y_of(v), y_of(0.0)))
            if y1 - y0 < 1.5:                   # a zero still shows as a sliver of its colour
                y0, y1 = (y1 - 1.5, y1) if v >= 0 else (y0, y0 + 1.5)
            said = value_text(v, percent)
            exact = value_text(v, percent, digits=8)
            bar = rect(gx + j * bw + 0.5, y0, bw - 1, y1 - y0, 0, fill=SERIES[j % len(SERIES)], cls="bar")
            iv = whiskers.get((s, cat))
            said_iv = f" ({value_text(iv[0], percent)} to {value_text(iv[1], percent)})" if iv else ""
            parts.append(el("g", el("title", esc(f"{one_line(s)}, {one_line(cat)}: {exact}{said_iv}")) + bar))
            if iv:
                cx, ya, yb = gx + j * bw + bw / 2, y_of(iv[0]), y_of(iv[1])
                cap = max(1.0, min(4.0, bw / 3))
                parts.append(el("path", d=f"M{cx:.1f},{ya:.1f}V{yb:.1f}M{cx - cap:.1f},{ya:.1f}H{cx + cap:.1f}"
                                          f"M{cx - cap:.1f},{yb:.1f}H{cx + cap:.1f}",
                                stroke=INK, stroke_width=1.2, fill="none", cls="interval"))
            if show_values:
                parts.append(text(gx + j * bw + bw / 2, (y0 - 3) if v >= 0 else (y1 + 10), said, 9,
                                  fill=INK, cls="value"))
        if i % every == 0:          # crowded names of numbers: one in ``every``, else all, shortened
            parts.append(text(left + i * slot + slot / 2, base_y + 16, cat, 11, every * slot - 4, cls="category"))
    parts.append(text(left + plot_w / 2, base_y + 36, x_label, 12, plot_w, bold=True, fill=INK, cls="x-label"))
    ly = top + PLOT_H / 2
    shown, cut = fit(y_label, PLOT_H, 12, bold=True)
    y_text = el("text", esc(shown), x=M + 10, y=ly, font_size=12, font_weight="bold", text_anchor="middle",
                fill=INK, transform=f"rotate(-90 {M + 10} {ly:.1f})", cls="y-label")
    parts.append(el("g", el("title", esc(one_line(y_label))) + y_text) if cut else y_text)
    return document(w, base_y + 48 + M, label, parts)


def _legend_rows(series, width) -> int:
    return len(_legend_places(series, width)) if series else 0


def _legend_places(series, width):
    """The rows of the legend: (series index, x in its row, width of its name) each."""
    rows: list[list[tuple[int, float, float]]] = [[]]
    x = 0.0
    for j, s in enumerate(series):
        shown_w = min(width_of(s, 12), width - 30)
        entry = shown_w + 30
        if x and x + entry > width:
            rows.append([])
            x = 0.0
        rows[-1].append((j, x, shown_w))
        x += entry
    return rows


def _legend(series, x0, y0, width) -> list[str]:
    """A swatch and the name of each series, in rows centred under the title."""
    if not series:
        return []
    parts = []
    for r, row in enumerate(_legend_places(series, width)):
        row_w = row[-1][1] + row[-1][2] + 20
        ox = x0 + (width - row_w) / 2
        for j, x, shown_w in row:
            y = y0 + 24 * r
            parts.append(el("g", rect(ox + x, y + 3, 14, 14, 3, fill=SERIES[j % len(SERIES)])
                            + text(ox + x + 20, y + 15, series[j], 12, shown_w + 1, anchor="start"),
                            cls="legend"))
    return parts
