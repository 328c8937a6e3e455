"""Detectors for machine-shaped payloads in prose: encodings, shell commands, URLs, credentials.

Decoding itself lives in `decoders` (every encoding, up to three levels, bounded)."""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple
from urllib.parse import urlsplit

from toolwitness.checks.crosstool.parties import own_host
from toolwitness.checks.injection.decoders import Decoded, decode_chains
from toolwitness.checks.injection.model import CREDENTIAL, SHELL, URL, FieldContext, Signal
from toolwitness.checks.injection.slots import slots
from toolwitness.checks.text.language import Analysis, Sentence, analyse, phrase_index
from toolwitness.checks.text.lexicon import Lexicon
from toolwitness.checks.text.secrets_scan import find_secrets
from toolwitness.findings import Severity
from toolwitness.lazyre import lazy_compile

_URL = lazy_compile(r"(?:https?|wss?|ftp)://[^\s\"'<>`\\)\]]{1,2000}")
# `\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?/` with its first digit first: the look-behind after it
# is that `\b` (a digit is a word character), and the search skips in C to the next digit.
_BARE_IP_URL = lazy_compile(r"\d(?<!\w\d)\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}(?::\d{1,5})?/")
_CODE_SPAN = lazy_compile(r"`([^`\n]{1,2000})`")


def decode_payloads(text: str, words: frozenset[str] | None = None) -> Iterator[Decoded]:
    """Every encoded payload of `text`, decoded up to three levels (see `decoders`)."""
    yield from decode_chains(text, words)


_LOCAL_MARKS = ("@", "$(", "~/", "/etc/", ".env")  # `_shellish`'s marks of a local upload


def _rm_flags(words: list[str]) -> list[str]:
    """rm's recursive and forced flags in any spelling read as "-rf": "-fr", "-Rf", "-rfv",
    "-r -f", "--recursive --force" (the dangerous-command table spells them once)."""
    if "rm" not in words:
        return words
    out: list[str] = []
    k = 0
    while k < len(words):
        w = words[k]
        if out and out[-1] == "rm":
            flags: set[str] = set()
            j = k
            while j < len(words) and words[j].startswith("-") and len(words[j]) > 1:
                flag = words[j]
                if flag.startswith("--"):
                    flags |= {"r"} if flag in ("--recursive",) else set()
                    flags |= {"f"} if flag in ("--force",) else set()
                else:
                    flags |= set(flag[1:].lower())
                j += 1
            if j > k and {"r", "f"} <= flags:
                out.append("-rf")
                k = j
                continue
        out.append(w)
        k += 1
    return out


def _shellish(words: list[str], lex: Lexicon) -> str | None:
    """Why this token run is a dangerous command, or None."""
    words = _rm_flags(words)
    fetch = lex.shell["fetchers"]
    interp = lex.shell["interpreters"]
    index = phrase_index(lex.shell["dangerous"])
    for i, w in enumerate(words):
        if any(_opens(words, i, phrase) for phrase in index.get(w, ())):
            return "destructive or reverse-shell command"
        if "/dev/tcp/" in w:
            return "destructive or reverse-shell command"
    trust = phrase_index(lex.shell["trust_changes"])
    for i, w in enumerate(words):  # (keyed by a flag's name: "--registry=https://…" too)
        if any(_opens(words, i, phrase) for phrase in trust.get(w.split("=", 1)[0], ())):
            return ("changes what the host trusts (a package registry, a credential store, "
                    "an administrators' group)")
    if "|" in words:
        # "(curl -s … | sh &)", `sh -c "curl … | sh"`, `'curl … | sh; chmod …'`: quotes,
        # parentheses and a command separator around the words of a quoted command line
        first = next((i for i, w in enumerate(words)
                      if w.lstrip("(\"'") in fetch or w.lstrip("(\"'") in lex.shell["decoders"]),
                     None)  # fmt: skip
        for pipe in range(first + 1 if first is not None else len(words), len(words)):
            if words[pipe] == "|" and any(
                x.strip("(\"');&") in interp for x in words[pipe + 1 : pipe + 3]
            ):
                return "downloads or decodes content and pipes it to an interpreter"
    if _runs_fetched(words, fetch, interp) or _evaluates_download(words, lex):
        return "runs what a download returns"
    if _runs_saved(words, lex):
        return "saves a download to a file, then runs it or makes it executable"
    uploads = any(w in fetch for w in words) and any(w in lex.shell["upload_flags"] for w in words)
    if uploads and any(mark in w for w in words for mark in _LOCAL_MARKS):
        return "uploads local files or command output"
    return None


