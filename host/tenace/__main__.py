"""`python -m tenace`: the same as the `tenace` command (the simulator starts the collector this way)."""

import sys

from tenace.cli import main

sys.exit(main())
