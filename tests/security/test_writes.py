"""Writes that stay where they belong: every file rulewright writes goes through one
writer (compiler.files.write_text), which never follows a symbolic link, never leaves
the folder it writes in, and replaces a file whole; the files a docs folder or a spec
folder holds (translation catalogues, the measured effects, variants) are read only
inside the allowed folders, as regular files within the size limit, or refused with one
message (exit 2)."""
from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
from pathlib import Path

import pytest

from rulewright.cli import main
from rulewright.compiler import files
from rulewright.compiler.diagnostics import BadInputError
from helpers import ROOT, run_main as run, separate_cache

SAVANNA = ROOT / "spec" / "ecosystem_savanna"
VICTIM = "the victim's own text\n"


@pytest.fixture(autouse=True)
def _separate_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEWRIGHT_CACHE", separate_cache())
    monkeypatch.chdir(tmp_path)




def one_error(err: str) -> str:
    """The error said once (its message and hint; no second error)."""
    assert err.count("error:") == 1, err
    return err


def victim(tmp_path: Path) -> Path:
    """A file outside every folder a command writes in, that a link points to."""
    path = tmp_path / "outside" / "victim.txt"
    path.parent.mkdir(exist_ok=True)
    path.write_text(VICTIM, encoding="utf-8")
    return path


def untouched(tmp_path: Path) -> None:
    """Nothing was written outside: the victim as it was, nothing beside it."""
    assert (tmp_path / "outside" / "victim.txt").read_text(encoding="utf-8") == VICTIM
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["victim.txt"]


def tiny_game(folder: Path, title: str = "G") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.rules").write_text(
        f'game g "{title}"\n/// a word\ndef word = "w"\nprocedure tell {{\n  note said = word\n}}\n'
        'mode standard "Standard" players 1 {\n  seats players\n  do tell()\n}\n', encoding="utf-8")
    return folder


# ------------------------------------------------------------------ the writer
def test_the_writer_writes_a_new_file_and_replaces_one(tmp_path):
    target = tmp_path / "a.txt"
    files.write_text(target, "one")
    assert target.read_text() == "one"
    mode = stat.S_IMODE(os.stat(target).st_mode)
    assert mode == 0o666 & ~_umask()            # the permissions a plain write gives
    os.chmod(target, 0o600)
    files.write_text(target, "two")
    assert target.read_text() == "two" and stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]      # no temporary file left


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_writer_makes_the_folders_within(tmp_path):
    files.write_text(tmp_path / "out" / "x" / "y" / "page.md", "p", inside=tmp_path / "out")
    assert (tmp_path / "out" / "x" / "y" / "page.md").read_text() == "p"


@pytest.mark.parametrize("name", ["../escaped.md", "x/../../escaped.md", "/tmp/escaped-abs.md", "."])
def test_the_writer_stays_inside_its_folder(tmp_path, name):
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(BadInputError) as info:
        files.write_text(out / name, "x", inside=out)
    assert "leads outside the folder" in info.value.render() and info.value.exit_code == 2
    assert not (tmp_path / "escaped.md").exists() and not Path("/tmp/escaped-abs.md").exists()


def test_the_writer_never_follows_a_link(tmp_path):
    target = victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "page.md").symlink_to(target)
    (out / "sub").symlink_to(target.parent)
    (out / "dangling.md").symlink_to(tmp_path / "outside" / "new.txt")
    for path, what in ((out / "page.md", "the file"), (out / "sub" / "page.md", "the folder"),
                       (out / "dangling.md", "the file")):
        with pytest.raises(BadInputError) as info:
            files.write_text(path, "x", inside=out)
        said = info.value.render()
        assert f"{what} is a symbolic link" in said and info.value.exit_code == 2, said
    with pytest.raises(BadInputError):           # a path the user names: no link either
        files.write_text(out / "page.md", "x")
    untouched(tmp_path)


def test_the_writer_writes_regular_files_only(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "folder").mkdir()
    for path, said in ((tmp_path / "pipe", "a named pipe (FIFO), not a file"), (tmp_path / "folder", "a folder"),
                       (Path("/dev/null"), "a device, not a file")):
        with pytest.raises(BadInputError) as info:
            files.write_text(path, "x")
        assert said in info.value.render()
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# ------------------------------------------------------------------ docs --out
def test_docs_do_not_write_through_a_link_in_the_folder(capsys, tmp_path):
    target = victim(tmp_path)
    g = tiny_game(tmp_path / "g")
    out = tmp_path / "pages"
    out.mkdir()
    (out / "operators.md").symlink_to(target)
    code, o, err = run(capsys, "docs", g, "--out", out, "--no-verify", "--lang", "en")
    assert code == 2 and "operators.md: the file is a symbolic link" in one_error(err), err
    untouched(tmp_path)
    # a page's own name, and a link to a folder where a page goes
    (out / "operators.md").unlink()
    (out / "g.md").unlink()                     # (written by the first run, before operators.md)
    (out / "g.md").symlink_to(target)
    code, o, err = run(capsys, "docs", g, "--out", out, "--no-verify", "--lang", "en")
    assert code == 2 and "g.md: the file is a symbolic link" in one_error(err), err
    untouched(tmp_path)


