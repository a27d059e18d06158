"""House rules written in the workbench: a draft's text opened, checked as it is typed,
compared with the game it changes, and saved into the workspace the user chose.

In:  a draft's name (letters, digits, ``_`` and ``-``) and text, as a browser sends them
     (untrusted: they are read as any spec is, under every budget); a workspace folder;
     the name of a shipped game, version or house rule to open.
Out: ``Drafts``: ``check`` (the title, the errors located at their line and column, the
     warnings, what the draft changes in its base, the text's tokens for highlighting,
     as JSON); ``place`` (the draft as a file other jobs load: verify, study, play);
     ``save`` (into the workspace, never through a link nor outside it); ``opened`` (a
     shipped file's or a workspace file's text); ``template`` (a new house rule).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from rulewright.app.checking import check_specs
from rulewright.app.diffing import diff_specs
from rulewright.app.opening import Request, open_spec
from rulewright.compiler import files
from rulewright.compiler.diagnostics import BadInputError, RulesError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MOST_TEXT = 256 * 1024          # the longest draft (characters): a house rule is a page or two


def name_ok(name: str) -> str:
    """``name`` when it is a draft's name (no folder, no dot: it cannot lead anywhere), else
    a bad input that says which names are."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        shown = repr(name)[:80]
        raise BadInputError(f"{shown} is not a house rule's name: letters, digits, '_' and '-', at most 64, "
                            "starting with a letter or digit (it becomes NAME.rules in the workspace)")
    return name


def text_ok(text: str) -> str:
    if not isinstance(text, str):
        raise BadInputError("a house rule's text is text")
    if len(text) > MOST_TEXT:
        raise BadInputError(f"the text is {len(text):,} characters long, more than the {MOST_TEXT:,} a house rule "
                            "written here may have")
    return text


def template(game: str) -> str:
    """A new house rule of the shipped ``game``: a variant that extends it by name (so the
    file reads the same from any folder), with a comment on what to write."""
    found = files.shipped(game)
    if found is None or not found.is_dir():
        games = [n for n in files.shipped_names() if "/" not in n]
        raise BadInputError(f"no shipped game {game!r} (games: {', '.join(games)})")
    return (f"# A house rule of {game}.\n\n"
            f"/// What the house rule changes, in a sentence a player reads.\n"
            f'variant my_house_rule "My house rule" extends "{game}"\n\n'
            "# Each change overrides a param, a row of a table or a definition of the game, or adds\n"
            "# one, with a doc comment (///) that says what it does, e.g.\n"
            "#   /// At most 5 players.\n"
            "#   override param max_players: int = 5\n")


def library() -> list[dict]:
    """What may be opened: each shipped game (a new house rule of it), version and house
    rule, by name."""
    out = []
    for name in files.shipped_names():
        kind = "game" if "/" not in name else "version" if "/variants/" in name else "house rule"
        out.append({"name": name, "kind": kind})
    return out


USES = re.compile(r"draft|job-[0-9]+|table-[0-9]+|replay")


