"""The player-facing texts of a spec and their translations, kept beside the spec.

In:  a spec directory (its ``.rules`` files and those of its ``variants/``), parsed only:
     no spec text is run.
Out: every text a player reads (titles, doc comments, rule and check messages, the names
     of enum values and table rows), each with a stable key; and, per language, a
     catalogue ``i18n/<lang>.po`` beside the spec (gettext's format, which translators'
     tools read), keyed by that key (``msgctxt``) and holding the English text it
     translates (``msgid``). A changed English text no longer matches its entry: the
     entry is marked stale (``fuzzy``, with the English it translated) until a translator
     updates it, and the docs fall back to English for it.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

import polib

from rulewright.compiler import files
from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic, Span, register_source
from rulewright.compiler.play.inputs import not_utf8
from rulewright.compiler.syntax import ast as A

LANGUAGES = {"en": "English", "fr": "Français", "es": "Español", "zh": "中文"}
TRANSLATED = ("fr", "es", "zh")
CATALOGUE_DIR = "i18n"


# definitions whose names are headings or links of the rulebook: their names are translated
_NAMED = (A.Procedure, A.Scoring, A.Table, A.Enum, A.Grid, A.Rule, A.Def, A.Outcome, A.Mode, A.Step)
# definitions whose title (``procedure deal "Dealing the cards" {...}``) is the English of
# their name ("name X"), not a text of its own; a switch's only when it has a title
TITLED_NAMES = (A.Procedure, A.Scoring, A.Rule, A.Def, A.Outcome, A.Step, A.Switch, A.Table, A.Enum, A.Relation)


def english_name(defs: dict, name: str) -> str:
    """A definition's (or a step's, ``owner.step``) name in English: the title the spec
    gives it, else its name in words."""
    d = defs.get(name)
    if d is None and "." in name:
        owner, _, step = name.partition(".")
        d = next((n for n in A.nodes_in(defs[owner]) if isinstance(n, A.Step) and n.name == step), None) \
            if owner in defs else None
    title = getattr(d, "title", None) if isinstance(d, TITLED_NAMES) else None
    return title if isinstance(title, str) and title.strip() else value_words(name.split(".")[-1])


@dataclass(frozen=True)
class Text:
    key: str            # stable: '[variant/]kind name' (kind: title, doc, message, name)
    english: str
    where: str          # file:line, for translators


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{[^{}]*\}", text))


def _source(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def _span_text(lines: list[str], span) -> str:
    if span.line == span.end_line:
        return lines[span.line - 1][span.col - 1:span.end_col - 1]
    part = [lines[span.line - 1][span.col - 1:]] + lines[span.line:span.end_line - 1]
    return "\n".join(part + [lines[span.end_line - 1][:span.end_col - 1]])


def message_text(message: tuple, lines: list[str]) -> str:
    """A rule's ``else`` sentence as written: its text, each expression as ``{...}``."""
    out = []
    for part in message:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append("{" + _span_text(lines, part.span) + "}")
    return "".join(out)


def value_words(name: str) -> str:
    """The English words of a value's name: ``first_player`` -> ``first player``."""
    return name.replace("_", " ")


def _where(span) -> str:
    return f"{span.file}:{span.line}"


