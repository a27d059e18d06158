"""``rulewright list``: the games, versions and house rules rulewright ships, and the
queries of each game; and the close shipped name of a spec that is not there.

In:  the library of shipped specs (``files.LIBRARY``: the package's games/, or spec/ in
     the repository).
Out: each game with its name (what SPEC may be on every command: ``darwins_choice``),
     its title, its versions (``darwins_choice/variants/two_player``), its house rules
     (``house_rules/darwin_drought``) and its queries (``best-move``), as text or JSON.

The titles and queries are read from the files' own lines, not by loading each spec
(which takes seconds for a game whose compiled program is not cached yet): a game's
``game NAME [IDs] "Title"`` line, a variant's ``variant NAME [IDs] "Title" extends
"PATH"`` (over one or more lines, as the grammar allows) and each ``query NAME [IDs]
"Title"``. A spec's comments cannot hold such a line (they start with ``#`` or ``///``).
"""
from __future__ import annotations

import difflib
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rulewright.compiler import files

_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_TAGS = r"(?:\[[^\]]*\])?"
_GAME = re.compile(rf"^game\s+([a-z_][a-z0-9_]*)\s*{_TAGS}\s*{_STRING}", re.M)
_VARIANT = re.compile(rf"^variant\s+([a-z_][a-z0-9_]*)\s*{_TAGS}\s*(?:{_STRING}\s*)?extends\s*{_STRING}", re.M)
_QUERY = re.compile(rf"^query\s+([a-z_][a-z0-9_]*)\s*{_TAGS}\s*(?:{_STRING})?", re.M)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


@dataclass
class Shipped:
    """A shipped spec: its name on the command line, its title, its file or folder."""
    name: str
    title: str | None
    path: str


@dataclass
class Game(Shipped):
    """A shipped game with its versions (variants/), house rules and queries."""
    versions: list[Shipped] = field(default_factory=list)
    house_rules: list[Shipped] = field(default_factory=list)
    queries: list[Shipped] = field(default_factory=list)


def _text(written: str | None) -> str | None:
    """A quoted text of a spec as its value (its escapes undone; a code point escape is
    left as written: the title is only shown)."""
    if written is None:
        return None
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), written)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _name(path: Path, root: Path) -> str:
    """The name a shipped file or folder is given on the command line (no ``.rules``)."""
    return path.relative_to(root).with_suffix("").as_posix()


def _game_of(variant: Path, extends: str, root: Path) -> str | None:
    """The name of the shipped game a variant file extends, through the variants it
    extends (a path relative to the file, or a shipped name); None when it extends no
    shipped game."""
    seen = set()
    while variant not in seen:
        seen.add(variant)
        target = variant.parent / extends
        if not target.exists():
            target = root / extends
            if not target.exists():
                target = root / f"{extends.rstrip('/')}.rules"
        try:
            rel = target.resolve().relative_to(root.resolve())
        except (OSError, ValueError):
            return None
        if target.is_dir():
            return rel.parts[0] if len(rel.parts) == 1 else None
        found = _VARIANT.search(_read(target))
        if not found:
            return None
        variant, extends = target, found.group(3)
    return None