def _opens(words: list[str], i: int, phrase: Sequence[str]) -> bool:
    """The phrase's words begin words i, i+1, …, each as a prefix ("-rf" of "-rf", "~" of "~/")."""
    return all(i + k < len(words) and words[i + k].startswith(p) for k, p in enumerate(phrase))


# Openings of a subexpression whose output the command before it takes as its argument.
_SUBEXPRESSION = ("$(", "<(", "(", "\"$(", "'$(")


def _runs_fetched(words: list[str], fetch: frozenset[str], interp: frozenset[str]) -> bool:
    """An interpreter given a download's output without a pipe: `iex (iwr https://…/i.ps1)`,
    `bash <(curl -s …)`, `sh -c "$(wget -qO- …)"`, `python -c "$(curl …)"`: within four words
    after the interpreter, a subexpression that opens on a fetcher."""
    for i, w in enumerate(words):
        if w.lstrip("(;&") not in interp:
            continue
        for token in words[i + 1 : i + 5]:
            for opening in _SUBEXPRESSION:
                if token.startswith(opening) and (
                    token[len(opening) :] in fetch
                    or (token == opening and _next_is(words, token, fetch, i))
                ):
                    return True
    return False


_ARG_EDGES = "\"'();&|"


def _runs_saved(words: list[str], lex: Lexicon) -> bool:
    """A fetcher that saves to a file the same command line then runs: `iwr … -OutFile
    $env:TEMP\\a.exe; Start-Process $env:TEMP\\a.exe`, `curl -o /tmp/i.sh … && sh /tmp/i.sh`,
    `wget -O x … ; chmod +x x; ./x`. The file is run when a launcher or an interpreter comes
    right before it, or it opens a command as `./file`."""
    fetch, out = lex.shell["fetchers"], lex.shell["output_flags"]
    runs = lex.shell["launchers"] | lex.shell["interpreters"]
    for i, w in enumerate(words):
        if w.strip(_ARG_EDGES) not in fetch:
            continue
        flag = next((k for k in range(i + 1, min(len(words) - 1, i + 8))
                     if words[k] in out or _bundled_output(words[k])), None)  # fmt: skip
        if flag is None:
            continue
        saved = words[flag + 1].strip(_ARG_EDGES).removeprefix("./")
        if saved in ("", "-"):
            continue  # "-o -": written to the output, which a pipe would take
        for k in range(flag + 2, len(words)):
            named = words[k].strip(_ARG_EDGES)
            if named.removeprefix("./") != saved:
                continue
            before = words[k - 1].strip(_ARG_EDGES)
            if before.startswith(("-", "/")) and before != "+x":
                before = words[k - 2].strip(_ARG_EDGES)  # "msiexec /i f", "sh -x f"
            if named.startswith("./") or before in runs or words[k - 1] in runs or (
                words[k - 1] == "+x" and words[k - 2] == "chmod"
            ):
                return True
    return False


def _bundled_output(word: str) -> bool:
    """Short flags bundled with the output flag last (`curl -so f`, `-fsSLo f`, `wget -qO f`)."""
    return 3 <= len(word) <= 7 and word[0] == "-" and word[1:].isalpha() and word[-1] == "o"


def _evaluates_download(words: list[str], lex: Lexicon) -> bool:
    """Code that evaluates what it reads from the network, in one run of words:
    `exec(u.urlopen('https://…').read())`, `eval(requests.get(url).text)`."""
    runs, reads = lex.shell["code_evaluators"], lex.shell["remote_readers"]
    joined = " ".join(words)
    return any(r in joined for r in runs) and any(r in joined for r in reads)


