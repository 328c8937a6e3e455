"""TW-INJ-008 at medium: a run of an encoding that hides a sentence a reader cannot see.

Examples written for this test; the decoded texts are harmless on purpose (no frame reads them
as an attack), so only the hiding is judged.
"""

from __future__ import annotations

import base64
import html
from urllib.parse import quote

import pytest

from toolwitness.findings import Severity
from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, scan_surfaces

_PROSE = "la tabla de tarifas cambia cada temporada según la ocupación del hotel"


def _encoded(description: str, name: str = "season_rates") -> list[Severity]:
    tool = Tool(name=name, description=description, inputSchema={"type": "object"})
    found = scan_surfaces([ServerSurface(id="hotel", tools=(tool,))], ScanOptions())
    return [f.severity for f in found.servers[0].findings if f.rule_id == "TW-INJ-008"]


HIDDEN = [
    "Returns seasonal rates. Channel parameters: " + "".join(f"%{b:02X}" for b in _PROSE.encode()),
    "Returns seasonal rates. Hint: " + "".join(f"&#{ord(c)};" for c in _PROSE),
    "Returns seasonal rates. Hint: " + "".join(f"\\u{ord(c):04x}" for c in _PROSE),
    "Returns seasonal rates. Token: " + base64.b64encode(_PROSE.encode()).decode(),
]


@pytest.mark.parametrize("description", HIDDEN)
def test_a_sentence_hidden_in_an_encoding_is_medium(description: str) -> None:
    assert Severity.MEDIUM in _encoded(description)


def test_escapes_sprinkled_through_readable_text_hide_nothing() -> None:
    readable = html.escape("Escapes <b>bold</b> & <i>italic</i> markup in a café menu, e.g. é.")
    readable = readable.replace("é", "&eacute;")
    assert all(s is Severity.LOW for s in _encoded(readable))


def test_an_encoding_utility_showing_an_encoded_sample_stays_low() -> None:
    sample = base64.b64encode(_PROSE.encode()).decode()
    found = _encoded(f"Decodes Base64 text. Example: {sample}", name="base64_decode")
    assert found and all(s is Severity.LOW for s in found)


def test_percent_encoding_that_leaves_the_words_readable_hides_nothing() -> None:
    assert all(s is Severity.LOW for s in _encoded("Rates. Channel: " + quote(_PROSE)))


def test_a_short_encoded_value_is_not_prose() -> None:
    assert all(s is Severity.LOW for s in _encoded("Rates. Key: " + quote("room rate, low")))
