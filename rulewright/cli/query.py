"""The query command: a spec's query answered by CP-SAT, on a position or not.

In:  parsed arguments and the query's own inputs. Out: the answer as text or JSON.
"""
from __future__ import annotations

import json

from rulewright.compiler.diagnostics import did_you_mean
from rulewright.compiler.semantics.render import text_value

from rulewright.cli.common import UsageError, _load, _load_state, _reads_state, _seat
from rulewright.cli.options import _Parser
from rulewright.compiler.types import BoolT, SeatT
from rulewright.compiler import ir as I
from rulewright.compiler.play.inputs import parse_value


def cmd_query(args, extra: list[str]) -> int:
    from rulewright.solver.queries import run_query       # (OR-Tools loads only when a question is asked)
    state = None
    program = _load(args.spec, args)
    name = args.name.replace("-", "_")
    if name in program.queries and any(n == "state" for n, _, _ in program.queries[name].inputs):
        if args.state is not None:          # the query's own input called 'state' (a grid...)
            extra = ["--state", args.state] + list(extra)
    elif args.state is not None:
        program, state, _ = _load_state(args, program)
    if name not in program.queries:
        names = [q.replace("_", "-") for q in program.queries]
        hint = did_you_mean(args.name, names) or ("queries: " + ", ".join(names) if names else "none")
        raise UsageError(f"no query '{args.name}' in {args.spec} ({hint})")
    query = program.queries[name]
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
    if state is None and any(_reads_state(program, query)):
        raise UsageError(f"query '{args.name}' asks about a game position: give --state FILE "
                         "(a state saved by 'play --save-state', see docs/state.md)")
    inputs_ns = qp.parse_args(extra)
    inputs = {}
    for iname, itype, _ in query.inputs:
        raw = getattr(inputs_ns, iname)
        if raw is None:
            continue
        if isinstance(itype, SeatT):
            inputs[iname] = _seat(raw, state, iname)
        else:
            inputs[iname] = parse_value(raw, itype, program, iname)
    answer = run_query(program, name, inputs, time_limit=args.time_limit, workers=args.workers,
                       state=state)
    if args.json:
        data = answer.to_json()
        if state is not None and state.warnings:    # (also on standard error, as read)
            data["warnings"] = [{"at": str(w.span), "message": w.message} for w in state.warnings]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(answer.to_text())
    return 130 if answer.interrupted else 0     # the shell's code for Ctrl-C
