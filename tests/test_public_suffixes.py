"""A host is registered under the label before its longest public suffix (the Public Suffix
List's ICANN rules, data/public-suffixes.txt; tests/test_tlds_build.py checks the list)."""

from __future__ import annotations

import pytest

from toolwitness.checks.crosstool.parties import own_host, registrable_label


@pytest.mark.parametrize(
    ("host", "label"),
    [
        ("pesaharaka.co.tz", "pesaharaka"),      # a country's second level
        ("pay.acme-cloud.com.br", "acme-cloud"),
        ("api.example.co.uk", "example"),
        ("files.acme-cloud.app", "acme-cloud"),  # a single-label suffix
        ("a.b.c.example.com", "example"),
        ("example.com", "example"),
        ("x.y.ck", "x"),                         # a wildcard rule (*.ck)
        ("www.ck", "www"),                       # its exception (!www.ck)
        ("co.uk", "co"),                         # a suffix alone has nothing before it
        ("localhost", "localhost"),
        ("", ""),
    ],
)  # fmt: skip
def test_the_registered_label(host: str, label: str) -> None:
    assert registrable_label(host) == label


def test_a_server_s_own_host_under_a_country_s_second_level() -> None:
    assert own_host("stats.pesaharaka.co.tz", frozenset({"pesaharaka"}))
    # a look-alike is not the server's: the server's name with an affix stays a third party
    assert not own_host("pesaharaka-app.co.tz", frozenset({"pesaharaka"}))


def test_a_hostile_host_name_is_read_from_its_last_labels_only() -> None:
    # thousands of labels: only the last few can hold a public suffix, so the work per host is
    # bounded by the longest rule, not by the host
    assert registrable_label("a." * 5000 + "b.com.br") == "b"
    assert registrable_label("a." * 5000 + "b.c") == "b"
