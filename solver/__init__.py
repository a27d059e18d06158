"""rulewright solver: the checked program's questions answered with OR-Tools CP-SAT.

    ir.Program + a query + inputs (+ a game position)
         │
    encode/ ──────── the query's statements (walk.py, shared with the replay), expressions,
         │           scorings and choices -> a CP-SAT model; each operator's encoding in
         │           encode/operators.py, keyed by compiler/semantics/operators.py's names
    build.py ─────── objective, symmetry breaking (symmetry.py), solver settings, hints.py
    solving.py ───── CP-SAT run, status, values read back (symbolic.py: symbolic values)
    replay.py ────── every answer walked again by the interpreter before it is returned
    explain.py ───── why not: the rules of an unsatisfiable core, in plain language
    answer.py ────── what an answer says, as text and JSON
    queries.py ───── run_query: all of the above for one question
    agent.py ─────── a seat that plays a query's answers
    verify/ ──────── rulewright verify: checks proved with CP-SAT, sampled in games, read
                     from the rules graph; findings with their status and witness

Imports run one way: the solver imports the compiler, never the command line.
"""