def _next_is(words: list[str], opening: str, fetch: frozenset[str], after: int) -> bool:
    """The word after a bare opening ("iex ( iwr …") is a fetcher."""
    k = words.index(opening, after + 1)
    return k + 1 < len(words) and words[k + 1] in fetch


class _ShellNeeds(NamedTuple):
    """What `may_run_shell` reads from one lexicon, built once per lexicon."""

    lex: Lexicon
    dangerous: re.Pattern[str] | None  # None: a phrase this test cannot read (always open)
    evaluators: re.Pattern[str] | None
    readers: tuple[str, ...]
    fetchers: tuple[str, ...]
    interpreters: tuple[str, ...]
    decoders: tuple[str, ...]
    upload_flags: tuple[str, ...]


_SHELL_NEEDS: list[_ShellNeeds] = []


def _words_pattern(phrases: Iterable[Sequence[str]]) -> re.Pattern[str] | None:
    """Each phrase's words with whitespace between them, any of them; None if a word holds
    whitespace or "|" (`_shellish` reads "|" as a word of its own)."""
    alternatives = []
    for phrase in phrases:
        if any(c.isspace() or c == "|" for word in phrase for c in word):
            return None
        alternatives.append(r"\s+".join(re.escape(word) for word in phrase))
    return re.compile("|".join(alternatives)) if alternatives else re.compile(r"(?!)")


def _shell_needs(lex: Lexicon) -> _ShellNeeds:
    held = _SHELL_NEEDS[0] if _SHELL_NEEDS else None
    if held is not None and held.lex is lex:
        return held
    shell = lex.shell
    # A dangerous phrase matches words[i] == its first word and words[i + 1] starting with its
    # second: in the text, the first word, whitespace, then the second's opening.
    dangerous = _words_pattern(phrase[:2] for phrase in (*shell["dangerous"],
                                                           *shell["trust_changes"]))  # fmt: skip
    evaluators = _words_pattern(r.split(" ") for r in shell["code_evaluators"])
    readers = tuple(shell["remote_readers"])
    if any(c.isspace() or c == "|" for r in readers for c in r):
        evaluators = None
    held = _ShellNeeds(
        lex, dangerous, evaluators, readers, tuple(shell["fetchers"]),
        tuple(shell["interpreters"]), tuple(shell["decoders"]), tuple(shell["upload_flags"]),
    )  # fmt: skip
    _SHELL_NEEDS[:] = [held]
    return held


def may_run_shell(text: str, lex: Lexicon) -> bool:
    """A necessary condition for `shell_commands` to say anything, read from the text alone
    (no sentence analysis): a code span, or for some sentence a branch of `_shellish` whose
    words occur in the text. Each test is a substring (or words-with-whitespace) superset of a
    branch: a sentence's words are pieces of the lower-cased text's whitespace-separated runs,
    two words of one sentence are separated by whitespace, and lower-casing maps each
    character on its own (the ASCII words compared are unchanged by the final-sigma rule)."""
    if "`" in text:
        return True  # code spans: the second pass, and spans of their own in the first
    need = _shell_needs(lex)
    if need.dangerous is None or need.evaluators is None:
        return True
    lower = text.lower()
    if "/dev/tcp/" in lower or need.dangerous.search(lower):
        return True
    interp = any(w in lower for w in need.interpreters)
    fetch = any(w in lower for w in need.fetchers)
    if interp and "|" in lower and (fetch or any(w in lower for w in need.decoders)):
        return True  # a download or a decoding piped to an interpreter
    if interp and fetch and "(" in lower:
        return True  # `_runs_fetched`: every subexpression opening holds "("
    if need.evaluators.search(lower) and any(r in lower for r in need.readers):
        return True  # `_evaluates_download`
    if fetch and _SAVED_TO.search(lower) is not None:
        return True  # `_runs_saved`: an output flag, alone or bundled, or a long one
    return (
        fetch
        and any(f in lower for f in need.upload_flags)
        and any(mark in lower for mark in _LOCAL_MARKS)
    )


