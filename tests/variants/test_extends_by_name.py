"""House rules anywhere: a variant file in the user's own folder extends a shipped game,
version or house rule by its name (``extends "ecosystem_savanna"``), and the commands
read it without ``--root``.

What ``extends`` names is looked for in this order: the path relative to the file that
writes it, when something is there (and in the allowed folders); else the shipped spec
of that name; else a located error that says both and gives a close name. A name never
leads out of the library: ``..``, ``.`` and absolute paths are no names.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulewright
from rulewright.compiler import files, load
from rulewright.compiler.diagnostics import ResolveError
from helpers import ROOT, run_main

SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def house_rule(folder: Path, extends: str, name: str = "mine.rules", body: str = "") -> Path:
    """A house rule ``name`` written in ``folder``, extending ``extends``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'variant mine "Mine" extends "{extends}"\n\n{body}', encoding="utf-8")
    return path


def test_a_house_rule_elsewhere_extends_a_game_by_name_and_check_needs_no_root(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path / "house", "ecosystem_savanna", body="override switch elephants_below_zero = false\n")
    code, out, err = run_main(capsys, "check", v)
    assert code == 0 and "Ecosystem: Savanna: Mine" in out, err
    program = load(v)
    assert files.real(program.variants[-1].extends) == files.real(SAVANNA)


def test_play_docs_and_verify_of_a_version_named_by_its_name_need_no_root(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path / "house", "ecosystem_savanna/variants/two_player")
    code, out, err = run_main(capsys, "play", v, "--players", "2", "--seed", "1")
    assert code == 0 and "winners:" in out, err
    code, out, err = run_main(capsys, "docs", v, "--out", tmp_path / "pages")
    assert code == 0 and (tmp_path / "pages" / "mine.md").is_file(), err
    code, out, err = run_main(capsys, "verify", v, "--check", "unused", "--games", "0")
    assert code == 0 and "refuted" in out, err


@pytest.mark.parametrize("name", ["house_rules/darwin_drought", "house_rules/darwin_drought.rules",
                                  "darwins_choice/variants/short_game"])
def test_a_house_rule_or_a_version_is_named_with_or_without_rules(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    program = load(house_rule(tmp_path, name))
    named = files.shipped(name)
    assert [files.real(a.path) for a in program.variants][:2] == [files.real(named), files.real(tmp_path / "mine.rules")]


def test_the_python_api_loads_a_house_rule_that_names_its_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path / "house", "ecosystem_savanna/variants/two_player.rules")
    game = rulewright.load(v)
    assert game.title == "Ecosystem: Savanna: Mine"


def test_a_folder_of_house_rules_is_checked_without_root(tmp_path, monkeypatch, capsys):
    """``check FOLDER`` finds each variant file of the folder (a folder of variants alone:
    no spec of its own), each extending a shipped game by name or another of them."""
    monkeypatch.chdir(tmp_path)
    house_rule(tmp_path / "house", "ecosystem_savanna", name="a.rules")
    house_rule(tmp_path / "house" / "more", "../a.rules", name="b.rules")
    code, out, err = run_main(capsys, "check", tmp_path / "house")
    assert code == 0 and out.count("ok: ") == 2 and "a.rules" in out and "b.rules" in out, err


@pytest.mark.parametrize("written, hint", [
    ("ecosystem_savana", "did you mean 'ecosystem_savanna'?"),
    ("darwin_drought", "did you mean 'house_rules/darwin_drought'?"),
    ("no_such_game", "or a shipped spec by its name"),
])
def test_a_name_that_names_nothing_is_a_located_error_with_a_close_name(tmp_path, monkeypatch, capsys,
                                                                          written, hint):
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path, written)
    code, out, err = run_main(capsys, "check", v)
    assert code == 1 and f"mine.rules:1:29: error: '{written}' does not exist" in err, err
    assert f"no '{written}' relative to" in err and "nor a shipped game, version or house rule" in err
    assert hint in err


