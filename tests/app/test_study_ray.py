"""A study on a Ray cluster: a cluster started here by the test (``ray start --head``, two
CPUs, its address on the loopback; Ray's token authentication off for this test cluster
only, as nothing else can reach it), joined by its address, plays the same games as one
process on this machine; an address where no cluster runs is one message. Skipped where
Ray is not installed (the dev install has it: pip install -e '.[dev]')."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_command

ray = pytest.importorskip("ray")

BASE = str(ROOT / "spec" / "ecosystem_savanna")
ONE_WAY = str(ROOT / "spec" / "house_rules" / "savanna_one_direction.rules")
RAY = shutil.which("ray") or str(Path(sys.executable).parent / "ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    port = _free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    log = tmp_path_factory.mktemp("ray") / "start.log"
    with open(log, "w") as said:        # (not a pipe: the cluster's processes keep what they are given open)
        up = subprocess.run([RAY, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
                             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
                            stdout=said, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, timeout=180)
    assert up.returncode == 0, log.read_text()[-2000:]
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([RAY, "stop", "--force"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=env, timeout=120)


def _study(tmp_path, folder, *more):
    code, out, err = run_command("study", ONE_WAY, "--against", BASE, "--players", "3", "--games", "6",
                                 "--skill-games", "1", "--out", folder, "--no-report", *more, cwd=tmp_path)
    assert code == 0, err
    return [line for line in (tmp_path / folder / "games.jsonl").read_text().splitlines()]


def test_a_ray_cluster_plays_the_same_games_as_this_machine(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    here = _study(tmp_path, "here", "--workers", "1")
    there = _study(tmp_path, "there", "--ray", cluster)
    assert len(here) == 1 + 2 * 7
    assert there == here
    assert not ray.is_initialized()         # the study left the cluster when it was done


def test_no_cluster_at_an_address_is_one_message(tmp_path):
    code, _, err = run_command("study", ONE_WAY, "--against", BASE, "--players", "3", "--games", "2",
                               "--skill-games", "0", "--ray", f"127.0.0.1:{_free_port()}", "--out", "x",
                               cwd=tmp_path)
    assert code == 2 and "--ray 127.0.0.1:" in err and "ray start --head" in err and "Traceback" not in err
