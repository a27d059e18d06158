"""The SVG pictures of the rulebook pages: each parses as SVG, escapes what the specs
say, keeps only relative links, draws what it is given (cards face up and face down,
the cells a card sees, nested steps, "+ N more", bars of empty and zero data), the
same bytes for the same data, long labels shortened with the full text kept."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from rulewright.compiler.docgen.pictures import (
    Cell, FlowNode, bars_svg, card_svg, flow_svg, graph_svg, grid_svg, pattern_svg, safe_link, slots_svg)
from rulewright.compiler.docgen.charts import categories, ticks
from helpers import ROOT

NS = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert('x')</script>&\"'\x00\x1b"
EVIL_SHOWN = "<script>alert('x')</script>&\"'"          # what is left once XML-impossible characters go
JS = "javascript:alert(1)"
LONG = "A label far too long for any box of these pictures " * 4


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    assert root.get("role") == "img" and root.get("aria-label")
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox"))
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    assert root.find(NS + "title") is not None
    return root


def with_class(root: ET.Element, name: str, tag: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()
            and (tag is None or e.tag == NS + tag)]


def texts(root: ET.Element) -> list[str]:
    """What the picture writes (titles left out)."""
    return ["".join(e.itertext()) for e in root.iter(NS + "text")]


def titles(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(NS + "title")]


def every_picture(label: str = "Alpha", link: str = "#here") -> dict[str, str]:
    """One picture of each kind, every text in it ``label`` and every link ``link``."""
    cells = {(0, 0): Cell(label, label, colour_key=label, mark=label), (1, 1): Cell(label, face_down=True)}
    flow = [FlowNode(label, note=label, link=link, repeat=label, children=[FlowNode(label, link=link)])]
    return {
        "grid": grid_svg(2, 2, cells, title=label, caption=label),
        "pattern": pattern_svg(3, 3, (1, 1), {(0, 1), (2, 1)}, label, caption=label),
        "flow": flow_svg(flow, title=label),
        "graph": graph_svg(label, [label, "b"], [label], links={label: link, "b": link}, caption=label),
        "slots": slots_svg([(label, label), (label, None)], title=label, details={label: [label]}),
        "card": card_svg(label, [(label, label)], subtitle=label, badges=[label]),
        "bars": bars_svg({label: {label: 1.0}}, label, label, label),
    }


@pytest.mark.parametrize("kind", list(every_picture()))
def test_every_picture_is_standalone_svg(kind):
    svg = every_picture()[kind]
    root = parse(svg)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "<script" not in svg and "<foreignObject" not in svg and "http" not in svg.replace(
        "http://www.w3.org/2000/svg", "")
    assert "Alpha" in texts(root) or any("Alpha" in t for t in texts(root))


@pytest.mark.parametrize("kind", list(every_picture()))
def test_spec_text_is_escaped_and_scheme_links_are_dropped(kind):
    svg = every_picture(EVIL, JS)[kind]
    root = parse(svg)                                   # the text did not break the markup
    assert "<script" not in svg and "\x00" not in svg and "\x1b" not in svg
    assert "javascript" not in svg.lower()
    written = texts(root) + titles(root) + [root.get("aria-label")]
    assert any(EVIL_SHOWN in t for t in written), "the text is shown as text, whole somewhere"
    assert not list(root.iter(NS + "a")), "a scheme link is no link"


def test_attributes_escape_quotes():
    svg = grid_svg(1, 1, {(0, 0): Cell("x")}, title='say "hi" \'there\'')
    head = svg.split(">", 1)[0]
    assert 'aria-label="say &quot;hi&quot; &#39;there&#39;"' in head
    assert parse(svg).get("aria-label") == 'say "hi" \'there\''


@pytest.mark.parametrize("href, kept", [
    ("#setup", True), ("rules.md#turn", True), ("../rules/x.html", True), ("/docs/a", True), ("?q=a:b", True),
    (JS, False), ("JavaScript:alert(1)", False), (" javascript:alert(1)", False), ("java\nscript:x", False),
    ("java\tscript:x", False), ("https://example.org", False), ("//example.org/x", False),
    ("data:text/html,x", False), ("vbscript:x", False), ("\\\\host\\x", False), ("/\\host", False),
    ("a:b/c", False), ("", False), (None, False), ("#a\x00b", False)])
def test_only_relative_links_are_kept(href, kept):
    assert (safe_link(href) is not None) == kept


def test_the_kept_link_is_written_escaped():
    root = parse(flow_svg([FlowNode("Setup", link='page.md?a=1&b="2"#x')]))
    (a,) = root.iter(NS + "a")
    assert a.get("href") == 'page.md?a=1&b="2"#x'


# ---------------------------------------------------------------- grid

def test_grid_draws_one_rectangle_per_card_and_dashes_the_rest():
    cells = {(0, 0): Cell("A"), (0, 2): Cell("B", "two"), (1, 1): Cell("C", face_down=True)}
    root = parse(grid_svg(2, 3, cells))
    assert len(with_class(root, "cell", "rect")) == 3
    assert len(with_class(root, "empty", "rect")) == 2 * 3 - 3
    for e in with_class(root, "empty", "rect"):
        assert e.get("stroke-dasharray")


def test_face_down_cards_are_drawn_unlike_face_up_ones():
    cells = {(0, 0): Cell("Up", colour_key="k"), (0, 1): Cell("Down", face_down=True)}
    svg = grid_svg(1, 2, cells)
    root = parse(svg)
    (down,) = with_class(root, "face-down", "rect")
    (up,) = with_class(root, "face-up", "rect")
    hatch = re.fullmatch(r"url\(#([\w-]+)\)", down.get("fill")).group(1)
    assert root.find(f".//{NS}pattern[@id='{hatch}']") is not None, "the hatching is defined"
    assert not up.get("fill").startswith("url(")
    assert "face down" in texts(root)
    assert "face down" not in " ".join(t for t in texts(root) if t != "face down")


def test_a_grid_without_face_down_cards_defines_no_hatching():
    root = parse(grid_svg(1, 1, {(0, 0): Cell("A")}))
    assert root.find(f".//{NS}pattern") is None and not with_class(root, "face-down")


def test_cells_off_the_grid_widen_the_picture():
    inside = parse(grid_svg(2, 2, {(0, 0): Cell("A")}))
    floating = parse(grid_svg(2, 2, {(0, 0): Cell("A"), (-1, 3): Cell("B")}))
    assert float(floating.get("width")) > float(inside.get("width"))
    assert float(floating.get("height")) > float(inside.get("height"))
    assert len(with_class(floating, "cell")) == 2
    assert len(with_class(floating, "empty")) == 3 * 4 - 2          # rows -1..1, columns 0..3


def test_a_grid_too_large_is_refused_and_an_empty_one_says_so():
    with pytest.raises(ValueError, match="too large"):
        grid_svg(1, 1, {(0, 0): Cell("A"), (10_000, 0): Cell("B")})
    root = parse(grid_svg(0, 0, {}))
    assert "no cards" in texts(root)


def test_colour_keys_pick_the_same_colour_in_every_process():
    script = ("from rulewright.compiler.docgen.pictures import grid_svg, Cell\n"
              "print(grid_svg(1, 4, {(0, i): Cell(k, colour_key=k) for i, k in enumerate('wxyz')}))")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(runs) == 1, "the colour of a key does not hang on the hash seed"
    fills = {e.get("fill") for e in with_class(parse(runs.pop()), "cell")}
    assert len(fills) > 1


# ---------------------------------------------------------------- pattern

def test_pattern_highlights_exactly_the_cells_reached():
    reached = {(0, 0), (1, 2), (2, 1), (3, 3)}
    root = parse(pattern_svg(4, 4, (1, 1), reached, "Seer"))
    cells = [g for g in root.iter(NS + "g") if g.find(NS + "rect") is not None
             and "cell" in (g.find(NS + "rect").get("class") or "").split()]
    assert len(cells) == 16
    lit = {g.find(NS + "title").text for g in cells if "reached" in g.find(NS + "rect").get("class").split()}
    assert lit == {f"({r}, {c})" for r, c in reached}
    fills = {g.find(NS + "title").text: g.find(NS + "rect").get("fill") for g in cells}
    (swatch,) = with_class(root, "legend-reached", "rect")
    assert {fills[t] for t in lit} == {swatch.get("fill")}, "the highlight is the legend's"
    assert swatch.get("fill") not in {fills[t] for t in fills if t not in lit}
    (centre,) = [g for g in cells if "centre" in g.find(NS + "rect").get("class").split()]
    assert centre.find(NS + "title").text == "(1, 1)"
    assert "Seer" in texts(root)


def test_pattern_of_a_card_that_sees_nothing():
    root = parse(pattern_svg(3, 3, (1, 1), set(), "Blind"))
    assert not with_class(root, "reached", "rect")
    assert "the cells it sees (0)" in texts(root)


# ---------------------------------------------------------------- flow

def _boxes(root):
    return {("".join(t.itertext()) if (t := g.find(f".//{NS}text")) is not None else ""): g
            for g in root.iter(NS + "g")}


def test_flow_nests_children_inside_their_parent_and_shows_repeats():
    flow = [FlowNode("Setup", note="deal the cards"),
            FlowNode("Round", repeat="× 3 rounds", children=[
                FlowNode("Turn", repeat="for each player", children=[FlowNode("Act")]), FlowNode("Upkeep")]),
            FlowNode("End")]
    root = parse(flow_svg(flow, title="Flow"))
    steps = with_class(root, "step", "rect")
    assert len(steps) == 6
    by_depth = {d: [e for e in steps if f"depth-{d}" in e.get("class")] for d in range(3)}
    assert [len(by_depth[d]) for d in range(3)] == [3, 2, 1]

    def inside(a, b):
        ax, ay, aw, ah = (float(a.get(k)) for k in ("x", "y", "width", "height"))
        bx, by, bw, bh = (float(b.get(k)) for k in ("x", "y", "width", "height"))
        return bx < ax and ax + aw < bx + bw and by < ay and ay + ah < by + bh

    round_box = by_depth[0][1]
    assert all(inside(e, round_box) for e in by_depth[1] + by_depth[2])
    assert inside(by_depth[2][0], by_depth[1][0])
    assert not inside(by_depth[0][2], round_box)
    written = texts(root)
    assert "↻ × 3 rounds" in written and "↻ for each player" in written and "deal the cards" in written
    assert len(with_class(root, "repeat", "g")) == 2 and len(with_class(root, "loop", "path")) == 2
    assert len(with_class(root, "next", "line")) == 2 + 1          # between siblings, at each level


def test_flow_links_are_kept_when_relative():
    root = parse(flow_svg([FlowNode("A", link="rules.md#a"), FlowNode("B", link=JS)]))
    assert [a.get("href") for a in root.iter(NS + "a")] == ["rules.md#a"]


def test_a_flow_step_that_contains_itself_is_refused():
    loop = FlowNode("Loop")
    loop.children.append(loop)
    with pytest.raises(ValueError, match="contains itself"):
        flow_svg([loop])


# ---------------------------------------------------------------- graph

def test_graph_caps_each_side_and_says_how_many_more():
    root = parse(graph_svg("total", [f"in{i}" for i in range(15)], ["out"], links={"in0": "#in0", "out": JS}))
    assert len(with_class(root, "name", "g")) == 12 + 1
    assert [t for t in texts(root) if "more" in t] == ["+ 3 more"]
    assert len(with_class(root, "edge", "path")) == 13
    assert [a.get("href") for a in root.iter(NS + "a")] == ["#in0"]
    assert "reads" in texts(root) and "read by" in texts(root)


def test_graph_of_twelve_a_side_has_no_more_and_an_empty_side_says_nothing():
    root = parse(graph_svg("x", [f"in{i}" for i in range(12)], []))
    assert not [t for t in texts(root) if "more" in t]
    assert "nothing" in texts(root)


# ---------------------------------------------------------------- slots and card

def test_slots_draw_items_and_dash_empty_slots():
    root = parse(slots_svg([("head", "Horns"), ("tail", None), ("legs", "Fast legs")], title="A beast",
                           details={"Horns": ["+1", "◆"], "Fast legs": [str(i) for i in range(9)]}))
    assert len(with_class(root, "filled", "rect")) == 2
    (empty,) = with_class(root, "empty", "rect")
    assert empty.get("stroke-dasharray")
    assert [t for t in texts(root) if t in ("head", "tail", "legs")] == ["head", "tail", "legs"]
    details = [t for t in texts(root) if t]
    assert "◆" in details and "+ 5 more" in details and "8" not in details


def test_card_shows_title_badges_and_rows():
    root = parse(card_svg("Owl", [("cost", "3"), ("points", "2")], subtitle="night", badges=["fast", "wise"]))
    assert len(with_class(root, "badge", "g")) == 2
    assert [t for t in texts(root) if t in ("cost", "3", "points", "2")] == ["cost", "3", "points", "2"]
    assert {"Owl", "night", "fast", "wise"} <= set(texts(root))


# ---------------------------------------------------------------- bars

def test_bars_of_no_data_say_so():
    for groups in ({}, {"base": {}}, {"base": {"a": float("nan")}}):
        svg = bars_svg(groups, "Nothing", "x", "y")
        root = parse(svg)
        assert "no data" in texts(root) and not with_class(root, "bar")
        assert "nan" not in svg.lower() and "inf" not in svg.lower()


def test_bars_of_zeros_draw_flat_bars_on_a_unit_axis():
    svg = bars_svg({"base": {"1": 0, "2": 0}, "rule": {"1": 0.0}}, "Zeros", "x", "y")
    root = parse(svg)
    assert len(with_class(root, "bar", "rect")) == 3
    assert [t for t in texts(root) if t and t[0].isdigit() and "." in t] == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    assert "nan" not in svg.lower()


def test_bars_one_colour_per_series_and_a_legend():
    root = parse(bars_svg({"base game": {"a": 3, "b": 4}, "house rule": {"a": 5, "c": 1}}, "T", "x", "y"))
    bars = with_class(root, "bar", "rect")
    assert len(bars) == 4
    assert len({b.get("fill") for b in bars}) == 2
    assert len(with_class(root, "legend", "g")) == 2
    assert [t for t in texts(root) if t in "abc"] == ["a", "b", "c"]


def test_bars_with_intervals_draw_a_whisker_each_within_the_axis():
    """A share with its 99% interval: the whisker spans the interval (the axis reaches its
    top, past every bar), the tooltip says it; a bar without one has no whisker."""
    groups = {"base game": {"seat 1": 0.3, "seat 2": 0.2}, "house rule": {"seat 1": 0.25, "seat 2": 0.25}}
    intervals = {("base game", "seat 1"): (0.2, 0.72), ("house rule", "seat 1"): (0.15, 0.35),
                 ("house rule", "seat 2"): (float("nan"), 0.3)}
    root = parse(bars_svg(groups, "Wins", "seats", "share", percent=True, intervals=intervals))
    whiskers = with_class(root, "interval", "path")
    assert len(whiskers) == 2                   # (a NaN end draws none)
    ticks_shown = [t for t in texts(root) if t.endswith("%")]
    assert ticks_shown[-1] == "80%"             # the axis covers 72%, above every bar
    ys = [float(v) for v in re.findall(r"V([\d.]+)", whiskers[0].get("d"))] + \
        [float(v) for v in re.findall(r"M[\d.]+,([\d.]+)", whiskers[0].get("d"))]
    assert max(ys) - min(ys) > 50               # 20% to 72% of the plot's height
    assert any("(20% to 72%)" in t for t in titles(root))
    assert not with_class(root, "value")          # (values over the bars would cross the whiskers)


def test_categories_keep_first_seen_order_unless_all_are_numbers():
    assert categories({"s": {"b": 1, "a": 2}, "t": {"c": 1}}) == ["b", "a", "c"]
    assert categories({"s": {"10": 1, "9": 2, "2.5": 1}}) == ["2.5", "9", "10"]
    assert categories({"s": {"10": 1, "x": 2, "9": 1}}) == ["10", "x", "9"]


@pytest.mark.parametrize("lo, hi", [(0, 1), (0, 7), (0, 33), (0, 0.52), (-4, 9), (0, 123456), (0, 1e-6),
                                    (-0.3, 0), (0, 0), (2, 3)])
def test_ticks_are_four_to_six_round_numbers_covering_the_range(lo, hi):
    t = ticks(lo, hi)
    assert 4 <= len(t) <= 6 and t[0] <= lo and t[-1] >= hi
    step = t[1] - t[0]
    assert all(abs((b - a) - step) < 1e-9 * max(1, step) for a, b in zip(t, t[1:]))
    mantissa = step / 10 ** __import__("math").floor(__import__("math").log10(step))
    assert any(abs(mantissa - m) < 1e-6 for m in (1, 2, 2.5, 5))


def test_percent_bars_write_percents():
    root = parse(bars_svg({"base": {"first": 0.52, "second": 0.48}}, "Wins", "seat", "share", percent=True))
    assert "52%" in texts(root)
    assert [t for t in texts(root) if t.endswith("%") and t not in ("52%", "48%")][-1] == "60%"


# ---------------------------------------------------------------- all of them

def test_the_same_data_gives_the_same_bytes():
    assert every_picture() == every_picture()
    a = pattern_svg(3, 3, (1, 1), {(0, 0), (2, 2), (0, 2)}, "x")
    b = pattern_svg(3, 3, (1, 1), {(0, 2), (2, 2), (0, 0)}, "x")
    assert a == b


def test_ids_differ_between_pictures():
    ids = [set(re.findall(r'id="([^"]+)"', svg)) for svg in
           (grid_svg(1, 1, {(0, 0): Cell("A", face_down=True)}), grid_svg(1, 1, {(0, 0): Cell("B", face_down=True)}))]
    assert ids[0] and ids[1] and not ids[0] & ids[1]


@pytest.mark.parametrize("kind", list(every_picture()))
def test_long_labels_are_shortened_with_the_full_text_in_a_title(kind):
    root = parse(every_picture(LONG)[kind])
    shown = [t for t in texts(root) if t.startswith("A label")]
    assert shown and all(len(t) < len(LONG.strip()) for t in shown)
    assert any(t.endswith("…") for t in shown)
    assert any(" ".join(LONG.split()) in t for t in titles(root))


def test_a_demo_page_of_every_picture(tmp_path):
    """A page of every picture, with no script, written only under tmp_path (open it
    in a browser to look: pytest --basetemp=DIR keeps it)."""
    pictures = every_picture()
    pictures["bars"] = bars_svg({"base game": {"2": 31.5, "3": 28, "4": 25}, "house rule": {"2": 33, "3": 30}},
                                "Mean score by player count", "players", "mean score")
    body = "".join(f"<h2>{kind}</h2>\n{svg}" for kind, svg in pictures.items())
    page = tmp_path / "pictures.html"
    page.write_text(f'<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/>'
                    f"<title>pictures</title></head><body>{body}</body></html>\n", encoding="utf-8")
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html
    ET.fromstring(html.split("\n", 1)[1])                      # the whole page is well-formed XHTML
    assert not (ROOT / "pictures.html").exists()


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=40), st.text(max_size=20))
def test_any_text_and_link_make_well_formed_pictures(label, link):
    for svg in every_picture(label, link).values():
        root = parse(svg)
        assert "<script" not in svg
        for a in root.iter(NS + "a"):
            href = a.get("href")
            assert href.strip() == href and not re.match(r"[^/?#]*:", href) and not href.startswith("//")
