"""Playing a checked program: ``state_io`` (state files, read and written), ``inputs``
(grids, card lists and values given on the command line), ``checks`` (invariants and
the spec's own checks) and ``simulate`` (many seeded games and their comparison)."""
