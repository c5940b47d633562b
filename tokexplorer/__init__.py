"""tokexplorer: a desktop explorer for LLM tokenizers.

The engine lives in :mod:`tokexplorer.core` (no Qt), the application in
:mod:`tokexplorer.gui`, and the command line in :mod:`tokexplorer.cli`.
"""

__version__ = "0.1.0"
