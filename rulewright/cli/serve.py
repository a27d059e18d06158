"""``rulewright serve``: the workbench in the browser (``rulewright/web``).

In:  the specs to open first (shipped names or house rule files), ``--workspace``,
     ``--port``, ``--host``, ``--no-browser``.
Out: a web server on 127.0.0.1 (unless ``--host`` says otherwise, with a warning) until
     Ctrl-C; its address printed; the browser opened where there is one. A port in use
     is a bad input (exit 2) naming it, with the option to choose another.
"""
from __future__ import annotations

import socket
import sys
import threading
from pathlib import Path

from rulewright.cli.common import UsageError
from rulewright.compiler import files
from rulewright.compiler.diagnostics import BadInputError

LOCAL = ("127.0.0.1", "localhost", "::1")


def first_specs(given: list[str], workspace: str | None) -> tuple[list[str], str]:
    """What to open first (shipped names, or house rules of the workspace by name) and the
    workspace: a house rule file named brings its folder as the workspace."""
    first, folders = [], set()
    for item in given:
        path = Path(item)
        name = files.shipped_name(path) if path.exists() else None
        if name is not None:        # (a shipped name, as the command line found it)
            first.append(name)
        elif path.is_file() and path.suffix == ".rules":
            folders.add(path.resolve().parent)
            first.append(path.stem)
        elif files.is_name(item.removesuffix(".rules")) and files.shipped(item.removesuffix(".rules")) is not None:
            first.append(item.removesuffix(".rules"))
        else:
            raise UsageError(f"{item}: neither a house rule file (.rules) nor a shipped name (rulewright list)")
    if workspace is None:
        if len(folders) > 1:
            raise UsageError("the house rule files named are in different folders: choose one with --workspace")
        workspace = str(folders.pop()) if folders else "."
    return first, workspace


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (a bad input when it cannot be: in use, no such address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        why = "is in use" if exc.errno in (98, 48, 10048) else f"cannot be used ({exc.strerror or exc})"
        raise BadInputError(f"{host}:{port} {why}: choose another port with --port N (0: any free one)") from None
    sock.listen(64)
    return sock


def cmd_serve(args) -> int:
    import uvicorn                                      # (the server: loaded by this command only)
    from rulewright.web.server import make_app      # (with the server)
    first, workspace = first_specs(args.specs or [], args.workspace)
    for root in args.root or ():
        files.add_root(root)
    sock = listening(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    if args.host not in LOCAL:
        print(f"warning: the workbench listens on {args.host}: anyone who can reach this machine can open it, "
              f"read the shipped games and write house rules into {workspace}", file=sys.stderr)
    app = make_app(workspace, tuple(first), hosts=(args.host, shown) if args.host in LOCAL else None)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False))
    print(f"rulewright workbench: {address}  (workspace: {Path(workspace).resolve()}; Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        threading.Timer(0.8, _browse, args=(address,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:       # (Ctrl-C: the way a server is stopped, not a failure)
        pass
    print("rulewright workbench: stopped", flush=True)
    return 0


def _browse(address: str) -> None:
    import webbrowser      # (a browser opened: once)
    try:
        webbrowser.open(address)
    except Exception:       # noqa: BLE001 (no browser here: the address was printed)
        pass
