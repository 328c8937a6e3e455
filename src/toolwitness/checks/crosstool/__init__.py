"""Structure across a catalog's tools, read without reading the prose (TW-INJ-015..022).

The frames of `checks.injection` read English sentences. These checks read the tokens that do
not translate, so they work whatever language the prose is in: the identifiers of the *other*
tools of the same server, parameter names, destination-typed literals (e-mail addresses, IBANs
with a valid checksum, crypto wallet addresses, URLs, phone numbers), the `readOnlyHint`
annotation and the data slots of a schema (`default`, `examples`, `enum`, `const`) and of vendor
fields (`_meta`, custom annotations, unknown top-level keys).

- `tokens`: identifier mentions of other tools, destination literals, identifier words;
- `secrets`: whose secret a parameter name asks for (a person's sign-in material, or a service
  credential the server may need), from the WordNet `secret` slot and `data/lexicon/crosstool.yaml`;
- `check`: the registered check `crosstool.structure` and its findings (015..017, and 022 from
  `pinned`: a read-only tool that sets an argument of a call to a sibling that writes);
- `parties`: whose a destination is (the server's own, a documentation name, a known service's,
  a third party's) and whether the text shows it as a sample;
- `places`: the registered check `crosstool.places` (018..021): destination literals in data
  slots, fixed recipients, and third-party places in a description.

Interface: `crosstool_findings(surface, ctx)` (the registered check) and the pure helpers
`mentions`, `destinations`, `personal_secret` that the tests drive directly.
"""
