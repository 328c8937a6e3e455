"""Metadata checks. Each module registers its checks with `registry.register`."""