@pytest.mark.parametrize("written, message", [
    ("../../etc/passwd", "'../../etc/passwd' leads outside the allowed folders"),
    ("../../../../../../../../etc", "leads outside the allowed folders"),
    ("/etc/passwd", "'/etc/passwd' is an absolute path"),
    (str(SAVANNA), "is an absolute path"),                  # even the library's own folder
    ("~/darwins_choice", "is an absolute path"),
    ("house_rules/../../../etc/passwd", "leads outside the allowed folders"),
    ("./ecosystem_savanna", "does not exist"),              # a path, not a name
])
def test_a_path_out_of_the_allowed_folders_is_no_name(tmp_path, monkeypatch, capsys, written, message):
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path / "a" / "b", written)
    code, out, err = run_main(capsys, "check", v)
    assert code == 1 and "mine.rules:1:29: error: " in err and message in err, err
    assert "root:x:" not in err


def test_names_never_leave_the_library():
    for written in ("..", "../spec", "a/../b", "/etc", "~", "./x", "a//b", "a\\b", "x\0y", ""):
        assert not files.is_name(written) and files.shipped(written) is None, written
    assert files.shipped("ecosystem_savanna/") == files.LIBRARY / "ecosystem_savanna"
    assert files.shipped("house_rules") is not None and files.shipped("nothing_at_all") is None


def test_a_path_that_is_there_wins_over_the_name_and_the_kept_program_follows(tmp_path, monkeypatch):
    """A folder made beside the house rule under the game's name is what it extends from
    then on: the program kept in the cache from before is not served."""
    monkeypatch.chdir(tmp_path)
    v = house_rule(tmp_path, "ecosystem_savanna")
    assert files.real(load(v).variants[-1].extends) == files.real(SAVANNA)
    assert files.real(load(v).variants[-1].extends) == files.real(SAVANNA)      # (kept)
    own = tmp_path / "ecosystem_savanna"
    shutil.copytree(SAVANNA, own, ignore=shutil.ignore_patterns("variants", "i18n"))
    (own / "game.rules").write_text((own / "game.rules").read_text().replace(
        '"Ecosystem: Savanna"', '"Our Savanna"', 1))
    program = load(v)
    assert files.real(program.variants[-1].extends) == files.real(own)
    assert program.title == "Our Savanna: Mine"


def test_a_refused_relative_path_names_the_root_to_give(tmp_path, monkeypatch, capsys):
    """A house rule beside its own game folder, in a folder without rules of its own:
    the hint names the folder to allow, and the command with it when it is known."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAVANNA, tmp_path / "game", ignore=shutil.ignore_patterns("variants", "i18n"))
    v = house_rule(tmp_path / "rules", "../game")
    code, out, err = run_main(capsys, "check", v)
    assert code == 1 and "leads outside the allowed folders" in err and "--root game" in err, err
    assert run_main(capsys, "check", v, "--root", "game")[0] == 0
    files.clear_roots()             # (the command line's --root, left allowed by the run above)
    files.command_line(["check", "rules/mine.rules"])
    try:
        with pytest.raises(ResolveError) as caught:
            load(v)
    finally:
        files.clear_roots()
    assert "rulewright check rules/mine.rules --root game" in caught.value.render()


def test_the_tree_a_path_opens_climbs_the_folders_that_hold_rules_files(tmp_path):
    """``files.tree_of``: from a variant's folder up through every folder that holds a
    ``.rules`` file of its own (``variants/`` -> the game), stopping at the first that holds
    none; a hidden file named ``.rules`` is no rules file, ``a..rules`` is one."""
    game = tmp_path / "top" / "game"
    house_rule(game / "variants", "..", "v.rules")
    (game / "game.rules").write_text("", encoding="utf-8")
    (tmp_path / "top" / ".rules").write_text("", encoding="utf-8")
    for n in range(50):                 # (a crowded folder above is read by names)
        (tmp_path / "top" / f"other{n}.txt").write_text("", encoding="utf-8")
    assert files.tree_of(game / "variants" / "v.rules") == files.real(game)
    (tmp_path / "top" / "a..rules").write_text("", encoding="utf-8")
    assert files.tree_of(game / "variants" / "v.rules") == files.real(tmp_path / "top")