def library(root: Path | None = None) -> tuple[list[Game], list[Shipped]]:
    """The shipped games, and the house rules of no shipped game.

    In:  the library's folder (default ``files.LIBRARY``).
    Out: (each game folder holding a ``game`` line, by name, with its versions, house
         rules and queries; the house rules whose base game is not one of them)."""
    root = files.LIBRARY if root is None else root
    games: dict[str, Game] = {}
    if not root.is_dir():
        return [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        texts = [_read(f) for f in sorted(folder.glob("*.rules"))]
        header = next((m for m in (_GAME.search(t) for t in texts) if m), None)
        if header is None:
            continue
        game = Game(folder.name, _text(header.group(2)), str(folder))
        for text in texts:
            game.queries += [Shipped(m.group(1).replace("_", "-"), _text(m.group(2)), str(folder))
                             for m in _QUERY.finditer(text)]
        games[folder.name] = game
    others: list[Shipped] = []
    for f in sorted(root.rglob("*.rules")):
        found = _VARIANT.search(_read(f))
        if not found:
            continue
        shipped = Shipped(_name(f, root), _text(found.group(2)), str(f))
        owner = _game_of(f, found.group(3), root)
        if owner not in games:
            others.append(shipped)
        elif f.parent.name == "variants" and f.parent.parent.name == owner:
            games[owner].versions.append(shipped)
        else:
            games[owner].house_rules.append(shipped)
    return list(games.values()), others


def names(root: Path | None = None) -> list[str]:
    """Every shipped name a command takes for SPEC: the games, their versions, the house
    rules (for completion and "did you mean").

    In:  the library's folder (default ``files.LIBRARY``).
    Out: the names, games first."""
    games, others = library(root)
    return [g.name for g in games] + [s.name for g in games for s in g.versions + g.house_rules] + \
        [s.name for s in others]


def near_name(given: str, root: Path | None = None) -> str | None:
    """The hint for a spec that is not there: the shipped name closest to it.

    In:  what the user gave for SPEC (``darwins_chioce``, ``spec/darwins_chioce``,
         ``house_rules/darwin_drougt.rules``).
    Out: "did you mean 'darwins_choice'? (a game rulewright ships: rulewright list)",
         or None when no shipped name is close."""
    root = files.LIBRARY if root is None else root
    key = given.strip().rstrip("/").removesuffix(".rules")
    if key.startswith(f"{root.name}/"):          # (spec/darwins_chioce, in the repository)
        key = key[len(root.name) + 1:]
    games, others = library(root)
    kinds = {g.name: "a game" for g in games}
    kinds.update({s.name: "a version" for g in games for s in g.versions})
    kinds.update({s.name: "a house rule" for g in games for s in g.house_rules})
    kinds.update({s.name: "a house rule" for s in others})
    if not key or key in kinds:
        return None
    close = difflib.get_close_matches(key, list(kinds), n=1, cutoff=0.6)
    if not close:       # the last part alone: darwin_drougth for house_rules/darwin_drought
        last = {name.rsplit("/", 1)[-1]: name for name in kinds}
        near = difflib.get_close_matches(key.rsplit("/", 1)[-1], list(last), n=1, cutoff=0.75)
        close = [last[near[0]]] if near else []
    if not close:
        return None
    return f"did you mean '{close[0]}'? ({kinds[close[0]]} rulewright ships: rulewright list)"


def _column(rows: list[Shipped], indent: str) -> list[str]:
    width = max((len(r.name) for r in rows), default=0)
    return [f"{indent}{r.name:<{width}}  {r.title or ''}".rstrip() for r in rows]


def listed(games: list[Game], others: list[Shipped]) -> str:
    """The list as text: each game, its versions, house rules and queries, a column of
    names and one of titles.

    In:  what ``library`` found.
    Out: the text (ending with a new line)."""
    lines: list[str] = []
    for game in games:
        lines.append(f"{game.name}  {game.title or ''}".rstrip())
        for what, rows in (("versions", game.versions), ("house rules", game.house_rules),
                           ("queries (rulewright query SPEC QUERY)", game.queries)):
            if rows:
                lines.append(f"  {what}:")
                lines += _column(rows, "    ")
        lines.append("")
    if others:
        lines.append("house rules of other games:")
        lines += _column(others, "  ")
        lines.append("")
    if not games and not others:
        lines.append(f"no shipped games in {files.LIBRARY}")
    return "\n".join(lines).rstrip("\n") + "\n"


def as_json(games: list[Game], others: list[Shipped]) -> dict:
    """The list as JSON: ``{"games": [{name, title, path, versions, house_rules,
    queries}], "other_house_rules": [...]}``, each entry with its name, title and path."""
    return {"games": [asdict(g) for g in games], "other_house_rules": [asdict(s) for s in others]}


def cmd_list(args) -> int:
    """``rulewright list [--json]``.

    In:  the parsed command line.
    Out: the list on standard output; exit 0."""
    games, others = library()
    if args.json:
        print(json.dumps(as_json(games, others), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(listed(games, others))
    return 0
