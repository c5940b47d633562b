"""Allow ``python -m tokexplorer``."""

from tokexplorer.cli import main

raise SystemExit(main())
