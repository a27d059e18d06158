"""The workbench in the browser (``rulewright serve``): a face over the application, as the
command line and the Python API are. ``server.py``: the web server and what it answers;
``jobs.py``: verify and study run in processes of their own, with progress and cancel;
``static/``: the page, its script and its style (no network: nothing is fetched from
elsewhere)."""
