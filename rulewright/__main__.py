"""``python -m rulewright``: the rulewright command."""
import sys

from rulewright.solver.launch import main

sys.exit(main())
