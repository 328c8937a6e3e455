"""`python -m toolwitness` and the console script."""

import sys

from toolwitness.cli import main


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
