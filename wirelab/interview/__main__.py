"""`python -m wirelab.interview`: see `wirelab.interview.cli`."""

import sys

from wirelab.interview.cli import main

sys.exit(main())
