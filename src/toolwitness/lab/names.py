"""Everything the lab names, drawn from the run's seed: nothing marks the lab from run to run.

The sandbox user and project folder, the planted files, the self-test file, the nonce paths and
the canary credentials all come from one pseudo-random stream seeded by the run's seed (itself
random unless `--seed` is given). A tool that looks for a fixed prefix, a fixed file name or a
fixed value finds none; two labs made from the same seed (the probe run and its control run) get
the same names, so their observations compare path for path. The values are shaped like real
ones (an OpenSSH key body, an AWS secret) and are never reused across runs.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
from dataclasses import dataclass, field

from toolwitness.lab.vocab import vocabulary

_SECRET_ALPHABET = string.ascii_letters + string.digits + "/+"


def _token(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


@dataclass(frozen=True)
class LabNames:
    seed: str
    user: str
    project: str
    notes: str  # the planted folder in the working directory
    note: str  # the planted file in it
    second: str  # a second planted file beside it
    selftest: str  # the file the witnesses' self-test writes
    client: tuple[str, str]  # the MCP client name and version the lab announces
    canaries: dict[str, str] = field(default_factory=dict)  # label -> unique value

    def nonce(self, index: int, suffix: str = "") -> str:
        """A never-seen name for the index-th fresh value: `<noun>-<hex>` plus a suffix."""
        digest = hashlib.sha256(f"{self.seed}/nonce/{index}".encode()).hexdigest()
        nouns = vocabulary().file_nouns
        return f"{nouns[int(digest[:4], 16) % len(nouns)]}-{digest[4:12]}{suffix}"


def lab_names(seed: str) -> LabNames:
    vocab = vocabulary()
    rng = random.Random(f"toolwitness-lab/{seed}")  # noqa: S311 - per seed; the seed is random
    user = rng.choice(vocab.user_names)
    project = f"{rng.choice(vocab.project_names)}-{rng.randrange(10, 99)}"
    nouns = rng.sample(list(vocab.file_nouns), 4)
    key = base64.b64encode(rng.randbytes(48)).decode("ascii")
    canaries = {
        "ssh-key": key,
        "aws-credentials": _token(rng, _SECRET_ALPHABET, 40),
        "dotenv": _token(rng, "0123456789abcdef", 32),
        "env-variable": _token(rng, _SECRET_ALPHABET, 40),
    }
    return LabNames(
        seed=seed,
        user=user,
        project=project,
        notes=nouns[0],
        note=f"{nouns[1]}-{rng.randrange(100, 999)}.txt",
        second=f"{nouns[2]}-{rng.randrange(100, 999)}.md",
        selftest=f".{nouns[3]}-{_token(rng, 'abcdef0123456789', 6)}",
        client=(
            rng.choice(vocab.client_names),
            f"{rng.randrange(1, 4)}.{rng.randrange(0, 20)}.{rng.randrange(0, 9)}",
        ),
        canaries=canaries,
    )


def access_key_id(seed: str) -> str:
    """The key id beside the AWS canary secret (`AKIA` is AWS's own prefix, not the lab's)."""
    rng = random.Random(f"toolwitness-lab/{seed}/key-id")  # noqa: S311 - as above
    return "AKIA" + _token(rng, string.ascii_uppercase + string.digits, 16)
