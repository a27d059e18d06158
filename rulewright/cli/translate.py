"""The translations command: the catalogues of a spec's player-facing texts.

In:  parsed arguments (spec directories, languages, --check).
Out: ``i18n/<lang>.po`` beside each spec, brought up to date with its texts (unless
     --check), and a line per language: how many texts are translated, stale, missing
     (with --json: the same, and every text to do, as JSON).
     Exit 0; with --check, 1 when a text has no current translation; 2 on bad input.
"""
from __future__ import annotations

import json
from pathlib import Path

from rulewright.cli.common import UsageError
from rulewright.compiler.docgen import translations as tr
from rulewright.compiler.loader import parse_files


def catalogue_files(spec: Path) -> list[Path]:
    """The .rules files one catalogue covers: a spec directory's and its variants'."""
    return sorted(f for f in spec.rglob("*.rules") if f.is_file() and tr.CATALOGUE_DIR not in f.parts)


def spec_texts(spec: Path) -> list[tr.Text]:
    return tr.spec_texts(parse_files(catalogue_files(spec)))


def cmd_translations(args) -> int:
    langs = [x.strip() for x in args.lang.split(",") if x.strip()] if args.lang else list(tr.TRANSLATED)
    unknown = [x for x in langs if x not in tr.TRANSLATED]
    if unknown:
        raise UsageError(f"--lang {','.join(unknown)}: not a language of the catalogues "
                         f"(they are {', '.join(tr.TRANSLATED)}; English is the spec itself)")
    incomplete = False
    shown = []          # (with --json: each catalogue's counts and texts to do)
    for name in args.specs:
        spec = Path(name)
        if not spec.is_dir():
            raise UsageError(f"{name}: not a directory (a catalogue is kept beside a spec directory)")
        texts = spec_texts(spec)
        for lang in langs:
            po = tr.update_catalogue(tr.load_catalogue(spec, lang), texts)
            if not args.check:
                tr.save_catalogue(spec, lang, po)      # (never through a symbolic link: compiler.files)
            s = tr.status(po, texts, lang)
            incomplete = incomplete or not s.complete
            if getattr(args, "json", False):
                shown.append({"spec": str(spec), "lang": lang, "texts": len(texts), "translated": s.current,
                              "stale": list(s.stale), "missing": list(s.missing), "placeholders_differ": list(s.broken),
                              "written": not args.check})
                continue
            print(f"{spec} [{lang}]: {s.current} of {len(texts)} texts translated, {len(s.stale)} stale, "
                  f"{len(s.missing)} missing" + (f", {len(s.broken)} with other {{placeholders}}" if s.broken
                                                 else ""))
            for what, keys in (("stale", s.stale), ("missing", s.missing), ("placeholders differ", s.broken)):
                for k in keys[:args.show]:
                    print(f"  {what}: {k}")
    if getattr(args, "json", False):
        print(json.dumps({"complete": not incomplete, "catalogues": shown}, indent=2, ensure_ascii=False))
    return 1 if args.check and incomplete else 0
