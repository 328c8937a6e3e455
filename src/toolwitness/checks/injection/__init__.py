"""TW-INJ: text that steers the model (tool poisoning).

`check` registers the check and builds findings; `detect` runs the family detectors on one
field (`directives`, `payloads`, `targets`, `triggers`, `purpose`, `params`), `quiet` proves
tools and texts that cannot fire, `model` holds the shared signal types. It reads text through
`checks.text` and hidden Unicode through `checks.unicode.decode`.
"""
