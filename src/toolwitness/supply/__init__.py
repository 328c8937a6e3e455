"""Supply-chain helpers: version order, advisories, package-name similarity, registry metadata."""
