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


def without_search(context, index: str):
    """The site's search index answered, in ``context``, by one with the same settings and
    no page: every page starts the search in a worker that reads the whole index (5 MB,
    four languages' pipelines) as soon as it loads, which is most of a page's cost in a
    headless browser; tests that read pages and not search results need none of it (the
    search tests keep the real index)."""
    import json
    from pathlib import Path
    config = json.loads(Path(index).read_text(encoding="utf-8"))["config"]
    body = json.dumps({"config": config, "docs": []})
    context.route("**/search/search_index.json",
                  lambda route: route.fulfill(status=200, content_type="application/json", body=body))
