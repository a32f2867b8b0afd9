"""``python -m burraco``: the ``burraco`` command (:mod:`burraco.cli`)."""

import sys

from .cli import main

sys.exit(main())
