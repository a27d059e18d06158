"""The meaning shared by both evaluators: the operator table (typing and concrete
meaning of every operator and aggregate). The CP-SAT encodings, keyed by the same
names, live in ``solver.encode.operators``."""
