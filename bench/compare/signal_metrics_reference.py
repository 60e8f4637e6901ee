#!/usr/bin/env python3
"""Times the Python side of aeval's signal and embedding metrics on the inputs
that build/bench/aeval_bench_signal uses, and checks every value against the
golden record before timing it (a reference that disagrees is not timed).

What runs here is what this machine has: torchaudio's resample and mel
spectrogram (Debian python3-torchaudio, the library the golden vectors were
made with) and numpy/scipy/torch code written for this benchmark following each
reference's computation (pystoi, mel_cepstral_distance + pure-Python fastdtw,
torchmetrics, audiocraft, fadtk, AudioBERTScore are not Debian packages).

usage: signal_metrics_reference.py ../shared/reference
"""
import functools
import json
import math
import statistics
import sys
import time
import wave
from pathlib import Path

import numpy as np
import scipy.linalg
import scipy.signal
import torch
import torchaudio

torch.set_num_threads(1)
EPS = np.finfo(np.float64).eps


def read_wav(path):
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768


def golden(path, key, value):
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get(key) == value:
                return record
    raise KeyError(f"{value} not in {path}")


def median_ms(work, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


# --- STOI (pystoi 0.4.1's computation) ---------------------------------------

def resample_oct(x, p, q):
    g = math.gcd(p, q)
    p, q = p // g, q // g
    cutoff = 1 / (2 * max(p, q))
    half = math.ceil((60 - 8) / (28.714 * cutoff / 10))
    t = np.arange(-half, half + 1)
    h = np.kaiser(2 * half + 1, 0.1102 * (60 - 8.7)) * 2 * p * cutoff * np.sinc(2 * cutoff * t)
    return scipy.signal.resample_poly(x, p, q, window=h / h.sum())


def frames(x, size, hop):
    starts = np.arange(0, len(x) - size, hop)
    window = np.hanning(size + 2)[1:-1]
    return np.stack([window * x[s:s + size] for s in starts])


def overlap_add(framed, hop):
    out = np.zeros((len(framed) - 1) * hop + framed.shape[1])
    for i, frame in enumerate(framed):
        out[i * hop:i * hop + framed.shape[1]] += frame
    return out


def third_octave_matrix():
    f = np.linspace(0, 10000, 513)[:257]
    k = np.arange(15)
    low = 150 * 2 ** ((2 * k - 1) / 6)
    high = 150 * 2 ** ((2 * k + 1) / 6)
    obm = np.zeros((15, 257))
    for band in range(15):
        first = np.argmin((f - low[band]) ** 2)
        last = np.argmin((f - high[band]) ** 2)
        obm[band, first:last] = 1
    return obm


OBM = third_octave_matrix()


def stoi(clean, degraded, fs, extended=False):
    x, y = resample_oct(clean, 10000, fs), resample_oct(degraded, 10000, fs)
    xf, yf = frames(x, 256, 128), frames(y, 256, 128)
    energy = 20 * np.log10(np.linalg.norm(xf, axis=1) + EPS)
    keep = (np.max(energy) - 40 - energy) < 0
    x, y = overlap_add(xf[keep], 128), overlap_add(yf[keep], 128)
    xs = np.sqrt(np.abs(np.fft.rfft(frames(x, 256, 128), 512)) ** 2 @ OBM.T).T
    ys = np.sqrt(np.abs(np.fft.rfft(frames(y, 256, 128), 512)) ** 2 @ OBM.T).T
    segments = np.stack([xs[:, m - 30:m] for m in range(30, xs.shape[1] + 1)])
    ysegments = np.stack([ys[:, m - 30:m] for m in range(30, ys.shape[1] + 1)])
    if extended:
        def normalize(s):
            s = s - s.mean(axis=-1, keepdims=True)
            s = s / (np.linalg.norm(s, axis=-1, keepdims=True) + EPS)
            s = s - s.mean(axis=-2, keepdims=True)
            return s / (np.linalg.norm(s, axis=-2, keepdims=True) + EPS)
        return float(np.sum(normalize(segments) * normalize(ysegments) / 30) / len(segments))
    scale = np.linalg.norm(segments, axis=2, keepdims=True) / (np.linalg.norm(ysegments, axis=2, keepdims=True) + EPS)
    yp = np.minimum(ysegments * scale, segments * (1 + 10 ** (15 / 20)))
    xc = segments - segments.mean(axis=2, keepdims=True)
    yc = yp - yp.mean(axis=2, keepdims=True)
    xc /= np.linalg.norm(xc, axis=2, keepdims=True) + EPS
    yc /= np.linalg.norm(yc, axis=2, keepdims=True) + EPS
    return float(np.sum(xc * yc) / (segments.shape[0] * 15))


# --- SI-SDR (torchmetrics 1.9's formula, float64 tensors) --------------------

def si_sdr(preds, target):
    eps = torch.finfo(preds.dtype).eps
    alpha = (torch.sum(preds * target) + eps) / (torch.sum(target ** 2) + eps)
    s = alpha * target
    e = s - preds
    return float(10 * torch.log10((torch.sum(s ** 2) + eps) / (torch.sum(e ** 2) + eps)))


# --- MCD (mel_cepstral_distance 0.0.3 + pure-Python fastdtw 0.3.4) ----------

def mel_log_spectrogram(x, fs):
    n = int(32 / 1000 * fs)
    hop = int(8 / 1000 * fs)
    x = x / np.max(np.abs(x))
    framed = np.stack([x[k:k + n] * np.hanning(n) for k in range(0, len(x) - n, hop)])
    power = np.abs(np.fft.rfft(framed, n)) ** 2
    mel = np.linspace(0, 2595 * np.log10(1 + (fs // 2) / 700), 22)
    bins = np.floor((n + 1) * (700 * (10 ** (mel / 2595) - 1)) / fs).astype(int)
    bank = np.zeros((20, n // 2 + 1))
    for m in range(1, 21):
        left, center, right = bins[m - 1], bins[m], bins[m + 1]
        bank[m - 1, left:center] = (np.arange(left, center) - left) / (center - left)
        bank[m - 1, center:right] = (right - np.arange(center, right)) / (right - center)
    return np.log10(power @ bank.T + EPS)


def dtw(x, y, window):
    table = {(0, 0): (0.0, 0, 0)}
    inf = (float("inf"), -1, -1)
    for i, j in window:
        d = math.dist(x[i - 1], y[j - 1])
        table[i, j] = min((table.get((i - 1, j), inf)[0] + d, i - 1, j),
                          (table.get((i, j - 1), inf)[0] + d, i, j - 1),
                          (table.get((i - 1, j - 1), inf)[0] + d, i - 1, j - 1), key=lambda c: c[0])
    path, i, j = [], len(x), len(y)
    while (i, j) != (0, 0):
        path.append((i - 1, j - 1))
        i, j = table[i, j][1:]
    return path[::-1]


def fastdtw(x, y, radius):
    if len(x) < radius + 2 or len(y) < radius + 2:
        return dtw(x, y, [(i + 1, j + 1) for i in range(len(x)) for j in range(len(y))])
    half = lambda s: [(s[i] + s[i + 1]) / 2 for i in range(0, len(s) - len(s) % 2, 2)]
    cells = set()
    for i, j in fastdtw(half(x), half(y), radius):
        for a in range(i - radius, i + radius + 1):
            for b in range(j - radius, j + radius + 1):
                cells.update({(2 * a, 2 * b), (2 * a, 2 * b + 1), (2 * a + 1, 2 * b), (2 * a + 1, 2 * b + 1)})
    window, start = [], 0
    for i in range(len(x)):
        new_start = None
        for j in range(start, len(y)):
            if (i, j) in cells:
                window.append((i + 1, j + 1))
                new_start = j if new_start is None else new_start
            elif new_start is not None:
                break
        start = new_start if new_start is not None else start
    return dtw(x, y, window)


def mcd(a, b, fs, radius=10):
    mel_a, mel_b = mel_log_spectrogram(a, fs), mel_log_spectrogram(b, fs)
    # radius None: fastdtw's radius = max length, which ends in one full DTW
    path = fastdtw(list(mel_a), list(mel_b), radius or max(len(mel_a), len(mel_b)))
    mel_a = mel_a[[i for i, _ in path]]
    mel_b = mel_b[[j for _, j in path]]
    n = np.arange(1, 21)
    dct = np.cos(np.outer(np.arange(1, 21), n - 0.5) * np.pi / 20)
    diff = (mel_a - mel_b) @ dct.T
    return float(np.mean(np.linalg.norm(diff[:, 1:16], axis=1)))


# --- Mel distances (audiocraft's MelSpectrogramWrapper on torchaudio) --------

@functools.lru_cache(maxsize=None)
def mel_transform(fs, n_fft, hop, n_mels, dtype):
    # built once per configuration, as audiocraft's loss modules are
    return torchaudio.transforms.MelSpectrogram(sample_rate=fs, n_fft=n_fft, win_length=n_fft, hop_length=hop,
                                                n_mels=n_mels, center=False, power=2, norm=None,
                                                mel_scale="htk", window_fn=torch.hann_window).to(dtype)


def log_mel(x, fs, n_fft, hop, n_mels, log=True):
    spec = mel_transform(fs, n_fft, hop, n_mels, x.dtype)
    pad = (n_fft - hop) // 2
    x = torch.nn.functional.pad(x[None, None], (pad, pad), "reflect")
    frames_needed = math.ceil((x.shape[-1] - n_fft) / hop) + 1
    x = torch.nn.functional.pad(x, (0, (frames_needed - 1) * hop + n_fft - x.shape[-1]))
    mel = spec(x)
    return torch.log10(1e-5 + mel) if log else mel


def mel_l1(est, ref, fs):
    return float(torch.mean(torch.abs(log_mel(est, fs, 1024, 256, 80) - log_mel(ref, fs, 1024, 256, 80))))


def msspec(est, ref, fs):
    total = 0.0
    for i in range(6, 11):
        n = 2 ** i
        lin_e, lin_r = log_mel(est, fs, n, n // 4, 64, False), log_mel(ref, fs, n, n // 4, 64, False)
        log_e, log_r = torch.log10(1e-5 + lin_e), torch.log10(1e-5 + lin_r)
        total += float(torch.nn.functional.l1_loss(lin_e, lin_r)) + math.sqrt(n - 1) * float(
            torch.nn.functional.mse_loss(log_e, log_r))
    return total


# --- AudioBERTScore (the repository's bert_score, float32 torch) -------------

def audio_bert_score(gen, ref, lam=-3.5, p=106.0):
    m = (gen @ ref.T) / (gen.norm(dim=1)[:, None] * ref.norm(dim=1)[None, :])
    positive = m.clamp(min=0)
    precision = lam * m.max(dim=1).values.mean() + (1 - lam) * positive.pow(p).mean(dim=1).pow(1 / p).mean()
    recall = lam * m.max(dim=0).values.mean() + (1 - lam) * positive.pow(p).mean(dim=0).pow(1 / p).mean()
    return float(2 * precision * recall / (precision + recall + 1e-8))


# --- Fréchet distance (fadtk's statistics and eigenvalue square root) --------

def frechet(a, b):
    mu_a, mu_b = np.mean(a, axis=0), np.mean(b, axis=0)
    cov_a, cov_b = np.cov(a, rowvar=False), np.cov(b, rowvar=False)
    eigenvalues, vectors = scipy.linalg.eig(cov_a @ cov_b)
    covmean = (vectors * np.lib.scimath.sqrt(eigenvalues)) @ np.linalg.inv(vectors)
    diff = mu_a - mu_b
    return float(diff @ diff + np.trace(cov_a) + np.trace(cov_b) - 2 * np.trace(covmean).real)


def main():
    ref = Path(sys.argv[1])
    sig, emb = ref / "signal", ref / "embedding"
    clean = read_wav(sig / "audio/jfk_0-5s_16k__clean.wav")
    opus = read_wav(sig / "audio/jfk_0-5s_16k__opus6.wav")
    tempo = read_wav(sig / "audio/jfk_0-5s_16k__tempo_0.9.wav")
    esc = read_wav(sig / "audio/esc_dog_4-182395-A-0_44k__clean.wav").astype(np.float32)
    clean_t, opus_t = torch.from_numpy(clean), torch.from_numpy(opus)
    gen = torch.from_numpy(np.load(emb / "abs_corr_1212x1212_gen.npy"))
    refs = torch.from_numpy(np.load(emb / "abs_corr_1212x1212_ref.npy"))
    fd_a, fd_b = np.load(emb / "fd_gauss_d128_n600_A.npy"), np.load(emb / "fd_gauss_d128_n600_B.npy")
    esc_expected = np.load(sig / "resample/esc_dog_4-182395-A-0_44k__torchaudio_16k.npy")

    rows = [
        ("STOI", lambda: stoi(clean, opus, 16000),
         golden(sig / "stoi.jsonl", "id", "stoi_std_jfk_0-5s_16k_opus6")["expected"], 1e-6),
        ("eSTOI", lambda: stoi(clean, opus, 16000, True),
         golden(sig / "stoi.jsonl", "id", "stoi_ext_jfk_0-5s_16k_opus6")["expected"], 1e-6),
        ("SI-SDR", lambda: si_sdr(opus_t, clean_t),
         golden(sig / "sdr.jsonl", "id", "sdr_jfk_0-5s_16k_opus6")["expected"]["si_sdr_f64"], 1e-6),
        ("MCD, fastdtw r10 on mel", lambda: mcd(clean, tempo, 16000),
         golden(sig / "mcd.jsonl", "id", "mcd_default_dtw_mel_r10_jfk_0-5s_16k_tempo_0.9")["expected"]["mcd"], 1e-7),
        ("MCD, exact DTW", lambda: mcd(clean, tempo, 16000, None),
         golden(sig / "mcd.jsonl", "id", "mcd_dtw_mel_exact_jfk_0-5s_16k_tempo_0.9")["expected"]["mcd"], 1e-7),
        ("log-mel L1 (audiocraft default)", lambda: mel_l1(opus_t, clean_t, 16000),
         golden(sig / "mel_l1.jsonl", "id", "mel_l1_audiocraft_default_jfk_0-5s_16k_opus6")["expected"]["f64"], 1e-5),
        ("multi-scale mel (5 scales)", lambda: msspec(opus_t, clean_t, 16000),
         golden(sig / "mel_l1.jsonl", "id", "msspec_audiocraft_default_jfk_0-5s_16k_opus6")["expected"]["f64"], 1e-5),
        ("resample 44.1k->16k, 4 s (torchaudio)",
         lambda: float(np.max(np.abs(torchaudio.functional.resample(torch.from_numpy(esc)[None], 44100, 16000)[0].numpy()
                                      - esc_expected))), 0.0, 1e-6),
        ("AudioBERTScore 1212x1212, d=768 (f32)", lambda: audio_bert_score(gen, refs),
         golden(emb / "audiobertscore.jsonl", "id", "abs_corr_1212x1212_lam-3.5_p106")["expected"]["f1"], 1e-5),
        ("Frechet distance, d=128, n=600", lambda: frechet(fd_a, fd_b),
         golden(emb / "frechet.jsonl", "id", "fd_gauss_d128_n600")["expected"]["fadtk_f64_input"]["value"], 1e-7),
    ]
    print(f"{'metric':40s} {'value':>14s} {'golden':>14s} {'ms / call':>10s}")
    for name, work, expected, tolerance in rows:
        value = work()
        if abs(value - expected) > tolerance * max(1.0, abs(expected)):
            print(f"{name:40s} {value:14.8g} {expected:14.8g}  MISMATCH, not timed")
            continue
        print(f"{name:40s} {value:14.8g} {expected:14.8g} {median_ms(work, 1 if 'exact' in name else 3 if 'MCD' in name else 5):10.2f}")


if __name__ == "__main__":
    main()
