"""`python -m safekernels` is the `safekernels` command."""

import sys

from safekernels.cli import main

sys.exit(main())
