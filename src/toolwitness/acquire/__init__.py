"""Acquisition: turn files, configs, live servers and packages into `ServerSurface`s."""
