"""The application: each job rulewright does, once, with explicit parameters; the
command line (``rulewright/cli``), the Python API (``rulewright/api.py``) and the
workbench in the browser (``rulewright/web``) are faces over it, and none holds a job of
its own.

In:  what a user asks for, as values (a spec, its settings, tables and variants; a state
     file; grids), and the ``Spelling`` of the face they work through.
Out: programs, positions, scores and query inputs, or a ``RulesError`` that names the
     setting, table or file at fault as that face spells it.

    checking.py  specs compiled and checked, with their errors and warnings
    opening.py   a spec with its settings, tables and variants; a state file under the
                 rules it was played with
    scoring.py   grids scored as the players of one game
    asking.py    a query's inputs read by their declared types
    playing.py   the mode of a game, who plays each seat (random, solver, human), a game
                 played with its invariants checked, a saved position to go on from
    simulating.py  many seeded games: each seat's mean score and share of wins, with intervals
    verifying.py   the checks of verify and the words of their report
    diffing.py     what a variant changes, as text
    examples.py    a spec's worked examples run
    documenting.py  the rules pages of specs in each language, and the house rules' effects
    option_values.py  what each option of a seat's choice is worth, from the playing query
    faces.py     how each face spells what the user gave
    seat_screen.py  what a person at a seat is shown: the question in words, the status,
                 the news, the options grouped (the terminal and the workbench alike)
    table.py     a game at a table: people's seats played one choice at a time, bots at the
                 others, each person shown only their seat's view; undo, save, load
    drafting.py  house rules written in the workbench: checked as typed, compared with their
                 base, saved into the workspace
"""
