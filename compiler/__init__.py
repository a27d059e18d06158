"""rulewright compiler: spec text -> checked program -> rules graph -> interpreter.

    .rules text ──parse.py──▶ Lark tree ──build_ast.py──▶ ast.SpecFile (spans)
         │                                                     │
         │                                   resolve.py (names, types, arity)
         │                                                     ▼
         │                                        ir.Program (typed, resolved)
         │                                          │          │          │
         │                                      graph.py   interpret.py  solver/encode.py
         │                                      networkx   reference     CP-SAT
         │                                      rules graph semantics    (same ir nodes)
    diagnostics.py: Span, Diagnostic, RulesError with file:line:col and a caret.
    semantics/operators.py: every operator's typing and concrete meaning, read by
    resolve.py and interpret.py (and by the solver, whose encodings are keyed by the
    same names in solver/encodings.py); nothing in compiler/ imports solver/.
    files.py: where a spec, a variant or a state file may read (see docs/security.md).

``load(path)`` runs the whole front end on a spec directory or file.
"""


def load(path, overrides=None, tables=None, options=None, variants=()):
    """Parse, build and resolve a spec directory, file or variant file into an
    ``ir.Program``, then run its checks (``tables``/``options``: a player's own files
    for its tables; ``variants``: variant files applied on top)."""
    from rulewright.compiler.loader import load as _load
    return _load(path, overrides, tables, options, variants)
