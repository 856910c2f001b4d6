"""``python -m rend_equiv_dataset`` is the ``rend-equiv`` command."""

import sys

from rend_equiv_dataset.cli import main

sys.exit(main())