# A superset of `_runs_saved`'s output flags (`output_flags` and `_bundled_output`) in
# lower-cased text: "-o", "-so", "-fsslo", "--output", "--output-document", "-outfile".
_SAVED_TO = lazy_compile(r"(?<![^\s|])-[a-z]{0,6}o(?![^\s|])|--output|-outfile")


def _before_code(text: str, lo: int, hi: int) -> list[str]:
    """The words of text[lo:hi] before its first code span, as `_shellish` reads them."""
    head = text[lo:hi].split("`", 1)[0]
    return head.lower().replace("|", " | ").split()


_LIST_COMMAS = frozenset(",،、，;")
_ITEM_GAP = 24  # characters between two listed code spans ("` launches, `")


def _listed(analysis: Analysis, at: int) -> int | None:
    """The code span whose text starts at `at` is an item of a list of code spans in its
    sentence ("detections include `powershell -enc` launches, `curl | sh` on servers"): a
    catalogue of samples, in any language. Returns where the list's first span starts. The
    sentence's lists are found once (sentence memo), so a sentence of many spans stays linear."""
    sentence = analysis.sentence_at(at)
    if sentence is None:
        return None
    firsts = sentence.memo.get("code_lists")
    if firsts is None:
        firsts = sentence.memo["code_lists"] = _code_lists(analysis.text, sentence)
    return firsts.get(at)


def _code_lists(text: str, sentence: Sentence) -> dict[int, int]:
    """Each listed code span's start -> the start of its list's first span."""
    starts = [m.start(1) for m in _CODE_SPAN.finditer(text, sentence.start, sentence.end)]
    out: dict[int, int] = {}
    for prev, here in pairwise(starts):
        if _one_item_apart(text, prev, here):
            first = out.get(prev, prev)
            out[prev] = first
            out[here] = first
    return out


def _one_item_apart(text: str, lo: int, hi: int) -> bool:
    """Two code spans one list comma apart: after the first span at most a short item tail
    (" launches"), then the comma, then only spaces before the next span."""
    close = text.find("`", lo)
    if not 0 <= close < hi:
        return False
    gap = text[close + 1 : hi - 1]
    head = gap.rstrip()
    return (
        len(gap) <= _ITEM_GAP and bool(head) and head[-1] in _LIST_COMMAS
        and _LIST_COMMAS.isdisjoint(head[:-1])
    )  # fmt: skip


def whole_cell_sample(analysis: Analysis, at: int) -> bool:
    """The quoted sample at `at` is all of its table cell: "| PG-12 | pipe-to-shell |
    `curl … | sh` |" lists it; "| 1 | Run `curl … | sh` first |" orders it."""
    cell = analysis.table_cell_at(at)
    return cell is not None and len(cell) > 1 and cell[0] == cell[-1] and cell[0] in "`\"'"


def shown_sample(analysis: Analysis, at: int) -> bool:
    """A command quoted as documentation, or as an example in a sentence that orders nothing
    ("alert titles quote the command line as evidence, e.g. `powershell -nop -w hidden …`"); an
    order with an example ("run e.g. `curl … | sh` first") is still an order."""
    sentence = analysis.sentence_at(at)
    if sentence is None:
        return False
    if sentence.documentary_at(at):
        return True
    if sentence.to_model:
        return False
    if whole_cell_sample(analysis, at):
        return True  # a cell of a table of records, holding only the sample
    first = _listed(analysis, at)
    if first is not None:
        # a list of code spans opened in a clause that orders nothing (an item's own clause
        # may read as an order: "`curl | sh` on servers" opens with a command's name)
        found = analysis.clause_at(first)
        return found is None or not found[0].directive
    if not analysis.exemplified_at(at):
        return False
    found = analysis.clause_at(at)  # the example's own clause: "…, e.g. `…`" orders nothing
    return found is not None and not found[0].directive


