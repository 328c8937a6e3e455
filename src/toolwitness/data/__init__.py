"""Data files: rule packs, schemas, tables. Data, not code."""
