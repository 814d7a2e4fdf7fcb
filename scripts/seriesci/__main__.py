# SPDX-License-Identifier: GPL-2.0
"""python3 -m seriesci: the one entry point (see cli.py)."""
import sys

from seriesci.cli import main

sys.exit(main())
