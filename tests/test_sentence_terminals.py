"""Sentences end at the terminal marks of other scripts too (Unicode Sentence_Terminal): the
ideographic full stop, full-width marks, the Devanagari danda, the Arabic question mark, the
Urdu full stop, and the full stops of Ethiopic, Myanmar, Khmer, Armenian and Tibetan, among others. A description's first sentence is then its first sentence in any script."""

from __future__ import annotations

import pytest

from toolwitness.checks.text.language import analyse


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("此接口已停用。请改为调用新接口。", "此接口已停用。"),
        ("天気を取得します！次に進みます。", "天気を取得します！"),
        ("本当ですか？はい。", "本当ですか？"),
        ("मौसम दिखाता है। फिर जाएँ।", "मौसम दिखाता है।"),
        ("هل هذا صحيح؟ نعم.", "هل هذا صحيح؟"),
        ("یہ موسم دکھاتا ہے۔ پھر جائیں۔", "یہ موسم دکھاتا ہے۔"),
        # Ethiopic, Myanmar, Khmer, Armenian, Tibetan: their own full stops
        ("ትዕዛዝ ይመዘግባል። ከዚያ ቀጥል።", "ትዕዛዝ ይመዘግባል።"),
        ("ကုန်ပစ္စည်းမှာယူသည်။ ထို့နောက် ဆက်ပါ။", "ကုန်ပစ္စည်းမှာယူသည်။"),
        ("ទិញទំនិញ។ បន្ទាប់មក បន្ត។", "ទិញទំនិញ។"),
        ("Եղանակը ցույց է տալիս։ Հետո շարունակիր։", "Եղանակը ցույց է տալիս։"),
        ("གནམ་གཤིས་སྟོན། ། རྗེས་སུ་མུ་མཐུད། །", "གནམ་གཤིས་སྟོན།"),
    ],
)
def test_first_sentence_ends_at_the_scripts_terminal(text: str, first: str) -> None:
    sentences = analyse(text).sentences
    assert len(sentences) == 2
    assert text[sentences[0].start : sentences[0].end] == first


def test_a_terminal_inside_a_url_or_code_span_does_not_split() -> None:
    text = "Call `echo 停止。继续` now."
    assert len(analyse(text).sentences) == 1
