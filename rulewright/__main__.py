"""``python -m rulewright``: the rulewright command."""
import sys

from rulewright.command import main

sys.exit(main())
