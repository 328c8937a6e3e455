"""TW-UNI: hidden Unicode, decoded rather than stripped.

`check` registers the check; `decode` (tags, variation selectors, zero-width binary) exposes
`reveal_hidden`, the contract other families use to re-check hidden text; `terminal`, `bidi`,
`script` (UTS #39 skeletons and scripts), `homoglyph` and `data` (the tables of
`data/unicode.yaml`) are its parts. Nothing here imports another check family.
"""
