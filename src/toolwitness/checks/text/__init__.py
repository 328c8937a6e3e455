"""Shared text analysis for the metadata checks: sentence and clause structure (`language`),
the literal word classes of `data/lexicon/` (`lexicon`), and secret detection (`secrets`,
`secrets_scan`). No check is registered here; every family may import it.
"""
