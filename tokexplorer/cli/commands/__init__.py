"""The subcommands, one module per command or family: :mod:`.train`;
:mod:`.encode` (encode, decode, compare); :mod:`.inspect`; :mod:`.merges`;
:mod:`.stats`. Each ``cmd_*`` takes the parsed arguments and returns the exit
code; errors are raised and turned into one line by :func:`tokexplorer.cli.main`.
"""
