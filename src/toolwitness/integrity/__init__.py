"""Integrity: canonical digests, lockfile, drift, gateway."""