def test_docs_refuse_a_variants_folder_that_leads_out(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    elsewhere = tmp_path / "outside"
    elsewhere.mkdir()
    (elsewhere / "secret.rules").write_text('variant secret "THE SECRET LINE" extends "../g"\n', encoding="utf-8")
    (g / "variants").symlink_to(elsewhere)
    code, out, err = run(capsys, "docs", g, "--out", tmp_path / "pages", "--no-verify", "--lang", "en")
    assert code == 2 and "a symbolic link that leads outside the allowed folders" in one_error(err), err
    assert "THE SECRET" not in out + err
    # a link to one variant file out of the folder: the same (check and docs list the files alike)
    (g / "variants").unlink()
    (g / "variants").mkdir()
    (g / "variants" / "v.rules").symlink_to(elsewhere / "secret.rules")
    for argv in (["docs", g, "--out", tmp_path / "pages", "--no-verify", "--lang", "en"], ["check", g]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "leads outside the allowed folders" in err, err
        assert "THE SECRET" not in out + err


# ------------------------------------------------------------------ the measured effects
def _effects_cases() -> dict[str, tuple[bytes, str]]:
    good = json.loads((ROOT / "docs" / "rules" / "effects.json").read_text(encoding="utf-8"))
    key = next(iter(good))
    effect = good[key]

    def doc(value) -> bytes:
        return json.dumps(value, indent=1).encode()
    return {
        "not_json": (b"{ this is not json", "not valid JSON"),
        "empty": (b"", "the file is empty"),
        "a_list": (b"[1, 2]", "the file is a list, not an object"),
        "a_number_for_a_text": (doc({key: {**effect, "mode": 7}}), '["mode"] is a number, not a mode'),
        "a_text_for_a_number": (doc({key: {**effect, "games": "20"}}), '["games"] is a text, not a number'),
        "a_key_missing": (doc({key: {k: v for k, v in effect.items() if k != "figures"}}), 'has no entry "figures"'),
        "a_side_missing": (doc({key: {**effect, "scores": {"base": {}}}}), 'has no entry "house"'),
        "an_unknown_figure": (doc({key: {**effect, "figures": [{**effect["figures"][0], "figure": "x"}]}}),
                              '"x", not one of seat_wins'),
        "a_bad_interval": (doc({key: {**effect, "figures": [{**effect["figures"][0], "base": [1, None, 2]}]}}),
                           "not [value, low, high] or null"),
        "a_score_not_a_number": (doc({key: {**effect, "scores": {"base": {"x1": 2}, "house": {}}}}),
                                 'the key "x1", not a whole number'),
        "nan": (re.sub(rb'"games": [0-9]+', b'"games": NaN', doc({key: effect})), "NaN is not a number JSON writes"),
        "deep": (b"[" * 100_000 + b"]" * 100_000, "JSON nested more than 8 levels deep"),
        "huge_number": (b'{"a": ' + b"9" * 10_000 + b"}", "a number of thousands of digits"),
        "latin_1": ('{"é": 1}'.encode("latin-1"), "not UTF-8 text"),
    }


@pytest.mark.parametrize("case", list(_effects_cases()))
def test_a_malformed_effects_file_is_one_message(capsys, tmp_path, case):
    content, said = _effects_cases()[case]
    out = tmp_path / "pages"
    out.mkdir()
    (out / "effects.json").write_bytes(content)
    code, o, err = run(capsys, "docs", ROOT / "spec" / "house_rules", "--out", out, "--no-verify", "--lang", "en")
    assert code == 2 and "effects.json" in one_error(err) and said in err, err
    assert "hint:" in err or "(" in err
    if case not in ("latin_1",):
        assert "docs --measure N" in err, err


def test_an_effects_file_too_large_is_refused(capsys, tmp_path):
    out = tmp_path / "pages"
    out.mkdir()
    with open(out / "effects.json", "wb") as f:
        f.truncate(files.MOST_BYTES + 1)
    code, o, err = run(capsys, "docs", tiny_game(tmp_path / "g"), "--out", out, "--no-verify", "--lang", "en")
    assert code == 2 and "more than the 8,388,608" in one_error(err), err


def test_the_effects_file_of_out_is_not_read_through_a_link(capsys, tmp_path):
    """A docs folder carrying effects.json as a link to a file elsewhere: refused, nothing of
    that file printed."""
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("the secret line\n", encoding="utf-8")
    out = tmp_path / "pages"
    out.mkdir()
    (out / "effects.json").symlink_to(secret)
    code, o, err = run(capsys, "docs", tiny_game(tmp_path / "g"), "--out", out, "--no-verify", "--lang", "en")
    assert code == 2 and "symbolic link" in one_error(err), err
    assert "secret line" not in err + o and not (out / "g.md").exists()


# ------------------------------------------------------------------ translation catalogues
PO = ('msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset={charset}\\n"\n\n'
      'msgctxt "title g"\nmsgid "G"\nmsgstr "{title}"\n')


def test_translations_do_not_write_through_a_linked_folder(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    elsewhere = tmp_path / "outside"
    victim(tmp_path)
    (g / "i18n").symlink_to(elsewhere)
    code, out, err = run(capsys, "translations", g, "--lang", "fr")
    assert code == 2 and "i18n: the folder is a symbolic link" in one_error(err), err
    untouched(tmp_path)


def test_translations_do_not_write_through_a_linked_catalogue(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    (g / "i18n").mkdir()
    # a link within the spec's folder: read, but never written through
    (g / "mine.po").write_text(PO.format(charset="UTF-8", title="Jeu"), encoding="utf-8")
    (g / "i18n" / "fr.po").symlink_to(g / "mine.po")
    code, out, err = run(capsys, "translations", g, "--lang", "fr")
    assert code == 2 and "fr.po: the file is a symbolic link" in one_error(err), err
    assert (g / "mine.po").read_text(encoding="utf-8") == PO.format(charset="UTF-8", title="Jeu")


def test_a_catalogue_linked_out_of_the_allowed_folders_is_not_read(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    secret = tmp_path / "outside" / "secret.po"
    secret.parent.mkdir()
    secret.write_text(PO.format(charset="UTF-8", title="THE SECRET"), encoding="utf-8")
    (g / "i18n").mkdir()
    (g / "i18n" / "fr.po").symlink_to(secret)
    for argv in (["translations", g, "--lang", "fr", "--check"],
                 ["docs", g, "--out", tmp_path / "pages", "--no-verify", "--lang", "fr"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "a symbolic link that leads outside the allowed folders" in one_error(err), err
        assert "--root" in err and "THE SECRET" not in out + err
    # allowed when the user names the folder
    assert run(capsys, "translations", g, "--lang", "fr", "--check", "--root", secret.parent)[0] in (0, 1)


def test_a_catalogue_naming_another_file_is_not_that_file(capsys, tmp_path):
    """(polib reads a text that is the name of a file as that file.)"""
    g = tiny_game(tmp_path / "g")
    secret = tmp_path / "outside" / "secret.po"
    secret.parent.mkdir()
    secret.write_text(PO.format(charset="UTF-8", title="THE SECRET"), encoding="utf-8")
    (g / "i18n").mkdir()
    (g / "i18n" / "fr.po").write_text(str(secret), encoding="utf-8")
    code, out, err = run(capsys, "translations", g, "--lang", "fr")
    assert code == 2 and "fr.po:1:1: error: not a translation catalogue" in one_error(err), err
    assert "THE SECRET" not in out + err
    assert (g / "i18n" / "fr.po").read_text(encoding="utf-8") == str(secret)


@pytest.mark.parametrize("content, said", [
    (PO.format(charset="UTF-8", title="Jeu été").encode("latin-1"), "fr.po:8:13: error: not UTF-8 text"),
    (PO.format(charset="ISO-8859-1", title="Jeu").encode(), "fr.po:4:1: error: the catalogue says it is written "
                                                           "in ISO-8859-1"),
    (b'msgid "a\nmsgstr', "fr.po:2:1: error: not a translation catalogue"),
    (b'msgid "a"b"\nmsgstr ""\n', "not a translation catalogue"),
], ids=["latin_1", "charset", "syntax", "quote"])
def test_a_catalogue_that_is_not_utf8_po_is_one_message(capsys, tmp_path, content, said):
    g = tiny_game(tmp_path / "g")
    (g / "i18n").mkdir()
    (g / "i18n" / "fr.po").write_bytes(content)
    for argv in (["translations", g, "--lang", "fr"],
                 ["docs", g, "--out", tmp_path / "pages", "--no-verify", "--lang", "fr"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and said in one_error(err), err
        assert "hint:" in err
    assert (g / "i18n" / "fr.po").read_bytes() == content


def test_a_catalogue_too_large_is_refused_at_once(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    (g / "i18n").mkdir()
    with open(g / "i18n" / "fr.po", "wb") as f:
        f.truncate(files.MOST_BYTES + 1)
    code, out, err = run(capsys, "translations", g, "--lang", "fr", "--check")
    assert code == 2 and "more than the 8,388,608 an input file may have" in one_error(err), err


def test_translations_write_the_catalogue_as_before(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    assert run(capsys, "translations", g, "--lang", "fr")[0] == 0
    text = (g / "i18n" / "fr.po").read_text(encoding="utf-8")
    assert 'msgctxt "title g"' in text and "charset=UTF-8" in text
    assert run(capsys, "translations", g, "--lang", "fr")[0] == 0
    assert (g / "i18n" / "fr.po").read_text(encoding="utf-8") == text
    assert sorted(p.name for p in (g / "i18n").iterdir()) == ["fr.po"]


# ------------------------------------------------------------------ play, the API, the human seat
@pytest.mark.parametrize("option", ["--save-state", "--log"])
def test_play_does_not_write_through_a_link(capsys, tmp_path, option):
    target = victim(tmp_path)
    (tmp_path / "link.json").symlink_to(target)
    argv = ["play", SAVANNA, "--players", "3", "--seed", "1", option, "link.json"]
    if option == "--save-state":
        argv += ["--stop-at", "pick:2"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and "link.json: the file is a symbolic link" in one_error(err), err
    untouched(tmp_path)


def test_a_position_saved_from_python_does_not_follow_a_link(tmp_path):
    import rulewright
    target = victim(tmp_path)
    (tmp_path / "link.json").symlink_to(target)
    played = rulewright.load(SAVANNA).play(3, seed=1, stop_at="pick:2")
    with pytest.raises(BadInputError):
        played.position.save(tmp_path / "link.json")
    untouched(tmp_path)
    played.position.save(tmp_path / "plain.json")
    assert json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))["resume"]


def test_the_human_seat_does_not_save_through_a_link(capsys, tmp_path, monkeypatch):
    target = victim(tmp_path)
    (tmp_path / "link.json").symlink_to(target)
    g = tiny_game(tmp_path / "g")
    (g / "game.rules").write_text(
        'game g "G"\nprocedure tell(s: seat) {\n  choose c in ["a", "b"] by s\n  note chose = c\n}\n'
        'mode standard "Standard" players 1 {\n  seats you: player "You"\n  do tell(you)\n}\n', encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\nlink.json\n"))
    code, out, err = run(capsys, "play", g, "--players", "1", "--seat", "you=human")
    assert "not saved: link.json: the file is a symbolic link" in out, out
    untouched(tmp_path)


# ------------------------------------------------------------------ verify --out
def test_verify_does_not_write_witnesses_through_a_link(capsys, tmp_path):
    g = tiny_game(tmp_path / "g")
    text = (g / "game.rules").read_text(encoding="utf-8")
    (g / "game.rules").write_text(text + 'invariant never: 1 == 2 else "broken"\n', encoding="utf-8")
    argv = ["verify", g, "--check", "invariant", "--games", "2", "--time-limit", "2", "--no-progress"]
    code, out, err = run(capsys, *argv, "--out", tmp_path / "first")
    assert code == 1, err
    written = sorted(p.name for p in (tmp_path / "first").iterdir())
    assert written, out
    target = victim(tmp_path)
    (tmp_path / "second").mkdir()
    (tmp_path / "second" / written[0]).symlink_to(target)
    code, out, err = run(capsys, *argv, "--out", tmp_path / "second")
    assert code == 2 and f"{written[0]}: the file is a symbolic link" in one_error(err), err
    untouched(tmp_path)


@pytest.mark.parametrize("command", ["graph", "check", "play", "diff", "verify", "save-state", "log"])
def test_a_symbolic_link_to_itself_is_one_message(capsys, tmp_path, command):
    """A file that is a link to itself (a loop Python 3.11 meets as RuntimeError) named as
    a spec, or as the file a game is saved or logged to: one message, exit 2."""
    game = tiny_game(tmp_path / "g")
    loop = tmp_path / ("loop.json" if command in ("save-state", "log") else "loop.rules")
    loop.symlink_to(loop.name)
    if command in ("save-state", "log"):
        argv = ["play", game, "--players", "1", "--seed", "1", f"--{command}", loop]
    elif command == "diff":
        argv = ["diff", game, loop]
    elif command == "play":
        argv = ["play", loop, "--players", "1"]
    elif command == "verify":
        argv = ["verify", loop, "--no-progress"]
    else:
        argv = [command, loop]
    code, out, err = run(capsys, *argv)
    assert code == 2 and one_error(err), err
