"""What a terminal would do with a string: ANSI/CSI/OSC escapes, backspaces, bare carriage returns.

`terminal_effect(text)` runs a small terminal model (a grid of cells, a cursor, a conceal flag)
over the text and reports which characters end up invisible (overwritten, erased, concealed,
swallowed by an unterminated string command), what the screen would show, hyperlink targets
(OSC 8), window titles and clipboard writes (OSC 52). The model is bounded: it does a fixed
amount of work per input character and says so (`complete=False`) when a hostile input would
need more, so a 100,000-character escape storm costs linear time.
"""

from __future__ import annotations

import binascii

from toolwitness.checks.unicode.data import tables
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import field, plainclass

# (`[\x1b\x08\x90\x98\x9b\x9d\x9e\x9f]|\r(?!\n)` as one class first, so the search skips
# to those characters in C instead of trying every position)
_TRIGGER = lazy_compile(r"[\x1b\x08\x90\x98\x9b\x9d\x9e\x9f\r](?:(?<=\r)(?!\n)|(?<!\r))")
_OSC_END = lazy_compile(r"\x07|\x1b\\|\x9c")
_STRING_END = lazy_compile(r"\x1b\\|\x9c")
_PLAIN_RUN = lazy_compile(r"[^\x00-\x1f\x7f-\x9f]{1,4096}")
_MAX_PARAMS = 256
_MAX_GAP = 8
_MAX_SHOWN = 4000
_STRING_NAMES = {"P": "device control string", "X": "start-of-string", "^": "privacy message"}
_STRING_NAMES["_"] = "application program command"
_C1_STRINGS = {"\x90": "P", "\x98": "X", "\x9e": "^", "\x9f": "_"}


@plainclass
class TerminalEffect:
    effects: set[str] = field(default_factory=set)  # plain words: "erases text", ...
    hidden: list[int] = field(default_factory=list)  # indices of characters left invisible
    swallowed: list[str] = field(default_factory=list)  # string-command bodies never shown
    hyperlinks: list[tuple[str, str]] = field(default_factory=list)  # (shown text, target)
    titles: list[str] = field(default_factory=list)
    clipboard: list[str] = field(default_factory=list)
    shown: str = ""
    sequences: int = 0
    complete: bool = True

    def hidden_text(self, text: str) -> str:
        """The invisible characters in logical order; separate runs joined by ' … '."""
        runs: list[list[str]] = []
        last = -2
        for index in sorted(set(self.hidden)):
            if index == last + 1 and runs:
                runs[-1].append(text[index])
            else:
                runs.append([text[index]])
            last = index
        return " … ".join("".join(run) for run in runs)


def has_terminal_controls(text: str) -> bool:
    return _TRIGGER.search(text) is not None