class Drafts:
    """The drafts of one workbench, in the workspace saves go to (beside where each would
    be saved, hidden, while it is used), and a private folder for the state files a person
    sends."""

    def __init__(self, workspace: str | Path):
        self.workspace = Path(workspace).resolve()
        self.workspace.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix="rulewright-games-"))
        os.chmod(self.folder, 0o700)
        self.placed: set[Path] = set()
        files.add_root(self.workspace)

    def close(self) -> None:
        for path in list(self.placed):
            self.drop(path)
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------ files
    def saved(self) -> list[str]:
        """The house rules saved in the workspace (their names)."""
        return sorted(p.stem for p in self.workspace.glob("*.rules") if p.is_file() and NAME.fullmatch(p.stem))

    def opened(self, name: str) -> dict:
        """The text of a workspace file (its name) or of a shipped version or house rule
        (``library``); a shipped game opens as a new house rule of it. A shipped file's
        ``extends`` is written by name, so the text reads the same from the workspace."""
        if isinstance(name, str) and NAME.fullmatch(name) and (self.workspace / f"{name}.rules").is_file():
            path = self.workspace / f"{name}.rules"
            return {"name": name, "text": files.read_bytes(path).decode("utf-8", errors="replace"),
                    "from": "workspace"}
        found = files.shipped(name) if isinstance(name, str) and files.is_name(name) else None
        if found is None:
            raise BadInputError(f"nothing named {str(name)[:80]!r} to open: a house rule of the workspace "
                                f"({', '.join(self.saved()) or 'none yet'}) or a shipped name (rulewright list)")
        if found.is_dir():
            return {"name": "my_house_rule", "text": template(name), "from": "template"}
        text = files.read_bytes(found).decode("utf-8", errors="replace")
        return {"name": found.stem, "text": _by_name(text, found), "from": name}

    def place(self, name: str, text: str, use: str = "draft") -> Path:
        """The draft written where a job reads it: beside where it would be saved, so the
        paths it writes (a table file of the workspace, a file it extends) read as the saved
        file's would; hidden, one file for each ``use`` (``draft``: a check; ``job-N``,
        ``table-N``: while that job or game uses it), until ``drop``."""
        if not USES.fullmatch(use):
            raise ValueError(use)
        path = self.workspace / f".{name_ok(name)}.{use}.rules"
        files.write_text(path, text_ok(text), inside=self.workspace)
        self.placed.add(path)
        return path

    def drop(self, path: str | Path | None) -> None:
        """A placed draft taken away (nothing else: only what ``place`` wrote; None: nothing)."""
        if path is None:
            return
        path = Path(path)
        if path in self.placed:
            self.placed.discard(path)
            try:
                path.unlink()
            except OSError:
                pass

    def save(self, name: str, text: str) -> Path:
        """The draft written into the workspace as NAME.rules."""
        return files.write_text(self.workspace / f"{name_ok(name)}.rules", text_ok(text), inside=self.workspace)

    def games(self) -> list[str]:
        """The games saved in the workspace (their names: NAME.json)."""
        return sorted(p.stem for p in self.workspace.glob("*.json") if p.is_file() and NAME.fullmatch(p.stem))

    def save_game(self, name: str, text: str) -> Path:
        """A game's state file written into the workspace as NAME.json."""
        return files.write_text(self.workspace / f"{name_ok(name)}.json", text, inside=self.workspace)

    def game_file(self, name: str | None = None, text: str | None = None) -> Path:
        """The state file of a game to go on with: one saved in the workspace (by name), or
        the text of one the person chose on their machine (placed in the private folder)."""
        if name is not None:
            path = self.workspace / f"{name_ok(name)}.json"
            if not path.is_file():
                raise BadInputError(f"no game {name!r} saved in the workspace (saved: "
                                    f"{', '.join(self.games()) or 'none yet'})")
            return path
        path = self.folder / "loaded.json"
        files.write_text(path, text_ok(text), inside=self.folder)
        return path

    # ------------------------------------------------------------ checking
    def check(self, name: str, text: str) -> dict:
        """The draft checked as ``rulewright check`` checks a file, and compared with its base
        as ``rulewright diff`` does."""
        path = self.place(name, text)
        try:
            return self._checked(name, text, path)
        finally:
            self.drop(path)

    def _checked(self, name: str, text: str, path: Path) -> dict:
        shown = f"{name}.rules"
        out: dict = {"name": name, "tokens": tokens(text)}
        [checked] = check_specs([str(path)], lambda p, sets: open_spec(Request(p), sets))
        if not checked.ok:
            out.update(ok=False, errors=[self._located(d, path, shown) for d in checked.error.diagnostics])
            return out
        out.update(ok=True, title=checked.title, definitions=checked.definitions, rule_ids=checked.rule_ids,
                   warnings=[self._warned(w.at, w.message, path, shown) for w in checked.warnings + checked.notes])
        program = open_spec(Request(str(path)))
        if program.variants:
            base = program.variants[0].extends
            try:
                diffed = diff_specs(open_spec(Request(base)), program, base, shown)
                out["base"] = files.shipped_name(base) or base
                out["diff"] = [shown_as(line, path, shown) for line in diffed.lines()]
            except RulesError as exc:
                out["diff"] = [d.message for d in exc.diagnostics]
        return out

    def _located(self, d, path: Path, shown: str) -> dict:
        here = d.span is not None and d.span.file and Path(d.span.file).resolve() == path.resolve()
        out = {"message": shown_as(d.message, path, shown), **({"hint": shown_as(d.hint, path, shown)} if d.hint else {})}
        if here:
            out.update(line=d.span.line, col=d.span.col, end_line=d.span.end_line, end_col=d.span.end_col)
        elif d.span is not None and d.span.file:
            out["at"] = shown_as(str(d.span), path, shown)
        return out

    def _warned(self, at: str, message: str, path: Path, shown: str) -> dict:
        file, _, rest = at.rpartition(":")
        file, _, line = file.rpartition(":")
        out = {"message": shown_as(message, path, shown)}
        if file and Path(file).resolve() == path.resolve() and line.isdigit():
            out.update(line=int(line), col=int(rest) if rest.isdigit() else 1)
        else:
            out["at"] = shown_as(at, path, shown)
        return out


def shown_as(text: str, path: Path, shown: str) -> str:
    """``text`` (a message, a report) with the placed draft's path written as the draft's
    file name ``shown``, and the workspace's files by their names."""
    return text.replace(str(path), shown).replace(str(path.parent) + os.sep, "")


def _by_name(text: str, where: Path) -> str:
    """A shipped file's ``extends "PATH"`` written as the shipped name PATH leads to."""
    def named(m: re.Match) -> str:
        name = files.shipped_name(where.parent / m.group(2))
        return f'{m.group(1)}"{name}"' if name else m.group(0)
    return re.sub(r'(\bextends\s+)"([^"\n]*)"', named, text)


def tokens(text: str) -> list[list]:
    """The text's tokens as the .rules lexer reads them (the one the docs highlight with):
    [kind, text] pairs whose texts put together are the text."""
    from rulewright.compiler.docgen.lexer import RulesLexer      # (Pygments: loaded to highlight)
    out: list[list] = []
    for kind, part in RulesLexer(stripnl=False, ensurenl=False).get_tokens(text):
        parts = str(kind).lower().split(".")        # Token.Literal.String.Double -> string
        k = parts[2] if len(parts) > 2 and parts[1] == "literal" else parts[1] if len(parts) > 1 else "text"
        if out and out[-1][0] == k:
            out[-1][1] += part
        else:
            out.append([k, part])
    return out


__all__ = ["Drafts", "library", "name_ok", "shown_as", "template", "tokens"]
