"""CLI command groups, each registered on the typer app by `cli.py`."""