class _Screen:
    """Cells map column -> index of the character shown there; rows are created by newlines."""

    def __init__(self, text: str, effect: TerminalEffect) -> None:
        self.text = text
        self.effect = effect
        self.rows: list[dict[int, int]] = [{}]
        self.row_end: list[int] = [0]  # past the rightmost cell ever written in each row
        self.nonempty: set[int] = set()  # rows holding a cell: erasing the screen visits only these
        self.row = 0
        self.col = 0
        self.saved = (0, 0)
        self.concealed = False
        self.fg: object = None
        self.bg: object = None
        self.link: tuple[str, int] | None = None  # (target, index where its text starts)
        self.link_text: list[int] = []
        cfg = tables().terminal
        self.max_col = cfg.max_column
        self.budget = cfg.work_per_char * len(text) + 1024

    def spend(self, steps: int) -> None:
        self.budget -= steps
        if self.budget < 0:
            raise _OutOfBudget

    def write(self, index: int) -> None:
        cells = self.rows[self.row]
        old = cells.pop(self.col, None)
        if old is not None:
            self.effect.hidden.append(old)
        if self.concealed or (self.fg is not None and self.fg == self.bg):
            self.effect.hidden.append(index)
        else:
            cells[self.col] = index
            self.nonempty.add(self.row)
            self.row_end[self.row] = max(self.row_end[self.row], self.col + 1)
        if self.link is not None:
            self.link_text.append(index)
        self.col = min(self.col + 1, self.max_col)

    def write_run(self, start: int, end: int) -> bool:
        """Write text[start:end] at once (visible text, no hyperlink open, within the width)."""
        cells = self.rows[self.row]
        col = self.col
        stop = col + end - start
        invisible = self.concealed or (self.fg is not None and self.fg == self.bg)
        if invisible or self.link is not None or stop > self.max_col:
            return False
        row_end = self.row_end[self.row]
        if row_end > col:  # overwrites: what was there becomes hidden
            hidden = [cells[c] for c in range(col, min(stop, row_end)) if c in cells]
            self.effect.hidden.extend(hidden)
        cells.update(zip(range(col, stop), range(start, end), strict=True))
        if start < end:
            self.nonempty.add(self.row)
        self.col = stop
        self.row_end[self.row] = max(row_end, stop)
        return True

    def erase(self, row: int, lo: int, hi: int) -> None:
        cells = self.rows[row]
        doomed = [c for c in cells if lo <= c <= hi]
        self.spend(len(cells))
        for col in doomed:
            self.effect.hidden.append(cells.pop(col))
        if not cells:
            self.nonempty.discard(row)
            self.row_end[row] = 0
        if doomed:
            self.effect.effects.add("erases text already written")

    def newline(self) -> None:
        if self.row == len(self.rows) - 1:
            self.rows.append({})
            self.row_end.append(0)
        self.row += 1
        self.col = 0

    def move(self, row: int, col: int) -> None:
        self.row = max(0, min(row, len(self.rows) - 1))
        self.col = max(0, min(col, self.max_col))

    def render(self) -> str:
        lines: list[str] = []
        size = 0
        for cells in self.rows:
            parts: list[str] = []
            prev = -1
            for col in sorted(cells):
                parts.append(" " * min(col - prev - 1, _MAX_GAP) + self.text[cells[col]])
                prev = col
            line = "".join(parts)
            lines.append(line)
            size += len(line) + 1
            if size > _MAX_SHOWN:
                break
        return "\n".join(lines).rstrip("\n")[:_MAX_SHOWN]


class _OutOfBudget(Exception):
    pass


def terminal_effect(text: str) -> TerminalEffect | None:
    """The terminal model's verdict, or None when the text holds no terminal controls."""
    if not has_terminal_controls(text):
        return None
    effect = TerminalEffect()
    screen = _Screen(text, effect)
    try:
        _run(text, screen, effect)
    except _OutOfBudget:
        effect.complete = False
    _close_link(screen, effect)
    effect.shown = screen.render()
    return effect


def _run(text: str, screen: _Screen, effect: TerminalEffect) -> None:
    i, n = 0, len(text)
    while i < n:
        screen.budget -= 1  # spend(1), inlined: this loop runs once per character
        if screen.budget < 0:
            raise _OutOfBudget
        ch = text[i]
        if ch == "\x1b" and i + 1 < n:
            i = _escape(text, i, screen, effect)
            continue
        if ch in "\x9b\x9d" or ch in _C1_STRINGS:
            effect.sequences += 1
        if ch == "\x9b":
            i = _csi(text, i + 1, screen, effect)
        elif ch == "\x9d":
            i = _osc(text, i + 1, screen, effect)
        elif ch in _C1_STRINGS:
            i = _string(text, i + 1, _C1_STRINGS[ch], effect)
        else:
            run = _PLAIN_RUN.match(text, i)
            if run is not None and run.end() - i > 1 and run.group().isprintable():
                screen.spend(run.end() - i)
                if screen.write_run(i, run.end()):
                    i = run.end()
                    continue
            _plain(ch, i, screen, effect)
            i += 1


