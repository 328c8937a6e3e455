"""Code verification: capability lattice, sink catalog, front-ends, call graph and verdicts."""
