"""The query command: a spec's query answered by CP-SAT, on a position or not.

In:  parsed arguments and the query's own inputs.
Out: the answer as text or JSON; while the solver runs, on a terminal (not with
     ``--quiet``), a bar on standard error with the seconds taken of the time limit.
"""
from __future__ import annotations

import json

from rulewright.compiler.semantics.render import text_value

from rulewright.app.asking import ask, query_named, read_inputs, reads_state
from rulewright.app.faces import COMMAND_LINE
from rulewright.cli.common import UsageError, _load, _load_state
from rulewright.cli.options import _Parser
from rulewright.cli.tables import Bar, progress_wanted
from rulewright.compiler.types import BoolT
from rulewright.compiler import ir as I


def cmd_query(args, extra: list[str]) -> int:
    state = None
    program = _load(args.spec, args)
    name = args.name.replace("-", "_")
    if name in program.queries and any(n == "state" for n, _, _ in program.queries[name].inputs):
        if args.state is not None:          # the query's own input called 'state' (a grid...)
            extra = ["--state", args.state] + list(extra)
    elif args.state is not None:
        program, state, _ = _load_state(args, program)
    query = query_named(program, args.name, args.spec)
    description = (query.title or name) + (": " + query.node.doc if query.node.doc else "")
    qp = _Parser(prog=f"rulewright query {args.spec} {args.name}", description=description,
                 epilog="Also: --state FILE (the position a query about a game reads), --json, "
                        "--time-limit SECONDS (default 60), --workers N (default 2), --set NAME=VALUE, "
                        "--variant FILE, --card-table FILE, --table NAME=FILE.")
    defaults = {st.name: st.default for st in query.body if isinstance(st, I.Input)}
    for iname, itype, doc in query.inputs:
        flag = "--" + iname.replace("_", "-")
        optional = defaults.get(iname) is not None
        if isinstance(itype, BoolT) and optional:
            default = defaults.get(iname)
            qp.add_argument(flag, nargs="?", const="true", default=None, metavar="true|false",
                            help=f"{doc or iname}" + (f" (default: {json.dumps(default.value)})"
                                                      if isinstance(default, I.Const) else ""))
        else:
            default = defaults.get(iname)
            said = (f" (default: {text_value(default.value)})" if isinstance(default, I.Const) else
                    " (has a default, computed from the position)") if optional else ""
            qp.add_argument(flag, required=not optional, metavar="VALUE", help=f"{doc or iname} ({itype})" + said)
    if args.query_help:
        qp.print_help()
        return 0
    if state is None and reads_state(program, query):
        raise UsageError(f"query '{args.name}' asks about a game position: give --state FILE "
                         "(a state saved by 'play --save-state', see docs/state.md)")
    inputs_ns = qp.parse_args(extra)
    inputs = read_inputs(program, query, {iname: getattr(inputs_ns, iname) for iname, _, _ in query.inputs},
                         state, COMMAND_LINE)
    with Bar("query", progress_wanted(args)) as bar, bar.ticking(f"solving {args.name}", args.time_limit):
        answer = ask(program, name, inputs, state, time_limit=args.time_limit, workers=args.workers)
    if args.json:
        data = answer.to_json()
        if state is not None and state.warnings:    # (also on standard error, as read)
            data["warnings"] = [{"at": str(w.span), "message": w.message} for w in state.warnings]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(answer.to_text())
    return 130 if answer.interrupted else 0     # the shell's code for Ctrl-C
