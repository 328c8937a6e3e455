"""Every error class of the YAML and TOML parsers is a clean InputError (exit 2), never a
traceback; and hypothesis campaigns on the config, rule-pack and suppressions readers: any bytes
give a value or a clean InputError."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwitness.acquire.config_syntax import parse_config_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.rules import parse_pack
from toolwitness.suppressions import parse_suppressions
from toolwitness.yamlload import load_untrusted_yaml

LIMITS = InputLimits()

# One input per error class the parser raises; the comment names the class.
YAML_CASES = {
    "scanner": "a: 'unterminated\n",  # yaml.scanner.ScannerError
    "parser": "a: [1, 2\nb: 3\n",  # yaml.parser.ParserError
    "composer": "a: *undefined\n",  # yaml.composer.ComposerError (caught first as an alias)
    "constructor": "a: !!python/object:os.system ls\n",  # yaml.constructor.ConstructorError
    "reader": "a: \x00\n",  # yaml.reader.ReaderError (a control character)
    "tabs": "a:\n\t- b\n",  # ScannerError on a tab indent
    "deep": "a: " + "[" * 200 + "]" * 200 + "\n",  # nesting bound, before any recursion
    "duplicate": "a: 1\na: 2\n",  # duplicate keys are refused, not silently merged
    "complex-key": "? [1, 2]\n: v\n",  # a mapping key that is not a scalar
    "digits": "a: " + "1" * 5000 + "\n",  # CPython's 4,300-digit int() limit, never reached
    "bad-timestamp": "a: 2001-13-45 25:61:61\n",  # resolved as a timestamp, not a valid date
}

TOML_CASES = {
    "decode": "a = \n",  # tomllib.TOMLDecodeError
    "duplicate": "a = 1\na = 2\n",  # TOMLDecodeError (duplicate key)
    "deep": "a = " + "[" * 3000 + "]" * 3000 + "\n",  # RecursionError inside tomllib
    "digits": "a = " + "1" * 5000 + "\n",  # ValueError from int()
    "range": "a = 9007199254740993\n",  # over ±(2^53-1): the JSON bound
    "inf": "a = inf\n",  # not finite
    "nan": "a = nan\n",
    "bad-date": "a = 2001-13-45\n",  # TOMLDecodeError from datetime
}


@pytest.mark.parametrize("name", sorted(YAML_CASES))
def test_each_yaml_error_class_is_an_input_error(name: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_config_bytes(YAML_CASES[name].encode(), "yaml", "c.yaml", LIMITS)
    assert caught.value.message.startswith("c.yaml")
    assert "\n" not in caught.value.message


@pytest.mark.parametrize("name", sorted(TOML_CASES))
def test_each_toml_error_class_is_an_input_error(name: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_config_bytes(TOML_CASES[name].encode(), "toml", "c.toml", LIMITS)
    assert caught.value.message.startswith("c.toml")


@pytest.mark.parametrize("name", sorted(YAML_CASES))
def test_rule_packs_and_suppressions_refuse_the_same_inputs(name: str) -> None:
    text = YAML_CASES[name]
    with pytest.raises(InputError):
        parse_pack(text, "p.yaml")
    with pytest.raises(InputError):
        parse_suppressions(text, "s.yaml")


_YAMLISH = st.text(alphabet=st.sampled_from([*"ab:-[]{}!&*?#|>'\" \n\t,.019", "\x00", "é"]))
_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.one_of(st.binary(max_size=400), _YAMLISH.map(str.encode)))
def test_any_bytes_as_a_config_give_a_value_or_an_input_error(data: bytes) -> None:
    for syntax in ("json", "jsonc", "yaml", "toml"):
        try:
            parse_config_bytes(data, syntax, "c", LIMITS)
        except InputError:
            pass


@_SETTINGS
@given(_YAMLISH)
def test_any_text_as_a_rule_pack_or_suppressions_is_a_value_or_an_input_error(text: str) -> None:
    for parse in (parse_pack, parse_suppressions):
        try:
            parse(text, "f.yaml")
        except InputError:
            pass


_SAFE_INT = 2**53 - 1
_JSON_VALUES = st.recursive(
    st.one_of(
        st.integers(-_SAFE_INT, _SAFE_INT),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=5),
        st.booleans(),
        st.none(),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=30,
)


@_SETTINGS
@given(_JSON_VALUES)
def test_strict_yaml_reads_every_json_value_as_the_safe_loader_does(value: object) -> None:
    text = yaml.safe_dump({"v": value})
    assert load_untrusted_yaml(text, "f.yaml") == yaml.safe_load(text)


@_SETTINGS
@given(st.one_of(st.integers(min_value=_SAFE_INT + 1), st.integers(max_value=-_SAFE_INT - 1)))
def test_strict_yaml_refuses_integers_json_would_refuse(number: int) -> None:
    with pytest.raises(InputError, match="integer"):
        load_untrusted_yaml(f"v: {number}\n", "f.yaml")
