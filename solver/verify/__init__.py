"""``rulewright verify``: rule consistency, proved or refuted with a witness.

Modules: ``findings`` (findings, statuses, the report), ``proofs`` (what CP-SAT proves:
rules that never or always hold, properties, ranges, choosable values, what a variant
changes), ``static`` (what the rules graph shows: definitions nothing reads), ``secrecy``
(what each seat's choices and playing queries read of the piles hidden from it), ``sampled``
(what seeded games show: invariants, playable choices, games that end, rules without a
run-time gap), ``run`` (the checks in order, with progress).
"""