def _texts_of_definition(d, prefix: str, lines: list[str], out: list[Text], name: str | None = None,
                         override: bool = False) -> None:
    """The texts of one definition; ``override``: it replaces a definition of the base, whose
    name (its title) it keeps unless it gives a title of its own."""
    if isinstance(d, A.Estimate):
        return          # (for bots, not players: no rulebook shows it)
    name = name or getattr(d, "name", "")
    span = getattr(d, "name_span", None) or getattr(d, "span", None)
    title = getattr(d, "title", None)
    titled = isinstance(title, str) and bool(title.strip())
    if isinstance(d, TITLED_NAMES) and titled:
        out.append(Text(f"{prefix}name {name}", title, _where(span)))
    elif not (override and isinstance(d, TITLED_NAMES)):
        if isinstance(d, _NAMED) and (not isinstance(d, (A.Def, A.Rule)) or d.doc):
            out.append(Text(f"{prefix}name {name}", value_words(name.split(".")[-1]), _where(span)))
        if titled:
            out.append(Text(f"{prefix}title {name}", title, _where(span)))
    doc = getattr(d, "doc", "")
    if doc:
        out.append(Text(f"{prefix}doc {name}", doc, _where(span)))
    message = getattr(d, "message", None)
    if message:
        out.append(Text(f"{prefix}message {name}", message_text(message, lines), _where(span)))
    if isinstance(d, A.Scoring):
        for layer in d.layers:
            out.append(Text(f"{prefix}name {layer.name}", value_words(layer.name), _where(layer.span)))
    if isinstance(d, A.State):
        for var in d.vars:
            out.append(Text(f"{prefix}name {var.name}", value_words(var.name), _where(var.span)))
            if var.doc:
                out.append(Text(f"{prefix}doc {var.name}", var.doc, _where(var.span)))
    if isinstance(d, (A.Enum, A.Table)):
        values = [(v, s) for v, s in d.values] if isinstance(d, A.Enum) else [(r.key, r.span) for r in d.rows]
        values += [(r.key, r.span) for r in d.added]
        for v, s in values:
            out.append(Text(f"{prefix}name {name}.{v}", value_words(v), _where(s)))
        for r in tuple(getattr(d, "rows", ())) + tuple(d.added):
            if r.doc:
                out.append(Text(f"{prefix}doc {name}.{r.key}", r.doc, _where(r.span)))
    # in one walk: steps at any depth with their doc comments; an example's sentences, in
    # order, and the captions of the values it pictures
    said = 0
    for n in A.nodes_in(d):
        if isinstance(n, A.Step) and n is not d:
            out.append(Text(f"{prefix}name {name}.{n.name}", n.title if n.title else value_words(n.name),
                            _where(n.name_span)))
            if n.doc:
                out.append(Text(f"{prefix}doc {name}.{n.name}", n.doc, _where(n.name_span)))
        elif isinstance(n, A.Expect) and n.says:
            said += 1
            out.append(Text(f"{prefix}says {name}.{said}", n.says, _where(span)))
        elif isinstance(n, A.Let) and n.doc and isinstance(d, A.Example):
            out.append(Text(f"{prefix}shows {name}.{n.name}", n.doc, _where(n.name_span)))


def texts_of_file(f: A.SpecFile) -> list[Text]:
    """The player-facing texts one parsed file writes, in the order written."""
    lines = _source(f.path)
    out: list[Text] = []
    prefix = ""
    if f.variant is not None:
        prefix = f"{f.variant.name}/"
        _texts_of_definition(f.variant, prefix, lines, out, name="variant")
    for d in f.definitions:
        if isinstance(d, A.Variant):
            continue
        _texts_of_definition(d, prefix, lines, out)
    for c in f.changes:
        if c.node is not None:
            _texts_of_definition(c.node, prefix, lines, out, name=c.target, override=c.action == "override")
        elif c.doc:
            out.append(Text(f"{prefix}doc {c.action} {c.target}", c.doc, _where(c.target_span)))
    return out


def spec_texts(parsed: list[A.SpecFile]) -> list[Text]:
    """Every text of the files, one per key (a key written twice keeps its first text)."""
    seen: dict[str, Text] = {}
    for f in parsed:
        for t in texts_of_file(f):
            seen.setdefault(t.key, t)
    return list(seen.values())


# ---------------------------------------------------------------- catalogues
def catalogue_path(spec_dir: Path, lang: str) -> Path:
    return Path(spec_dir) / CATALOGUE_DIR / f"{lang}.po"


@dataclass
class Status:
    lang: str
    current: int = 0
    stale: list[str] = None         # keys whose English changed since they were translated
    missing: list[str] = None       # keys with no translation
    broken: list[str] = None        # translations that lost or added a {placeholder}

    def __post_init__(self):
        self.stale = self.stale or []
        self.missing = self.missing or []
        self.broken = self.broken or []

    @property
    def complete(self) -> bool:
        return not (self.stale or self.missing or self.broken)


def _new_catalogue(lang: str) -> polib.POFile:
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Project-Id-Version": "rulewright rules", "Language": lang,
                   "MIME-Version": "1.0", "Content-Type": "text/plain; charset=UTF-8",
                   "Content-Transfer-Encoding": "8bit"}
    return po


