"""The `permem` command line (FORMATS.md's contract).

Exit codes: 0 success, 1 a check that ran and failed, 2 bad input or an unusable environment,
always with one line on standard error.
"""

from interfaces.cli.app import app, main

__all__ = ["app", "main"]
