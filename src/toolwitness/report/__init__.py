"""Reporters: one small class per output format, each `format(result) -> str`."""
