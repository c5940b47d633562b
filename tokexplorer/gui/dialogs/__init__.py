"""Dialogs of the tokexplorer GUI."""
