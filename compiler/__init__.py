"""rulewright compiler: spec text -> checked program -> rules graph -> interpreter.

    .rules text ──syntax/parse.py──▶ Lark tree ──syntax/build_ast.py──▶ syntax/ast.py SpecFile
         │                                                                  │
         │                     variants/ (a base and its variants composed, diff)
         │                                                                  │
         │                     resolve/ (names, types, arity: one module per phase)
         │                                                                  ▼
         │                                                   ir.py Program (typed, resolved)
         │                                          │                 │                │
         │                                      graph.py        interpret/        solver/encode/
         │                                      networkx        reference         CP-SAT
         │                                      rules graph     semantics         (same ir nodes)
         │                                                          │
         │                                   play/ (state files, inputs, checks, simulation)
         │                                   docgen/ (rulebooks, pictures, translations, highlighting)
    diagnostics.py: Span, Diagnostic, RulesError with file:line:col and a caret.
    types.py: the semantic types. files.py: where a spec, a variant or a state file may
    read (see docs/security.md). cache.py: what the front end keeps between runs.
    semantics/operators.py: every operator's typing and concrete meaning, read by
    resolve/ and interpret/ (and by the solver, whose encodings are keyed by the same
    names in solver/encode/operators.py); semantics/runtime.py: the run-time values;
    semantics/render.py: the one printer of values (text and JSON).
    Nothing in compiler/ imports solver/.

``load(path)`` (loader.py) runs the whole front end on a spec directory or file.
"""


def load(path, overrides=None, tables=None, options=None, variants=(), spelling=None):
    """Parse, build and resolve a spec directory, file or variant file into an
    ``ir.Program``, then run its checks (``tables``/``options``: a player's own files
    for its tables; ``variants``: variant files applied on top; ``spelling``: how the
    errors name what the user gave, ``diagnostics.Spelling``)."""
    # loaded on first use, so that importing one module of the compiler (its types, its
    # diagnostics) does not load the whole front end and Lark with it
    from rulewright.compiler.loader import load as _load
    if spelling is None:
        return _load(path, overrides, tables, options, variants)
    return _load(path, overrides, tables, options, variants, spelling)
