"""`python -m ownership_check`: the same CLI as the `ownership-check` console script."""

import sys

from ownership_check.cli import main

sys.exit(main(prog="python -m ownership_check"))