def shell_commands(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    text = analysis.text
    code = [(m.start(1), m.end(1)) for m in _CODE_SPAN.finditer(text)]
    is_code = set(code)  # (a set: a text of thousands of listed spans is read in linear time)
    spans = code + [(s.start, s.end) for s in analysis.sentences]
    seen: set[int] = set()
    shown: list[int] = []  # starts of code spans quoted as examples, in text order
    for lo, hi in spans:
        words = text[lo:hi].lower().replace("|", " | ").split()
        why = _shellish(words, lex)
        if why and (lo, hi) in is_code and shown_sample(analysis, lo):
            shown.append(lo)
            continue
        at = bisect.bisect_left(shown, lo)
        if why and at < len(shown) and shown[at] < hi and _shellish(
            _before_code(text, lo, hi), lex
        ) is None:
            continue  # the sentence's command is that example (nothing before it is one)
        if why and lo not in seen and not shown_sample(analysis, lo):
            seen.add(lo)
            yield Signal(
                SHELL,
                Severity.HIGH,
                lo,
                hi,
                f"contains a shell command ({why})",
            )
            return
    if ctx.purpose & lex.sets["shell_domain"]:
        return
    for m in _CODE_SPAN.finditer(text):
        first = m.group(1).split()[:1]
        sentence = analysis.sentence_at(m.start())
        if (
            first
            and sentence is not None
            and sentence.directive
            and not analysis.exemplified_at(m.start())  # "quoted as written, e.g. `wget …`"
            and not shown_sample(analysis, m.start(1))  # an item of a catalogue of samples
            and (first[0] in lex.shell["fetchers"] or first[0] in lex.shell["interpreters"])
            and not _own_api_call(m.group(1), ctx)
        ):
            yield Signal(
                SHELL,
                Severity.MEDIUM,
                m.start(),
                m.end(),
                "tells the model to run a shell command unrelated to the tool",
            )
            return


_SPAN_URL = lazy_compile(r"(?:https?)://([A-Za-z0-9.\-]{1,253})")
_PIPES = ("|", ";", "&&", ">", "$(", "`")


def _own_api_call(span: str, ctx: FieldContext) -> bool:
    """`curl 'https://api.<server>.com/v1/...'`: a request to the server's own API, shown to
    developers, with nothing piped, chained or redirected."""
    hosts = [m.group(1) for m in _SPAN_URL.finditer(span)]
    if not hosts or not ctx.owners or any(p in span for p in _PIPES):
        return False
    return all(own_host(h, ctx.owners) for h in hosts)


_RFC1918 = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))


def _host_matches(host: str, domains: frozenset[str]) -> bool:
    parts = host.split(".")
    return any(".".join(parts[i:]) in domains for i in range(len(parts) - 1))


def _classify_url(url: str, lex: Lexicon) -> str | None:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if not host:
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is not None:
        local = ip.is_loopback or ip.is_link_local or ip.is_unspecified
        rfc1918 = any(ip in net for net in _RFC1918) if ip.version == 4 else ip.is_private
        return None if local or rfc1918 else "a raw IP address"
    for key, label in (
        ("collectors", "a request-collector"),
        ("tunnels", "a tunnel"),
        ("paste", "a paste or file-drop"),
        ("shorteners", "a URL-shortener"),
    ):
        if _host_matches(host, lex.urls[key]):
            return f"{label} host"
    for hook in lex.chat_webhooks:
        if (host == hook.host or host.endswith("." + hook.host)) and parts.path.startswith(
            hook.path
        ):
            return "a chat incoming-webhook"
    return None


def may_hold_ip_url(text: str) -> bool:
    return "/" in text and "." in text and _BARE_IP_URL.search(text) is not None