class _Lines:
    """A catalogue's text as polib reads it: given a text, ``polib.pofile`` first asks
    whether it is the name of a file, and reads that file if it is (a catalogue whose
    whole text is a path would read another file); given this, it reads the lines."""

    def __init__(self, text: str):
        self._lines = text.splitlines()

    def splitlines(self) -> list[str]:
        return self._lines


_CHARSET = re.compile(r"charset\s*=\s*([^\s;]+)", re.I)


def load_catalogue(spec_dir: Path, lang: str, roots: list[Path] | None = None, *,
                   shared: bool = False) -> polib.POFile:
    """The catalogue ``i18n/<lang>.po`` of a spec directory (a new one when there is none).
    ``shared``: for a reader that only looks words up (a ``Translator``), the catalogue
    parsed once for the same text (every check on the file is still made each time);
    otherwise a catalogue of its own, which the caller may change and save.

    It is read as every file a spec names: only inside the allowed folders (``roots``;
    by default the folder tree of the spec, ``--root`` and the games rulewright ships:
    a symbolic link leading out of them is refused), only a regular file of at most
    8 MiB, and only UTF-8 text that says so (``charset=UTF-8`` or none). Anything else
    is one located ``BadInputError``."""
    path = catalogue_path(spec_dir, lang)
    if not os.path.lexists(path):
        return _new_catalogue(lang)
    if not path.exists():           # a link to nothing: nothing to read (writing it is refused)
        return _new_catalogue(lang)
    roots = roots if roots is not None else files.allowed([files.tree_of(spec_dir)])
    if not files.inside(path, roots):
        raise BadInputError(Diagnostic(NO_SPAN, f"{path}: a symbolic link that leads outside the allowed folders",
                                       files.refusal_hint()))
    raw = files.read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = not_utf8(str(path), raw, exc)
        raise BadInputError(replace(where, hint="a catalogue is UTF-8 text (its header says charset=UTF-8): "
                                                "save it as UTF-8")) from None
    register_source(str(path), text)
    if shared:
        key = (str(path), text)
        if key not in _SHARED:
            if len(_SHARED) >= 64:
                _SHARED.clear()
            _SHARED[key] = _parsed(path, text)
        return _SHARED[key]
    return _parsed(path, text)


# catalogues parsed for readers that only look words up, by their file and text
_SHARED: dict[tuple[str, str], polib.POFile] = {}


def _parsed(path: Path, text: str) -> polib.POFile:
    """The catalogue ``text`` read from ``path`` parsed, or one located ``BadInputError``."""
    try:
        po = polib.pofile(_Lines(text), encoding="utf-8", wrapwidth=0)
    except Exception as exc:        # noqa: BLE001 (polib's parser on a file from anyone: any failure is the file's)
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) if found else 1
        what = str(exc).split(": ", 1)[-1] if "unescaped" in str(exc) else "a line polib cannot read"
        raise BadInputError(Diagnostic(Span(str(path), line, 1, line, 2),
                                       f"not a translation catalogue (gettext .po): {what}",
                                       "mend the line, or delete the file and run 'rulewright translations' "
                                       "to make it again")) from None
    declared = _CHARSET.search(po.metadata.get("Content-Type", "") or "")
    if declared and declared.group(1).strip().lower().replace("_", "-") not in ("utf-8", "utf8"):
        line = next((i for i, ln in enumerate(text.splitlines(), start=1) if "charset" in ln.lower()), 1)
        raise BadInputError(Diagnostic(Span(str(path), line, 1, line, 2),
                                       f"the catalogue says it is written in {declared.group(1)[:40]}: "
                                       "rulewright reads UTF-8 catalogues only",
                                       "save it as UTF-8 and write charset=UTF-8 in its header "
                                       "(Content-Type: text/plain; charset=UTF-8)"))
    return po


def save_catalogue(spec_dir: Path, lang: str, po: polib.POFile) -> Path:
    """``i18n/<lang>.po`` of a spec directory written by the one writer (``files.write_text``):
    within the spec directory, never through a symbolic link (an ``i18n`` folder or a
    ``.po`` file that is one is refused), the folder made when missing."""
    path = catalogue_path(spec_dir, lang)
    return files.write_text(path, str(po), inside=spec_dir)


