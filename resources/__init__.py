"""Data files shipped with tokexplorer (sample texts, icons, style sheets).

Installed as the package ``tokexplorer.resources``; open files with
:func:`tokexplorer.core.resources.resource_path`.
"""
