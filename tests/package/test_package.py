"""The package: a wheel that carries the games, installed into a fresh virtual
environment, plays a game by name from another folder; `import rulewright` gives the
Python API; nothing is installed at the top level under a generic name."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

import rulewright
from helpers import ROOT

# one worker builds the wheel for both tests that install it (once)
pytestmark = pytest.mark.xdist_group("package")
# what the copy the wheel is built from leaves out: what a build, a run or the tools make
SKIPPED = (".git", ".venv", "build", "dist", "site", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
           ".mutate-cache", ".mutate-backup", ".benchmarks")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtual environment with the built wheel installed (its dependencies,
    OR-Tools and the others, taken from the environment running the tests)."""
    base = tmp_path_factory.mktemp("package")
    wheels = base / "wheels"
    # built from a copy of the source: a build in the checkout leaves its build/ folder there,
    # and a module since removed would still be in it, and in the next wheel
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIPPED))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(wheels)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr
    wheel = next(wheels.glob("rulewright-*.whl"))
    env_dir = base / "env"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies, from the environment running the tests (a path line, no .pth run)
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    inst = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
                          capture_output=True, text=True, timeout=600)
    assert inst.returncode == 0, inst.stderr
    return env_dir, site, wheel


def test_the_wheel_carries_the_games_and_nothing_at_the_top_level(installed):
    env_dir, site, wheel = installed
    assert (site / "rulewright" / "games" / "darwins_choice" / "animal_cards.csv").is_file()
    assert (site / "rulewright" / "games" / "house_rules" / "darwin_drought.rules").is_file()
    assert (site / "rulewright" / "examples" / "margot.grid").is_file()
    # the positions the worked examples start from, and the translations of each game
    assert (site / "rulewright" / "games" / "darwins_choice" / "examples" / "coast_and_high_mountains.json").is_file()
    assert (site / "rulewright" / "games" / "ecosystem_savanna" / "i18n" / "zh.po").is_file()
    assert (site / "rulewright" / "compiler" / "syntax" / "grammar.lark").is_file()
    assert (site / "rulewright" / "solver" / "verify" / "proofs.py").is_file()
    assert not (site / "compiler").exists() and not (site / "solver").exists()
    with zipfile.ZipFile(wheel) as z:
        tops = {name.split("/")[0] for name in z.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"rulewright"}, tops


def test_the_installed_command_plays_a_game_by_name_from_anywhere(installed, tmp_path):
    env_dir, _, _ = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["RULEWRIGHT_CACHE"] = "off"
    run = lambda *a: subprocess.run([str(env_dir / "bin" / "rulewright"), *a], cwd=tmp_path, env=env,  # noqa: E731
                                    capture_output=True, text=True, timeout=600)
    played = run("play", "darwins_choice", "--players", "4", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "winners:" in played.stdout
    version = run("--version")
    assert version.stdout.strip() == f"rulewright {rulewright.__version__}"
    house = run("check", "house_rules/darwin_drought.rules")
    assert house.returncode == 0 and "Drought" in house.stdout, house.stderr
    module = subprocess.run([str(env_dir / "bin" / "python"), "-m", "rulewright", "score", "ecosystem_savanna",
                             str(ROOT / "examples" / "margot.grid")], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert module.returncode == 0 and module.stdout.split()[-1] == "86", module.stdout + module.stderr


def test_the_python_api():
    game = rulewright.load("ecosystem_savanna")
    score = game.score(ROOT / "examples" / "margot.grid")
    assert score.total == 86 and score.steps["elephant"] == 10
    assert "total      86" in repr(score) and "<table" in score._repr_html_()
    assert "<td" in score.grid._repr_html_() and score.grid[0, 0] == "prairie"
    played = game.play(4, seed=3, stop_at="pick:7")
    assert played.stopped == "pick:7" and "stopped at pick:7" in repr(played)
    assert rulewright.Game is type(game)
    with pytest.raises(rulewright.RulesError):
        rulewright.load("no_such_game_here")