def _plain(ch: str, index: int, screen: _Screen, effect: TerminalEffect) -> None:
    if ch == "\n":
        screen.newline()
    elif ch == "\r":
        if screen.col:
            effect.effects.add("returns the cursor to the line start")
        screen.col = 0
    elif ch == "\b":
        effect.effects.add("moves the cursor back with backspace")
        screen.col = max(0, screen.col - 1)
    elif ch == "\t":
        screen.col = min((screen.col // 8 + 1) * 8, screen.max_col)
    elif ch.isprintable() or ch == " ":
        screen.write(index)


def _escape(text: str, i: int, screen: _Screen, effect: TerminalEffect) -> int:
    effect.sequences += 1
    kind = text[i + 1]
    if kind == "[":
        return _csi(text, i + 2, screen, effect)
    if kind == "]":
        return _osc(text, i + 2, screen, effect)
    if kind in _STRING_NAMES:
        return _string(text, i + 2, kind, effect)
    if kind == "c":
        effect.effects.add("resets the terminal, clearing the screen")
        _erase_display(2, screen)
        screen.move(0, 0)
    elif kind == "7":
        screen.saved = (screen.row, screen.col)
    elif kind == "8":
        effect.effects.add("restores a saved cursor position")
        screen.move(*screen.saved)
    elif kind == "M":
        effect.effects.add("moves the cursor up")
        screen.move(screen.row - 1, screen.col)
    j = i + 2
    while kind in " !\"#$%&'()*+,-./" and j < len(text) and j - i < _MAX_PARAMS:
        kind = text[j]  # intermediates then a final byte (charset designations)
        j += 1
    return j


def _csi(text: str, start: int, screen: _Screen, effect: TerminalEffect) -> int:
    j = start
    limit = min(len(text), start + _MAX_PARAMS)
    while j < limit and "\x20" <= text[j] <= "\x3f":
        j += 1
    if j >= len(text) or not ("\x40" <= text[j] <= "\x7e"):
        effect.effects.add("contains a malformed control sequence")
        return j
    _apply_csi(text[start:j], text[j], screen, effect)
    return j + 1


def _numbers(params: str) -> list[int]:
    out = []
    for part in params.replace(":", ";").split(";"):
        digits = part.strip("?<=>")
        out.append(min(int(digits), 100_000) if digits.isdigit() and len(digits) < 7 else 0)
    return out


def _apply_csi(params: str, final: str, screen: _Screen, effect: TerminalEffect) -> None:
    nums = _numbers(params)
    count = max(nums[0], 1) if nums else 1
    row, col = screen.row, screen.col
    if final == "m":
        _sgr(nums or [0], screen, effect)
    elif final in "ABEF":
        effect.effects.add("moves the cursor")
        delta = -count if final in "AF" else count
        screen.move(row + delta, 0 if final in "EF" else col)
    elif final in "CD":
        effect.effects.add("moves the cursor")
        screen.move(row, col + (count if final == "C" else -count))
    elif final in "G`":
        effect.effects.add("moves the cursor")
        screen.move(row, count - 1)
    elif final in "Hf":
        effect.effects.add("moves the cursor")
        target_row = max(nums[0], 1) if nums else 1
        target_col = max(nums[1], 1) if len(nums) > 1 else 1
        screen.move(target_row - 1, target_col - 1)
    elif final == "d":
        effect.effects.add("moves the cursor")
        screen.move(count - 1, col)
    elif final == "K":
        mode = nums[0] if nums else 0
        lo, hi = {0: (col, screen.max_col), 1: (0, col)}.get(mode, (0, screen.max_col))
        screen.erase(row, lo, hi)
    elif final in "XP":
        screen.erase(row, col, col + count - 1)
    elif final == "J":
        _erase_display(nums[0] if nums else 0, screen)
    elif final == "s":
        screen.saved = (row, col)
    elif final == "u":
        effect.effects.add("restores a saved cursor position")
        screen.move(*screen.saved)
    elif final in "hl" and params.startswith("?") and set(nums) & {47, 1047, 1049}:
        effect.effects.add("switches between the main and alternate screens")


def _erase_display(mode: int, screen: _Screen) -> None:
    row, col = screen.row, screen.col
    if mode == 0:
        screen.erase(row, col, screen.max_col)
        rows = [r for r in screen.nonempty if r > row]
    elif mode == 1:
        screen.erase(row, 0, col)
        rows = [r for r in screen.nonempty if r < row]
    else:
        rows = list(screen.nonempty)
    screen.spend(len(screen.nonempty))
    for other in sorted(rows):
        screen.erase(other, 0, screen.max_col)
    # A Python set keeps its table after discards; iterating an emptied one still walks every
    # slot, so rebuild it (linear in what is left) to keep repeated erases cheap.
    screen.nonempty = set(screen.nonempty)


def _sgr(nums: list[int], screen: _Screen, effect: TerminalEffect) -> None:
    cfg = tables().terminal
    k = 0
    while k < len(nums):
        code = nums[k]
        if code in cfg.conceal_codes:
            screen.concealed = True
            effect.effects.add("conceals text (SGR 8)")
        elif code in cfg.reveal_codes:
            screen.concealed = False
            if code == 0:
                screen.fg = screen.bg = None
        elif 30 <= code <= 37 or 90 <= code <= 97:
            screen.fg = code % 10 + (8 if code >= 90 else 0)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            screen.bg = code % 10 + (8 if code >= 100 else 0)
        elif code in (39, 49):
            screen.fg, screen.bg = (None, screen.bg) if code == 39 else (screen.fg, None)
        elif code in (38, 48) and k + 1 < len(nums):
            width = 3 if nums[k + 1] == 5 else 5
            colour = tuple(nums[k + 1 : k + width])
            if code == 38:
                screen.fg = colour
            else:
                screen.bg = colour
            k += width - 1
        k += 1
    if screen.fg is not None and screen.fg == screen.bg:
        effect.effects.add("sets the text colour equal to the background")
    effect.effects.add("changes text style or colour")


def _osc(text: str, start: int, screen: _Screen, effect: TerminalEffect) -> int:
    end = _OSC_END.search(text, start)
    if end is None:
        effect.effects.add("opens an operating-system command that is never closed")
        effect.swallowed.append(text[start:])
        return len(text)
    body = text[start : end.start()]
    number, _, rest = body.partition(";")
    meaning = tables().terminal.osc_meanings.get(number, f"operating-system command {number!r}")
    effect.effects.add(meaning)
    if number == "8":
        _hyperlink(rest.partition(";")[2], end.start(), screen, effect)
    elif number in ("0", "1", "2"):
        effect.titles.append(rest)
    elif number == "52":
        effect.clipboard.append(_clipboard(rest.partition(";")[2]))
    return end.end()


def _clipboard(payload: str) -> str:
    import base64  # here: only an OSC 52 clipboard write is decoded

    try:
        data = base64.b64decode(payload[:65536], validate=True)
    except (binascii.Error, ValueError):
        return payload[:400]
    return data.decode("utf-8", "replace")


def _hyperlink(target: str, index: int, screen: _Screen, effect: TerminalEffect) -> None:
    _close_link(screen, effect)
    if target:
        screen.link = (target, index)
        screen.link_text = []


def _close_link(screen: _Screen, effect: TerminalEffect) -> None:
    if screen.link is not None:
        shown = "".join(screen.text[i] for i in screen.link_text[:400])
        effect.hyperlinks.append((shown, screen.link[0]))
        screen.link = None


def _string(text: str, start: int, kind: str, effect: TerminalEffect) -> int:
    effect.effects.add(f"sends a {_STRING_NAMES[kind]} the terminal does not display")
    end = _STRING_END.search(text, start)
    stop = len(text) if end is None else end.start()
    effect.swallowed.append(text[start:stop])
    return len(text) if end is None else end.end()
