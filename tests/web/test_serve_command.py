"""``rulewright serve`` as a person starts it: the address printed, the page served on
127.0.0.1 only, a port in use said with the option to choose another, another address
warned of, what to open named wrongly refused."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from helpers import ROOT, run_command


def started(*args, cwd):
    """``rulewright serve --port 0 --no-browser ARGS`` in a process: (the process, its address)."""
    proc = subprocess.Popen([sys.executable, "-m", "rulewright", "serve", "--port", "0", "--no-browser", *args],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = proc.stdout.readline()
    assert line.startswith("rulewright workbench: http://"), (line, proc.stderr.read() if proc.poll() else "")
    return proc, line.split()[2]


def test_serve_prints_its_address_and_answers_there_only(tmp_path):
    proc, address = started("house_rules/savanna_oasis", "--workspace", str(tmp_path / "ws"), cwd=tmp_path)
    try:
        assert address.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(address + "api/library", timeout=30) as r:
            lib = json.loads(r.read())
        assert lib["first"] == ["house_rules/savanna_oasis"] and lib["folder"] == str((tmp_path / "ws").resolve())
        port = int(address[7:-1].rsplit(":", 1)[1])
        with socket.socket() as s:      # bound to 127.0.0.1 alone: another loopback address is refused
            s.settimeout(2)
            assert s.connect_ex(("127.0.0.2", port)) != 0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert proc.returncode == 0


def test_a_port_in_use_is_said_with_the_option(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = run_command("serve", "--port", str(port), "--no-browser", cwd=tmp_path)
    assert r.returncode == 2
    assert f"127.0.0.1:{port} is in use" in r.stderr and "--port" in r.stderr
    assert "Traceback" not in r.stderr


def test_what_to_open_is_a_house_rule_file_or_a_shipped_name(tmp_path):
    r = run_command("serve", "no/such/thing", "--no-browser", cwd=tmp_path)
    assert r.returncode == 2 and "neither a house rule file" in r.stderr


def test_another_address_is_warned_of(tmp_path):
    proc, address = started("--host", "0.0.0.0", "--workspace", str(tmp_path), cwd=tmp_path)
    try:
        time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert "warning: the workbench listens on 0.0.0.0" in err