def suspicious_urls(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    text = analysis.text
    found = [(m.start(), m.end(), m.group()) for m in _URL.finditer(text)]
    found += [
        (m.start(), m.end(), "http://" + m.group())
        for m in _BARE_IP_URL.finditer(text)
        if not text[max(0, m.start() - 3) : m.start()].endswith("//")
    ]
    for start, end, url in found:
        kind = _classify_url(url, lex)
        if kind is None:
            continue
        sentence = analysis.sentence_at(start)
        if sentence is not None and sentence.documentary_at(start):
            continue
        if kind == "a chat incoming-webhook" and ctx.purpose & lex.sets["chat_domain"]:
            continue
        if _tried_by_a_webhook_tool(kind, sentence, ctx):
            yield Signal(URL, Severity.LOW, start, end, f"suggests {kind} for testing")
            continue
        yield Signal(URL, Severity.MEDIUM, start, end, f"points at {kind}")


_HOOK_WORDS = frozenset({"webhook", "webhooks", "callback", "callbacks", "hook", "hooks"})
_TRYING = frozenset({"test", "tests", "testing", "debug", "debugging", "try", "trying", "sandbox",
                     "development", "locally"})  # fmt: skip


def _tried_by_a_webhook_tool(kind: str, sentence: Sentence | None, ctx: FieldContext) -> bool:
    """A request collector suggested for testing by a tool named for registering webhooks
    ("use https://webhook.site during testing"): the tool's own business, said as advice."""
    return (
        kind.startswith("a request")
        and sentence is not None
        and not ctx.identity.isdisjoint(_HOOK_WORDS)
        and not _TRYING.isdisjoint(sentence.words())
    )


_SAMPLE_WORDS = frozenset({"example", "examples", "sample", "samples", "demo", "dummy"})


def credentials(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    for hit in find_secrets(analysis.text, lex):
        sample = _labelled_sample(analysis, hit.start)
        yield Signal(
            CREDENTIAL,
            Severity.LOW if sample else Severity.HIGH,
            hit.start,
            hit.end,
            f"embeds a {'credential labelled as an example' if sample else 'credential'}"
            f" ({hit.kind})",
            evidence=hit.redacted(analysis.text),
        )


def _labelled_sample(analysis: Analysis, offset: int) -> bool:
    """The credential follows an example marker or an example word in its sentence ("Example
    input (the public sample): eyJ…"): documentation of the format, kept low (still shown,
    always redacted)."""
    sentence = analysis.sentence_at(offset)
    if sentence is None:
        return False
    if sentence.example_from is not None and sentence.example_from <= offset:
        return True
    return any(t.start < offset and t.text in _SAMPLE_WORDS for t in sentence.tokens)


# What an encoding utility or a payload analyser is named for: converting, decoding, or
# examining obfuscated text.
_CODEC_WORDS = frozenset({"encode", "encoder", "encoding", "decode", "decoder", "decoding",
                          "base64", "b64", "base32", "hex", "urlencode", "urldecode", "percent",
                          "escape", "unescape", "rot13", "obfuscate", "deobfuscate",
                          "deobfuscator", "cipher", "codec", "transcode", "entity",
                          "entities", "reverse", "reverser"})  # fmt: skip


def codec_tool(ctx: FieldContext) -> bool:
    """The tool is named for encoding, decoding or examining payloads: encoded samples are its
    subject matter."""
    return codec_named(ctx) or bool(ctx.identity & slots().members["defensive"])


def codec_named(ctx: FieldContext) -> bool:
    """The tool is named for encoding or decoding ("base64_decode", "hex_dump")."""
    return bool(ctx.identity & _CODEC_WORDS)


def shown_example(text: str, offset: int, ctx: FieldContext, lex: Lexicon) -> bool:
    """An encoded instruction shown as an example by a tool named for encoding, decoding or
    examining payloads ("Example input: 'Ignore previous instructions' -> 'SWdu…'", "e.g.
    'aWdub3Jl…' decodes to an override phrase"): quoted, after an example marker or an example
    word in its sentence. Anywhere else, or unquoted, the payload is judged as an order."""
    if not codec_tool(ctx):
        return False
    analysis = analyse(text, lex)
    return analysis.quoted_at(offset) and _labelled_sample(analysis, offset)
