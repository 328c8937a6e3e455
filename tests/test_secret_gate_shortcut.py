"""`find_secrets` answers from its gate (`may_hold_secret`) when the gate is closed: the same
hits as the full scan (`scan_secrets`) on texts built from every token prefix, private-key
marker and assignment name of the shared tables, and on random text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.checks.text.lexicon import lexicon
from toolwitness.checks.text.secrets import secret_table
from toolwitness.checks.text.secrets_scan import find_secrets, scan_secrets


def _pieces() -> list[str]:
    lex = lexicon()
    prefixes = [shape.prefix for shape in secret_table().tokens]
    return [
        *prefixes, *lex.secrets["private_key_markers"], *lex.secrets["assignment_names"],
        *(m.upper() for m in lex.secrets["private_key_markers"]),
        "eyJ", "eyJhbGciOiJIUzI1NiJ9", ".", "=", ": ", '": "', "'", " ", "-", "_", "\n",
        "Zx9Qw2Lm8Rt4Vb6Nc1Kp3Hs5", "aB3dE5gH7jK9mN1pQ3sT5vX7", "short", "Token", "é",
    ]  # fmt: skip


TEXTS = st.lists(st.sampled_from(_pieces()), max_size=12).map("".join) | st.text(max_size=80)


@settings(max_examples=800, deadline=None)
@given(TEXTS)
def test_gated_scan_equals_the_full_scan(text: str) -> None:
    assert find_secrets(text, lexicon()) == scan_secrets(text, lexicon())


def test_the_gate_lets_real_secrets_through() -> None:
    text = "api_key = 'Zx9Qw2Lm8Rt4Vb6Nc1Kp3Hs5' and ghp_" + "a1B2c3D4" * 5
    assert find_secrets(text) == scan_secrets(text, lexicon())
    assert find_secrets(text)