def update_catalogue(po: polib.POFile, texts: list[Text]) -> polib.POFile:
    """The catalogue with one entry per text, in the spec's order: a translation kept where
    its English is unchanged; marked stale (fuzzy, with the English it translated) where
    the English changed; reused where the same English moved to another key; empty where
    new. Entries of texts that are gone are dropped."""
    by_key = {e.msgctxt: e for e in po if not e.obsolete}
    by_english = {}
    for e in po:
        if e.msgstr and "fuzzy" not in e.flags:
            by_english.setdefault(e.msgid, e.msgstr)
    out = _new_catalogue(po.metadata.get("Language", ""))
    out.metadata = dict(po.metadata) or out.metadata
    for t in texts:
        old = by_key.get(t.key)
        entry = polib.POEntry(msgctxt=t.key, msgid=t.english, occurrences=[tuple(t.where.rsplit(":", 1))])
        if old is not None and old.msgid == t.english:
            entry.msgstr = old.msgstr
            entry.flags = list(old.flags)
            entry.previous_msgid = old.previous_msgid
        elif old is not None and old.msgstr:
            entry.msgstr = old.msgstr
            entry.flags = ["fuzzy"]
            entry.previous_msgid = old.msgid if "fuzzy" not in old.flags else (old.previous_msgid or old.msgid)
        elif t.english in by_english:
            entry.msgstr = by_english[t.english]
        out.append(entry)
    return out


def status(po: polib.POFile, texts: list[Text], lang: str) -> Status:
    s = Status(lang)
    by_key = {e.msgctxt: e for e in po if not e.obsolete}
    for t in texts:
        e = by_key.get(t.key)
        if e is None or not e.msgstr.strip():
            s.missing.append(t.key)
        elif e.msgid != t.english or "fuzzy" in e.flags:
            s.stale.append(t.key)
        elif _placeholders(e.msgstr) != _placeholders(t.english):
            s.broken.append(t.key)
        else:
            s.current += 1
    return s


class Translator:
    """Looks up the current translation of a text by its key; English where there is none
    (missing, stale or broken: a player never reads a translation of another text)."""

    def __init__(self, lang: str, catalogues: list[polib.POFile] = ()):
        self.lang = lang
        self.entries: dict[str, polib.POEntry] = {}
        for po in catalogues:
            for e in po:
                if not e.obsolete and e.msgstr.strip() and "fuzzy" not in e.flags:
                    self.entries.setdefault(e.msgctxt, e)

    def lookup(self, key: str, english: str) -> str | None:
        """The current translation of ``english`` under ``key``, or None."""
        e = self.entries.get(key)
        if e is None or e.msgid != english or _placeholders(e.msgstr) != _placeholders(english):
            return None
        return e.msgstr

    def __call__(self, key: str, english: str, prefixes: tuple[str, ...] = ()) -> str:
        """``english`` translated: the key as a variant writes it (``prefixes``: the variants'
        names, the last applied first), else as the base game writes it."""
        if self.lang == "en" or not english:
            return english
        for p in prefixes:
            found = self.lookup(f"{p}/{key}", english)
            if found is not None:
                return found
        found = self.lookup(key, english)
        return english if found is None else found

    @classmethod
    def for_spec(cls, spec_dir: Path | None, lang: str) -> "Translator":
        if lang == "en" or spec_dir is None:
            return cls(lang)
        return cls(lang, [load_catalogue(spec_dir, lang, shared=True)])

    @classmethod
    def for_files(cls, paths, lang: str) -> "Translator":
        """The catalogues of the spec directories holding ``paths`` (a file's folder or the
        one above it: a game's ``variants/`` share the game's catalogue)."""
        if lang == "en":
            return cls(lang)
        dirs: list[Path] = []
        for path in paths:
            for d in (Path(path).parent, Path(path).parent.parent):
                if (d / CATALOGUE_DIR).is_dir():
                    if d not in dirs:
                        dirs.append(d)
                    break
        return cls(lang, [load_catalogue(d, lang, shared=True) for d in dirs])
