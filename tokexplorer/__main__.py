"""Allow ``python -m tokexplorer``."""

from tokexplorer.cli import main

# The guard matters: training uses worker processes started with "spawn", which
# import the main module again.
if __name__ == "__main__":
    raise SystemExit(main())
