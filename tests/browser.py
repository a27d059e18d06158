"""The browser tests' set-up: the system's Chromium (driven by Playwright, no browser
download), its flags on a machine with no network, and a quiet static server on 127.0.0.1."""
from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass                    # a page left before its files arrived: not the site's fault


@contextlib.contextmanager
def serving(folder):
    """The files of ``folder`` served on 127.0.0.1: yields the address."""
    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
