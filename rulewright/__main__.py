"""``python -m rulewright``: the rulewright command."""
import sys

from rulewright.cli import main

sys.exit(main())
