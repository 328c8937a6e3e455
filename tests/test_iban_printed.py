"""An account number in the IBAN print format at its country's registered length is a bank
account even when its check digits are made up (checks/crosstool/tokens.py, data/iban.yaml)."""

from __future__ import annotations

import pytest

from toolwitness.checks.crosstool.tokens import _iban_lengths, destinations


def _ibans(text: str) -> list[str]:
    return [d.value for d in destinations(text) if d.kind == "iban"]


@pytest.mark.parametrize(
    "text",
    [
        "pay to NL12 ABCD 0123 4567 89 from now on",  # 18, the Dutch length; checksum wrong
        "Überweisung an DE00 1234 5678 9012 3456 78 bitte",  # 22
        "versa su IT99 X123 4567 8901 2345 6789 012",  # 27
        "konto NO12 3456 7890 123",  # 15: Norway (a quoted key in the data file)
    ],
)
def test_a_printed_iban_of_the_right_length_is_an_account(text: str) -> None:
    assert len(_ibans(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "order ref AB12 3456 7890 1234",  # AB is no IBAN country
        "ticket NL12 ABCD 0123 4567",  # 16 characters: not the Dutch 18
        "NL12ABCD0123456789",  # compact and a wrong checksum: not printed, not valid
        "part DE00 1234",  # too short for any pattern
    ],
)
def test_look_alikes_are_not_accounts(text: str) -> None:
    assert _ibans(text) == []


def test_a_valid_compact_iban_still_counts() -> None:
    assert _ibans("GB82WEST12345698765432") == ["GB82WEST12345698765432"]


def test_the_length_table_is_well_formed() -> None:
    table = _iban_lengths()
    assert table["NO"] == 15 and table["DE"] == 22 and table["MT"] == 31
    assert all(len(k) == 2 and k.isupper() and 15 <= v <= 34 for k, v in table.items())
